"""Every speed figure of the product in one run: a slow phone's first paint, the pages of a big
league, and its backup and restore.

1. First contentful paint and bytes of the scoresheet, the record form, the table view and the
   home page, in Chromium at 390x844 with slow 4G and 4x CPU throttling, cold cache, median of
   --paint-runs (`bench/first_paint.py`, served by gunicorn as `make run` does).
2. A league of 2,000 sessions of 30 hands (60,000 hands, 3 to 8 seated; `bench/any_table.py`)
   in a temporary SQLite file, and, through the Flask test client in this process, the median
   time of a bare Flask route, the leaderboard, a player page, and a session's page at 20 and
   200 hands with its size in bytes.
3. `flask export-backup` and `flask import-backup` of that league, each in its own process:
   wall time and peak memory (max RSS). The restore goes into a new SQLite file, or into
   --restore-database (a PostgreSQL URL, emptied first).

    .venv/bin/python bench/speed.py [--paint-runs 5] [--runs 20] [--restore-database URL]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import first_paint
from any_table import build_history, getter, measured_flask, timed

from harness.database import drop_everything
from harness.live_server import flask
from harness.sessions import session_of
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db

BARE = "/bench/bare"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paint-runs", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--restore-database", help="a PostgreSQL URL to restore into, emptied")
    given = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if given.paint_runs:
            first_paint.served(Path(folder), given.paint_runs)
        league(Path(folder), given.runs, given.restore_database)


def league(folder: Path, runs: int, restore_database: str | None) -> None:
    database = f"sqlite:///{folder / 'league.sqlite3'}"
    app: Flask = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    app.add_url_rule(BARE, "bench_bare", lambda: "bare")
    with app.app_context():
        db.create_all()
        began = time.perf_counter()
        built = build_history(2000)
        took = time.perf_counter() - began
        print(f"\n{built['hands']:,} hands in 2,000 sessions built in {took:.0f} s")
        short, long = session_of(20), session_of(200, change_every=9)
        db.engine.dispose()

    client = app.test_client()
    pages = {
        "bare Flask route": BARE,
        "/leaderboard": "/leaderboard",
        "/players/1": "/players/1",
        "session page, 20 hands": f"/sessions/{short}",
        "session page, 200 hands": f"/sessions/{long}",
    }
    print(f"{'in this process, median of ' + str(runs):<40} {'time':>9} {'HTML':>10}")
    for name, path in pages.items():
        median = statistics.median(timed(getter(client, path), runs))
        size = len(client.get(path).data)
        print(f"{name:<40} {median:>6.1f} ms {size:>8,} B")
    with app.app_context():
        db.engine.dispose()

    backup = folder / "backup.json"
    seconds, rss = measured_flask(database, "export-backup", str(backup))
    print(f"\nflask export-backup: {seconds:.1f} s, peak {rss / 1024:.0f} MiB, "
          f"{backup.stat().st_size / 2**20:.1f} MiB of JSON")  # fmt: skip
    target = restore_database or f"sqlite:///{folder / 'restored.sqlite3'}"
    drop_everything(target)
    upgraded = flask(target, "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    seconds, rss = measured_flask(target, "import-backup", str(backup))
    backend = target.split(":", 1)[0].split("+")[0]
    print(f"flask import-backup into {backend}: {seconds:.1f} s, peak {rss / 1024:.0f} MiB")
    if restore_database:
        drop_everything(target)


if __name__ == "__main__":
    main()
