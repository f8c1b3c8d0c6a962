"""The fault tests' server: gunicorn as `make run` serves it (harness.live_server), on a database
copied from one `flask db upgrade` made once a process: a SQLite file copied, or a PostgreSQL
database made from it as a template, which takes a fraction of the upgrade's time. Between
tests the server stays up and its tables are emptied."""

from __future__ import annotations

import atexit
import fcntl
import functools
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, make_url, text

from harness.database import drop_everything
from harness.live_server import LiveServer, upgrade
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.ratings import RECOMPUTE_LOCK

from ..helpers.database import copy_through_sqlite, remake_database

# The files SQLite keeps beside a database in WAL mode.
WAL_FILES = ("-wal", "-shm")


@functools.cache
def upgraded_sqlite() -> Path:
    """A SQLite database `flask db upgrade` made, for this process's tests and fault servers to
    copy."""
    folder = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = Path(folder) / "upgraded.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


def copy_schema(target: Path) -> None:
    """A new file is copied whole; a database already there is overwritten through SQLite, so
    that an app still connected to it sees the copy."""
    if not target.exists():
        shutil.copyfile(upgraded_sqlite(), target)
        return
    copy_through_sqlite(upgraded_sqlite(), target)


def fault_database(url: str) -> str:
    """The database the fault servers use beside the PostgreSQL database `url`: one of their
    own, since each test makes it afresh."""
    given = make_url(url)
    return given.set(database=f"{given.database}_faults").render_as_string(hide_password=False)


@functools.cache
def upgraded_postgresql(url: str) -> str:
    """The name of a PostgreSQL database `flask db upgrade` made once a process, beside `url`'s,
    for the fault servers' databases to be made from."""
    given = make_url(url)
    template = f"{given.database}_upgraded"
    remake_database(url, template)
    upgrade(given.set(database=template).render_as_string(hide_password=False))
    return template


class FaultServer(LiveServer):
    """The live server, its SQLite database a copy of one upgraded once."""

    def fresh_schema(self) -> None:
        """Empty the database (alembic_version too), then `flask db upgrade` it. A SQLite
        database is a copy of one this process upgraded once, which takes a fraction of the
        time."""
        url = make_url(self.database)
        if url.get_backend_name() == "sqlite" and url.database:
            target = Path(url.database)
            for stale in (target, *(target.with_name(target.name + end) for end in WAL_FILES)):
                stale.unlink(missing_ok=True)
            shutil.copyfile(upgraded_sqlite(), target)
            return
        if url.get_backend_name() == "postgresql" and url.database:
            remake_database(self.database, url.database, upgraded_postgresql(self.database))
            return
        drop_everything(self.database)
        upgrade(self.database)

    def empty(self) -> None:
        """Empty the tables, their ids starting from 1 again, and the log, whether the server
        runs or not: its workers' connections see the empty tables. A recompute of the ratings
        that a test before started is waited for, so that it writes nothing into the next
        test's."""
        self.log.write_bytes(b"")
        url = make_url(self.database)
        if url.get_backend_name() == "sqlite" and url.database:
            with open(f"{url.database}.ratings-lock", "a+b") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                copy_schema(Path(url.database))
            return
        # TRUNCATE, not DELETE: a restore's many rows deleted would stay behind as dead rows
        # that slow every test after it.
        tables = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
        engine = create_engine(url)
        try:
            with engine.connect() as held, engine.begin() as connection:
                held.execute(text("SELECT pg_advisory_lock(:key)"), {"key": RECOMPUTE_LOCK})
                connection.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY")
        finally:
            engine.dispose()
