"""DNS rebinding against gunicorn as `make run` serves it: a page of another site whose name
points at this server reaches it with that name as Host and as Origin. Its writes, through the
API and through a form with a valid CSRF token, are refused, and nothing changes."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from harness.live_server import SEATS, LiveServer

EVIL = "rebind.attacker.example"


def evil(server: LiveServer) -> dict[str, str]:
    host = f"{EVIL}:{server.port}"
    return {"Host": host, "Origin": f"http://{host}"}


def session_count(server: LiveServer) -> int:
    return len(server.sessions())


def test_a_rebound_name_writes_nothing_through_the_api(server: LiveServer) -> None:
    session = server.new_session()
    answer = server.call("POST", "/api/sessions", {"players": SEATS, "rounds": 0}, evil(server))
    assert answer.status == 403
    assert answer.json()["error"].startswith(f"This scorekeeper is not served at {EVIL}")
    hand = {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75}
    answer = server.call("POST", f"/api/sessions/{session['id']}/hands", hand, evil(server))
    assert answer.status == 403
    assert session_count(server) == 1
    assert server.session(session["id"])["hands"] == []


def test_a_rebound_name_writes_nothing_through_a_form(server: LiveServer) -> None:
    page = server.call("GET", "/sessions/new", headers=evil(server))
    assert page.status == 200
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
    key = re.search(rb'name="write_key" value="([^"]+)"', page.body)
    cookie = page.header("set-cookie")
    assert token and key and cookie
    form = {
        "csrf_token": token[1].decode(),
        "write_key": key[1].decode(),
        **{f"players-{i}": name for i, name in enumerate(SEATS)},
        "rounds": "0",
    }
    answer = server.call(
        "POST",
        "/sessions/new",
        headers={
            **evil(server),
            "Cookie": cookie.split(";")[0],
            "Content-Type": "application/x-www-form-urlencoded",
        },
        raw=urlencode(form).encode(),
    )
    assert answer.status == 403
    assert f"not served at {EVIL}".encode() in answer.body
    assert session_count(server) == 0
