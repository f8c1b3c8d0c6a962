"""The lock file writers to a SQLite database queue on is closed with the connection that opened
it, even one still out of the pool when its app went: a file left for the garbage collector
would fail, with its ResourceWarning, whichever test ran when it was collected."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.sessions import session_of
from scorekeeper.sessions.extensions import db

from .helpers.browser import app_on_new_database


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
