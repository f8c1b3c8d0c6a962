"""Hostile input: every refusal has its exact status, is JSON under /api/, and changes nothing."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from harness.threaded_server import serving
from scorekeeper.config import upload_limit
from scorekeeper.serving import HEADER_SECONDS
from scorekeeper.sessions import database
from scorekeeper.sessions.extensions import db
from scorekeeper.web.stylesheet import NAMES, minified

from ..helpers.api import Api, pick
from ..helpers.database import NewApp

JSON = {"Content-Type": "application/json"}
MB = 1024 * 1024


@pytest.fixture
def sid(api: Api) -> int:
    session = api.new_session()
    api.record(session["id"], **pick("Ann", "Bob", 75))
    return int(session["id"])


def hand_count(api: Api, session_id: int) -> int:
    return len(api.session(session_id)["hands"])


def session_count(client: FlaskClient) -> int:
    return len(client.get("/api/sessions").json["sessions"])  # type: ignore[index]


def assert_json(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.data[:300]
    assert response.mimetype == "application/json"
    assert isinstance(response.json, dict)
    return response.json  # type: ignore[no-any-return]


# --- JSON bodies


def hand_body(picking_points: str) -> bytes:
    return (
        '{"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": '
        + picking_points
        + "}"
    ).encode()


@pytest.mark.parametrize(
    ("body", "error", "field"),
    [
        (b"\xff\xfe{}", "The body is not valid UTF-8 text.", None),
        (b"[" * 100_000 + b"]" * 100_000, "The body is nested too deeply", None),
        (
            b'{"blitzes": ' + b"[" * 11 + b"]" * 11 + b"}",
            "The body is nested too deeply",
            "blitzes",
        ),
        (hand_body("9" * 5000), "A number has more than 6 digits.", "picking_points"),
        (hand_body("1234567"), "A number has more than 6 digits.", "picking_points"),
        (hand_body("NaN"), "NaN is not a number JSON allows.", "picking_points"),
        (hand_body("-Infinity"), "-Infinity is not a number JSON allows.", "picking_points"),
        (hand_body("1e400"), "1e400 is too large a number.", "picking_points"),
        (b'{"kind": "pass", "dealer": "\\udc00"}', "lone surrogate", "dealer"),
        (b'{"kind": "pass", "\\ud800": 1}', "lone surrogate", None),
        (b'["kind", "pass"]', "The body must be a JSON object.", None),
        (b"", "The body must be a JSON object.", None),
        (b'{"kind": ', "The body must be a JSON object.", None),
    ],
)
def test_hostile_hand_bodies_are_refused(
    api: Api, client: FlaskClient, sid: int, body: bytes, error: str, field: str | None
) -> None:
    for method, path in (
        ("POST", f"/api/sessions/{sid}/hands"),
        ("PUT", f"/api/sessions/{sid}/hands/1"),
    ):
        answer = assert_json(client.open(path, method=method, data=body, headers=JSON), 400)
        assert error in answer["error"]
        assert answer.get("field") == field
    assert api.session(sid)["hands"][0]["picking_points"] == 75
    assert hand_count(api, sid) == 1


def test_lone_surrogate_in_a_player_name_is_refused(api: Api, client: FlaskClient) -> None:
    body = b'{"players": ["\\ud800", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}'
    answer = assert_json(client.post("/api/sessions", data=body, headers=JSON), 400)
    assert answer == {
        "error": "Text in the body holds a lone surrogate (such as \\ud800), "
        "which is not a character.",
        "field": "players",
    }
    assert session_count(client) == 0


def test_a_surrogate_pair_is_one_character_and_welcome(api: Api, client: FlaskClient) -> None:
    body = b'{"players": ["\\ud83c\\udccf", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}'
    answer = assert_json(client.post("/api/sessions", data=body, headers=JSON), 201)
    assert answer["players"][0] == "\N{PLAYING CARD BLACK JOKER}"


def test_ten_levels_of_nesting_are_read(api: Api, client: FlaskClient, sid: int) -> None:
    # The body itself is level 1; "blitzes" adds nine more lists: still read, then refused
    # by the hand's own rules (a list of lists is not a list of blitzes).
    body = b'{"kind": "pass", "blitzes": ' + b"[" * 9 + b"]" * 9 + b"}"
    answer = assert_json(client.post(f"/api/sessions/{sid}/hands", data=body, headers=JSON), 400)
    assert answer["field"] == "blitzes"
    assert "nested" not in answer["error"]


# --- content type and origin


def test_text_plain_is_415_and_changes_nothing(client: FlaskClient, sid: int, api: Api) -> None:
    body = b'{"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75}'
    plain = {"Content-Type": "text/plain"}
    answer = assert_json(client.post(f"/api/sessions/{sid}/hands", data=body, headers=plain), 415)
    assert answer == {
        "error": "Send the body as JSON, with the header Content-Type: application/json."
    }
    assert_json(client.post(f"/api/sessions/{sid}/hands", data=body), 415)
    assert hand_count(api, sid) == 1


def test_cross_site_text_plain_post_is_403(client: FlaskClient, sid: int, api: Api) -> None:
    body = b'{"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75}'
    for origin in ("http://evil.example", "null", "https://localhost", "http://localhost:8080"):
        headers = {"Content-Type": "text/plain", "Origin": origin}
        answer = assert_json(
            client.post(f"/api/sessions/{sid}/hands", data=body, headers=headers), 403
        )
        assert answer == {"error": "This change came from another site, so it was refused."}
    assert hand_count(api, sid) == 1


def test_same_site_origin_and_no_origin_may_write(client: FlaskClient, sid: int, api: Api) -> None:
    hand = pick("Cat", "Dan", 75)
    for headers in ({"Origin": "http://localhost"}, {"Origin": "http://localhost:80"}, {}):
        assert (
            client.post(f"/api/sessions/{sid}/hands", json=hand, headers=headers).status_code == 201
        )
    assert hand_count(api, sid) == 4


def test_cross_site_page_write_is_an_html_403(client: FlaskClient, sid: int, api: Api) -> None:
    response = client.post(
        f"/sessions/{sid}/undo", data={"number": "1"}, headers={"Origin": "http://evil.example"}
    )
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert "another site" in response.text
    assert hand_count(api, sid) == 1


def test_cross_site_read_is_allowed(client: FlaskClient, sid: int) -> None:
    response = client.get(f"/api/sessions/{sid}", headers={"Origin": "http://evil.example"})
    assert response.status_code == 200


def test_bodiless_post_needs_no_content_type(client: FlaskClient, sid: int) -> None:
    # No body at all is not "another media type": the route answers for itself.
    answer = assert_json(client.post(f"/api/sessions/{sid}/hands"), 400)
    assert answer["error"] == "The body must be a JSON object."


# --- sizes


class Unreadable(io.RawIOBase):
    """A request body of `size` bytes that fails the test if anything reads it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = self.size + offset if whence == io.SEEK_END else offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, _buffer: Any) -> int:
        raise AssertionError("the body was read")


