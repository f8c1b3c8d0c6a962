"""Two app servers on one PostgreSQL database, as two computers would run them: two gunicorn
masters (two "hosts", each with its two gevent workers, on ports of their own) behind Caddy
taking turns between them with the README's block (`deploy/Caddyfile.servers`). Nothing depends
on one process or one computer: a hand recorded on one is edited on the other, writers racing
through both and through Caddy leave one whole session, one Idempotency-Key sent to both writes
once, a restore uploaded to one runs while the other takes writes (and refuses a second
restore), wrong passcodes tried on both count toward one limit, a stream on either hears a hand
recorded on the other, and a host killed mid-write through Caddy loses nothing, its keys sent
again adding nothing.

They share the database and SECRET_KEY (`harness.live_server.server_env`), and nothing else.
Skipped, saying so, without TEST_DATABASE_URL or Caddy."""

from __future__ import annotations

import http.client
import os
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from sqlalchemy import make_url

from harness.hands import integrity, pick_bodies
from harness.live_server import TIMEOUT, Answer, LiveServer, at_once, flask
from harness.proxy import Balancer, caddy_path

from ..helpers.live import as_sent, assert_check_clean, sent_fields, sorted_bodies
from .backups import SESSIONS, large_backup
from .server import FaultServer

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TEST_DATABASE_URL"),
        reason="Two servers share one PostgreSQL database: set TEST_DATABASE_URL to one.",
    ),
    pytest.mark.skipif(
        caddy_path() is None,
        reason="No Caddy found: install it (Debian: apt-get install caddy) or set CADDY.",
    ),
]

WRITERS = 8
PASSCODE = "table-passcode"
FEW_HANDS = 10
# A stream speaks every 20 s at least: a change is heard well within this.
HEARD_WITHIN_S = 30.0


@dataclass
class Hosts:
    one: FaultServer
    other: FaultServer
    caddy: Balancer

    def each(self, n: int) -> LiveServer | Balancer:
        """One host, the other and Caddy in turn."""
        return (self.one, self.other, self.caddy)[n % 3]


def hosts_database(url: str) -> str:
    """A database of their own beside TEST_DATABASE_URL's, made afresh for the module."""
    given = make_url(url)
    return given.set(database=f"{given.database}_hosts").render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosts]:
    folder = tmp_path_factory.mktemp("hosts")
    database = hosts_database(os.environ["TEST_DATABASE_URL"])
    env = {"TRUSTED_PROXIES": "1"}
    for log in ("one.log", "other.log", "caddy.log"):
        (folder / log).touch()
    one = FaultServer(database, env=env, access_log=True, log=folder / "one.log")
    other = FaultServer(database, env=env, access_log=True, log=folder / "other.log")
    one.fresh_schema()
    one.start()
    other.start()
    caddy = Balancer(
        caddy=caddy_path() or "caddy",
        app_ports=(one.port, other.port),
        folder=folder,
        log=folder / "caddy.log",
    )
    try:
        caddy.start()
        yield Hosts(one, other, caddy)
    finally:
        caddy.stop()
        one.kill()
        other.kill()


@pytest.fixture
def hosts(running: Hosts) -> Hosts:
    """Both hosts up, on emptied tables."""
    running.one.empty()
    for host in (running.one, running.other):
        if host.process is None:
            host.start(same_port=True)
    return running


def test_caddy_takes_turns_between_the_hosts(hosts: Hosts) -> None:
    def logged() -> list[int]:
        return [
            host.log.read_text().count("GET /api/sessions?") for host in (hosts.one, hosts.other)
        ]

    before = logged()
    for _ in range(6):
        assert hosts.caddy.call("GET", "/api/sessions?turns=1").status == 200
    # A request is logged once answered: the last line may come a moment after its answer.
    deadline = time.monotonic() + TIMEOUT
    while sum(logged()) < sum(before) + 6:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert [a - b for a, b in zip(logged(), before, strict=True)] == [3, 3]


def test_a_hand_recorded_on_one_is_edited_on_the_other(hosts: Hosts) -> None:
    one, other = hosts.one, hosts.other
    session_id = one.new_session()["id"]
    first, edit = pick_bodies(2)
    path = f"/api/sessions/{session_id}/hands"
    assert one.call("POST", path, first).status == 201
    etag = one.call("GET", f"/api/sessions/{session_id}").header("ETag")
    assert etag is not None

    edited = other.call("PUT", f"{path}/1", edit, headers={"If-Match": etag})
    assert edited.status == 200, edited.body
    stale = one.call("PUT", f"{path}/1", first, headers={"If-Match": etag})
    assert stale.status == 412, stale.body
    sheet = hosts.caddy.call("GET", f"/api/sessions/{session_id}").json()
    assert [sent_fields(hand, edit) for hand in sheet["hands"]] == [edit]
    assert integrity(sheet) == []


