"""A state league's history, built once and kept, and the time each page, download and command
takes on it: one table of timings for SQLite or PostgreSQL.

    .venv/bin/python bench/league.py --hands 60k|600k [--database sqlite|URL] [--rebuild]
        [--only PROBE ...] [--runs 5] [--restore-database URL]

The history (`--hands`): 60k is 2,000 sessions of 30 players over two years, 600k 20,000
sessions of 300 players over ten years; sessions on three evenings a week, 3 to 8 seated, 30
hands each on average (one of 200 hands), a few with players arriving or leaving, played by a
handful of house rule sets and stakes; and before them, the league's paper history: 1,500
nights kept without hands (150 for 60k), a week apart. Attendance is skewed as a league's is:
the top regular sits in about 59% of the sessions, a long tail of players in a few. Every hand
is made and scored by the rules engine and every session is written as a restore writes it
(`bulk.insert_sessions`, a batch at a time), with its history of one change a hand. A fixed
seed gives the same database every time.

The database: `sqlite` (the default) keeps the history in bench/.league/league-<hands>.sqlite;
a PostgreSQL URL is filled instead (emptied first). Either is reused while the stamp it holds
(the bench_league table) names the same history, unless `--rebuild`; its schema comes from
`flask db upgrade`.

The timings: through the Flask test client in this process, the median of `--runs` runs after
one warm-up (downloads and commands run once), in ms, with the answer's size in KB (as sent to a
client that asks for no compression). `flask export-backup` and `flask import-backup` (into an
empty database: a new SQLite file, a schema of its own in the PostgreSQL database, or
`--restore-database`, emptied first) run in processes of their own, with their peak memory;
`restore-phases` runs the same restore in this process, each of its phases timed.
A probe whose address answers 404, or matches no route, is skipped with a note.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, delete, make_url, text
from werkzeug.exceptions import MethodNotAllowed, NotFound

from harness.database import drop_everything
from scorekeeper import create_app, rules
from scorekeeper.exchange.restore import Restore, open_backup
from scorekeeper.sessions import bulk, players, writes
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import TrashedSession
from scorekeeper.sessions.records import hand_json
from scorekeeper.sessions.rows import players_named

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(__file__).resolve().parent / ".league"
# Made anew when the history this script builds changes, so that a kept one is built again.
GENERATOR = 2
SEED = 2026
SECRET_KEY = "bench"
STAMP_TABLE = "bench_league"
RESTORE_SCHEMA = "bench_restore"
SESSIONS_A_BATCH = 200
HANDS_PER_SESSION = 30
LONG_SESSION = 200
HAND_MINUTES = 3


@dataclass(frozen=True)
class League:
    """A history's size: its sessions, its players, its years (ending with `last_year`), and
    the skew of attendance (the exponent of each player's weight, 1 / rank ** skew), chosen so
    that the top regular sits in about 59% of the sessions."""

    label: str
    sessions: int
    players: int
    years: int
    skew: float
    last_year: int = 2025
    # Nights kept without hands, on paper before the first year of hands: a week apart, one
    # a week.
    nights: int = 0

    @property
    def hands(self) -> int:
        return self.sessions * HANDS_PER_SESSION


LEAGUES = {
    "60k": League("60k", 2_000, 30, 2, 0.65, nights=150),
    "600k": League("600k", 20_000, 300, 10, 0.98, nights=1_500),
}

FIRST_NAMES = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max",
    "Ned", "Ona", "Pat", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Zoe", "Abe", "Bea",
    "Cy", "Dot", "Eli", "Flo",
]  # fmt: skip
LAST_NAMES = ["Adler", "Berg", "Colby", "Dietz", "Engel", "Fuchs", "Graf", "Hahn", "Ives", "Jung"]

# How many are seated, by weight: five most often.
SEATED = [3] * 5 + [4] * 20 + [5] * 45 + [6] * 18 + [7] * 8 + [8] * 4
# The league's rule sets, by weight: each session plays one (the partner rule and who sits out
# then follow the table's size).
RULE_SETS: list[tuple[int, dict[str, Any]]] = [
    (35, {}),
    (20, {"partner": rules.PartnerMode.CALLED_ACE, "no_bid": rules.NoBid.LEASTER}),
    (12, {"no_bid": rules.NoBid.DOUBLER, "bump": True}),
    (8, {"no_bid": rules.NoBid.DOUBLER, "doublers": rules.Doublers.STACK, "max_multiplier": 8}),
    (10, {"schwarz": rules.Schwarz.TRICKS, "penalties": True}),
    (
        10,
        {
            "partner": rules.PartnerMode.CALLED_ACE,
            "no_bid": rules.NoBid.REDEAL,
            "cracking": False,
            "bump": True,
        },
    ),
    (
        5,
        {
            "no_bid": rules.NoBid.LEASTER,
            "max_multiplier": 4,
            "penalties": True,
            "blitzing": False,
        },
    ),
]
STAKES = [0, 0, 0, 5, 10, 10, 25, 50]
# How a pick went, by weight, when only the result is said.
RESULTS = [
    (rules.Result.WON_SCHWARZ, 1),
    (rules.Result.WON_SCHNEIDER, 12),
    (rules.Result.WON, 47),
    (rules.Result.LOST, 28),
    (rules.Result.LOST_SCHNEIDER, 10),
    (rules.Result.LOST_SCHWARZ, 2),
]
# The picking team's card points each result allows (never 1 or 119: no cards add up to them).
RESULT_POINTS = {
    rules.Result.WON_SCHWARZ: (120, 120),
    rules.Result.WON_SCHNEIDER: (91, 118),
    rules.Result.WON: (61, 90),
    rules.Result.LOST: (31, 60),
    rules.Result.LOST_SCHNEIDER: (2, 30),
    rules.Result.LOST_SCHWARZ: (0, 0),
}


# The history.


def player_names(count: int) -> list[str]:
    """`count` different names, first name and family name."""
    return [
        f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {LAST_NAMES[(i // len(FIRST_NAMES) + i) % 10]}"
        for i in range(count)
    ]


def evenings(league: League) -> list[date]:
    """Monday, Wednesday and Friday of every week of the league's years."""
    day = date(league.last_year - league.years + 1, 1, 1)
    last = date(league.last_year, 12, 31)
    days = []
    while day <= last:
        if day.weekday() in (0, 2, 4):
            days.append(day)
        day += timedelta(days=1)
    return days


def hand_counts(league: League, rng: random.Random) -> list[int]:
    """How many hands each session has: 30 on average, two sessions after each other off by as
    much either way, and the long one in the middle of the history taken from those after it, so
    that they add up to `league.hands`."""
    counts = [HANDS_PER_SESSION] * league.sessions
    for i in range(0, league.sessions - 1, 2):
        off = rng.randint(0, 6)
        counts[i], counts[i + 1] = HANDS_PER_SESSION + off, HANDS_PER_SESSION - off
    long = league.sessions // 2
    excess = LONG_SESSION - counts[long]
    counts[long] = LONG_SESSION
    for step in range(excess):
        counts[(long + 1 + step) % league.sessions] -= 1
    return counts


def session_options(rng: random.Random, seated: int) -> rules.Options:
    weights = [weight for weight, _ in RULE_SETS]
    chosen = dict(rng.choices([given for _, given in RULE_SETS], weights)[0])
    if seated == 3 or (seated == 4 and rng.random() < 0.7):
        chosen["partner"] = rules.PartnerMode.ALONE
    if seated in (6, 7) and rng.random() < 0.25:
        chosen["sitting_out"] = rules.SittingOut.NONE
    chosen["stake"] = rng.choice(STAKES)
    return rules.Options(**chosen)


def table_sizes(options: rules.Options) -> range:
    """The numbers seated these rules can play."""
    smallest = 3 if options.partner is rules.PartnerMode.ALONE else 4
    largest = 8 if options.sitting_out is rules.SittingOut.DEALER else 7
    return range(smallest, largest + 1)


def pick_entry(
    rng: random.Random, table: rules.Table, dealer: str, forced: bool
) -> rules.HandInput:
    """A pick: with a partner or alone, its points or only its result, now and then cracked,
    re-cracked or blitzed."""
    options = table.options
    order = table.bidding_order(dealer)
    picker = table.forced_picker(dealer) if forced else rng.choice(order)
    partner = None
    if options.partner is not rules.PartnerMode.ALONE and rng.random() > 0.12:
        partner = rng.choice([p for p in order if p != picker])
    called_card = None
    if options.partner is rules.PartnerMode.CALLED_ACE and rng.random() < 0.6:
        called_card = rng.choice(rules.CALLED_CARDS[options.partner][:3])
    result = rng.choices([r for r, _ in RESULTS], [w for _, w in RESULTS])[0]
    points = None
    said = None
    if rng.random() < 0.7:
        points = rng.randint(*RESULT_POINTS[result])
    else:
        said = result.value
    cracked_by = None
    after_picker = order[order.index(picker) + 1 :]
    if options.cracking and after_picker and rng.random() < 0.08:
        cracked_by = rng.choice(after_picker)
    blitzes: tuple[str, ...] = ()
    if options.blitzing and rng.random() < 0.03:
        blitzes = rng.choice([("black",), ("red",), ("black", "red")])
    return rules.HandInput(
        kind="pick",
        picker=picker,
        partner=partner,
        called_card=called_card,
        forced=forced,
        picking_points=points,
        result=said,
        cracked_by=cracked_by,
        recracked=cracked_by is not None and rng.random() < 0.25,
        blitzes=blitzes,
    )


def leaster_entry(rng: random.Random, players: Sequence[str]) -> rules.HandInput:
    """A leaster: its winner alone, or with every player's points (the winner the fewest)."""
    if rng.random() < 0.7:
        return rules.HandInput(kind="leaster", winner=rng.choice(players))
    shares = [2] * len(players)
    for _ in range((rules.CARD_POINTS_TOTAL - 2 * len(players)) // 2):
        shares[rng.randrange(len(shares))] += 2
    points = dict(zip(rng.sample(list(players), len(players)), shares, strict=True))
    winner = min(points, key=lambda p: points[p])
    return rules.HandInput(kind="leaster", winner=winner, points=points)


def hand_entry(rng: random.Random, table: rules.Table, dealer: str) -> rules.HandInput:
    """The next hand as it might be tapped in: mostly picks, a few hands where everyone passed
    (a leaster, a re-deal or a doubler, a forced pick), now and then a penalty."""
    options = table.options
    if options.penalties and rng.random() < 0.01:
        return rules.HandInput(kind="penalty", penalized=rng.choice(table.bidding_order(dealer)))
    if rng.random() < 0.07:
        if options.no_bid is rules.NoBid.LEASTER:
            return leaster_entry(rng, table.bidding_order(dealer))
        if options.no_bid in (rules.NoBid.REDEAL, rules.NoBid.DOUBLER):
            return rules.HandInput(kind="pass")
        return pick_entry(rng, table, dealer, forced=True)
    return pick_entry(rng, table, dealer, forced=False)


@dataclass
class Attendance:
    """Who comes to the league's tables: each player weighted 1 / rank ** skew, seats drawn
    without replacement by weight (Efraimidis and Spirakis' keys)."""

    names: list[str]
    skew: float
    weights: list[float] = field(init=False)

    def __post_init__(self) -> None:
        self.weights = [1 / (rank + 1) ** self.skew for rank in range(len(self.names))]

    def seated(self, rng: random.Random, count: int, besides: Sequence[str] = ()) -> list[str]:
        keys = {
            name: math.log(1.0 - rng.random()) / weight
            for name, weight in zip(self.names, self.weights, strict=True)
            if name not in besides
        }
        return heapq.nlargest(count, keys, key=keys.__getitem__)


def changed_seats(
    rng: random.Random, attendance: Attendance, seats: Sequence[str], sizes: range
) -> list[str]:
    """The seats after players arrive or leave between hands, at a size the rules can play."""
    after = list(seats)
    leaving = len(after) > sizes.start and (len(after) == sizes.stop - 1 or rng.random() < 0.5)
    if leaving:
        after.remove(rng.choice(after))
    if not leaving or rng.random() < 0.4:
        [newcomer] = attendance.seated(rng, 1, after)
        after.insert(rng.randrange(len(after) + 1), newcomer)
    return after


def league_session(
    rng: random.Random,
    attendance: Attendance,
    count: int,
    created_at: datetime,
    long: bool,
    history: bool,
) -> bulk.NewSession:
    """A session of `count` hands, each checked by the rules engine as the next of its session
    and scored by it, with (`history`) one change a hand in its history as a write records
    it."""
    if long:
        seated, options = 5, rules.Options()
    else:
        seated = rng.choice(SEATED)
        options = session_options(rng, seated)
    seats = attendance.seated(rng, seated)
    rng.shuffle(seats)
    change_at = 0
    if not long and count > 10 and rng.random() < 0.12:
        change_at = rng.randint(5, count - 5)
    rounds = 0
    if long or (not change_at and count % seated == 0 and rng.random() < 0.6):
        rounds = count // seated
    table = rules.new_table(seats, rounds, None, options)
    hands: list[rules.Hand] = []
    for number in range(count):
        if number and number == change_at:
            new = changed_seats(rng, attendance, table.seats, table_sizes(options))
            table = rules.change_seats(table, new, number)
        last = hands[-1] if hands else None
        dealer = rules.next_dealer_after(table, last)
        entry = hand_entry(rng, table, dealer)
        hands.append(rules.next_hand(table, number, last, entry, dealer))
    sheet = rules.score_sheet(replace(table, ended=not table.is_complete(count)), hands)
    changes = list(history_of(sheet, created_at)) if history else []
    return bulk.NewSession(
        name=f"Table {rng.randint(1, 12)}" if rng.random() < 0.3 else "",
        created_at=created_at,
        version=1 + len(changes),
        sheet=sheet,
        changes=changes,
    )


def history_of(sheet: rules.Sheet, created_at: datetime) -> Iterator[dict[str, Any]]:
    """A change a hand, as recording it adds: the hand as the write leaves it, its scores
    naming everyone the session's totals named then."""
    order: list[str] = []
    played: set[str] = set()
    for number, result in enumerate(sheet.results, start=1):
        seats = result.hand.seats
        order.extend(p for p in seats if p not in order)
        played.update(result.players)
        named = [p for p in order if p in played or p in seats]
        yield {
            "at": created_at + timedelta(minutes=HAND_MINUTES * number),
            "action": "add",
            "number": number,
            "before": None,
            "after": hand_json(number, result, named),
        }


def paper_nights(league: League, seed: int, attendance: Attendance) -> Iterator[bulk.NewSession]:
    """The nights the league kept on paper before its hands, one a week up to the Monday
    before its first year: 4 to 12 of its players, each night's nets adding up to 0."""
    first = date(league.last_year - league.years + 1, 1, 1)
    first -= timedelta(days=first.weekday())
    for index in range(league.nights):
        rng = random.Random(seed * 7_000_003 + index)
        day = first - timedelta(weeks=league.nights - index)
        players = attendance.seated(rng, rng.randint(4, 12))
        nets = [rng.randint(-40, 40) for _ in players[1:]]
        totals = dict(zip(players, [-sum(nets), *nets], strict=True))
        yield bulk.NewSession(
            name="",
            created_at=datetime(day.year, day.month, day.day, 18, tzinfo=UTC),
            version=1,
            sheet=rules.night_sheet(totals),
        )


def league_sessions(league: League, seed: int, history: bool) -> Iterator[bulk.NewSession]:
    """The league's nights kept on paper, then its sessions in the order they were played,
    each from a generator of its own seeded by the league's seed and its place, spread over the
    evenings of its years."""
    names = player_names(league.players)
    attendance = Attendance(names, league.skew)
    yield from paper_nights(league, seed, attendance)
    counts = hand_counts(league, random.Random(seed))
    days = evenings(league)
    slot, last_day = 0, None
    for index in range(league.sessions):
        rng = random.Random(seed * 1_000_003 + index)
        day = days[index * len(days) // league.sessions]
        slot = slot + 1 if day == last_day else 0
        last_day = day
        # The evening's tables start a few minutes apart from 18:00 on.
        started = datetime(day.year, day.month, day.day, 18, tzinfo=UTC)
        started += timedelta(minutes=7 * slot)
        long = index == league.sessions // 2
        yield league_session(rng, attendance, counts[index], started, long, history)


def build(app: Flask, league: League, seed: int, history: bool) -> dict[str, Any]:
    """Write the league's history into the app's (upgraded, empty) database, a batch of
    sessions at a time; returns what the probes need to know of it."""
    began = time.perf_counter()
    names = player_names(league.players)
    with app.app_context():
        with writes.roster_write():
            players = players_named(names)
            db.session.flush()
            ids = {player.name: player.id for player in players}
        attended = dict.fromkeys(names, 0)
        long_id = last_id = 0
        batch: list[bulk.NewSession] = []
        written = hands = 0
        everything = league.nights + league.sessions
        for new in league_sessions(league, seed, history):
            batch.append(new)
            for name in {p for result in new.sheet.results for p in result.hand.seats}:
                attended[name] += 1
            if len(batch) < SESSIONS_A_BATCH and written + len(batch) < everything:
                continue
            with writes.roster_write():
                session_ids = bulk.insert_sessions(batch)
            for session_id, each in zip(session_ids, batch, strict=True):
                if len(each.sheet.results) == LONG_SESSION:
                    long_id = session_id
                hands += len(each.sheet.results)
            written += len(batch)
            last_id = session_ids[-1]
            batch = []
            took = time.perf_counter() - began
            print(
                f"  {written:,} of {everything:,} sessions, {hands:,} hands, {took:.0f} s",
                flush=True,
            )
        db.engine.dispose()
    ranked = sorted(names, key=lambda name: (-attended[name], names.index(name)))
    top, typical = ranked[0], ranked[len(ranked) // 2]
    return {
        "top": {"id": ids[top], "name": top, "sessions": attended[top]},
        "typical": {"id": ids[typical], "name": typical, "sessions": attended[typical]},
        "long_session": long_id,
        "last_session": last_id,
        "hands": hands,
        "build_seconds": round(time.perf_counter() - began, 1),
    }


# The database, its schema and its stamp.


def flask_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "flask", "--app", "scorekeeper", *args]


def flask_env(url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET_KEY}


def upgrade(url: str) -> None:
    done = subprocess.run(
        flask_command("db", "upgrade"),
        env=flask_env(url),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"flask db upgrade failed:\n{done.stderr}")


def stamp_of(league: League, seed: int, history: bool) -> str:
    return json.dumps(
        {"generator": GENERATOR, "seed": seed, "league": asdict(league), "history": history}
    )


def kept_facts(url: str, stamp: str) -> dict[str, Any] | None:
    """What the database's stamp says of the history it holds, if it is this one."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            if not engine.dialect.has_table(connection, STAMP_TABLE):
                return None
            row = connection.execute(text(f"SELECT stamp, facts FROM {STAMP_TABLE}")).first()
    finally:
        engine.dispose()
    if row is None or row[0] != stamp:
        return None
    facts: dict[str, Any] = json.loads(row[1])
    return facts


def write_stamp(url: str, stamp: str, facts: dict[str, Any]) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f"CREATE TABLE {STAMP_TABLE} (stamp TEXT, facts TEXT)"))
            connection.execute(
                text(f"INSERT INTO {STAMP_TABLE} (stamp, facts) VALUES (:stamp, :facts)"),
                {"stamp": stamp, "facts": json.dumps(facts)},
            )
    finally:
        engine.dispose()


def the_app(url: str) -> Flask:
    """The app on the league's database. Building the history or taking a probe's session out
    again makes the ratings stale; they are left so (`bench/rating.py` times their recompute)
    rather than recomputed in the background while the probes run."""
    return create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET_KEY, "RATING_RECOMPUTE": "off"}
    )


def ready_history(
    url: str, league: League, seed: int, history: bool, rebuild: bool
) -> dict[str, Any]:
    """The history in the database: kept if its stamp names it, else built anew."""
    stamp = stamp_of(league, seed, history)
    facts = None if rebuild else kept_facts(url, stamp)
    if facts is not None:
        print(f"Kept history reused (built in {facts['build_seconds']:.0f} s).")
        started = time.perf_counter()
        upgrade(url)
        print(f"Schema upgraded in {time.perf_counter() - started:.1f} s.", flush=True)
        return facts
    print(f"Building {league.hands:,} hands in {league.sessions:,} sessions...", flush=True)
    drop_everything(url)
    upgrade(url)
    facts = build(the_app(url), league, seed, history)
    write_stamp(url, stamp, facts)
    print(f"Built in {facts['build_seconds']:.0f} s.")
    return facts


# The probes.


@dataclass(frozen=True)
class Row:
    probe: str
    ms: float | None = None
    kb: float | None = None
    runs: int = 0
    note: str = ""


@dataclass
class Bench:
    app: Flask
    client: FlaskClient
    url: str
    league: League
    facts: dict[str, Any]
    runs: int
    folder: Path
    restore_url: str | None
    # What one probe leaves another: the backup written, the size of every hand's CSV.
    kept: dict[str, Any] = field(default_factory=dict)

    @property
    def year(self) -> tuple[str, str]:
        """The league's last year, as a filter's from and to."""
        year = self.league.last_year
        return f"{year}-01-01", f"{year}-12-31"

    def new_session(self) -> int:
        """A session of five of the league's players, in progress, made through the API."""
        seats = player_names(self.league.players)[:5]
        answer = self.client.post("/api/sessions", json={"players": seats, "rounds": 0})
        assert answer.status_code == 201, answer.get_data(as_text=True)
        session_id: int = answer.get_json()["id"]
        return session_id

    def remove_session(self, session_id: int) -> None:
        """Delete a session through the API, and take it out of the trash too."""
        answer = self.client.delete(f"/api/sessions/{session_id}")
        assert answer.status_code in (200, 204), answer.get_data(as_text=True)
        with self.app.app_context():
            db.session.execute(
                delete(TrashedSession).where(TrashedSession.session_id == session_id)
            )
            db.session.commit()


@dataclass(frozen=True)
class Probe:
    name: str
    about: str
    run: Callable[[Bench], list[Row]]


def routed(app: Flask, path: str) -> bool:
    adapter = app.url_map.bind("localhost")
    try:
        adapter.match(path.split("?", 1)[0], method="GET")
    except (NotFound, MethodNotAllowed):
        return False
    return True


def fetched(client: FlaskClient, path: str) -> tuple[float, int, bytes]:
    """GET `path` and read its whole body: ms, status, body."""
    began = time.perf_counter()
    response = client.get(path)
    body = response.get_data()
    took = (time.perf_counter() - began) * 1000
    response.close()
    return took, response.status_code, body


def timed(bench: Bench, name: str, path: str, once: bool = False) -> tuple[Row, bytes]:
    """The median time of GET `path` over the bench's runs after a warm-up (or one run, for a
    download), and its size; a note instead when it is not served."""
    if not routed(bench.app, path):
        return Row(name, note=f"skipped: no route for {path}"), b""
    times = []
    body = b""
    for run in range(1 if once else bench.runs + 1):
        took, status, body = fetched(bench.client, path)
        if status == 404:
            return Row(name, note=f"skipped: {path} answered 404"), b""
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")
        if once or run:
            times.append(took)
    return Row(name, statistics.median(times), len(body) / 1024, len(times), path), body


def page(name: str, about: str, path_of: Callable[[Bench], str], once: bool = False) -> Probe:
    return Probe(name, about, lambda bench: [timed(bench, name, path_of(bench), once)[0]])


def in_progress(bench: Bench) -> list[Row]:
    session_id = bench.new_session()
    try:
        row, _ = timed(bench, "home-in-progress", "/")
    finally:
        bench.remove_session(session_id)
    return [replace(row, note="/ with a session in progress")]


def season(bench: Bench) -> list[Row]:
    """The page of the league's last year as a season, made through the API when missing."""
    first, last = bench.year
    name = f"Season {first[:4]}"
    listed = bench.client.get("/api/seasons").json or {}
    found = [s["id"] for s in listed.get("seasons", []) if s["name"] == name]
    if found:
        season_id = found[0]
    else:
        made = bench.client.post(
            "/api/seasons", json={"name": name, "first_day": first, "last_day": last}
        )
        season_id = (made.json or {})["id"]
    row, _ = timed(bench, "season", f"/seasons/{season_id}")
    return [row]


def limited(bench: Bench) -> list[Row]:
    row, body = timed(bench, "api-sessions-limit", "/api/sessions?limit=100")
    if body:
        listed = len(json.loads(body)["sessions"])
        if listed > 100:
            row = replace(row, note=f"{row.note}: limit not answered, {listed:,} sessions")
    return [row]


def every_hand(bench: Bench) -> list[Row]:
    row, body = timed(bench, "csv-all", "/sessions/export.csv", once=True)
    bench.kept["csv_bytes"] = len(body)
    rows = body.count(b"\n") - 1 if body else 0
    return [replace(row, note=f"{row.note} ({rows:,} rows)")]


def year_of_hands(bench: Bench) -> list[Row]:
    start, end = bench.year
    row, body = timed(bench, "csv-year", f"/sessions/export.csv?from={start}&to={end}", once=True)
    if not body:
        return [row]
    lines = body.split(b"\n")
    header = lines[0].decode().rstrip("\r").split(",")
    day = header.index("date") if "date" in header else 1
    outside = sum(
        1 for line in lines[1:] if line and not start <= line.decode().split(",")[day][:10] <= end
    )
    note = f"{row.note} ({len(lines) - 2:,} rows)"
    if outside:
        note += f": from/to not answered, {outside:,} rows outside the year"
    return [replace(row, note=note)]


def year_of_hands_long(bench: Bench) -> list[Row]:
    start, end = bench.year
    path = f"/sessions/export.csv?from={start}&to={end}&form=long"
    row, body = timed(bench, "csv-year-long", path, once=True)
    rows = body.count(b"\n") - 1 if body else 0
    return [replace(row, note=f"{row.note} ({rows:,} rows)")]


def record_hand(bench: Bench) -> list[Row]:
    """50 hands posted to a new session through the API: p50 and p95."""
    session_id = bench.new_session()
    seats = player_names(bench.league.players)[:5]
    times = []
    try:
        for number in range(50):
            picker = seats[number % 5]
            partner = seats[(number + 2) % 5] if number % 4 else None
            body = {
                "kind": "pick",
                "picker": picker,
                "partner": partner,
                "picking_points": 31 + (number * 37) % 88,
            }
            began = time.perf_counter()
            answer = bench.client.post(f"/api/sessions/{session_id}/hands", json=body)
            answer.get_data()
            times.append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 201, answer.get_data(as_text=True)
    finally:
        bench.remove_session(session_id)
    kb = len(answer.get_data()) / 1024
    p95 = statistics.quantiles(times, n=20)[-1]
    path = f"POST /api/sessions/{session_id}/hands"
    return [
        Row("record-hand-p50", statistics.median(times), kb, len(times), path),
        Row("record-hand-p95", p95, kb, len(times), path),
    ]


def after_a_hand(bench: Bench) -> list[Row]:
    """The league's slowest pages each viewed right after a hand is recorded, when nothing a
    process kept of the history before is true any more: the median over the runs."""
    paths = {
        "player-top-after-hand": f"/players/{bench.facts['top']['id']}",
        "players-after-hand": "/players",
        "leaderboard-after-hand": "/leaderboard",
    }
    session_id = bench.new_session()
    seats = player_names(bench.league.players)[:5]
    rows = []
    try:
        for name, path in paths.items():
            times = []
            for number in range(bench.runs):
                body = {"kind": "pick", "picker": seats[number % 5], "partner": None,
                        "picking_points": 61 + number}  # fmt: skip
                answer = bench.client.post(f"/api/sessions/{session_id}/hands", json=body)
                assert answer.status_code == 201, answer.get_data(as_text=True)
                took, status, page = fetched(bench.client, path)
                assert status == 200, page[:300]
                times.append(took)
            rows.append(Row(name, statistics.median(times), len(page) / 1024, len(times), path))
    finally:
        bench.remove_session(session_id)
    return rows


def season_api(bench: Bench) -> list[Row]:
    """GET /api/seasons/<id> of the league's last year (made by the season probe)."""
    first, _ = bench.year
    listed = bench.client.get("/api/seasons").json or {}
    found = [s["id"] for s in listed.get("seasons", []) if s["name"] == f"Season {first[:4]}"]
    if not found:
        season(bench)
        return season_api(bench)
    row, _ = timed(bench, "api-season", f"/api/seasons/{found[0]}")
    return [row]


class RolledBack(Exception):
    """Ends a write the bench times without keeping it."""


def renamed_players(bench: Bench) -> list[Row]:
    """The top regular and a typical player renamed (every session and change naming them
    rewritten), each timed up to its commit and rolled back, so the history stays as built. Last
    of the probes: on PostgreSQL the rows a run rewrote wait dead for the vacuum."""
    rows = []
    with bench.app.app_context():
        for probe, player in (("top", bench.facts["top"]), ("typical", bench.facts["typical"])):
            times = []
            for _ in range(bench.runs + 1):
                began = time.perf_counter()
                try:
                    with players.player_write([player["id"]]) as write:
                        write.rename(f"{player['name']} Jr")
                        db.session.flush()
                        times.append((time.perf_counter() - began) * 1000)
                        raise RolledBack
                except RolledBack:
                    pass
            runs = times[1:]
            note = f"{player['sessions']:,} sessions, rolled back"
            rows.append(Row(f"rename-{probe}", statistics.median(runs), None, len(runs), note))
    return rows


def in_process(command: list[str], url: str) -> tuple[float, int, str]:
    """Run `command` in a fresh child process of its own child, so that the child's
    RUSAGE_CHILDREN is this command's alone: wall ms, peak RSS in KiB, stderr."""
    watcher = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:])\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(f'peak {peak}', file=sys.stderr)\n"
        "sys.exit(done.returncode)\n"
    )
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", watcher, *command],
        env=flask_env(url),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    took = (time.perf_counter() - began) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[3:])} failed:\n{done.stderr[-2000:]}")
    peak = int(done.stderr.rsplit("peak ", 1)[1].split()[0])
    return took, peak, done.stderr