def test_api_body_over_1_mb_is_413(client: FlaskClient, sid: int, api: Api) -> None:
    body = b'{"kind": "pass", "x": "' + b"a" * MB + b'"}'
    answer = assert_json(client.post(f"/api/sessions/{sid}/hands", data=body, headers=JSON), 413)
    assert answer == {"error": "The body is larger than 1 MB, the most this scorekeeper accepts."}
    assert hand_count(api, sid) == 1


def test_50_mb_api_body_is_refused_before_it_is_read(client: FlaskClient) -> None:
    response = client.post(
        "/api/sessions",
        input_stream=Unreadable(50 * MB),
        headers=JSON,
    )
    assert_json(response, 413)


def test_upload_over_64_mb_is_refused_before_it_is_read(client: FlaskClient) -> None:
    for path in ("/settings/restore", "/sessions/import", "/nights/import"):
        response = client.post(
            path,
            input_stream=Unreadable(64 * MB + 1),
            headers={"Content-Type": "multipart/form-data; boundary=x"},
        )
        assert response.status_code == 413
        assert response.mimetype == "text/html"
        assert "larger than 1 MB" not in response.text
        assert "The file is larger than 64 MB, the most this scorekeeper accepts." in response.text
    for media in ("text/csv", "application/json"):
        response = client.post(
            "/api/imports/nights",
            input_stream=Unreadable(64 * MB + 1),
            headers={"Content-Type": media},
        )
        assert assert_json(response, 413) == {
            "error": "The body is larger than 64 MB, the most this scorekeeper accepts."
        }
    assert session_count(client) == 0


