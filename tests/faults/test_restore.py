"""A long restore never makes other writers fail: it writes a batch of sessions at a time, so a
writer waits for one batch at most; sessions started meanwhile never take its ids; and a restore
killed midway is noticed and undone."""

from __future__ import annotations

import functools
import re
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.hands import integrity, pick_bodies
from harness.live_server import (
    ROOT,
    TIMEOUT,
    LiveServer,
    at_once,
    flask,
    flask_command,
    server_env,
)

from ..helpers.live import as_sent, assert_check_clean, sorted_bodies
from .backups import SESSIONS, large_backup

HANDS = 40
# A restore killed between batches, or raced by new sessions, needs the batches, not the hands:
# fewer make it quicker. Half the sessions still leave batches after the one that writes
# session 101, however the pace sizes them.
FEW_HANDS = 10
FEW_SESSIONS = SESSIONS // 2
WRITERS = 4


@pytest.fixture(scope="module")
def backups(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """The backups these tests restore, each made once: `backups(hands, sessions)`."""
    return functools.cache(
        lambda hands, sessions=SESSIONS: large_backup(
            tmp_path_factory.mktemp("backup"), hands, sessions
        )
    )


def test_writes_during_a_restore_never_fail(
    server: LiveServer, backups: Callable[..., Path]
) -> None:
    backup = backups(HANDS)
    session_id = server.new_session()["id"]
    before = len(server.sessions())
    path = f"/api/sessions/{session_id}/hands"
    bodies = pick_bodies(WRITERS * 500)
    lock = threading.Lock()
    saved: list[dict[str, Any]] = []
    refused: list[tuple[int, str | None, bytes]] = []
    writes: list[tuple[float, float]] = []
    # When the watcher saw some but not all of the restored sessions: batches were being written.
    amid: list[float] = []

    restore = start_restore(server, backup, "--merge")
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
            count = len(server.sessions()) - before
            if 0 < count < SESSIONS:
                amid.append(time.perf_counter())
            time.sleep(0.02)

    with restore:
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
    sessions = server.sessions()
    assert len(sessions) == before + SESSIONS
    restored = [s for s in sessions if s["name"].startswith("Restored ")]
    assert sorted(s["hand_count"] for s in restored) == [HANDS] * SESSIONS


def start_restore(server: LiveServer, backup: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        flask_command("import-backup", *options, str(backup)),
        env=server_env(server.database),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def session_ids(server: LiveServer) -> list[int]:
    return sorted(s["id"] for s in server.sessions())


def wait_for(restore: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    """Wait until `ready()`, the restore still running."""
    began = time.perf_counter()
    while not ready():
        assert restore.poll() is None, restore.communicate()
        assert time.perf_counter() - began < 4 * TIMEOUT
        time.sleep(0.02)


def test_sessions_started_during_a_restore_never_take_its_ids(
    server: LiveServer, backups: Callable[..., Path]
) -> None:
    """A restore keeps the backup's ids; the ids are taken with its first batch, so sessions
    phones start meanwhile get others, and every batch after goes in. A phone records hands
    into a restored session as soon as it is there."""
    backup = backups(FEW_HANDS, FEW_SESSIONS)
    with start_restore(server, backup) as restore:
        try:
            # Session 1 is there once the first batch is in, the restore running on or done.
            began = time.perf_counter()
            while server.call("GET", "/api/sessions/1").status != 200 and restore.poll() is None:
                assert time.perf_counter() - began < 4 * TIMEOUT
                time.sleep(0.02)
            started = [server.new_session(name="New at the table")["id"]]
            # Batches still to come, unless a loaded machine let the restore finish first: what
            # follows holds either way.
            amid = server.call("GET", f"/api/sessions/{FEW_SESSIONS}").status == 404
            bodies = pick_bodies(3)
            for body in bodies:
                assert server.call("POST", "/api/sessions/1/hands", body).status == 201
            while restore.poll() is None:
                started.append(server.new_session(name="New at the table")["id"])
            out, err = restore.communicate(timeout=4 * TIMEOUT)
        finally:
            restore.kill()

    assert restore.returncode == 0, out + err
    hands = FEW_SESSIONS * FEW_HANDS
    assert out == f"Restored {FEW_SESSIONS} sessions with {hands} hands, and 5 new players.\n"
    print(f"{len(started)} sessions started during the restore, the first amid its batches: {amid}")
    assert min(started) > FEW_SESSIONS
    assert session_ids(server) == [*range(1, FEW_SESSIONS + 1), *started]
    sheet = server.session(1)
    assert integrity(sheet, acknowledged=FEW_HANDS + len(bodies)) == []
    assert as_sent(sheet["hands"][FEW_HANDS:], bodies) == sorted_bodies(bodies)
    assert_check_clean(server)


@pytest.mark.parametrize("recovery", ["next start", "check --repair"])
def test_a_restore_killed_midway_is_reported_then_undone(
    server: LiveServer, backups: Callable[..., Path], recovery: str
) -> None:
    """kill -9 in the middle of a restore: `flask check` says it was cut short; the next start of
    the server (or `check --repair`) takes out what it wrote, but for a session a phone wrote to
    since; the same backup then restores whole."""
    backup = backups(FEW_HANDS, FEW_SESSIONS)
    with start_restore(server, backup) as restore:
        try:
            # Some batches written, more to go.
            wait_for(restore, lambda: server.call("GET", "/api/sessions/101").status == 200)
        finally:
            restore.kill()
        # A process killed while the disk is busy may take a while to go.
        restore.communicate(timeout=4 * TIMEOUT)
    written = len(session_ids(server))
    print(f"killed after {written} of {FEW_SESSIONS} sessions")
    assert 101 <= written < FEW_SESSIONS
    bodies = pick_bodies(3)
    for body in bodies:
        assert server.call("POST", "/api/sessions/1/hands", body).status == 201

    check = flask(server.database, "check")
    assert check.returncode == 1, check.stdout + check.stderr
    assert re.search(
        rf"^A restore of a backup started .* UTC was cut short after {written} of {FEW_SESSIONS} "
        r"sessions were written\. `flask --app scorekeeper check --repair` undoes it\.$",
        check.stdout,
        re.M,
    ), check.stdout
    undone = (
        f"was cut short after {written} of {FEW_SESSIONS} sessions were written. What it had added "
        f"is taken out again ({written - 1} sessions and 0 players), except 1 session that a "
        "phone has changed since (id 1), kept with its changes."
    )
    if recovery == "next start":
        server.restart()
        assert undone in server.log.read_text()
    else:
        repaired = flask(server.database, "check", "--repair")
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        assert undone in repaired.stdout

    assert session_ids(server) == [1]
    sheet = server.session(1)
    assert integrity(sheet, acknowledged=FEW_HANDS + len(bodies)) == []
    assert as_sent(sheet["hands"][FEW_HANDS:], bodies) == sorted_bodies(bodies)
    assert_check_clean(server)

    again = flask(server.database, "import-backup", "--merge", str(backup))
    assert again.returncode == 0, again.stdout + again.stderr
    hands = FEW_SESSIONS * FEW_HANDS
    restored = f"Restored {FEW_SESSIONS} sessions with {hands} hands, and 0 new players.\n"
    assert again.stdout == restored
    assert len(session_ids(server)) == FEW_SESSIONS + 1
    assert_check_clean(server)
