"""Each player's rating, kept beside the history (RULES.md "Rating"; every number is
`rules.rating`'s), so that no page replays the history.

- **A hand recorded after the last one** (the usual write) updates its players' ratings in the
  write's own transaction (`hands_added`): their rows read and locked, updated, written; two
  statements. A hand of a session earlier in the history than one of its players' later
  sessions can't be added at the end: it makes the ratings stale instead.
- **Any other change to the history** (an edit, a delete, an undo, a merge and its undo, a
  restore, the trash, an import, a session deleted) makes them stale in its transaction
  (`changed`: the state's generation grows), and after its commit a recompute starts in the
  background (`recompute_soon`): in a process of its own, so that it never holds up a worker.
- **A recompute** (`recompute`) runs while no other does (a lock file beside SQLite's
  database, a session advisory lock on PostgreSQL). It replays the whole history from one
  snapshot (a read transaction), then, in one short transaction that no other write overlaps
  (`database.begin_ratings_write`), replays the hands recorded since the snapshot and writes
  the ratings that differ from those kept. It writes only when no recompute of the same or a
  later generation wrote before it, and says the ratings are current only when the
  generation is still the snapshot's; else it goes again, after a pause as long as its pass
  took, until they are.
- `flask check` compares the ratings with a recompute (`differences`); `--repair` recomputes.

The history's order: sessions by when they started, then by id; a session's hands by number.
A night kept without hands is one ranking of its players at its place in that order
(`_nights`); a write that adds or changes one makes the ratings stale, as it is dated to its
day, seldom the history's end.
"""

from __future__ import annotations

import fcntl
import functools
import os
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, current_app
from sqlalchemy import String, bindparam, case, cast, event, func, inspect, null, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session as OrmSession

from .. import rules
from ..rules.rating import Game, History, Rating, Ratings, Standing
from .database import begin_ratings_write, ratings_snapshot, register_database
from .extensions import db
from .models import (
    Change,
    Hand,
    HandPlayer,
    Player,
    PlayerRating,
    RatingState,
    Seat,
    Session,
    as_utc,
)

# How a recompute runs after a write that made the ratings stale: in a process of its own
# ("process"), in the request once it has committed ("inline", for tests), or not at all
# ("off": a bench building a history, `flask check --repair` recomputing after).
MODES = ("process", "inline", "off")
# The environment variable a recompute's process is given its database's URL in.
DATABASE_VARIABLE = "SCOREKEEPER_RATINGS_DATABASE"
# The session advisory lock a recompute holds on PostgreSQL (`database` and `journal` hold
# 0x5EE9, 0x5EEA and 0x5EEC).
RECOMPUTE_LOCK = 0x5EED
# How much lower than the server's a recompute's process's priority is (`os.nice`).
NICE = 10
# Sessions whose hands a recompute reads at a time.
SESSIONS_A_BATCH = 500
# Whether the transaction under way made the ratings stale, in the ORM session's `info`.
_STALE = "ratings_stale"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The results of a pick its picking side won.
_WON = frozenset(result.value for result in rules.Result if result.won)


def session_key(created_at: datetime, session_id: int) -> rules.rating.Session:
    """A session's place in the order of the history."""
    return (as_utc(created_at) - _EPOCH) // timedelta(microseconds=1), session_id


def _started(key: rules.rating.Session) -> datetime:
    return _EPOCH + timedelta(microseconds=key[0])


# --- in a write


def changed() -> None:
    """Make the ratings stale, in the write under way: a recompute follows its commit."""
    table = RatingState.__table__
    inserted = _insert(table).values(id=1, generation=1, computed=0)
    db.session.execute(
        inserted.on_conflict_do_update(
            index_elements=["id"], set_={"generation": table.c.generation + 1}
        )
    )
    db.session.info[_STALE] = True


def hands_added(session: Session, games: Sequence[Game[int]]) -> None:
    """Update the ratings with the games of hands just recorded after the session's last, in
    the write under way."""
    _added(session, [(game, True) for game in games])


