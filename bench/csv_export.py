"""How fast "Download every hand" (GET /sessions/export.csv) answers for a league.

Builds a league's history once (by default 20,000 sessions of 30 hands, 600,000 hands, 300
players over ten years, each player in the league for a few of them; tables of five and six,
every hand scored by the rules engine), then downloads every hand and one year's hands, wide
and long, each in a process of its own, and prints the seconds, the size and the process's
peak memory. A database that already holds sessions is used as it is, so a PostgreSQL
history is built once:

    .venv/bin/python bench/csv_export.py --database-url postgresql+psycopg://... [--year 2025]
    .venv/bin/python bench/csv_export.py --sessions 2000          # a temporary SQLite file

The budget is 15 s for a year's hands.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from leaderboard import random_hand
from sqlalchemy import func, insert, select

from scorekeeper import create_app, rules
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, HandPlayer, Player, Seat, Session

FIRST_YEAR, YEARS = 2016, 10
BUDGET_SECONDS = 15.0
# Rows inserted a statement batch at a time.
CHUNK = 20_000


def league_app(url: str) -> Flask:
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})


def league_hand(table: rules.Table, dealer: str, rng: random.Random) -> rules.Hand:
    """A random hand the engine accepts: `random_hand` may name the dealer who sits out at a
    table of six, then it is drawn again."""
    while True:
        try:
            return random_hand(table, dealer, rng)
        except rules.RuleError:
            continue


def build_league(sessions: int, hands: int, players: int, seed: int = 25) -> None:
    """Sessions spread evenly over the years, each seating five or six players who were in
    the league that year; every row written with bulk inserts, the scores the engine's."""
    rng = random.Random(seed)
    names = [f"Player {n:03d}" for n in range(1, players + 1)]
    ids = {name: n for n, name in enumerate(names, start=1)}
    players_rows = [{"id": i, "name": n, "name_key": rules.name_key(n)} for n, i in ids.items()]
    db.session.execute(insert(Player), players_rows)
    # Each player's years in the league: from 2 to all of them.
    spans = {}
    for name in names:
        length = rng.randint(2, YEARS)
        first = rng.randint(0, YEARS - length)
        spans[name] = range(first, first + length)
    start = datetime(FIRST_YEAR, 1, 2, 1, tzinfo=UTC)
    rows: dict[Any, list[dict[str, Any]]] = {Session: [], Seat: [], Hand: [], HandPlayer: []}
    hand_id = 0
    for session_id in range(1, sessions + 1):
        moment = start + timedelta(days=365.25 * YEARS * (session_id - 0.5) / sessions)
        year = min(moment.year - FIRST_YEAR, YEARS - 1)
        active = [name for name in names if year in spans[name]]
        seated = rng.sample(active, 6 if rng.random() < 0.2 else 5)
        # `random_hand` has the dealer pick a forced pick: at a table of six they sit out.
        no_bids = [n for n in rules.NoBid if len(seated) == 5 or n is not rules.NoBid.FORCED_PICK]
        options = rules.Options(
            partner=rng.choice(list(rules.PartnerMode)),
            no_bid=rng.choice(no_bids),
            cracking=rng.random() < 0.8,
            blitzing=rng.random() < 0.8,
        )
        rounds = max(1, hands // len(seated))
        table = rules.new_table(seated, rounds, None, options)
        dealer, played = table.first_dealer, []
        for _ in range(rounds * len(seated)):
            played.append(league_hand(table, dealer, rng))
            dealer = table.dealer_after(dealer)
        sheet = rules.score_sheet(table, played)
        rows[Session].append(
            {
                "id": session_id,
                "name": f"Week {session_id}",
                "created_at": moment,
                "rounds": rounds,
                "first_dealer_id": ids[table.first_dealer],
                "partner": options.partner.value,
                "no_bid": options.no_bid.value,
                "cracking": options.cracking,
                "blitzing": options.blitzing,
            }
        )
        rows[Seat] += [
            {"session_id": session_id, "position": i, "player_id": ids[p]}
            for i, p in enumerate(table.seats)
        ]
        for number, result in enumerate(sheet.results, start=1):
            hand = result.hand
            hand_id += 1
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
                    "result": None if hand.result is None else hand.result.value,
                    "multiplier": result.multiplier,
                    "seated": len(hand.seats),
                }
            )
            rows[HandPlayer] += [
                {
                    "hand_id": hand_id,
                    "player_id": ids[p],
                    "seat": seat,
                    "played": p in result.players,
                    "score": result.scores[p],
                    "won": p in result.winners,
                    "schneidered": p in result.schneidered,
                    "points": None,
                    "tricks": None,
                }
                for seat, p in enumerate(hand.seats)
            ]
        if len(rows[HandPlayer]) >= CHUNK or session_id == sessions:
            for model, chunk in rows.items():
                if chunk:
                    db.session.execute(insert(model), chunk)
                chunk.clear()
            db.session.commit()
            print(f"  {session_id} sessions written", end="\r", file=sys.stderr)
    print(file=sys.stderr)


def measure(url: str, path: str) -> None:
    """Download `path` and print its seconds (and those of this process's CPU: on a busy
    machine the wall clock says little), bytes, rows and this process's peak memory."""
    client = league_app(url).test_client()
    began, cpu = time.perf_counter(), time.process_time()
    response = client.get(path)
    size = rows = 0
    for chunk in response.response:
        data = chunk if isinstance(chunk, bytes) else chunk.encode()
        size += len(data)
        rows += data.count(b"\r\n")
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    assert response.status_code == 200, (path, response.status_code)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{seconds:6.1f} s ({cpu:5.1f} s CPU)  {size / 2**20:6.1f} MiB  {rows - 1:9,} rows  "
        f"{peak:4.0f} MiB peak"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="a database to use (default: a temporary SQLite)")
    parser.add_argument("--sessions", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=30, help="hands a session")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--year", type=int, default=FIRST_YEAR + YEARS - 1)
    parser.add_argument("--skip-all", action="store_true", help="only the year's downloads")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.database_url, args.measure)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'league.sqlite3'}"
        app = league_app(url)
        with app.app_context():
            db.create_all()
            count = db.session.scalar(select(func.count(Session.id)))
            if not count:
                began = time.perf_counter()
                build_league(args.sessions, args.hands, args.players)
                print(f"built in {time.perf_counter() - began:.0f} s")
            hands = db.session.scalar(select(func.count(Hand.id)))
            count = db.session.scalar(select(func.count(Session.id)))
            db.session.remove()
            db.engine.dispose()
        print(f"{count:,} sessions, {hands:,} hands")
        year = f"from={args.year}-01-01&to={args.year}-12-31"
        paths = [
            *(() if args.skip_all else ("/sessions/export.csv", "/sessions/export.csv?form=long")),
            f"/sessions/export.csv?{year}",
            f"/sessions/export.csv?{year}&form=long",
        ]
        for path in paths:
            print(f"{path:55}", end=" ", flush=True)
            done = subprocess.run(
                [sys.executable, __file__, "--database-url", url, "--measure", path],
                capture_output=True,
                text=True,
                check=False,
            )
            print(done.stdout.strip() or done.stderr.strip().splitlines()[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