def test_streamed_body_is_cut_at_the_limit(client: FlaskClient) -> None:
    body = io.BytesIO(b'{"players": ["' + b"a" * (2 * MB) + b'"]}')
    response = client.post(
        "/api/sessions",
        input_stream=body,
        headers={**JSON, "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    answer = assert_json(response, 413)
    assert answer == {"error": "The body is larger than 1 MB, the most this scorekeeper accepts."}
    assert body.tell() <= MB + 64 * 1024
    assert session_count(client) == 0


def test_upload_limit_is_configurable(database: str, new_app: NewApp) -> None:
    with new_app(database) as app:
        app.config["UPLOAD_LIMIT"] = 1000
        client = app.test_client()
        data = {"backup": (io.BytesIO(b"{" + b" " * 2000 + b"}"), "backup.json")}
        response = client.post("/settings/restore", data=data)
        assert response.status_code == 413
        assert "The file is larger than 1,000 bytes" in response.text
        app.config["UPLOAD_LIMIT"] = 10 * MB
        response = client.post(
            "/settings/restore",
            input_stream=Unreadable(50 * MB),
            headers={"Content-Type": "multipart/form-data; boundary=x"},
        )
        assert response.status_code == 413
        assert "The file is larger than 10 MB" in response.text
        assert session_count(client) == 0


@pytest.mark.parametrize("path", ["/sign-in", "/sessions/new", "/settings/restore"])
@pytest.mark.parametrize("size", [200 * MB, 3 * 1024 * MB])
def test_a_form_too_large_is_refused_before_csrf_reads_it(
    database: str, path: str, size: int, new_app: NewApp
) -> None:
    with new_app(database, csrf=True) as app:
        response = app.test_client().post(
            path,
            input_stream=Unreadable(size),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert response.status_code == 413
        assert "the most this scorekeeper accepts" in response.text


def test_a_streamed_form_is_refused_unread(database: str, new_app: NewApp) -> None:
    with new_app(database, csrf=True) as app:
        response = app.test_client().post(
            "/sign-in",
            input_stream=Unreadable(2 * MB),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Transfer-Encoding": "chunked",
            },
            environ_overrides={"wsgi.input_terminated": True},
        )
    assert response.status_code == 411
    assert "Send the form with its length" in response.text


@pytest.mark.parametrize(
    ("typed", "size"),
    [("64MB", 64 * MB), ("500kb", 500 * 1024), ("1048576", MB), (" 2 M ", 2 * MB)],
)
def test_upload_limit_reads_sizes(typed: str, size: int) -> None:
    assert upload_limit(typed) == size


def test_upload_limit_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="UPLOAD_LIMIT must be a size"):
        upload_limit("lots")


def test_50_mb_body_is_refused_by_a_live_server_unread(tmp_path: Path, new_app: NewApp) -> None:
    """A real server, a real socket: the 413 comes back while the client has sent only the
    headers, so the 50 MB never reach the server's memory."""
    with new_app(f"sqlite:///{tmp_path / 'live.sqlite3'}") as app, serving(app) as url:
        port = int(url.rpartition(":")[2])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(
                b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\n"
                + f"Content-Length: {50 * MB}\r\n\r\n".encode()
            )
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 413")
    assert b'{"error":"The body is larger than 1 MB' in answer


# --- every answer under /api/ is JSON


def test_options_answers_json(client: FlaskClient, sid: int) -> None:
    response = client.options("/api/sessions")
    assert assert_json(response, 200) == {"allow": ["GET", "HEAD", "OPTIONS", "POST"]}
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS, POST"
    response = client.options(f"/api/sessions/{sid}/hands/1")
    assert assert_json(response, 200) == {"allow": ["DELETE", "OPTIONS", "PUT"]}


def test_options_of_an_unknown_path_is_json_404(client: FlaskClient) -> None:
    assert "error" in assert_json(client.options("/api/no/such/thing"), 404)


def test_wrong_method_is_json_405_with_allow(client: FlaskClient, sid: int, api: Api) -> None:
    response = client.delete("/api/sessions")
    answer = assert_json(response, 405)
    assert answer == {"error": "The method is not allowed for the requested URL."}
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}
    assert_json(client.patch(f"/api/sessions/{sid}/hands/1", json=pick("Cat", "Dan", 75)), 405)
    assert hand_count(api, sid) == 1


