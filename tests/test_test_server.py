"""The server the browser tests are served by closes every answer it began, even one whose phone
hung up halfway: a file or a database snapshot left open would be found later by the garbage
collector, and its ResourceWarning fail whichever test ran then."""

from __future__ import annotations

import gc
import re
import socket
import struct
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask

from harness.sessions import session_of
from harness.threaded_server import serving

from .helpers.browser import app_on_new_database

# Enough hands that the CSV of every hand is still being written when the phone hangs up.
HANDS = 400
HANG_UPS = 12


# Each answer the app gave, by path, and how many of them the server closed.
GIVEN: Counter[str] = Counter()
CLOSED: Counter[str] = Counter()
# The server's threads that gave them: another test's server in this process may still be
# answering a live page's stream meanwhile, in threads of its own.
ANSWERED_BY: set[threading.Thread] = set()


class Counted:
    """An answer of the app's, counted when the server closes it."""

    def __init__(self, answer: Iterable[bytes], path: str) -> None:
        self.answer = answer
        self.path = path

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        CLOSED[self.path] += 1
        getattr(self.answer, "close", lambda: None)()


@pytest.fixture(scope="module")
def app_with_hands(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with app_on_new_database(tmp_path_factory.mktemp("hang-ups")) as app:
        with app.app_context():
            session_of(HANDS)
        answering = app.wsgi_app

        def counting(environ: dict[str, Any], start_response: Any) -> Counted:
            GIVEN[environ["PATH_INFO"]] += 1
            ANSWERED_BY.add(threading.current_thread())
            return Counted(answering(environ, start_response), environ["PATH_INFO"])

        app.wsgi_app = counting  # type: ignore[method-assign]
        yield app


def hang_up(url: str, path: str, at: str) -> None:
    """Ask for `path`, read the answer's first bytes (`at="start"`) or all of it (`"end"`) and
    hang up with a reset (no FIN), as a phone leaving the Wi-Fi or a browser cancelling a load
    does, before the server has finished with the connection."""
    address = urlsplit(url)
    with socket.socket() as phone:
        # A small window, so that a big answer waits on the phone instead of filling buffers.
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        phone.settimeout(5)
        phone.connect((address.hostname, address.port))
        phone.sendall(f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\n\r\n".encode())
        received = phone.recv(64)
        assert received.startswith(b"HTTP/1.1 200")
        while at == "end" and not answered_whole(received):
            received += phone.recv(65536)
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def answered_whole(received: bytes) -> bool:
    head, found, body = received.partition(b"\r\n\r\n")
    if not found:
        return False
    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    if length:
        return len(body) >= int(length[1])
    return body.endswith(b"\r\n0\r\n\r\n") or body == b"0\r\n\r\n"


@pytest.mark.filterwarnings("error::ResourceWarning")
@pytest.mark.parametrize("at", ["start", "end"])
@pytest.mark.parametrize(
    "path", ["/static/icons/icon-512.png", "/favicon.ico", "/sessions/export.csv"]
)
def test_an_answer_cut_off_by_the_phone_is_closed(
    app_with_hands: Flask, path: str, at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    GIVEN.clear()
    CLOSED.clear()
    ANSWERED_BY.clear()
    left_open: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", left_open.append)
    with serving(app_with_hands) as url:
        for _ in range(HANG_UPS):
            hang_up(url, path, at)
        deadline = time.monotonic() + 10
        while any(t.is_alive() for t in ANSWERED_BY) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(ANSWERED_BY) == HANG_UPS
        assert [t for t in ANSWERED_BY if t.is_alive()] == []
    assert CLOSED == GIVEN == {path: HANG_UPS}
    gc.collect()
    assert [f"{leak.exc_value!r} in {leak.object!r}" for leak in left_open] == []


def test_the_big_answer_is_big_enough_to_be_cut_off(app_with_hands: Flask) -> None:
    with app_with_hands.test_client() as client:
        assert len(client.get("/sessions/export.csv").data) > 20_000
    assert Path(app_with_hands.static_folder or "", "icons", "icon-512.png").stat().st_size > 4096