def export_backup(bench: Bench) -> list[Row]:
    backup = bench.folder / "backup.json"
    with bench.app.app_context():
        db.engine.dispose()
    took, peak, _ = in_process(flask_command("export-backup", str(backup)), bench.url)
    bench.kept["backup"] = backup
    return [
        Row(
            "export-backup",
            took,
            backup.stat().st_size / 1024,
            1,
            f"flask export-backup: peak {peak / 1024:.0f} MiB",
        )
    ]


def import_backup(bench: Bench) -> list[Row]:
    if "backup" not in bench.kept:
        export_backup(bench)
    backup: Path = bench.kept["backup"]
    target, where = restore_target(bench)
    try:
        upgrade(target)
        took, peak, _ = in_process(flask_command("import-backup", str(backup)), target)
    finally:
        clear_restore(bench, target)
    return [
        Row(
            "import-backup",
            took,
            None,
            1,
            f"flask import-backup {where}: peak {peak / 1024:.0f} MiB",
        )
    ]


def restore_phases(bench: Bench) -> list[Row]:
    """A restore into an empty database in this process, as `flask import-backup` runs it,
    each phase timed: the backup's file read and its players checked, every session checked
    (in a worker process a CPU), then written a batch at a time."""
    if "backup" not in bench.kept:
        export_backup(bench)
    target, where = restore_target(bench)
    took: list[float] = []
    try:
        upgrade(target)
        app = the_app(target)
        with app.app_context(), bench.kept["backup"].open("rb") as file:
            began = time.perf_counter()
            restore = Restore(open_backup(file))
            took.append(time.perf_counter() - began)
            for _ in restore.check(len(os.sched_getaffinity(0))):
                pass
            took.append(time.perf_counter() - began - sum(took))
            for _ in restore.batches():
                pass
            took.append(time.perf_counter() - began - sum(took))
            db.engine.dispose()
    finally:
        clear_restore(bench, target)
    phases = ("read and players checked", "sessions checked", "written")
    return [
        Row(f"restore: {phase}", seconds * 1000, None, 1, f"in this process, {where}")
        for phase, seconds in zip(phases, took, strict=True)
    ]


