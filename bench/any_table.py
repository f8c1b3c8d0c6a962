"""The leaderboard, a player page, the scoresheet and a backup restore on a large history of
tables that change: 3 to 8 seated, players arriving and leaving between hands.

Builds 2,000 sessions of 30 hands (60,000 hands) in a SQLite file, every hand scored by the
rules engine with the seats it was played with: each session starts with 3 to 8 seated (the
dealer's side sitting out, or everyone playing) and changes its seats after a random few hands,
someone arriving, someone leaving, or both. Then:

- times GET /leaderboard and GET /players/<id> through the Flask test client (median and max of
  --runs runs; the budget is 300 ms a page);
- adds a session of 20 hands and one of 200 hands whose seats change every 9 hands, each hand
  and change through the write path, and counts the statements the scoresheet and the session's
  JSON send the database for each (they should be equal);
- writes the backup with `flask export-backup` and restores it with `flask import-backup` into
  a fresh database (a new SQLite file, or --restore-database emptied first), each in its own
  process, giving the wall time and the peak memory (max RSS) of each.

    .venv/bin/python bench/any_table.py [--sessions 2000] [--runs 20] [--restore-database URL]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.database import counted_statements, drop_everything
from harness.live_server import ROOT, flask, flask_command, server_env
from harness.sessions import session_of
from scorekeeper import create_app, rules
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, HandPlayer, Player, Seat, Session

HANDS_PER_SESSION = 30
ROSTER = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou",
    "Max", "Ned", "Ona", "Pat", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Zoe",
]  # fmt: skip
CARD_POINTS = [p for p in range(121) if p not in (1, 119)]
BUDGET_MS = 300
PATHS = (
    "/leaderboard",
    "/leaderboard?from=2025-01-01&to=2025-06-30",
    "/players/1",
    "/players/1?from=2025-01-01&to=2025-06-30",
)


def random_options(rng: random.Random) -> rules.Options:
    return rules.Options(
        partner=rng.choice(list(rules.PartnerMode)),
        no_bid=rng.choice(list(rules.NoBid)),
        cracking=rng.random() < 0.8,
        blitzing=rng.random() < 0.8,
        sitting_out=rules.SittingOut.DEALER if rng.random() < 0.8 else rules.SittingOut.NONE,
    )


def table_sizes(options: rules.Options) -> range:
    """The numbers seated these rules can play (three only alone, eight only with the dealer's
    side sitting out)."""
    smallest = 3 if options.partner is rules.PartnerMode.ALONE else 4
    largest = 8 if options.sitting_out is rules.SittingOut.DEALER else 7
    return range(smallest, largest + 1)


def new_seats(seats: tuple[str, ...], sizes: range, rng: random.Random) -> list[str]:
    """The seats after a change between hands: someone leaves, someone arrives (at a random
    place), or both, keeping the table a size its rules can play."""
    after = list(seats)
    leaving = len(after) > sizes.start and (len(after) == sizes.stop - 1 or rng.random() < 0.5)
    if leaving:
        after.remove(rng.choice(after))
    if not leaving or rng.random() < 0.5:
        newcomer = rng.choice([p for p in ROSTER if p not in after])
        after.insert(rng.randrange(len(after) + 1), newcomer)
    return after


def random_hand(table: rules.Table, dealer: str, rng: random.Random) -> rules.Hand:
    """A valid hand of every kind the session's rules allow, among the players of the hand."""
    options = table.options
    order = table.bidding_order(dealer)
    roll = rng.random()
    if roll < 0.08 and options.no_bid is rules.NoBid.LEASTER:
        entry = rules.HandInput(kind="leaster", winner=rng.choice(order))
    elif roll < 0.08 and options.no_bid in (rules.NoBid.REDEAL, rules.NoBid.DOUBLER):
        entry = rules.HandInput(kind="pass")
    else:
        forced = roll < 0.08 and options.no_bid is rules.NoBid.FORCED_PICK
        picker = order[-1] if forced else rng.choice(order)
        others = [p for p in order if p != picker]
        alone = options.partner is rules.PartnerMode.ALONE or rng.random() < 0.15
        after_picker = order[order.index(picker) + 1 :]
        cracked_by = None
        if options.cracking and after_picker and rng.random() < 0.1:
            cracked_by = rng.choice(after_picker)
        entry = rules.HandInput(
            kind="pick",
            picker=picker,
            partner=None if alone else rng.choice(others),
            forced=forced,
            picking_points=rng.choice(CARD_POINTS),
            cracked_by=cracked_by,
            recracked=cracked_by is not None and rng.random() < 0.3,
            blitzes=("black",) if options.blitzing and rng.random() < 0.03 else (),
        )
    return rules.validate_hand(table, dealer, entry)