def test_writers_racing_through_both_hosts_and_caddy_leave_one_whole_session(
    hosts: Hosts,
) -> None:
    session_id = hosts.one.new_session()["id"]
    bodies = pick_bodies(WRITERS * 25)
    path = f"/api/sessions/{session_id}/hands"

    def write(writer: int) -> list[int]:
        mine = bodies[writer * 25 : (writer + 1) * 25]
        return [
            hosts.each(writer + n).call("POST", path, body).status for n, body in enumerate(mine)
        ]

    statuses = Counter(status for writer in at_once(WRITERS, write) for status in writer)
    assert statuses == {201: WRITERS * 25}
    sheet = hosts.other.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == list(range(1, WRITERS * 25 + 1))
    assert as_sent(sheet["hands"], bodies) == sorted_bodies(bodies)
    assert integrity(sheet, acknowledged=WRITERS * 25) == []
    assert_check_clean(hosts.one)


def test_one_idempotency_key_sent_to_both_hosts_writes_once(hosts: Hosts) -> None:
    session_id = hosts.one.new_session()["id"]
    path = f"/api/sessions/{session_id}/hands"
    body, other = pick_bodies(2)
    key = {"Idempotency-Key": f"both-{uuid.uuid4()}"}

    answers = at_once(12, lambda n: hosts.each(n).call("POST", path, body, headers=key))
    answers += [host.call("POST", path, body, headers=key) for host in (hosts.one, hosts.other)]

    assert [answer.status for answer in answers] == [201] * 14
    assert all(answer.json() == answers[0].json() for answer in answers)
    reused = hosts.other.call("POST", path, other, headers=key)
    assert reused.status == 409
    sheet = hosts.one.session(session_id)
    assert len(sheet["hands"]) == 1
    assert integrity(sheet) == []


def form_fields(page: bytes) -> tuple[str, str]:
    """A Settings form's CSRF token and write key."""
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page)
    key = re.search(rb'name="write_key" value="([^"]+)"', page)
    assert token and key
    return token[1].decode(), key[1].decode()


def upload_restore(host: LiveServer, backup: Path) -> Answer:
    """Settings' Restore backup on `host`, with the backup to merge: its page, read whole."""
    page = host.call("GET", "/settings")
    cookie = page.header("set-cookie")
    assert page.status == 200 and cookie
    token, key = form_fields(page.body)
    boundary = f"restore-{uuid.uuid4().hex}"
    fields = {"csrf_token": token, "write_key": key, "merge": "y"}
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="backup"; filename="backup.json"'
        "\r\nContent-Type: application/json\r\n\r\n".encode()
        + backup.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers = {
        "Cookie": cookie.split(";")[0],
        "Content-Type": f"multipart/form-data; boundary={boundary}",
    }
    return host.call("POST", "/settings/restore", raw=b"".join(parts), headers=headers, timeout=300)


def test_a_restore_on_one_host_runs_while_the_other_takes_writes(
    hosts: Hosts, tmp_path: Path
) -> None:
    backup = large_backup(tmp_path, FEW_HANDS)
    session_id = hosts.other.new_session()["id"]
    path = f"/api/sessions/{session_id}/hands"
    bodies = pick_bodies(WRITERS * 300)
    saved: list[dict[str, Any]] = []
    refused: list[tuple[int, bytes]] = []
    during: list[int] = []
    lock = threading.Lock()
    restored: list[Answer] = []
    done = threading.Event()

    def restore() -> None:
        try:
            restored.append(upload_restore(hosts.one, backup))
        finally:
            done.set()

    def write(writer: int) -> None:
        for n, body in enumerate(bodies[writer * 300 : (writer + 1) * 300]):
            if done.is_set():
                return
            host = hosts.other if n % 2 else hosts.caddy
            answer = host.call("POST", path, body)
            with lock:
                if answer.status == 201:
                    saved.append(body)
                else:
                    refused.append((answer.status, answer.body))

    def watch() -> None:
        """A second restore, on the other host, while the first one's batches are written."""
        while not done.is_set():
            count = len(hosts.other.sessions())
            if 1 < count < SESSIONS:
                during.append(upload_restore(hosts.other, backup).status)
                return
            time.sleep(0.05)

    at_once(WRITERS + 2, lambda n: restore() if n == 0 else watch() if n == 1 else write(n))

    assert restored and restored[0].status == 200, restored
    assert b"Backup restored: " in restored[0].body, restored[0].body[-500:]
    assert refused == [], refused[:3]
    assert len(saved) >= WRITERS, len(saved)
    # While the first restore's batches were written, the second was refused: one restore at a
    # time, whichever host is asked.
    assert during in ([409], []), during
    sheet = hosts.one.session(session_id)
    assert integrity(sheet, acknowledged=len(saved)) == []
    assert as_sent(sheet["hands"], bodies) == sorted_bodies(saved)
    assert len(hosts.caddy.call("GET", "/api/sessions?limit=1000").json()["sessions"]) == (
        SESSIONS + 1
    )
    assert_check_clean(hosts.one)


