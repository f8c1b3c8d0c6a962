"""Hostile input against the real server: exact statuses, JSON under /api/, nothing written
(API.md, "Limits")."""

from __future__ import annotations

import http.client
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest

from harness.live_server import TIMEOUT, Answer, LiveServer

JSON_TYPE = "application/json"


@dataclass
class Table:
    """What the hostile requests aim at: a session with one hand, among enough sessions that
    the sessions list has a second page."""

    server: LiveServer
    session_id: int

    def counts(self) -> tuple[int, int]:
        """Sessions, and hands of the session: what a refused request must leave unchanged."""
        sessions = self.server.sessions()
        return len(sessions), len(self.server.session(self.session_id)["hands"])


@pytest.fixture(scope="module")
def table(shared_server: LiveServer) -> Iterator[Table]:
    session_id = shared_server.new_session()["id"]
    hand = {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 70}
    assert shared_server.call("POST", f"/api/sessions/{session_id}/hands", hand).status == 201
    for _ in range(21):
        shared_server.new_session()
    yield Table(shared_server, session_id)


def assert_json(answer: Answer, status: int) -> dict[str, Any]:
    assert answer.status == status, answer.body[:300]
    assert (answer.header("Content-Type") or "").startswith(JSON_TYPE), answer.headers
    body = answer.json()
    assert isinstance(body, dict)
    return body


def assert_error(answer: Answer, status: int) -> None:
    assert isinstance(assert_json(answer, status)["error"], str)


def post_raw(server: LiveServer, path: str, raw: bytes) -> Answer:
    return server.call("POST", path, raw=raw, headers={"Content-Type": JSON_TYPE})


def test_deeply_nested_json(table: Table) -> None:
    before = table.counts()
    raw = b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b', "rounds": 0}'
    assert_error(post_raw(table.server, "/api/sessions", raw), 400)
    assert table.counts() == before


def test_lone_surrogate_in_a_player_name(table: Table) -> None:
    before = table.counts()
    raw = b'{"players": ["Ann\\ud800", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}'
    assert_error(post_raw(table.server, "/api/sessions", raw), 400)
    assert table.counts() == before


def test_a_5000_digit_number(table: Table) -> None:
    before = table.counts()
    digits = ("7" * 5000).encode()
    hand = b'{"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": ' + digits
    path = f"/api/sessions/{table.session_id}/hands"
    assert_error(post_raw(table.server, path, hand + b"}"), 400)
    assert table.counts() == before


class Browser:
    """A phone's cookies and a page form's CSRF token, for posting forms as the pages do."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.cookie = ""

    def form_token(self, path: str) -> str:
        page = self.server.call("GET", path)
        assert page.status == 200
        if cookie := page.header("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        found = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page.body)
        assert found is not None, "no CSRF token on " + path
        return found.group(1).decode()

    def post_form(self, path: str, fields: dict[str, str]) -> Answer:
        return self.server.call(
            "POST",
            path,
            raw=urlencode(fields).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie},
        )


def test_a_misspelled_dealer_on_the_edit_page(table: Table) -> None:
    before = table.server.session(table.session_id)["hands"]
    browser = Browser(table.server)
    path = f"/sessions/{table.session_id}/hands/1/edit"
    token = browser.form_token(path)
    edit = {
        "csrf_token": token,
        "kind": "pick",
        "picker": "Bob",
        "partner": "Dan",
        "picking_points": "80",
        "cracked_by": "",
        "dealer": "Anne",
    }

    answer = browser.post_form(path, edit)

    assert answer.status in (200, 400), answer.body[:300]
    assert (answer.header("Content-Type") or "").startswith("text/html")
    assert b'class="error"' in answer.body
    assert table.server.session(table.session_id)["hands"] == before


def test_hand_number_abc(table: Table) -> None:
    before = table.counts()
    browser = Browser(table.server)
    path = f"/sessions/{table.session_id}/hands/new"
    token = browser.form_token(path)
    hand = {"csrf_token": token, "kind": "pick", "picker": "Bob", "partner": "Cat"}

    answer = browser.post_form(path, {**hand, "picking_points": "70", "number": "abc"})
    # A form refusal, shown inline on the form with what was typed.
    assert answer.status == 200, answer.body[:300]
    assert "hand number, “abc”, is not a number".encode() in answer.body
    api = f"/api/sessions/{table.session_id}/hands/abc"
    body = {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 70}
    assert_error(table.server.call("PUT", api, body), 404)
    assert table.counts() == before


def test_an_empty_endpoint_parameter_on_the_sessions_list(table: Table) -> None:
    answer = table.server.call("GET", "/sessions?endpoint=")
    assert answer.status in (200, 400), answer.body[:300]
    if answer.status == 200:
        assert b"Older" in answer.body


def test_options_under_api_answers_json(table: Table) -> None:
    assert_json(table.server.call("OPTIONS", "/api/sessions"), 200)


def test_a_10000_character_url_under_api_answers_414_json(table: Table) -> None:
    assert_error(table.server.call("GET", "/api/sessions/" + "9" * 10_000), 414)


def test_an_upload_over_the_64_mb_limit_is_413(table: Table) -> None:
    before = table.counts()
    browser = Browser(table.server)
    token = browser.form_token("/settings")
    boundary = uuid.uuid4().hex
    head = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="csrf_token"\r\n\r\n'
        f"{token}\r\n"
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="merge"\r\n\r\ny\r\n'
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="backup"; filename="backup.json"\r\n'
        "Content-Type: application/json\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    size = 65 * 1024 * 1024
    headers = {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Content-Length": str(len(head) + size + len(tail)),
        "Cookie": browser.cookie,
    }

    status = send_large(table.server, "/settings/restore", headers, head, size, tail)

    assert status == 413
    assert table.counts() == before


def send_large(
    server: LiveServer, path: str, headers: dict[str, str], head: bytes, size: int, tail: bytes
) -> int:
    """POST head + size spaces + tail in chunks; the server may answer and close before the
    whole body is sent, as it should for a body over the limit."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    try:
        connection.putrequest("POST", path)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        chunk = b" " * (1024 * 1024)
        try:
            connection.send(head)
            for _ in range(size // len(chunk)):
                connection.send(chunk)
            connection.send(tail)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_cross_site_text_plain_post_is_403(table: Table) -> None:
    before = table.counts()
    body = b'{"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}'
    answer = table.server.call(
        "POST",
        "/api/sessions",
        raw=body,
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
    )
    assert_error(answer, 403)
    assert table.counts() == before
