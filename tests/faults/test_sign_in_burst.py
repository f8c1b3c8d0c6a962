"""Wrong passcodes and tokens sent in parallel against gunicorn as `make run` serves it: every
try is counted before it is checked, so a burst gets exactly as many checks as the limit allows,
the right passcode among the rest signs nothing in, and no answer is a 503."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlencode

from harness.live_server import LiveServer, at_once, flask

PASSCODE = "table-passcode"
TRIES = 40
PARALLEL = 8
# The place of the right passcode among the tries, well past the limit of ten a minute.
RIGHT_TRY = 19


def set_passcode(server: LiveServer) -> None:
    done = flask(server.database, "access", "set-passcode", "--passcode", PASSCODE)
    assert done.returncode == 0, done.stderr


def test_a_burst_of_wrong_passcodes_counts_every_try(server: LiveServer) -> None:
    set_passcode(server)
    page = server.call("GET", "/sign-in")
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
    cookie = page.header("set-cookie")
    assert token and cookie
    headers = {
        "Cookie": cookie.split(";")[0],
        "Content-Type": "application/x-www-form-urlencoded",
    }

    def sign_in(n: int) -> tuple[int, bool]:
        passcode = PASSCODE if n == RIGHT_TRY else f"guess-{n:04}"
        form = urlencode({"csrf_token": token[1].decode(), "passcode": passcode}).encode()
        answer = server.call("POST", "/sign-in", headers=headers, raw=form)
        return answer.status, answer.status == 303

    answers = []
    for start in range(0, TRIES, PARALLEL):
        answers += at_once(PARALLEL, lambda i, start=start: sign_in(start + i))
    statuses = Counter(status for status, _signed_in in answers)
    assert statuses == {200: 10, 429: TRIES - 10}, statuses
    assert not any(signed_in for _status, signed_in in answers)
    assert server.call("POST", "/api/sessions", {"players": ["A", "B", "C"]}).status == 401


def test_a_burst_of_wrong_tokens_counts_every_try(server: LiveServer) -> None:
    set_passcode(server)

    def wrong_token(n: int) -> int:
        headers = {"Authorization": f"Bearer 1.wrong-{n:04}"}
        return server.call("POST", "/api/sessions", {}, headers=headers).status

    statuses = Counter(at_once(TRIES, wrong_token))
    assert statuses == {401: 10, 429: TRIES - 10}, statuses
