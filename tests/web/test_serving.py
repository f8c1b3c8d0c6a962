"""The deadlines of `scorekeeper/serving.py`: a body that comes too slowly is answered 408 and
never reaches a view whole. The development server's log and the app's keep no invite's secret."""

from __future__ import annotations

import io
import json
import logging
import resource
from collections.abc import Iterator
from urllib.parse import urlsplit
from urllib.request import urlopen

import gevent
import pytest
from flask import Flask
from werkzeug.exceptions import RequestTimeout
from werkzeug.test import EnvironBuilder, run_wsgi_app

from harness.threaded_server import serving
from scorekeeper.serving import (
    BODY_GRACE_SECONDS,
    MIN_BODY_RATE,
    OTHER_FILES,
    MaskedAtoms,
    TakingTurns,
    TimedBody,
    body_seconds,
    open_files_for,
    with_body_deadline,
    worker_connections,
)

MB = 1024 * 1024
SESSION = {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}


class Trickling(io.RawIOBase):
    """A body that sends a byte every `pause` seconds, cooperatively (as a socket under gevent)."""

    def __init__(self, data: bytes, pause: float) -> None:
        self.data = data
        self.pause = pause
        self.sent = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        gevent.sleep(self.pause)
        chunk = self.data[self.sent : self.sent + 1]
        self.sent += len(chunk)
        return chunk


def test_a_body_may_take_the_grace_and_a_second_for_each_64_kb() -> None:
    assert body_seconds(None) == BODY_GRACE_SECONDS
    assert body_seconds(0) == BODY_GRACE_SECONDS
    assert body_seconds(64 * MB) == BODY_GRACE_SECONDS + 64 * MB / MIN_BODY_RATE
    assert MIN_BODY_RATE == 64 * 1024


def test_a_read_past_the_deadline_is_a_408() -> None:
    body = TimedBody(Trickling(b"x" * 100, pause=0.05), seconds=0.2)
    with pytest.raises(RequestTimeout):
        while body.read(1):
            pass
    assert 1 <= body._body.sent < 10  # type: ignore[attr-defined]


def test_a_body_in_time_reads_whole() -> None:
    body = TimedBody(Trickling(b"abc", pause=0.001), seconds=5)
    assert b"".join(iter(lambda: body.read(1), b"")) == b"abc"


def test_the_app_answers_a_body_too_slow_with_a_json_408(app: Flask) -> None:
    data = json.dumps({"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}).encode()
    environ = EnvironBuilder(
        path="/api/sessions",
        method="POST",
        headers={"Content-Type": "application/json", "Content-Length": str(len(data))},
    ).get_environ()
    environ["wsgi.input"] = Trickling(data, pause=0.01)
    environ["wsgi.input_terminated"] = True
    timed = with_body_deadline(app.wsgi_app, seconds=lambda _length: 0.1)
    answer, status, _headers = run_wsgi_app(timed, environ)
    body = b"".join(answer)
    assert status.startswith("408")
    assert json.loads(body)["error"].startswith("The request's body came too slowly")
    assert app.test_client().get("/api/sessions").json == {"sessions": []}


def test_a_long_answer_lets_other_connections_go_on_between_its_parts() -> None:
    events: list[str] = []

    def answer() -> Iterator[bytes]:
        for n in range(3):
            events.append(f"part {n}")
            yield b"x"

    other = gevent.spawn(events.append, "another phone")
    parts = list(TakingTurns(answer()))
    other.join()
    assert parts == [b"x"] * 3
    assert events.index("another phone") < events.index("part 2")


def test_taking_turns_closes_the_answer() -> None:
    closed = []

    class Answer(list[bytes]):
        def close(self) -> None:
            closed.append(True)

    TakingTurns(Answer([b"a"])).close()
    assert closed == [True]


def test_the_development_server_s_log_masks_an_invite_s_secret(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    session_id = app.test_client().post("/api/sessions", json=SESSION).json["id"]
    url = app.test_client().post(f"/api/sessions/{session_id}/invites").json["url"]
    invite_id, secret = urlsplit(url).path.removeprefix("/invites/").split(".")
    with caplog.at_level(logging.INFO, logger="werkzeug"), serving(app) as served:
        asked = urlopen(f"{served}/sign-in?next=/invites/{invite_id}.{secret}")
        with asked as answer:
            assert answer.status == 200
    logged = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert any(f"/sign-in?next=/invites/{invite_id}.*** HTTP/1.1" in line for line in logged)
    assert all(secret not in line for line in logged)


def test_the_app_s_log_masks_an_invite_s_secret(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        app.logger.error("Exception on %s [%s]", "/invites/3.s3cr3t-x_Y", "GET")
    assert [record.getMessage() for record in caplog.records] == [
        "Exception on /invites/3.*** [GET]"
    ]


def test_a_log_format_naming_a_credential_header_gets_it_masked() -> None:
    atoms = MaskedAtoms(
        {"{cookie}i": "session=abc", "{authorization}i": "Bearer 1.x", "{set-cookie}o": "s=1"}
    )
    assert atoms["{Cookie}i"] == atoms["{authorization}i"] == atoms["{set-cookie}o"] == "***"
    assert atoms["{user-agent}i"] == "-"


def test_a_worker_may_open_a_file_for_each_of_its_connections() -> None:
    """gunicorn's master raises its limit of open files, which its workers inherit, to hold
    every connection a worker takes (a phone's stream among them), as far as the system lets
    it: often 1,024 unless raised."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
        open_files_for(worker_connections)
        raised = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        wanted = worker_connections + OTHER_FILES
        assert raised == (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
