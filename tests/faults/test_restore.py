"""A long restore never makes other writers fail: it writes a batch of sessions at a time, so a
writer waits for one batch at most."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from .server import (
    ROOT,
    TIMEOUT,
    LiveServer,
    as_sent,
    at_once,
    flask_command,
    integrity,
    pick_bodies,
    server_env,
    sorted_bodies,
)

# Many batches (a hundred sessions each), so that writers keep coming between them.
SESSIONS = 600
HANDS = 40
WRITERS = 4


def large_backup(server: LiveServer, folder: Path) -> Path:
    """A backup of SESSIONS sessions of HANDS hands: one session made through the API, exported
    by the app, and copied under new ids and names."""
    session_id = server.new_session(name="Template")["id"]
    for body in pick_bodies(HANDS):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    exported = server.call("GET", "/settings/backup.json")
    assert exported.status == 200
    backup: dict[str, Any] = exported.json()
    (template,) = backup["sessions"]
    assert len(template["hands"]) == HANDS
    backup["sessions"] = [
        {**template, "id": number, "name": f"Restored {number}"}
        for number in range(1, SESSIONS + 1)
    ]
    path = folder / "backup.json"
    path.write_text(json.dumps(backup))
    return path


def test_writes_during_a_restore_never_fail(server: LiveServer, tmp_path: Path) -> None:
    backup = large_backup(server, tmp_path)
    session_id = server.new_session()["id"]
    before = len(server.call("GET", "/api/sessions").json()["sessions"])
    path = f"/api/sessions/{session_id}/hands"
    bodies = pick_bodies(WRITERS * 500)
    lock = threading.Lock()
    saved: list[dict[str, Any]] = []
    refused: list[tuple[int, str | None, bytes]] = []
    writes: list[tuple[float, float]] = []
    # When the watcher saw some but not all of the restored sessions: batches were being written.
    amid: list[float] = []

    restore = subprocess.Popen(
        flask_command("import-backup", "--merge", str(backup)),
        env=server_env(server.database),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    began = time.perf_counter()

    def running() -> bool:
        return restore.poll() is None and time.perf_counter() - began < 4 * TIMEOUT

    def write(writer: int) -> None:
        for body in bodies[writer * 500 : (writer + 1) * 500]:
            if not running():
                return
            sent = time.perf_counter()
            answer = server.call("POST", path, body)
            with lock:
                writes.append((sent, time.perf_counter()))
                if answer.status == 201:
                    saved.append(body)
                else:
                    refused.append((answer.status, answer.header("Retry-After"), answer.body))

    def watch() -> None:
        while running():
            count = len(server.call("GET", "/api/sessions").json()["sessions"]) - before
            if 0 < count < SESSIONS:
                amid.append(time.perf_counter())
            time.sleep(0.02)

    try:
        at_once(WRITERS + 1, lambda worker: watch() if worker == WRITERS else write(worker))
        out, err = restore.communicate(timeout=4 * TIMEOUT)
    finally:
        restore.kill()
    assert restore.returncode == 0, out + err
    assert len(amid) >= 2, amid
    # On SQLite a write waits while a batch is written, so few land in that second or so.
    amid_batches = sum(sent <= amid[-1] and answered >= amid[0] for sent, answered in writes)
    print(
        f"restore of {SESSIONS * HANDS} hands: {time.perf_counter() - began:.1f} s, "
        f"{len(writes)} writes meanwhile, {amid_batches} of them while batches were written"
    )
    assert amid_batches >= WRITERS, amid_batches
    assert refused == [], refused[:3]
    sheet = server.session(session_id)
    assert integrity(sheet, acknowledged=len(saved)) == []
    assert as_sent(sheet["hands"], bodies) == sorted_bodies(saved)
    sessions = server.call("GET", "/api/sessions").json()["sessions"]
    assert len(sessions) == before + SESSIONS
    restored = [s for s in sessions if s["name"].startswith("Restored ")]
    assert sorted(s["hand_count"] for s in restored) == [HANDS] * SESSIONS


def test_a_failed_restore_keeps_every_hand_recorded_meanwhile(
    server: LiveServer, tmp_path: Path
) -> None:
    """A phone records hands into a session as soon as the restore has added it, then starts a
    new session. On SQLite that session takes an id a later batch needs, so the restore fails and
    takes out what it added: all but the session the phone changed, which keeps every hand."""
    backup = large_backup(server, tmp_path)
    server.stop()
    server.fresh_schema()
    server.start()
    restore = subprocess.Popen(
        flask_command("import-backup", str(backup)),
        env=server_env(server.database),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        began = time.perf_counter()
        while server.call("GET", "/api/sessions/1").status != 200:
            assert restore.poll() is None, restore.communicate()
            assert time.perf_counter() - began < 4 * TIMEOUT
            time.sleep(0.02)
        bodies = pick_bodies(3)
        for body in bodies:
            assert server.call("POST", "/api/sessions/1/hands", body).status == 201
        new_id = server.new_session(name="New at the table")["id"]
        out, err = restore.communicate(timeout=4 * TIMEOUT)
    finally:
        restore.kill()

    sheet = server.session(1)
    assert len(sheet["hands"]) == HANDS + len(bodies)
    assert integrity(sheet, acknowledged=HANDS + len(bodies)) == []
    assert as_sent(sheet["hands"][HANDS:], bodies) == sorted_bodies(bodies)
    ids = sorted(s["id"] for s in server.call("GET", "/api/sessions").json()["sessions"])
    if server.database.startswith("sqlite"):
        assert restore.returncode == 1, out + err
        assert err.endswith(
            "What the restore had added is taken out again, except 1 session that a phone has "
            "changed since (id 1), kept with its changes.\n"
        ), err
        assert ids == [1, new_id]
    else:
        # PostgreSQL's ids come from sequences the restore moved past the backup's ids.
        assert restore.returncode == 0, out + err
        assert ids == [*range(1, SESSIONS + 1), new_id]
