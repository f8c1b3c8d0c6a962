"""The backup most exchange tests start from, built once a process."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url

from ..helpers.api import Api
from ..helpers.backups import backup_of, build_sessions
from ..helpers.database import NewApp, database_beside

# The backup of `build_sessions`, by the test database it was built beside.
BUILT: dict[str, dict[str, Any]] = {}


@pytest.fixture
def built_backup(database: str, new_app: NewApp) -> dict[str, Any]:
    """A copy of the backup of `build_sessions`, for a test that changes it and restores it
    elsewhere: built once a process on each backend, in a database of its own beside the
    test's, which stays empty."""
    if database not in BUILT:
        url = make_url(database)
        if url.get_backend_name() == "sqlite":
            beside = f"sqlite:///{Path(url.database or '').with_name('built.sqlite3')}"
        else:
            beside = database_beside(database, "built")
        with new_app(beside) as app:
            build_sessions(Api(app.test_client()))
            BUILT[database] = backup_of(app)
    return copy.deepcopy(BUILT[database])