def _added(session: Session, games: Sequence[tuple[Game[int], bool]]) -> None:
    """Play the games of a session at the end of the history. A player's history is read and
    written only when this is the first of their games in the session: in the others, only
    their rating changes, and the last point of their history is their rating now."""
    if not games:
        return
    players = sorted({player for game, _ in games for player in game.players})
    connection = db.session.connection()
    read, write = _statements(connection.dialect.name)
    rows = connection.execute(read, {"players": players, "session": session.id})
    ratings: Ratings[int] = Ratings({row.player_id: _standing(row) for row in rows})
    before = {player: ratings[player].last for player in players}
    key = session_key(session.created_at, session.id)
    if not all(ratings.in_order(game, key) for game, _ in games):
        changed()
        return
    for game, hand in games:
        ratings.play(game, key, hand)
    connection.execute(
        write,
        [_values(player, ratings[player], history=before[player] != key) for player in players],
    )


@functools.cache
def _statements(dialect: str) -> tuple[Any, Any]:
    """A hand's read of its players' ratings, locked, their histories only where `session` is
    not the last they played; and its write of them, keeping a history written as None."""
    table = PlayerRating.__table__
    history = case((table.c.last_session_id == bindparam("session"), null()), else_=table.c.history)
    read = (
        select(*(c for c in table.c if c.name != "history"), history.label("history"))
        .where(table.c.player_id.in_(bindparam("players", expanding=True)))
        .order_by(table.c.player_id)
        .with_for_update(of=table)
    )
    inserted = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)
    kept = {c.name: inserted.excluded[c.name] for c in table.c if c.name != "player_id"}
    kept["history"] = func.coalesce(inserted.excluded.history, table.c.history)
    write = inserted.on_conflict_do_update(index_elements=["player_id"], set_=kept)
    return read, write


def recompute_later() -> None:
    """Leave the recompute the write under way asked for (`changed`) to a later write: a long
    job's batches (a restore's) ask for one with their last, once for all of them, rather than
    have one replay a history that grows with each batch, reading it through the batches
    after. The ratings stay stale meanwhile."""
    db.session.info.pop(_STALE, None)


def after_commit() -> None:
    """Once a write has committed: if it made the ratings stale, have them recomputed."""
    if db.session.info.pop(_STALE, False):
        recompute_soon()


@event.listens_for(OrmSession, "after_rollback")
def _forget(session: OrmSession) -> None:
    session.info.pop(_STALE, None)


# --- stored rows


def _standing(row: Any) -> Standing:
    last = None
    if row.last_at is not None and row.last_session_id is not None:
        last = session_key(row.last_at, row.last_session_id)
    return Standing(Rating(row.mu, row.sigma, row.hands), History.from_json(row.history), last)


def _values(player: int, standing: Standing, history: bool = True) -> dict[str, Any]:
    """A player's row; without `history`, its history None (kept as it is, by a hand's
    write)."""
    rating, last = standing.rating, standing.last
    return {
        "player_id": player,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "hands": rating.hands,
        "last_at": None if last is None else _started(last),
        "last_session_id": None if last is None else last[1],
        "history": standing.history_json() if history and last is not None else None,
    }


def _insert(table: Any) -> Any:
    """An INSERT that can say what to do instead when the row is there."""
    dialect = db.session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def _write(standings: Mapping[int, Standing]) -> None:
    """Write these players' ratings, in one statement."""
    if not standings:
        return
    table = PlayerRating.__table__
    inserted = _insert(table)
    columns = [c.name for c in table.c if c.name != "player_id"]
    db.session.execute(
        inserted.on_conflict_do_update(
            index_elements=["player_id"], set_={c: inserted.excluded[c] for c in columns}
        ),
        [_values(player, standing) for player, standing in standings.items()],
    )


def state() -> tuple[int, int]:
    """The ratings' generation and the generation they were computed for."""
    row = db.session.execute(select(RatingState.generation, RatingState.computed)).first()
    return (0, 0) if row is None else (row.generation, row.computed)


# --- the history replayed


@dataclass
class Replayed:
    """The ratings of the history as one snapshot held it: its generation, the last change it
    held (`Change.id`: every hand recorded is one), and each session's place in the order and
    hand count."""

    generation: int
    changes: int
    sessions: dict[int, tuple[rules.rating.Session, int]]
    ratings: Ratings[int]


