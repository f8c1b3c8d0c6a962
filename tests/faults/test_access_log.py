"""The request log of gunicorn as `make run` serves (`--access-logfile -`): an invite's link,
which signs a phone in for hours to anyone who reads it, is logged with its secret masked, as
is any header that carries credentials."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from harness.live_server import LiveServer

from .server import FaultServer


@pytest.fixture
def logging_server(tmp_path: Path) -> Iterator[LiveServer]:
    live = FaultServer(f"sqlite:///{tmp_path / 'log.sqlite3'}", access_log=True)
    live.fresh_schema()
    live.start()
    try:
        yield live
    finally:
        live.stop()
        live.log.unlink(missing_ok=True)


def test_the_access_log_masks_an_invite_s_secret(logging_server: LiveServer) -> None:
    session_id = logging_server.new_session()["id"]
    made = logging_server.call("POST", f"/api/sessions/{session_id}/invites", {"role": "reader"})
    assert made.status == 201
    path = urlsplit(made.json()["url"]).path
    invite_id, secret = path.removeprefix("/invites/").split(".")
    opened = logging_server.call("GET", path)
    assert opened.status == 303
    cookie = opened.header("set-cookie")
    assert cookie is not None
    # The same link with its dot written %2E, and in a query and a Referer.
    assert logging_server.call("GET", f"/invites/{invite_id}%2E{secret}").status == 303
    referer = {"Referer": f"http://127.0.0.1:{logging_server.port}{path}"}
    logging_server.call("GET", f"/sign-in?next={quote(path, safe='')}", headers=referer)
    logging_server.call("GET", f"/sign-in?next={path}", headers={"Cookie": cookie})
    revoked = f"/api/sessions/{session_id}/invites/{invite_id}"
    assert logging_server.call("DELETE", revoked).status == 204
    logging_server.stop()

    log = logging_server.log.read_text()
    assert secret not in log
    assert cookie.split(";")[0].split("=", 1)[1] not in log
    assert f'"GET /invites/{invite_id}.*** HTTP/1.1" 303' in log
    assert f'"GET /invites/{invite_id}%2E*** HTTP/1.1" 303' in log
    assert f"next=%2Finvites%2F{invite_id}.***" in log
    assert f'"http://127.0.0.1:{logging_server.port}/invites/{invite_id}.***"' in log
    # What carries no secret is logged as it was asked.
    assert f'"DELETE {revoked} HTTP/1.1" 204' in log
    assert f'"POST /api/sessions/{session_id}/invites HTTP/1.1" 201' in log
