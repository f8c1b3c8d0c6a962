"""A server told to stop (SIGTERM, as a service manager stops it) finishes the answers under way,
then goes; with none under way it goes at once."""

from __future__ import annotations

import json
import socket
import threading
import time

from harness.live_server import SEATS, LiveServer


def test_a_stopping_server_finishes_the_answer_under_way_then_goes(server: LiveServer) -> None:
    body = json.dumps({"players": SEATS, "rounds": 0, "name": "Last orders"}).encode()
    head = (
        f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as phone:
        phone.sendall(head + body[:10])
        stopping = threading.Thread(target=server.stop)
        stopping.start()
        time.sleep(1.5)
        assert stopping.is_alive(), "the server went with an answer under way"
        phone.sendall(body[10:])
        answer = b""
        while chunk := phone.recv(65536):
            answer += chunk
    stopping.join(timeout=10)
    assert not stopping.is_alive()
    assert answer.startswith(b"HTTP/1.1 201 ")
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["name"] == "Last orders"
    server.start()
    assert [s["name"] for s in server.sessions()] == ["Last orders"]