def restore_target(bench: Bench) -> tuple[str, str]:
    """An empty database to restore into, and where it is, as a note says it ("into ...")."""
    if bench.restore_url:
        drop_everything(bench.restore_url)
        return bench.restore_url, "into --restore-database"
    if make_url(bench.url).get_backend_name() == "sqlite":
        return f"sqlite:///{bench.folder / 'restored.sqlite'}", "into SQLite"
    engine = create_engine(bench.url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f"DROP SCHEMA IF EXISTS {RESTORE_SCHEMA} CASCADE"))
            connection.execute(text(f"CREATE SCHEMA {RESTORE_SCHEMA}"))
    finally:
        engine.dispose()
    target = make_url(bench.url).update_query_dict({"options": f"-csearch_path={RESTORE_SCHEMA}"})
    return (
        target.render_as_string(hide_password=False),
        f"into schema {RESTORE_SCHEMA}",
    )


def clear_restore(bench: Bench, target: str) -> None:
    if bench.restore_url:
        drop_everything(target)
    elif make_url(target).get_backend_name() == "sqlite":
        Path(make_url(target).database or "").unlink(missing_ok=True)
    else:
        engine = create_engine(bench.url)
        try:
            with engine.begin() as connection:
                connection.execute(text(f"DROP SCHEMA IF EXISTS {RESTORE_SCHEMA} CASCADE"))
        finally:
            engine.dispose()