def random_session(rng: random.Random) -> tuple[rules.Table, list[rules.Hand], int, int]:
    """A session's table as it ends, its hands, how many seat changes it had, and how many
    hands came before its last one."""
    options = random_options(rng)
    sizes = table_sizes(options)
    rounds = rng.choice([0, 0, 10])
    table = rules.new_table(rng.sample(ROSTER, rng.choice(sizes)), rounds, None, options)
    hands: list[rules.Hand] = []
    changes = seats_since = 0
    for _ in range(HANDS_PER_SESSION):
        if hands and rng.random() < 0.12:
            table = rules.change_seats(table, new_seats(table.seats, sizes, rng), len(hands))
            changes += 1
            seats_since = len(hands)
        last = (hands[-1].dealer, hands[-1].seats) if hands else (None, None)
        hands.append(random_hand(table, table.next_dealer(*last), rng))
    return table, hands, changes, seats_since


def build_history(sessions: int, seed: int = 9) -> dict[str, int]:
    """Every row written with bulk inserts, the scores taken from the rules engine's sheet;
    returns counts of what was built."""
    rng = random.Random(seed)
    ids = {name: i for i, name in enumerate(ROSTER, start=1)}
    db.session.execute(
        insert(Player),
        [{"id": i, "name": n, "name_key": rules.name_key(n)} for n, i in ids.items()],
    )
    start = datetime(2024, 1, 1, 19, tzinfo=UTC)
    rows: dict[Any, list[dict[str, Any]]] = {Session: [], Seat: [], Hand: [], HandPlayer: []}
    counted = {"seat changes": 0, "hands sat out": 0}
    sizes: dict[int, int] = {}
    for session_id in range(1, sessions + 1):
        table, hands, changes, seats_since = random_session(rng)
        counted["seat changes"] += changes
        sheet = rules.score_sheet(table, hands)
        options = table.options
        rows[Session].append(
            {
                "id": session_id,
                "name": "",
                "created_at": start + timedelta(days=730 * session_id / sessions),
                "rounds": table.rounds,
                "first_dealer_id": ids[table.first_dealer],
                "partner": options.partner.value,
                "no_bid": options.no_bid.value,
                "cracking": options.cracking,
                "blitzing": options.blitzing,
                "sitting_out": options.sitting_out.value,
                "seats_since": seats_since,
            }
        )
        rows[Seat] += [
            {"session_id": session_id, "position": i, "player_id": ids[p]}
            for i, p in enumerate(table.seats)
        ]
        for number, result in enumerate(sheet.results, start=1):
            hand = result.hand
            hand_id = len(rows[Hand]) + 1
            sizes[len(hand.seats)] = sizes.get(len(hand.seats), 0) + 1
            rows[Hand].append(
                {
                    "id": hand_id,
                    "session_id": session_id,
                    "number": number,
                    "dealer_id": ids[hand.dealer],
                    "kind": hand.kind.value,
                    "picker_id": ids.get(hand.picker or ""),
                    "partner_id": ids.get(hand.partner or ""),
                    "called_card": hand.called_card,
                    "forced": hand.forced,
                    "picking_points": hand.picking_points,
                    "cracked_by_id": ids.get(hand.cracked_by or ""),
                    "recracked": hand.recracked,
                    "black_blitz": rules.Blitz.BLACK in hand.blitzes,
                    "red_blitz": rules.Blitz.RED in hand.blitzes,
                    "winner_id": ids.get(hand.winner or ""),
                    "multiplier": result.multiplier,
                    "seated": len(hand.seats),
                }
            )
            counted["hands sat out"] += len(result.sitting_out)
            rows[HandPlayer] += [
                {
                    "hand_id": hand_id,
                    "player_id": ids[p],
                    "seat": seat,
                    "played": p not in result.sitting_out,
                    "score": result.scores.get(p, 0),
                    "won": p in result.winners,
                    "schneidered": p in result.schneidered,
                    "points": None,
                    "tricks": None,
                }
                for seat, p in enumerate(hand.seats)
            ]
    for model, model_rows in rows.items():
        db.session.execute(insert(model), model_rows)
    db.session.commit()
    counted["hands"] = len(rows[Hand])
    counted |= {f"hands of {n} seated": sizes[n] for n in sorted(sizes)}
    return counted


