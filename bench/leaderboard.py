"""How fast the leaderboard and a player page answer on a large history.

Builds 2,000 sessions of 30 hands (60,000 hands) in a temporary SQLite database, every hand
scored by the rules engine, then times GET /leaderboard and GET /players/<id> through the Flask
test client. The budget is 300 ms a page.

    .venv/bin/python bench/leaderboard.py [--sessions 2000] [--runs 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert

from scorekeeper import create_app, rules
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, HandPlayer, Player, Seat, Session

HANDS_PER_SESSION = 30
ROUNDS = HANDS_PER_SESSION // 5
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


def random_hand(table: rules.Table, dealer: str, rng: random.Random) -> rules.Hand:
    """A valid hand of every kind the session's rules allow, checked by the rules engine."""
    options = table.options
    roll = rng.random()
    if roll < 0.08 and options.no_bid is rules.NoBid.LEASTER:
        entry = rules.HandInput(kind="leaster", winner=rng.choice(table.seats))
    elif roll < 0.08 and options.no_bid in (rules.NoBid.REDEAL, rules.NoBid.DOUBLER):
        entry = rules.HandInput(kind="pass")
    else:
        forced = roll < 0.08 and options.no_bid is rules.NoBid.FORCED_PICK
        order = table.bidding_order(dealer)
        picker = dealer if forced else rng.choice(order)
        others = [p for p in order if p != picker]
        alone = options.partner is rules.PartnerMode.ALONE or rng.random() < 0.15
        partner = None if alone else rng.choice(others)
        after_picker = order[order.index(picker) + 1 :]
        cracked_by = None
        if options.cracking and after_picker and rng.random() < 0.1:
            cracked_by = rng.choice(after_picker)
        blitzes = ("black",) if options.blitzing and rng.random() < 0.03 else ()
        entry = rules.HandInput(
            kind="pick",
            picker=picker,
            partner=partner,
            forced=forced,
            picking_points=rng.choice(CARD_POINTS),
            cracked_by=cracked_by,
            recracked=cracked_by is not None and rng.random() < 0.3,
            blitzes=blitzes,
        )
    return rules.validate_hand(table, dealer, entry)


def build_history(sessions: int, seed: int = 4) -> None:
    """Every row written with bulk inserts, the scores taken from the rules engine's sheet."""
    rng = random.Random(seed)
    ids = {name: i for i, name in enumerate(ROSTER, start=1)}
    db.session.execute(
        insert(Player),
        [{"id": i, "name": n, "name_key": rules.name_key(n)} for n, i in ids.items()],
    )
    start = datetime(2024, 1, 1, 19, tzinfo=UTC)
    session_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    hand_rows: list[dict[str, Any]] = []
    player_rows: list[dict[str, Any]] = []
    for session_id in range(1, sessions + 1):
        options = rules.Options(
            partner=rng.choice(list(rules.PartnerMode)),
            no_bid=rng.choice(list(rules.NoBid)),
            cracking=rng.random() < 0.8,
            blitzing=rng.random() < 0.8,
        )
        table = rules.new_table(rng.sample(ROSTER, 5), ROUNDS, None, options)
        dealer, hands = table.first_dealer, []
        for _ in range(HANDS_PER_SESSION):
            hands.append(random_hand(table, dealer, rng))
            dealer = table.dealer_after(dealer)
        sheet = rules.score_sheet(table, hands)
        session_rows.append(
            {
                "id": session_id,
                "name": "",
                "created_at": start + timedelta(days=730 * session_id / sessions),
                "rounds": ROUNDS,
                "first_dealer_id": ids[table.first_dealer],
                "partner": options.partner.value,
                "no_bid": options.no_bid.value,
                "cracking": options.cracking,
                "blitzing": options.blitzing,
            }
        )
        seat_rows += [
            {"session_id": session_id, "position": i, "player_id": ids[p]}
            for i, p in enumerate(table.seats)
        ]
        for number, result in enumerate(sheet.results, start=1):
            hand = result.hand
            hand_id = len(hand_rows) + 1
            hand_rows.append(
                {
                    "id": hand_id,
                    "session_id": session_id,
                    "number": number,
                    "dealer_id": ids[hand.dealer],
                    "kind": hand.kind.value,
                    "picker_id": ids.get(hand.picker or ""),
                    "partner_id": ids.get(hand.partner or ""),
                    "called_card": None,
                    "forced": hand.forced,
                    "picking_points": hand.picking_points,
                    "cracked_by_id": ids.get(hand.cracked_by or ""),
                    "recracked": hand.recracked,
                    "black_blitz": rules.Blitz.BLACK in hand.blitzes,
                    "red_blitz": rules.Blitz.RED in hand.blitzes,
                    "winner_id": ids.get(hand.winner or ""),
                    "multiplier": result.multiplier,
                    "seated": len(table.seats),
                }
            )
            player_rows += [
                {
                    "hand_id": hand_id,
                    "player_id": ids[p],
                    "seat": table.seat_of(p),
                    "score": result.scores[p],
                    "won": p in result.winners,
                    "schneidered": p in result.schneidered,
                    "points": None,
                    "tricks": None,
                }
                for p in table.players_of_hand(hand.dealer)
            ]
    for model, rows in ((Session, session_rows), (Seat, seat_rows), (Hand, hand_rows),
                        (HandPlayer, player_rows)):  # fmt: skip
        db.session.execute(insert(model), rows)
    db.session.commit()


def timed(client: FlaskClient, path: str, runs: int) -> list[float]:
    for _ in range(3):
        assert client.get(path).status_code == 200, path
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, path
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app: Flask = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                "SECRET_KEY": "bench",
            }
        )
        with app.app_context():
            db.create_all()
            began = time.perf_counter()
            build_history(args.sessions)
            built = time.perf_counter() - began
            db.engine.dispose()
        print(f"{args.sessions} sessions, {args.sessions * HANDS_PER_SESSION} hands "
              f"built in {built:.1f} s")  # fmt: skip
        client = app.test_client()
        over = False
        for path in PATHS:
            times = timed(client, path, args.runs)
            median, worst = statistics.median(times), max(times)
            over |= median > BUDGET_MS or worst > BUDGET_MS
            print(f"GET {path:45} median {median:6.1f} ms   max {worst:6.1f} ms")
        with app.app_context():
            db.engine.dispose()
    print(f"budget {BUDGET_MS} ms a page: {'OVER' if over else 'met'}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