def year_query(bench: Bench) -> str:
    start, end = bench.year
    return f"from={start}&to={end}"


# Each a row (or two) of the table, in order; add one here.
PROBES = [
    page(
        "player-top",
        "the player page of the top regular",
        lambda b: f"/players/{b.facts['top']['id']}",
    ),
    page(
        "player-typical",
        "the player page of the player of median attendance",
        lambda b: f"/players/{b.facts['typical']['id']}",
    ),
    page("players", "the players page", lambda b: "/players"),
    page("leaderboard", "the leaderboard, all time", lambda b: "/leaderboard"),
    page("leaderboard-house", "the leaderboard of bump sessions", lambda b: "/leaderboard?bump=on"),
    page(
        "leaderboard-year",
        "the leaderboard of the last year",
        lambda b: f"/leaderboard?{year_query(b)}",
    ),
    page("home", "the home page, nothing in progress", lambda b: "/"),
    Probe("home-in-progress", "the home page with a session in progress", in_progress),
    page("sessions", "the sessions list", lambda b: "/sessions"),
    page(
        "sessions-player",
        "the sessions list of the top regular",
        lambda b: f"/sessions?player={quote(b.facts['top']['name'])}",
    ),
    page("api-sessions", "GET /api/sessions", lambda b: "/api/sessions"),
    Probe("api-sessions-limit", "GET /api/sessions?limit=100", limited),
    Probe("csv-all", "every hand as CSV", every_hand),
    Probe("csv-year", "the last year's hands as CSV", year_of_hands),
    Probe("csv-year-long", "the last year's hands as CSV, a row a player", year_of_hands_long),
    page(
        "scoresheet-200",
        "the scoresheet of a 200-hand session",
        lambda b: f"/sessions/{b.facts['long_session']}",
    ),
    Probe("record-hand", "50 hands recorded through the API: p50 and p95", record_hand),
    page("seasons", "the seasons page", lambda b: "/seasons"),
    Probe("season", "the page of a season of the last year", season),
    Probe("api-season", "GET /api/seasons/<id> of the last year", season_api),
    page("settle-year", "the settle-up of the last year", lambda b: f"/settle-up?{year_query(b)}"),
    page(
        "api-settle-year",
        "GET /api/settle-up of the last year",
        lambda b: f"/api/settle-up?{year_query(b)}",
    ),
    Probe("after-hand", "the slowest pages, each right after a hand is recorded", after_a_hand),
    Probe("export-backup", "flask export-backup", export_backup),
    Probe("import-backup", "flask import-backup into an empty database", import_backup),
    Probe("restore-phases", "a restore into an empty database, each phase", restore_phases),
    Probe("rename", "the top regular and a typical player renamed, rolled back", renamed_players),
]