def replay() -> Replayed:
    """Every rated game of the history, in order, from one snapshot: the transaction begun
    here (on PostgreSQL repeatable read), which the caller ends."""
    db.session.rollback()
    connection = db.session.connection()
    with ratings_snapshot():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        changes = connection.execute(select(func.coalesce(func.max(Change.id), 0))).scalar_one()
    generation, _ = state()
    # A practice table's made-up hands rate no one.
    rows = db.session.execute(
        select(Session.id, Session.created_at, Session.hand_count)
        .where(~Session.practice)
        .order_by(Session.created_at, Session.id)
    ).all()
    sessions = {row.id: (session_key(row.created_at, row.id), row.hand_count) for row in rows}
    ratings: Ratings[int] = Ratings()
    ordered = list(sessions)
    for start in range(0, len(ordered), SESSIONS_A_BATCH):
        batch = ordered[start : start + SESSIONS_A_BATCH]
        with_hands = [s for s in batch if sessions[s][1]]
        games = _games(with_hands, after={}) if with_hands else {}
        nights = _nights(batch)
        for session_id in batch:
            key = sessions[session_id][0]
            for game in games.get(session_id, ()):
                ratings.play(game, key)
            if session_id in nights and (night := rules.rating.night_game(nights[session_id])):
                ratings.play(night, key, hand=False)
    return Replayed(generation, changes, sessions, ratings)


def _nights(session_ids: Sequence[int]) -> dict[int, dict[int, int]]:
    """The nets of the nights kept without hands among the sessions, by player id (RULES.md
    "Nights kept without hands")."""
    nights: dict[int, dict[int, int]] = defaultdict(dict)
    for session_id, player_id, net in db.session.execute(
        select(Seat.session_id, Seat.player_id, Seat.net)
        .join(Session, Session.id == Seat.session_id)
        .where(Session.totals_only, Seat.session_id.in_(session_ids))
    ):
        nights[session_id][player_id] = net or 0
    return nights


def _games(session_ids: Sequence[int], after: Mapping[int, int]) -> dict[int, list[Game[int]]]:
    """The rated games of the sessions' hands (numbered above `after`'s number for a session
    it names), by session, in the order of their numbers: a pick's players read added up in
    one row a hand, a leaster's a row a player."""
    connection = db.session.connection()
    hands = Hand.session_id.in_(session_ids)
    played = (
        select(Hand.session_id, Hand.number)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(hands, HandPlayer.played)
    )
    picks = (
        played.add_columns(
            Hand.result,
            Hand.picker_id,
            Hand.partner_id,
            func.aggregate_strings(cast(HandPlayer.player_id, String), ","),
        )
        .where(Hand.kind == rules.Kind.PICK.value)
        .group_by(Hand.id)
    )
    numbered: dict[int, list[tuple[int, Game[int]]]] = defaultdict(list)
    for session_id, number, result, picker, partner, players in connection.execute(picks).all():
        if number <= after.get(session_id, 0):
            continue
        ids = [int(player) for player in players.split(",")]
        side = (picker,) if partner is None else (picker, partner)
        others = [player for player in ids if player != picker and player != partner]
        game = rules.rating.pick_game(side, others, result in _WON)
        numbered[session_id].append((number, game))
    leasters = played.add_columns(HandPlayer.player_id, HandPlayer.score).where(
        Hand.kind == rules.Kind.LEASTER.value
    )
    scores: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for session_id, number, player, score in connection.execute(leasters).all():
        if number > after.get(session_id, 0):
            scores[session_id, number][player] = score
    for (session_id, number), by_player in scores.items():
        if (ranked := rules.rating.ranking_game(by_player)) is not None:
            numbered[session_id].append((number, ranked))
    return {
        session_id: [game for _, game in sorted(games, key=lambda g: g[0])]
        for session_id, games in numbered.items()
    }


# --- recomputing


def recompute_soon() -> None:
    """Have the ratings recomputed, as the app's `RATING_RECOMPUTE` says (`MODES`)."""
    mode = current_app.config.get("RATING_RECOMPUTE", "process")
    if mode == "inline":
        recompute()
    elif mode == "process":
        _BACKGROUND.start(_url())


def _url() -> str:
    return db.engine.url.render_as_string(hide_password=False)


def _spawn(url: str) -> subprocess.Popen[bytes]:
    """A recompute in a process of its own, at a lower priority than the server's from its
    first import on."""
    program = f"import os; os.nice({NICE}); from {__name__} import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", program],
        env={**os.environ, DATABASE_VARIABLE: url},
        stdin=subprocess.DEVNULL,
    )


