"""A large backup for the fault tests to restore while phones write: many batches of sessions,
made once through the API of an app in this process and copied under new ids and names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.hands import pick_bodies
from harness.live_server import SEATS
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db

from .server import copy_schema

# Many batches (a hundred sessions each at most), so that writers keep coming between them.
SESSIONS = 600


def large_backup(folder: Path, hands: int, sessions: int = SESSIONS) -> Path:
    """A backup of `sessions` sessions of `hands` hands: one session made through the API of an
    app in this process on a database of its own, exported, and copied under new ids and names.
    The servers' databases stay empty for it."""
    database = folder / "template.sqlite3"
    copy_schema(database)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "test"})
    try:
        client = app.test_client()
        made = client.post("/api/sessions", json={"players": SEATS, "rounds": 0, "name": "T"})
        assert made.status_code == 201, made.json
        session_id = json.loads(made.data)["id"]
        for body in pick_bodies(hands):
            added = client.post(f"/api/sessions/{session_id}/hands", json=body)
            assert added.status_code == 201, added.json
        exported = client.get("/settings/backup.json")
        assert exported.status_code == 200
        backup: dict[str, Any] = json.loads(exported.data)
    finally:
        with app.app_context():
            db.engine.dispose()
    (template,) = backup["sessions"]
    assert len(template["hands"]) == hands
    backup["sessions"] = [
        {**template, "id": number, "name": f"Restored {number}"}
        for number in range(1, sessions + 1)
    ]
    path = folder / "backup.json"
    path.write_text(json.dumps(backup))
    return path
