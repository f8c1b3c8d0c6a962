"""Slow and stalled clients against gunicorn as `make run` serves it: connections that send
their headers or their body a byte at a time never keep a phone at the table from saving a
hand, with access off or on."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

from harness.hands import pick_bodies
from harness.live_server import SEATS, LiveServer, flask

SLOW_CLIENTS = 40
# How long a phone may wait for its hand to be saved while the slow clients trickle.
PATIENCE = 3.0
TOKEN_NAME = "phone"


class Trickle:
    """`count` connections, each sending a request a byte a second from its own thread."""

    def __init__(self, port: int, request: bytes, count: int) -> None:
        self.port = port
        self.request = request
        self.count = count
        self.stopping = threading.Event()
        self.connected = 0
        self.cut_off = 0
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def _run(self) -> None:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection,
        ):
            with self._lock:
                self.connected += 1
            for byte in self.request:
                if self.stopping.wait(1.0):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    with self._lock:
                        self.cut_off += 1
                    return

    def __enter__(self) -> Trickle:
        for _ in range(self.count):
            thread = threading.Thread(target=self._run, daemon=True)
            thread.start()
            self._threads.append(thread)
        deadline = time.monotonic() + 10
        while self.connected < self.count and time.monotonic() < deadline:
            time.sleep(0.05)
        # Long enough for every connection to have sent a few bytes.
        time.sleep(2.5)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        for thread in self._threads:
            thread.join(timeout=5)


def slow_headers() -> bytes:
    return b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: " + b"a" * 200


def slow_body(path: str) -> bytes:
    body = b'{"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}'
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body) + 200}\r\n\r\n"
    ).encode() + body


def saves_in_time(server: LiveServer, session_id: int, headers: dict[str, str]) -> list[float]:
    """Save three hands as a phone would, each on its own connection; how long each took."""
    took = []
    for body in pick_bodies(3):
        started = time.monotonic()
        answer = server.call(
            "POST", f"/api/sessions/{session_id}/hands", body, headers=headers, timeout=PATIENCE
        )
        took.append(time.monotonic() - started)
        assert answer.status == 201, answer.body
    return took


@pytest.mark.parametrize("access", ["off", "on"])
@pytest.mark.parametrize("trickled", ["headers", "body"])
def test_slow_clients_never_keep_a_phone_from_saving(
    server: LiveServer, access: str, trickled: str
) -> None:
    headers: dict[str, str] = {}
    if access == "on":
        done = flask(server.database, "access", "set-passcode", "--passcode", "table-passcode")
        assert done.returncode == 0, done.stderr
        made = flask(server.database, "access", "create-token", TOKEN_NAME)
        assert made.returncode == 0, made.stderr
        headers = {"Authorization": f"Bearer {made.stdout.strip().splitlines()[-1]}"}
    session = server.call("POST", "/api/sessions", {"players": SEATS, "rounds": 0}, headers=headers)
    assert session.status == 201, session.body
    request = slow_headers() if trickled == "headers" else slow_body("/api/sessions")
    with Trickle(server.port, request, SLOW_CLIENTS) as trickle:
        assert trickle.connected == SLOW_CLIENTS
        took = saves_in_time(server, session.json()["id"], headers)
    assert max(took) < PATIENCE