class _Background:
    """This process's recomputes in processes of their own, one at a time for each database,
    each started and waited for by a thread, so that the write that asked for it answers at
    once. A write that makes the ratings stale while one runs has it started again once it
    ends, as it may have looked at the ratings for the last time before that write
    committed."""

    def __init__(self) -> None:
        self.forget()
        # A worker forked from a process with one under way waits for none.
        os.register_at_fork(after_in_child=self.forget)

    def forget(self) -> None:
        self._lock = threading.Lock()
        # The databases with one under way, and whether it is to be started again.
        self._running: dict[str, bool] = {}

    def start(self, url: str) -> None:
        with self._lock:
            if url in self._running:
                self._running[url] = True
                return
            self._running[url] = False
        threading.Thread(target=self._run, args=(url,), daemon=True).start()

    def _run(self, url: str) -> None:
        while True:
            _spawn(url).wait()
            with self._lock:
                if not self._running[url]:
                    del self._running[url]
                    return
                self._running[url] = False


_BACKGROUND = _Background()


def main() -> None:
    """A recompute's process: the ratings of the database `DATABASE_VARIABLE` names."""
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = os.environ[DATABASE_VARIABLE]
    db.init_app(app)
    register_database(app)
    with app.app_context():
        recompute()
        db.engine.dispose()


def recompute_at_start(app: Flask) -> bool:
    """When a server starts, have ratings that are stale recomputed (a database just upgraded
    to keep them, a recompute cut short), in a process of its own that the server's master
    process reaps with its workers (inline for the tests' apps); whether they were."""
    with app.app_context():
        try:
            if not inspect(db.engine).has_table(RatingState.__tablename__) or not stale():
                return False
            if current_app.config.get("RATING_RECOMPUTE", "process") == "process":
                _spawn(_url())
            else:
                recompute_soon()
            return True
        finally:
            db.session.remove()
            db.engine.dispose()


def stale() -> bool:
    """Whether the ratings are not yet those of the history now."""
    db.session.rollback()
    generation, computed = state()
    db.session.rollback()
    return computed < generation


# The least pause between two passes of a recompute, in seconds.
PAUSE = 0.5


def recompute(wait: bool = False, force: bool = False) -> None:
    """Recompute the ratings until they are those of the history now, unless another process
    is at it (with `wait`, once it is done; with `force`, even when they are said to be): a
    pass replays the history and writes it, and a pass that finds the history changed
    meanwhile is followed by another, after a pause as long as it took."""
    while True:
        with _recomputing(wait) as mine:
            if not mine:
                return
            while force or stale():
                began = time.monotonic()
                store(replay(), force)
                force = False
                if stale():
                    time.sleep(max(time.monotonic() - began, PAUSE))
        # A write that made them stale as this one let go found it still at work.
        if not stale():
            return


