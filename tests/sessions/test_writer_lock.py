"""The lock file writers to a SQLite database queue on: closed with the connection that opened
it, even one still out of the pool when its app went (a file left for the garbage collector
would fail, with its ResourceWarning, whichever test ran when it was collected); and a long
job's batches letting the writers that wait go first."""

from __future__ import annotations

import fcntl
import gc
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from harness.sessions import session_of
from scorekeeper.sessions.database import let_waiting_writers_go
from scorekeeper.sessions.extensions import db

from ..helpers.browser import app_on_new_database


@pytest.mark.filterwarnings("error::ResourceWarning")
def test_a_connection_out_when_its_app_goes_leaves_no_file_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    left_open: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", left_open.append)
    with app_on_new_database(tmp_path) as app, app.app_context():
        session_of(2)
        # A request still answering (a live page's stream, say) holds a connection that wrote.
        held = db.engine.connect().execution_options(write_lock=True)
        held.begin()
        held.commit()
    # The app's pool was disposed without it; it goes back to that old pool, then with it.
    held.close()
    del held, app
    gc.collect()
    assert [f"{leak.exc_value!r} in {leak.object!r}" for leak in left_open] == []


def waits_taken(database: Path) -> bool:
    """Whether some writer holds the file of writers waiting."""
    with open(f"{database}.writer-waits", "a+b") as waits:
        try:
            fcntl.flock(waits, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        return False


def test_a_long_jobs_next_batch_waits_for_the_writers_waiting(tmp_path: Path) -> None:
    """A phone's write waits while a restore's batch holds the lock; between batches the restore
    lets it go first, however late the phone's server runs it, and then goes on."""
    database = tmp_path / "scorekeeper.sqlite3"
    answers: list[int] = []
    with app_on_new_database(tmp_path) as app, open(f"{database}.writer-lock", "a+b") as batch:
        fcntl.flock(batch, fcntl.LOCK_EX)
        body = {"players": ["Ann", "Bob", "Cat"], "rounds": 0}
        phone = threading.Thread(
            target=lambda: answers.append(
                app.test_client().post("/api/sessions", json=body).status_code
            )
        )
        phone.start()
        began = time.monotonic()
        while not waits_taken(database):
            assert time.monotonic() - began < 2
            time.sleep(0.001)
        # The batch ends; the restore looks whether writers wait before its next one.
        threading.Timer(0.3, fcntl.flock, (batch, fcntl.LOCK_UN)).start()
        with app.app_context():
            began = time.monotonic()
            let_waiting_writers_go(5)
            waited = time.monotonic() - began
        phone.join()
    assert answers == [201]
    assert 0.3 <= waited < 2


def test_writers_that_keep_waiting_hold_a_long_job_back_only_so_long(tmp_path: Path) -> None:
    database = tmp_path / "scorekeeper.sqlite3"
    with app_on_new_database(tmp_path) as app, app.app_context():
        began = time.monotonic()
        let_waiting_writers_go(5)
        assert time.monotonic() - began < 0.1
        with open(f"{database}.writer-waits", "a+b") as waiting:
            fcntl.flock(waiting, fcntl.LOCK_SH)
            began = time.monotonic()
            let_waiting_writers_go(0.2)
            assert 0.2 <= time.monotonic() - began < 1
