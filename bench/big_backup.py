"""A league's backup, written straight to a file, and `flask import-backup` and `flask
export-backup` timed on it.

The backup holds --sessions sessions of 30 hands (20,000 sessions: 600,000 hands, about 170 MiB
of JSON) among --players players over ten years, each hand made valid by the rules engine
(`bench/any_table.py`'s hands: every kind the session's rules allow, 3 to 8 seated, seats
changing between hands), a session in ten with an edited hand in its changes, and two rule
sets. The same seed writes the same file, laid out as `flask export-backup` writes it.

With --time it then restores the file into a fresh database (a new SQLite file, or
--database, a PostgreSQL URL emptied first) with `flask import-backup`, writes it back out with
`flask export-backup`, each in its own process, and gives each one's wall time and peak memory
(max RSS); the backup written back must be the file itself but for its time of export.

    .venv/bin/python bench/big_backup.py FILE [--sessions 20000] [--players 300] [--seed 25]
        [--time] [--database URL]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from any_table import measured_flask, random_hand, random_options, table_sizes

from harness.database import drop_everything
from harness.live_server import flask
from scorekeeper import rules
from scorekeeper.sessions.records import hand_input_json, hand_json, options_json

HANDS_PER_SESSION = 30
FIRST_NAMES = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou",
    "Max", "Ned", "Ona", "Pat", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Zoe",
]  # fmt: skip
START = datetime(2016, 1, 4, 19, tzinfo=UTC)
YEARS = 10
EXPORTED_AT = "2026-01-01T00:00:00+00:00"
ANY_EXPORTED_AT = re.compile('"exported_at": "[^"]*"')


def roster(players: int) -> list[str]:
    """`players` names: "Ann A.", "Bob A.", ... "Zoe A.", "Ann B.", ..."""
    letters = [chr(code) for code in range(ord("A"), ord("Z") + 1)]
    names = [f"{first} {letter}." for letter in letters for first in FIRST_NAMES]
    if players > len(names):
        raise SystemExit(f"At most {len(names)} players.")
    return names[:players]


def new_seats(
    seats: tuple[str, ...], sizes: range, club: list[str], rng: random.Random
) -> list[str]:
    """The seats after a change between hands: someone leaves, someone of the club arrives, or
    both, keeping the table a size its rules can play."""
    after = list(seats)
    leaving = len(after) > sizes.start and (len(after) == sizes.stop - 1 or rng.random() < 0.5)
    if leaving:
        after.remove(rng.choice(after))
    if not leaving or rng.random() < 0.5:
        after.insert(rng.randrange(len(after) + 1), rng.choice([p for p in club if p not in after]))
    return after


def session_json(session_id: int, sessions: int, names: list[str], rng: random.Random) -> Any:
    """A session as a backup holds it, its hands made and checked by the rules engine."""
    options = random_options(rng)
    if rng.random() < 0.2:
        options = replace(options, stake=rng.choice([5, 10, 25]))
    sizes = table_sizes(options)
    # Each night's table comes from a club of a dozen players, the clubs overlapping.
    start = rng.randrange(len(names))
    club = [names[(start + i) % len(names)] for i in range(12)]
    table = rules.new_table(
        rng.sample(club, rng.choice(sizes)), rng.choice([0, 0, 10]), None, options
    )
    hands: list[rules.Hand] = []
    for _ in range(HANDS_PER_SESSION):
        if hands and rng.random() < 0.04:
            table = rules.change_seats(table, new_seats(table.seats, sizes, club, rng), len(hands))
        last = (hands[-1].dealer, hands[-1].seats) if hands else (None, None)
        hands.append(random_hand(table, table.next_dealer(*last), rng))
    created = START + timedelta(days=YEARS * 365 * (session_id - 1) / sessions)
    changes = []
    if session_id % 10 == 0:
        sheet = rules.score_sheet(table, hands)
        edited = hand_json(1, sheet.results[0], sheet.named)
        before = {**edited, "picking_points": None} if edited["kind"] == "pick" else edited
        at = (created + timedelta(hours=1)).isoformat()
        changes.append({"at": at, "action": "edit", "number": 1, "before": before, "after": edited})
    return {
        "id": session_id,
        "name": "" if session_id % 7 else f"Night {session_id}",
        "created_at": created.isoformat(),
        "players": list(table.seats),
        "rounds": table.rounds,
        "version": len(hands) + len(changes) + 1,
        "first_dealer": table.first_dealer,
        "rules": options_json(table.options),
        "hands": [hand_input_json(hand) for hand in hands],
        "ended": False,
        "paid": [],
        "changes": changes,
    }


def write_backup(path: Path, sessions: int, players: int, seed: int) -> int:
    """Write the backup; return how many hands it holds."""
    rng = random.Random(seed)
    names = roster(players)

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = {
        "format": "sheepshead-scorekeeper-backup",
        "version": 1,
        "exported_at": EXPORTED_AT,
    }
    listed = [{"id": i, "name": name, "active": True} for i, name in enumerate(names, start=1)]
    rule_sets = [
        {"name": "Friday", "rules": options_json(rules.Options()), "created_at": START.isoformat()},
        {
            "name": "Leasters",
            "rules": options_json(rules.Options(no_bid=rules.NoBid.LEASTER)),
            "created_at": START.isoformat(),
        },
    ]
    hands = 0
    with path.open("w", encoding="utf-8") as file:
        file.write(dumps(head)[:-1] + ',\n"players": ' + dumps(listed) + ',\n"sessions": [')
        for session_id in range(1, sessions + 1):
            session = session_json(session_id, sessions, names, rng)
            hands += len(session["hands"])
            file.write(f"{',' if session_id > 1 else ''}\n{dumps(session)}")
        file.write('\n],\n"rule_sets": ' + dumps(rule_sets) + ',\n"trash": [')
        file.write('\n],\n"merges": [],\n"events": []}\n')
    return hands


def timed_round_trip(backup: Path, database: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = database or f"sqlite:///{Path(folder) / 'restored.sqlite3'}"
        backend = target.split(":", 1)[0].split("+")[0]
        drop_everything(target)
        upgraded = flask(target, "db", "upgrade")
        assert upgraded.returncode == 0, upgraded.stderr
        seconds, rss = measured_flask(target, "import-backup", str(backup))
        print(f"flask import-backup into {backend}: {seconds:.1f} s, peak {rss / 1024:.0f} MiB")
        again = Path(folder) / "again.json"
        seconds, rss = measured_flask(target, "export-backup", str(again))
        print(f"flask export-backup from {backend}: {seconds:.1f} s, peak {rss / 1024:.0f} MiB")
        written = ANY_EXPORTED_AT.sub(
            f'"exported_at": "{EXPORTED_AT}"', again.read_text("utf-8"), 1
        )
        same = written == backup.read_text("utf-8")
        print("The backup written back is the file:", "yes" if same else "NO")
        if database:
            drop_everything(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--sessions", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--time", action="store_true", help="restore it, then back it up")
    parser.add_argument("--database", help="a PostgreSQL URL to restore into, emptied first")
    given = parser.parse_args()
    began = time.perf_counter()
    hands = write_backup(given.file, given.sessions, given.players, given.seed)
    size = given.file.stat().st_size / 2**20
    took = time.perf_counter() - began
    print(
        f"{hands:,} hands in {given.sessions:,} sessions, {size:.0f} MiB, written in {took:.0f} s"
    )
    if given.time:
        timed_round_trip(given.file, given.database)


if __name__ == "__main__":
    main()