def sign_in_form(host: LiveServer) -> tuple[dict[str, str], str]:
    page = host.call("GET", "/sign-in")
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
    cookie = page.header("set-cookie")
    assert token and cookie
    headers = {
        "Cookie": cookie.split(";")[0],
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return headers, token[1].decode()


def test_wrong_passcodes_tried_on_both_hosts_count_toward_one_limit(hosts: Hosts) -> None:
    done = flask(hosts.one.database, "access", "set-passcode", "--passcode", PASSCODE)
    assert done.returncode == 0, done.stderr
    # The form of one host, sent to either: they sign with one SECRET_KEY.
    headers, token = sign_in_form(hosts.one)

    def wrong(n: int) -> int:
        form = urlencode({"csrf_token": token, "passcode": f"guess-{n:04}"}).encode()
        return hosts.each(n).call("POST", "/sign-in", headers=headers, raw=form).status

    statuses: Counter[int] = Counter()
    for start in range(0, 30, 6):
        statuses.update(at_once(6, lambda i, start=start: wrong(start + i)))
    assert statuses == {200: 10, 429: 20}, statuses

    def wrong_token(n: int) -> int:
        sent = {"Authorization": f"Bearer 1.wrong-{n:04}"}
        return hosts.each(n).call("POST", "/api/sessions", {}, headers=sent).status

    assert set(at_once(12, wrong_token)) == {429}
    assert hosts.other.call("POST", "/api/sessions", {"players": ["A", "B", "C"]}).status == 401


class Listening:
    """A stream of a session's versions read as it comes, from a server or through Caddy."""

    def __init__(self, port: int, session_id: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HEARD_WITHIN_S)
        self.connection.request("GET", f"/sessions/{session_id}/live")
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200
        assert self.answer.getheader("Content-Type", "").startswith("text/event-stream")
        self.buffer = b""

    def until(self, version: int) -> None:
        deadline = time.monotonic() + HEARD_WITHIN_S
        while f"data: {version}\n\n".encode() not in self.buffer:
            assert time.monotonic() < deadline, self.buffer
            self.buffer += self.answer.read1()

    def close(self) -> None:
        self.connection.close()


def test_a_stream_on_either_host_hears_a_hand_recorded_on_the_other(hosts: Hosts) -> None:
    session_id = hosts.one.new_session()["id"]
    streams = [
        Listening(port, session_id)
        for port in (hosts.one.port, hosts.other.port, hosts.caddy.port, hosts.caddy.port)
    ]
    try:
        for stream in streams:
            stream.until(1)
        path = f"/api/sessions/{session_id}/hands"
        first, second = pick_bodies(2)
        assert hosts.one.call("POST", path, first).status == 201
        for stream in streams:
            stream.until(2)
        assert hosts.other.call("POST", path, second).status == 201
        for stream in streams:
            stream.until(3)
    finally:
        for stream in streams:
            stream.close()


def test_a_host_killed_mid_write_through_caddy_loses_nothing(hosts: Hosts) -> None:
    session_id = hosts.one.new_session()["id"]
    path = f"/api/sessions/{session_id}/hands"
    bodies = pick_bodies(120)
    sent: list[tuple[str, dict[str, Any]]] = []
    first_answers: dict[str, Any] = {}
    statuses: Counter[int] = Counter()
    enough = threading.Event()

    def write() -> None:
        for i, body in enumerate(bodies):
            key = f"kill-{session_id}-{i}"
            sent.append((key, body))
            answer = hosts.caddy.call("POST", path, body, headers={"Idempotency-Key": key})
            statuses[answer.status] += 1
            if answer.status == 201:
                first_answers[key] = answer.json()
            if len(first_answers) >= 25:
                enough.set()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    assert enough.wait(timeout=TIMEOUT), "the writer saved too few hands"
    hosts.one.kill()
    writer.join(timeout=4 * TIMEOUT)
    assert not writer.is_alive()
    print(f"answers through Caddy with one host killed: {dict(statuses)}")
    # A request cut off with the host answers 502 at most; Caddy sent the rest to the other.
    assert set(statuses) <= {201, 502}, statuses
    sheet = hosts.other.session(session_id)
    assert len(first_answers) <= len(sheet["hands"]) <= len(sent)
    assert integrity(sheet) == []

    hosts.one.start(same_port=True)
    again = [
        hosts.each(i).call("POST", path, body, headers={"Idempotency-Key": key})
        for i, (key, body) in enumerate(sent)
    ]
    assert [answer.status for answer in again] == [201] * len(sent)
    for (key, _), answer in zip(sent, again, strict=True):
        if key in first_answers:
            assert answer.json() == first_answers[key]
    sheet = hosts.caddy.call("GET", f"/api/sessions/{session_id}").json()
    assert as_sent(sheet["hands"], bodies) == sorted_bodies(bodies)
    assert integrity(sheet, acknowledged=len(bodies)) == []
    assert_check_clean(hosts.other)
