"""A club event's night under `make run`'s server: many tables recording at once while screens
poll the event, each hand confirmed by the other side from a second phone, and rounds drawn.

Serves the app with gunicorn (gevent workers) on a free local port, on a fresh temporary SQLite
database (or an emptied PostgreSQL one with --database). Makes an event, checks in --players
players, and draws round 1 into tables of five. Then one writer a table records every hand its
table has to play through the API, and (unless --no-confirm) a second phone a table confirms
each hand once it is saved as a player of the side that did not pick, sending every
confirmation twice with one Idempotency-Key as a phone on bad Wi-Fi retries, while --screens
threads poll `GET /api/events/<id>` (what the event board reads) as fast as it answers. Once
every table is complete it draws round 2. Reports how long each draw took, the latency of a
hand's save, a confirmation and the event's answer (p50, p95, max) meanwhile and of the event's
answer and the board's page alone afterwards, with the board's size, the statuses seen, and
whether every table holds exactly the hands it was sent, each confirmed once.

    .venv/bin/python bench/event_night.py [--players 200] [--screens 5] [--workers 2]
        [--no-confirm] [--database URL]

--database empties the database it is given (every table, alembic_version included).
"""

from __future__ import annotations

import argparse
import queue
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.live_server import LiveServer, at_once

TABLE = 5
POINTS = [30, 45, 61, 75, 90, 100]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="a multiple of five")
    parser.add_argument("--screens", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", help="a PostgreSQL URL (default: a new SQLite file)")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false")
    given = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        database = given.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        server = LiveServer(database, workers=given.workers)
        server.fresh_schema()
        server.start()
        try:
            run(server, given.players, given.screens, given.confirm)
        finally:
            server.stop()
            server.log.unlink(missing_ok=True)


def percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    ms = [1000 * ordered[int(q * (len(ordered) - 1))] for q in (0.5, 0.95, 1.0)]
    return f"p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms, max {ms[2]:.1f} ms ({len(ordered)})"


def hand(seats: list[str], number: int) -> dict[str, Any]:
    """A pick for hand `number` at a table of five: every seat plays, so any seat may pick.
    The seat after the picker is of the other side (`confirmer`)."""
    picker = seats[number % TABLE]
    partner = seats[(number + 2) % TABLE]
    points = POINTS[number % len(POINTS)]
    return {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}


def confirmer(seats: list[str], number: int) -> str:
    return seats[(number + 1) % TABLE]


def timed(server: LiveServer, method: str, path: str, body: Any = None) -> tuple[float, Any]:
    began = time.perf_counter()
    answer = server.call(method, path, body)
    took = time.perf_counter() - began
    assert answer.status in (200, 201), (method, path, answer.status, answer.body[:300])
    return took, answer.json()


def timed_page(server: LiveServer, path: str) -> tuple[float, int]:
    """How long a page took to come whole, and its size in bytes."""
    began = time.perf_counter()
    answer = server.call("GET", path)
    took = time.perf_counter() - began
    assert answer.status == 200, (path, answer.status)
    return took, len(answer.body)


