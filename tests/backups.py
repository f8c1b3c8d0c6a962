"""A backup read and restored whole, as the backup tests take it: the JSON object the download
gives, and a restore of one such object, checked and written a batch at a time as the restore
page and import-backup do."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from scorekeeper.exchange.backup import Restore, Restored, backup_text


def export_backup() -> dict[str, Any]:
    """The backup as the JSON object a reader gets."""
    result: dict[str, Any] = json.loads("".join(backup_text()))
    return result


def import_backup(
    data: Any, merge: bool = False, progress: Callable[[int], object] = lambda done: None
) -> Restored:
    """Check a backup whole and restore it a batch at a time; `progress` is told how many of
    the backup's sessions each batch dealt with."""
    restore = Restore(data, merge)
    for _ in restore.check():
        pass
    for done in restore.batches():
        progress(done)
    return restore.restored
