"""How one table's saves fare with several writers at once, under `make run`'s server.

Serves the app with gunicorn as `make run` does (2 gevent workers) on a free local port,
on a fresh temporary SQLite database (or an emptied PostgreSQL one with --database), creates one
session of 5 players through the API, then has 8 threads each POST 200 pick hands to it. Reports
hands per second, the latency of a save (p50, p95, max), the statuses seen, and whether the
session is still right afterwards: hand numbers 1..n, one hand per acknowledged save, totals
equal to the sum of the hands' scores.

    .venv/bin/python bench/writers.py [--writers 8] [--hands 200] [--database URL]

--database empties the database it is given (every table, alembic_version included).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.hands import integrity, pick_bodies
from harness.live_server import LiveServer, at_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--hands", type=int, default=200, help="hands each writer posts")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a new SQLite file)")
    given = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(given.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        server.fresh_schema()
        server.start()
        try:
            run(server, given.writers, given.hands)
        finally:
            server.stop()
            server.log.unlink(missing_ok=True)


def run(server: LiveServer, writers: int, hands: int) -> None:
    session_id = server.new_session()["id"]
    statuses: Counter[int | str] = Counter()
    first_refusal: dict[int | str, str] = {}
    latencies: list[float] = []
    lock = threading.Lock()

    def write(writer: int) -> None:
        for body in pick_bodies(hands, offset=writer * hands):
            began = time.perf_counter()
            try:
                answer = server.call("POST", f"/api/sessions/{session_id}/hands", body)
                status: int | str = answer.status
                said = answer.body.decode(errors="replace").strip()[:160]
            except OSError as error:
                status, said = type(error).__name__, str(error)
            took = time.perf_counter() - began
            with lock:
                statuses[status] += 1
                latencies.append(took)
                if status != 201:
                    first_refusal.setdefault(status, said)

    began = time.perf_counter()
    at_once(writers, write)
    elapsed = time.perf_counter() - began

    saved = statuses[201]
    latencies.sort()
    ms = [1000 * latencies[int(q * (len(latencies) - 1))] for q in (0.5, 0.95, 1.0)]
    backend = server.database.split(":", 1)[0]
    print(
        f"{writers} writers x {hands} hands on one session, {backend}, gunicorn, 2 gevent workers"
    )
    print(f"  {saved} saved in {elapsed:.1f} s: {saved / elapsed:.0f} hands/s")
    print(f"  save latency: p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms, max {ms[2]:.1f} ms")
    print(f"  mean {1000 * statistics.fmean(latencies):.1f} ms over {len(latencies)} requests")
    print("  statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items(), key=str)))
    for status, said in first_refusal.items():
        print(f"  first {status}: {said}")
    answer = server.call("GET", f"/api/sessions/{session_id}")
    if answer.status != 200:
        print(f"  integrity: the session answers {answer.status}, it can't be read")
        return
    problems = integrity(answer.json(), acknowledged=saved)
    print("  integrity: " + ("right" if not problems else "; ".join(problems)))


if __name__ == "__main__":
    main()