def timed(get: Callable[[], int], runs: int) -> list[float]:
    for _ in range(3):
        assert get() == 200
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        status = get()
        times.append((time.perf_counter() - began) * 1000)
        assert status == 200
    return times


def getter(client: FlaskClient, path: str) -> Callable[[], int]:
    return lambda: client.get(path).status_code


def statements(app: Flask, get: Callable[[], int]) -> int | str:
    """The statements one GET sends the database (BEGIN, COMMIT and ROLLBACK not counted), or
    the status it answered when not 200."""
    get()
    sent, status = counted_statements(app, get)
    return sent if status == 200 else f"answered {status}"


def measured_flask(database: str, *args: str) -> tuple[float, int]:
    """`flask ARGS` in its own process under /usr/bin/time: wall seconds and max RSS in KB."""
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%e %M", *flask_command(*args)],
        env=server_env(database),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=3600.0,
    )
    if done.returncode != 0:
        raise RuntimeError(f"flask {' '.join(args)} failed:\n{done.stderr}")
    seconds, rss = done.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(rss)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--restore-database", help="a PostgreSQL URL to restore into, emptied")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        app: Flask = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
        with app.app_context():
            db.create_all()
            began = time.perf_counter()
            built = build_history(args.sessions)
            took = time.perf_counter() - began
            db.engine.dispose()
        print(f"{args.sessions} sessions built in {took:.1f} s: "
              + ", ".join(f"{count} {what}" for what, count in built.items()))  # fmt: skip

        client = app.test_client()
        over = False
        for path in PATHS:
            times = timed(getter(client, path), args.runs)
            median, worst = statistics.median(times), max(times)
            over |= median > BUDGET_MS or worst > BUDGET_MS
            print(f"GET {path:45} median {median:6.1f} ms   max {worst:6.1f} ms")
        print(f"budget {BUDGET_MS} ms a page: {'OVER' if over else 'met'}")

        with app.app_context():
            short, long = session_of(20), session_of(200, change_every=9)
        for path in ("/sessions/{}", "/api/sessions/{}"):
            counts = [statements(app, getter(client, path.format(i))) for i in (short, long)]
            print(f"GET {path}: {counts[0]} statements at 20 hands, {counts[1]} at 200 hands "
                  "with 22 seat changes")  # fmt: skip
        with app.app_context():
            db.engine.dispose()

        backup = Path(folder) / "backup.json"
        seconds, rss = measured_flask(database, "export-backup", str(backup))
        megabytes = backup.stat().st_size / 1e6
        print(f"flask export-backup: {seconds:.1f} s, max RSS {rss / 1024:.0f} MB, "
              f"{megabytes:.1f} MB of JSON")  # fmt: skip
        target = args.restore_database or f"sqlite:///{Path(folder) / 'restored.sqlite3'}"
        drop_everything(target)
        upgraded = flask(target, "db", "upgrade")
        assert upgraded.returncode == 0, upgraded.stderr
        seconds, rss = measured_flask(target, "import-backup", str(backup))
        backend = target.split(":", 1)[0]
        print(f"flask import-backup ({backend}): {seconds:.1f} s, max RSS {rss / 1024:.0f} MB")
        if args.restore_database:
            drop_everything(target)
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