def run(server: LiveServer, players: int, screens: int, confirm: bool) -> None:
    tables = players // TABLE
    _took, event = timed(
        server,
        "POST",
        "/api/events",
        {"name": "Bench night", "hands": 20, "rounds": 2, "entry": 2500,
         "places": [30, 15, 10, 10, 10], "round_top": 5, "seed": 7, "confirm": confirm},
    )  # fmt: skip
    path = f"/api/events/{event['id']}"
    for number in range(players):
        timed(server, "POST", f"{path}/players", {"name": f"Player {number:03d}"})

    draws: list[float] = []
    took, event = timed(server, "POST", f"{path}/rounds", {"tables": [TABLE] * tables})
    draws.append(took)
    drawn = event["draws"][-1]["tables"]

    statuses: Counter[int | str] = Counter()
    saves: list[float] = []
    confirms: list[float] = []
    reads: list[float] = []
    lock = threading.Lock()
    writing = threading.Event()
    writing.set()

    def write(table: dict[str, Any]) -> None:
        saved: queue.Queue[int | None] = queue.Queue()
        phone = threading.Thread(target=confirm_each, args=(table, saved))
        if confirm:
            phone.start()
        for number in range(table["hands_to_play"]):
            began = time.perf_counter()
            try:
                status: int | str = server.call(
                    "POST", f"/api/sessions/{table['session']}/hands", hand(table["seats"], number)
                ).status
            except OSError as error:
                status = type(error).__name__
            with lock:
                statuses[status] += 1
                saves.append(time.perf_counter() - began)
            saved.put(number)
        saved.put(None)
        if confirm:
            phone.join()

    def confirm_each(table: dict[str, Any], saved: queue.Queue[int | None]) -> None:
        """The second phone at the table: each hand saved, confirmed; each twice, one key."""
        while (number := saved.get()) is not None:
            path = f"/api/sessions/{table['session']}/hands/{number + 1}/confirm"
            body = {"by": confirmer(table["seats"], number)}
            key = {"Idempotency-Key": f"confirm-{table['session']}-{number + 1}"}
            for _ in range(2):
                began = time.perf_counter()
                try:
                    status: int | str = server.call("POST", path, body, headers=key).status
                except OSError as error:
                    status = type(error).__name__
                with lock:
                    statuses[f"confirm {status}"] += 1
                    confirms.append(time.perf_counter() - began)

    def poll() -> None:
        while writing.is_set():
            began = time.perf_counter()
            status = server.call("GET", path).status
            with lock:
                statuses[f"GET {status}"] += 1
                reads.append(time.perf_counter() - began)

    pollers = [threading.Thread(target=poll) for _ in range(screens)]
    for poller in pollers:
        poller.start()
    began = time.perf_counter()
    at_once(len(drawn), lambda index: write(drawn[index]))
    elapsed = time.perf_counter() - began
    writing.clear()
    for poller in pollers:
        poller.join()

    quiet = [timed(server, "GET", path)[0] for _ in range(20)]
    board = f"/events/{event['id']}/board"
    boards = [timed_page(server, board) for _ in range(20)]
    _took, event = timed(server, "GET", path)
    wrong = [
        table["table"]
        for table in event["draws"][-1]["tables"]
        if not table["complete"]
        or table["hands"] != table["hands_to_play"]
        or table["to_confirm"] != 0
    ]
    unconfirmed = [
        (table["session"], number)
        for table in drawn
        for number, held in enumerate(
            timed(server, "GET", f"/api/sessions/{table['session']}")[1]["hands"], start=1
        )
        if confirm and held.get("confirmed_by") != confirmer(table["seats"], number - 1)
    ]
    took, _event = timed(server, "POST", f"{path}/rounds", {"tables": [TABLE] * tables})
    draws.append(took)
    drawn_boards = [timed_page(server, board) for _ in range(20)]

    backend = server.database.split(":", 1)[0]
    hands = sum(table["hands_to_play"] for table in drawn)
    print(f"{backend}: {players} players at {tables} tables, {server.workers} gunicorn workers")
    print(f"draw: round 1 {1000 * draws[0]:.0f} ms, round 2 {1000 * draws[1]:.0f} ms")
    print(f"{hands} hands by {tables} writers in {elapsed:.1f} s ({hands / elapsed:.0f} a second)")
    print(f"hand save: {percentiles(saves)}")
    if confirm:
        print(f"confirmation from a second phone (each sent twice): {percentiles(confirms)}")
        print(f"event provisional once round 1 is played: {event['provisional']}")
    print(f"event read by {screens} screens meanwhile: {percentiles(reads)}")
    print(f"event read alone afterwards: {percentiles(quiet)}")
    for when, pages in (("round 1 complete", boards), ("round 2 drawn", drawn_boards)):
        sizes = {size for _took, size in pages}
        print(
            f"board page alone, {when}: {percentiles([took for took, _size in pages])}, "
            f"{' or '.join(f'{size / 1000:.1f} KB' for size in sorted(sizes))}"
        )
    print(f"statuses: {dict(statuses)}")
    print(f"tables not complete, with other than their hands, or to confirm: {wrong or 'none'}")
    print(f"hands not confirmed once by the one sent: {unconfirmed or 'none'}")


if __name__ == "__main__":
    main()
