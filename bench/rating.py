"""The ratings on a league's history (`bench/league.py` builds it once and keeps it): a full
recompute, and hands recorded while one runs.

    .venv/bin/python bench/rating.py --hands 60k|600k [--database sqlite|URL] [--every 20]

1. A recompute of the whole history in this process, as the process a change starts runs it:
   its replay (the snapshot read and every game played) and its write (the one short
   transaction no write overlaps), each timed.
2. The same recompute in a process of its own, as after an edit, while this process records a
   hand into a session of the league's players every `--every` ms through the API: each
   write's time before the recompute, while it replays, and those that overlapped its write.
   The session is deleted afterwards, which leaves the ratings stale for the next run.

For a quiet figure, run it with nothing else on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import league
from flask import Flask

from scorekeeper import create_app
from scorekeeper.sessions import ratings
from scorekeeper.sessions.extensions import db

CHILD = "--child"


def the_app(url: str) -> Flask:
    """The league's app, recomputing nothing by itself: this script times the recomputes."""
    return create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": league.SECRET_KEY, "RATING_RECOMPUTE": "off"}
    )


def made_stale(app: Flask) -> None:
    with app.app_context():
        ratings.changed()
        db.session.commit()


def timed_pass(app: Flask) -> dict[str, list[float]]:
    """One pass of a recompute: the wall-clock times its replay began and ended, and those its
    write held the lock no other write overlaps (from when it had it to its commit)."""
    held: list[float] = []
    begin = ratings.begin_ratings_write

    def timed_begin() -> None:
        begin()
        held.append(time.time())

    ratings.begin_ratings_write = timed_begin
    try:
        with app.app_context():
            began = time.time()
            replayed = ratings.replay()
            replayed_at = time.time()
            db.session.rollback()
            ratings.store(replayed)
            stored_at = time.time()
            assert not ratings.stale()
            db.engine.dispose()
    finally:
        ratings.begin_ratings_write = begin
    return {"replay": [began, replayed_at], "store": [held[0], stored_at]}


def child(url: str) -> None:
    """The recompute's process, at the priority a server's runs at."""
    os.nice(ratings.NICE)
    print(json.dumps(timed_pass(the_app(url))), flush=True)


def percentiles(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"{len(times)} writes: p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, "
        f"longest {max(times):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", choices=list(league.LEAGUES), default="600k")
    parser.add_argument("--database", default="sqlite", help="sqlite, or a PostgreSQL URL")
    parser.add_argument("--every", type=float, default=20.0, help="ms between hands recorded")
    given = parser.parse_args()
    chosen = league.LEAGUES[given.hands]
    url = league.database_url(given.database, chosen, True)
    facts = league.ready_history(url, chosen, league.SEED, True, False)
    app = the_app(url)
    print(f"{facts['hands']:,} hands, {chosen.sessions:,} sessions, on {league.described(url)}")

    made_stale(app)
    first = timed_pass(app)
    replay, store = (end - start for start, end in (first["replay"], first["store"]))
    print(
        f"Recompute in this process: replay {replay:.1f} s, its write held the lock "
        f"{store * 1000:.1f} ms"
    )

    with tempfile.TemporaryDirectory() as folder:
        bench = league.Bench(app, app.test_client(), url, chosen, facts, 1, Path(folder), None)
        session_id = bench.new_session()
        seats = league.player_names(chosen.players)[:5]
        writes: list[tuple[float, float]] = []

        def record(number: int) -> None:
            body = {
                "kind": "pick",
                "picker": seats[number % 5],
                "partner": seats[(number + 2) % 5] if number % 4 else None,
                "picking_points": 31 + (number * 37) % 88,
            }
            began = time.time()
            answer = bench.client.post(f"/api/sessions/{session_id}/hands", json=body)
            took = (time.time() - began) * 1000
            assert answer.status_code == 201, answer.get_data(as_text=True)
            writes.append((began, took))

        try:
            for number in range(30):
                record(number)
                time.sleep(given.every / 1000)
            before = [took for _, took in writes]
            writes.clear()
            made_stale(app)
            with app.app_context():
                db.engine.dispose()
            process = subprocess.Popen(
                [sys.executable, __file__, CHILD, url],
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(league.ROOT)},
            )
            number = 30
            while process.poll() is None:
                record(number)
                number += 1
                time.sleep(given.every / 1000)
            out, _ = process.communicate()
            assert process.returncode == 0
            window = json.loads(out)
        finally:
            bench.remove_session(session_id)
    write_began, write_ended = window["store"]
    ended = [(began, took, began + took / 1000) for began, took in writes]
    overlapping = [took for began, took, end in ended if began < write_ended and end > write_began]
    replaying = [took for _, took, end in ended if end <= write_began]
    replay = window["replay"][1] - window["replay"][0]
    print(f"Recompute in a process of its own: replay {replay:.1f} s, its write held the lock "
          f"{(write_ended - write_began) * 1000:.1f} ms")  # fmt: skip
    print(f"Hands recorded before it: {percentiles(before)}")
    print(f"Hands recorded while it replayed: {percentiles(replaying)}")
    print(f"Hands recorded while its write held the lock: {percentiles(overlapping)}")
    print(f"Every hand recorded during it: {percentiles([took for _, took in writes])}")
    start = window["replay"][0]
    slowest = sorted(writes, key=lambda write: -write[1])[:5]
    when = ", ".join(f"{took:.0f} ms at {began - start:+.1f} s" for began, took in slowest)
    print(f"The slowest, from the start of its replay: {when}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == CHILD:
        child(sys.argv[2])
    else:
        main()