def tidy(bench: Bench) -> None:
    """Take out what a run cut short left: sessions newer than the history, the trash."""
    with bench.app.app_context():
        left = db.session.scalars(
            text("SELECT id FROM session WHERE id > :last"), {"last": bench.facts["last_session"]}
        ).all()
    for session_id in left:
        bench.remove_session(session_id)
    with bench.app.app_context():
        db.session.execute(delete(TrashedSession))
        db.session.commit()


def table(title: str, rows: Sequence[Row]) -> str:
    lines = [
        f"### {title}",
        "",
        "| probe | ms | KB | runs | note |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        ms = "" if row.ms is None else f"{row.ms:,.1f}"
        kb = "" if row.kb is None else f"{row.kb:,.1f}"
        runs = str(row.runs) if row.runs else ""
        lines.append(f"| {row.probe} | {ms} | {kb} | {runs} | {row.note} |")
    return "\n".join(lines)


def database_url(given: str, league: League, history: bool) -> str:
    if given == "sqlite":
        CACHE.mkdir(exist_ok=True)
        name = f"league-{league.label}{'' if history else '-no-history'}.sqlite"
        return f"sqlite:///{CACHE / name}"
    url = make_url(given)
    if url.drivername in ("postgres", "postgresql"):
        url = url.set(drivername="postgresql+psycopg")
    return url.render_as_string(hide_password=False)


def described(url: str) -> str:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite ({Path(parsed.database or '').relative_to(ROOT)})"
    return f"PostgreSQL ({parsed.database})"


def main() -> int:
    names = [probe.name for probe in PROBES]
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Probes: " + ", ".join(names),
    )
    parser.add_argument("--hands", choices=list(LEAGUES), required=True)
    parser.add_argument("--database", default="sqlite", help="sqlite, or a PostgreSQL URL")
    parser.add_argument("--rebuild", action="store_true", help="build the history anew")
    parser.add_argument("--only", action="append", choices=names, metavar="PROBE")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--restore-database", help="a database to restore into, emptied first")
    parser.add_argument(
        "--no-history",
        action="store_true",
        help="sessions without their history of changes, as a CSV import leaves them",
    )
    given = parser.parse_args()
    league = LEAGUES[given.hands]
    history = not given.no_history
    url = database_url(given.database, league, history)
    facts = ready_history(url, league, given.seed, history, given.rebuild)
    app = the_app(url)
    with tempfile.TemporaryDirectory() as folder:
        bench = Bench(
            app,
            app.test_client(),
            url,
            league,
            facts,
            given.runs,
            Path(folder),
            given.restore_database,
        )
        tidy(bench)
        rows: list[Row] = []
        for probe in PROBES:
            if given.only and probe.name not in given.only:
                continue
            print(f"  {probe.name}: {probe.about}", flush=True)
            rows += probe.run(bench)
        with app.app_context():
            db.engine.dispose()
    top, typical = facts["top"], facts["typical"]
    title = (
        f"{league.label}: {facts['hands']:,} hands, {league.sessions:,} sessions, "
        f"{league.players} players{'' if history else ', no history'}, on {described(url)}"
    )
    print()
    print(table(title, rows))
    print()
    print(
        f"Top regular {top['name']} (id {top['id']}) in {top['sessions']:,} sessions; "
        f"typical player {typical['name']} (id {typical['id']}) in {typical['sessions']:,}; "
        f"history built in {facts['build_seconds']:.0f} s."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
