"""The fault tests' server: gunicorn as `make run` serves it (harness.live_server), on a SQLite
database copied from one `flask db upgrade` made once a process."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import make_url

from harness.database import drop_everything
from harness.live_server import LiveServer, upgrade

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
        drop_everything(self.database)
        upgrade(self.database)