@contextmanager
def _recomputing(wait: bool) -> Iterator[bool]:
    """Whether this process is the one recomputing the ratings, for as long as it lasts: it
    holds a lock file beside SQLite's database, a session advisory lock on PostgreSQL."""
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            take = func.pg_advisory_lock if wait else func.pg_try_advisory_lock
            taken = connection.scalar(select(take(RECOMPUTE_LOCK)))
            connection.commit()
            try:
                yield taken is not False
            finally:
                if taken is not False:
                    connection.execute(select(func.pg_advisory_unlock(RECOMPUTE_LOCK)))
                    connection.commit()
        return
    database = engine.url.database
    if not database or database == ":memory:":
        yield True
        return
    with open(f"{database}.ratings-lock", "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def store(replayed: Replayed, force: bool = False) -> None:
    """Write the ratings a pass replayed, in a write no other overlaps, unless a pass of the
    same or a later generation wrote first (with `force`, unless the generation changed). When
    the generation is still the snapshot's, the hands recorded since the snapshot are replayed
    first and the ratings are current; else they stay stale. Only the players whose rating
    differs from the one kept are written."""
    db.session.rollback()
    try:
        begin_ratings_write()
        generation, computed = state()
        fresh = generation == replayed.generation
        # A generation below the snapshot's is a database emptied or replaced since.
        behind = computed >= replayed.generation and not (force and fresh)
        if behind or generation < replayed.generation:
            db.session.rollback()
            return
        if fresh:
            _replay_since(replayed)
        connection = db.session.connection()
        table = PlayerRating.__table__
        kept = {
            row.player_id: (row.mu, row.sigma, row.hands, row.last_session_id, row.last_at)
            for row in connection.execute(
                select(
                    *(c for c in table.c if c.name != "history"), Player.id.label("id")
                ).select_from(Player.__table__.outerjoin(table))
            )
        }
        ratings = replayed.ratings.standings
        _write(
            {
                player: standing
                for player, held in kept.items()
                if _differs(held, standing := ratings.get(player) or Standing())
            }
        )
        done = replayed.generation
        connection.execute(
            _insert(RatingState.__table__)
            .values(id=1, generation=done, computed=done)
            .on_conflict_do_update(index_elements=["id"], set_={"computed": done})
        )
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    finally:
        # A hand out of order meanwhile made them stale again: the next pass is on its way.
        db.session.info.pop(_STALE, None)


def _differs(held: tuple[Any, ...], standing: Standing) -> bool:
    """Whether a rating kept (its mu, sigma, hands and last session) is not the standing's."""
    mu, sigma, hands, last_session_id, last_at = held
    rating = standing.rating
    if mu is None or (mu, sigma, hands) != (rating.mu, rating.sigma, rating.hands):
        return True
    if standing.last is None or last_at is None:
        return standing.last is not None or last_at is not None
    return session_key(last_at, last_session_id) != standing.last


def _replay_since(replayed: Replayed) -> None:
    """Replay the hands recorded since the snapshot (none but hands added after a session's
    last, or the generation would have grown: each with its change, numbered after the
    snapshot's), in the order of the history; a hand that can't come after its players' games
    makes the ratings stale."""
    before = replayed.sessions
    connection = db.session.connection()
    written = select(Change.session_id).where(Change.id > replayed.changes, Change.action == "add")
    counted, keys = {}, {}
    for row in connection.execute(
        select(Session.id, Session.created_at, Session.hand_count).where(
            Session.id.in_(written), ~Session.practice
        )
    ):
        had = before[row.id][1] if row.id in before else 0
        if row.hand_count > had:
            counted[row.id] = had
            keys[row.id] = session_key(row.created_at, row.id)
    if not counted:
        return
    games = _games(list(counted), after=counted)
    ratings = replayed.ratings
    for session_id in sorted(games, key=keys.__getitem__):
        for game in games[session_id]:
            if not ratings.in_order(game, keys[session_id]):
                changed()
                return
            ratings.play(game, keys[session_id])


def differences() -> list[str]:
    """Where the ratings kept differ from a replay of the history, in sentences."""
    replayed = replay()
    table = PlayerRating.__table__
    kept = {row.player_id: _standing(row) for row in db.session.execute(select(table))}
    names = db.session.execute(select(Player.id, Player.name).order_by(Player.name_key)).all()
    generation, computed = state()
    db.session.rollback()
    found = []
    for player_id, name in names:
        expected = replayed.ratings.standings.get(player_id) or Standing()
        held = kept.get(player_id)
        if held is None:
            found.append(
                f"Ratings: {name} has no rating kept; the history gives {_said(expected)}."
            )
        elif not _same(held, expected):
            found.append(
                f"Ratings: {name}'s rating is kept as {_said(held)}; the history gives "
                f"{_said(expected)}."
            )
    if found and computed < generation:
        found.append("Ratings: a recompute from the history is due (a change came meanwhile).")
    return found


def _said(standing: Standing) -> str:
    rating = standing.rating
    return (
        f"{rating.shown} (mu {rating.mu:.4f}, sigma {rating.sigma:.4f}) after "
        f"{rating.hands} rated hand{'' if rating.hands == 1 else 's'}"
    )


# How far apart a kept mu or sigma and a replayed one may be: the same arithmetic in the same
# order gives the same bits, so only a float's way through a database could part them.
CLOSE = 1e-9


def _same(held: Standing, expected: Standing) -> bool:
    a, b = held.rating, expected.rating
    return (
        abs(a.mu - b.mu) <= CLOSE
        and abs(a.sigma - b.sigma) <= CLOSE
        and a.hands == b.hands
        and held.last == expected.last
        and (held.history_json() if held.last else None)
        == (expected.history_json() if expected.last else None)
    )