def test_long_url_is_414(client: FlaskClient) -> None:
    answer = assert_json(client.get("/api/sessions?x=" + "a" * 8000), 414)
    assert answer == {"error": "The address is too long for this scorekeeper."}
    response = client.get("/sessions?x=" + "a" * 8000)
    assert response.status_code == 414
    assert response.mimetype == "text/html"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raw_get(port: int, target: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[int]:
    """The app under gunicorn with the flags of `make run`."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}", "SECRET_KEY": "g"}
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--config",
            "python:scorekeeper.serving",
            "--no-control-socket",
            "scorekeeper:create_app()",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # Its worker still loading the app on a busy machine: gone all the same.
            server.kill()
            server.wait(timeout=10)


def test_gunicorn_too_long_request_line_is_json_414(gunicorn: int) -> None:
    # Beyond the app's limit but within gunicorn's: the app's answer.
    answer = raw_get(gunicorn, "/api/sessions?x=" + "a" * 8100)
    assert answer.startswith(b"HTTP/1.1 414")
    assert b"application/json" in answer
    assert answer.endswith(b'{"error":"The address is too long for this scorekeeper."}\n')
    # Beyond gunicorn's own limit: gunicorn's answer, in the same words and shape.
    answer = raw_get(gunicorn, "/api/sessions?x=" + "a" * 9000)
    assert answer.startswith(b"HTTP/1.1 414 URI Too Long\r\n")
    assert b"Content-Type: application/json\r\n" in answer
    assert answer.endswith(b'{"error": "The address is too long for this scorekeeper."}')


def test_gunicorn_closes_the_connection_of_a_body_too_large_unread(gunicorn: int) -> None:
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=3) as s:
        s.sendall(
            b"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {3 * 1024 * MB}\r\n\r\n".encode()
            + b"passcode="
            + b"a" * 65536
        )
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"the most this scorekeeper accepts" in answer


def test_gunicorn_lets_go_of_a_client_stalled_in_its_headers(gunicorn: int) -> None:
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=HEADER_SECONDS + 5) as s:
        s.sendall(b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        started = time.monotonic()
        assert s.recv(65536) == b""
        assert time.monotonic() - started < HEADER_SECONDS + 2


# --- headers and cookies

PAGES = [
    "/", "/sessions", "/sessions/new", "/leaderboard", "/settings", "/sessions/import",
    "/nights/import", "/install",
]  # fmt: skip


def session_pages(sid: int) -> list[str]:
    return [
        f"/sessions/{sid}",
        f"/sessions/{sid}/hands/new",
        f"/sessions/{sid}/hands/1/edit",
        f"/sessions/{sid}/hands/1/delete",
        "/players/1",
        "/sessions/999999",
    ]


def test_security_headers_on_every_page(client: FlaskClient, sid: int) -> None:
    for path in [*PAGES, *session_pages(sid), "/api/sessions"]:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp
        assert "style-src 'self'" in csp
        assert "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["X-Frame-Options"] == "DENY"


def inline_styles(client: FlaskClient) -> dict[str, str]:
    """Each stylesheet as a page carries it."""
    styles = {}
    for name in NAMES:
        with client.get(f"/static/{name}") as file:
            styles[name] = f"<style>{minified(file.get_data(as_text=True))}</style>"
    return styles


def test_the_stylesheets_come_inside_the_page_allowed_by_their_hashes(
    api: Api, client: FlaskClient
) -> None:
    styles = inline_styles(client)
    session = api.new_session()
    home = client.get("/")
    record = client.get(f"/sessions/{session['id']}/hands/new")
    sheet = client.get(f"/sessions/{session['id']}")
    settings = client.get("/settings")
    assert list(styles) == [
        "style.css",
        "form.css",
        "sheet.css",
        "grid.css",
        "sessions.css",
        "tv.css",
        "pages.css",
    ]
    assert "--accent: #1d6b4c;" in styles["style.css"] and ".tv{" in styles["tv.css"]
    assert ".sessions{" in styles["sessions.css"] and ".seats{" in styles["pages.css"]
    assert ".hand-form{" in styles["form.css"] and ".next .deal{" in styles["sheet.css"]
    assert ".grid{" in styles["grid.css"] and ".chart{" in styles["grid.css"]
    # A page carries all but the table view's, and the pages a player opens at the table only
    # style.css and the ones their first screen uses.
    assert [settings.text.count(style) for style in styles.values()] == [1, 1, 1, 1, 1, 0, 1]
    assert [home.text.count(style) for style in styles.values()] == [1, 0, 0, 0, 1, 0, 0]
    assert [record.text.count(style) for style in styles.values()] == [1, 1, 0, 0, 0, 0, 0]
    assert [sheet.text.count(style) for style in styles.values()] == [1, 0, 1, 0, 0, 0, 0]
    table = client.get(f"/sessions/{session['id']}/table")
    assert [table.text.count(style) for style in styles.values()] == [1, 0, 0, 0, 0, 1, 0]
    sources = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(style[7:-8].encode()).digest()).decode()}'"
        for style in styles.values()
    )
    # The scoresheet links the grid's and the chart's, which 'self' allows.
    assert sheet.text.count('rel="stylesheet"') == 1
    for page in (home, record, settings, table):
        assert 'rel="stylesheet"' not in page.text
    for page in (home, record, sheet, settings, table):
        csp = page.headers["Content-Security-Policy"]
        assert f"style-src 'self' {sources};" in csp


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.IGNORECASE)


def test_no_page_has_inline_script_handler_or_style(api: Api, client: FlaskClient) -> None:
    session = api.new_session(rules={"no_bid": "leaster"})
    sid = session["id"]
    api.record(sid, **pick("Ann", "Bob", 75))
    api.record(sid, kind="leaster", winner="Cat")
    styles = inline_styles(client)
    for path in [*PAGES, *session_pages(sid), "/sessions?from=nonsense"]:
        html = client.get(path).text
        assert "<svg" in html or path != f"/sessions/{sid}"
        # The style elements are the stylesheets, which the CSP allows by their hashes.
        assert html.count(styles["style.css"]) == 1, path
        for style in styles.values():
            html = html.replace(style, "")
        for pattern in (INLINE_SCRIPT, HANDLER, STYLE_ATTRIBUTE, STYLE_ELEMENT):
            assert not pattern.search(html), (path, pattern.search(html))


def test_cookies_are_httponly_and_lax_and_secure_over_https(database: str, new_app: NewApp) -> None:
    with new_app(database, csrf=True) as app:
        client = app.test_client()
        plain = client.get("/sessions/new").headers.getlist("Set-Cookie")
        assert len(plain) == 1
        assert "HttpOnly" in plain[0]
        assert "SameSite=Lax" in plain[0]
        assert "Secure" not in plain[0]
        secure = app.test_client().get("/sessions/new", base_url="https://localhost")
        cookie = secure.headers.getlist("Set-Cookie")
        assert len(cookie) == 1
        assert "; Secure" in cookie[0]
        assert "HttpOnly" in cookie[0]


def test_strict_transport_security_is_sent_over_https_alone(client: FlaskClient) -> None:
    for path in ("/", "/api/sessions", "/static/style.css", "/no-such-page"):
        secure = client.get(path, base_url="https://localhost")
        assert secure.headers["Strict-Transport-Security"] == "max-age=31536000", path
        assert "Strict-Transport-Security" not in client.get(path).headers, path


# --- a busy database


@contextmanager
def lock_timeouts(app: Flask, milliseconds: int) -> Iterator[None]:
    """The app's wait for the database's write lock made short while the `with` lasts (SQLite's
    busy timeout of each new connection, PostgreSQL's lock_timeout of each write), so the test
    needn't wait seconds."""
    with app.app_context():
        engine = db.engine
    engine.dispose()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(database, "LOCK_WAIT_SECONDS", milliseconds / 1000)
        yield
    engine.dispose()


def test_a_busy_database_is_503_with_retry_after(
    app: Flask, api: Api, client: FlaskClient, sid: int
) -> None:
    with lock_timeouts(app, 100):
        with app.app_context():
            url = db.engine.url
        if url.get_backend_name() == "sqlite":
            # Another program (the sqlite3 shell, say) holds the database's write lock.
            other = sqlite3.connect(str(url.database), isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            other.execute("UPDATE session SET name = 'restoring'")
            response = client.patch(f"/api/sessions/{sid}", json={"name": "Friday"})
            page = client.post(f"/sessions/{sid}/undo", data={"number": "1"})
            other.rollback()
            other.close()
        else:
            with app.app_context(), db.engine.connect() as pg:
                # Another writer (a restore, say) holds the lock on the sessions table.
                pg.execute(text('LOCK TABLE "session" IN ACCESS EXCLUSIVE MODE'))
                response = client.patch(f"/api/sessions/{sid}", json={"name": "Friday"})
                page = client.post(f"/sessions/{sid}/undo", data={"number": "1"})
                pg.rollback()
    answer = assert_json(response, 503)
    assert answer == {
        "error": "The scorekeeper is busy saving a restore or an import. Try again in a moment."
    }
    assert response.headers["Retry-After"] == "2"
    assert page.status_code == 503
    assert page.mimetype == "text/html"
    assert page.headers["Retry-After"] == "2"
    assert "busy saving a restore" in page.text
    assert api.session(sid)["name"] == ""
    assert hand_count(api, sid) == 1


# --- page 500s that are now refusals


def test_misspelled_dealer_on_edit_is_refused_inline(
    client: FlaskClient, api: Api, sid: int
) -> None:
    form = {
        "kind": "pick",
        "picker": "Cat",
        "partner": "Dan",
        "picking_points": "61",
        "dealer": "Zed",
    }
    response = client.post(f"/sessions/{sid}/hands/1/edit", data=form)
    assert response.status_code == 200
    assert "Zed is not playing in this session: choose the dealer." in response.text
    assert 'value="61"' in response.text
    hand = api.session(sid)["hands"][0]
    assert (hand["picker"], hand["dealer"], hand["picking_points"]) == ("Ann", "Ann", 75)


def test_hand_number_abc_is_refused_inline(client: FlaskClient, api: Api, sid: int) -> None:
    form = {
        "kind": "pick",
        "picker": "Cat",
        "partner": "Dan",
        "picking_points": "61",
        "number": "abc",
    }
    response = client.post(f"/sessions/{sid}/hands/new", data=form)
    assert response.status_code == 200
    assert "hand number, “abc”, is not a number. Reload the page" in response.text
    assert 'value="61"' in response.text
    assert hand_count(api, sid) == 1


@pytest.mark.parametrize("points", ["9" * 5000, "99999999999999999999"])
def test_huge_typed_points_are_refused_inline(
    client: FlaskClient, api: Api, sid: int, points: str
) -> None:
    form = {
        "kind": "pick",
        "picker": "Cat",
        "partner": "Dan",
        "picking_points": points,
        "number": "2",
    }
    response = client.post(f"/sessions/{sid}/hands/new", data=form)
    assert response.status_code == 200
    assert 'id="picking_points-error"' in response.text
    assert hand_count(api, sid) == 1


def test_huge_typed_rounds_are_refused_inline(client: FlaskClient) -> None:
    form = {"seat-0": "Ann", "seat-1": "Bob", "seat-2": "Cat", "seat-3": "Dan", "seat-4": "Eve",
            "rounds": "9" * 5000, "first_dealer": "0"}  # fmt: skip
    response = client.post("/sessions/new", data=form)
    assert response.status_code == 200
    assert 'class="error"' in response.text
    assert session_count(client) == 0


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("endpoint=", 200),
        ("endpoint=x&page=2", 200),
        ("_method=", 200),
        ("_external=1", 200),
        ("page=abc", 200),
        ("page=-1", 200),
        ("page=99999999999999999999", 200),
        ("from=2024-13-45", 400),
        ("to=2024-02-30", 400),
    ],
)
def test_history_query_strings(api: Api, client: FlaskClient, query: str, status: int) -> None:
    for _ in range(25):
        api.new_session()
    response = client.get(f"/sessions?{query}")
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert "http://localhost/sessions" not in response.text
    assert 'href="/sessions?page=' in response.text or status == 400


@pytest.mark.parametrize(
    "query", ["saved=abc", "saved=-1", "saved=99999999999999999999", "endpoint=", "_method="]
)
def test_scoresheet_query_strings(client: FlaskClient, sid: int, query: str) -> None:
    assert client.get(f"/sessions/{sid}?{query}").status_code == 200


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/leaderboard?from=2024-13-45", 400),
        ("/leaderboard?min_picks=abc", 400),
        ("/leaderboard?endpoint=", 200),
        ("/players/1?from=2024-13-45", 400),
        ("/players/1?endpoint=", 200),
        ("/leaderboard.csv?from=2024-13-45", 400),
    ],
)
def test_stats_query_strings(client: FlaskClient, sid: int, path: str, status: int) -> None:
    assert client.get(path).status_code == status


def test_the_stylesheet_is_sent_without_comments_or_needless_spaces() -> None:
    css = """/* The bar */
.bar a, .bar button { min-height: 44px;
  font: 17px/1.4 system-ui, "Segoe UI"; }
.list > li:has(input[value=""]:checked) .x::before { content: "▸"; }
@media (min-width: 900px) and (orientation: landscape) { .tv { gap: calc(1rem + 2px); } }
"""
    assert minified(css) == (
        '.bar a,.bar button{min-height: 44px;font: 17px/1.4 system-ui,"Segoe UI"}'
        '.list>li:has(input[value=""]:checked) .x::before{content: "▸"}'
        "@media (min-width: 900px) and (orientation: landscape){.tv{gap: calc(1rem + 2px)}}"
    )
