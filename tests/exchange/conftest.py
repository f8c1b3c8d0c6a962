"""The backups most exchange tests start from, each built once a process."""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers.backups import Build, BuiltBackup, backup_built_beside, every_kind_of_hand
from ..helpers.database import NewApp


@pytest.fixture
def backup_built(database: str, new_app: NewApp) -> BuiltBackup:
    """`backup_built(build)`: a copy of the backup of what `build` makes, for a test that
    changes it and restores it elsewhere, built once a process on each backend."""

    def backup(build: Build) -> dict[str, Any]:
        return backup_built_beside(database, new_app, build)

    return backup


@pytest.fixture
def built_backup(backup_built: BuiltBackup) -> dict[str, Any]:
    """A copy of the backup of `build_sessions`."""
    return backup_built(every_kind_of_hand)
