"""A server killed with SIGKILL in the middle of a write loop loses no acknowledged hand, and
retries with the same keys add nothing twice."""

from __future__ import annotations

import threading
import time
from typing import Any

from harness.hands import integrity, pick_bodies
from harness.live_server import TIMEOUT, LiveServer, flask

from ..helpers.live import as_sent, sorted_bodies

ACKNOWLEDGED_BEFORE_KILL = 25


def test_sigkill_mid_write_loop(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    path = f"/api/sessions/{session_id}/hands"
    bodies = pick_bodies(1000)
    sent: list[tuple[str, dict[str, Any]]] = []
    acknowledged: list[dict[str, Any]] = []
    first_answers: dict[str, Any] = {}
    enough = threading.Event()

    def write() -> None:
        for i, body in enumerate(bodies):
            key = f"crash-{session_id}-{i}"
            sent.append((key, body))
            try:
                answer = server.call("POST", path, body, headers={"Idempotency-Key": key})
            except OSError:
                return
            if answer.status == 201:
                acknowledged.append(body)
                first_answers[key] = answer.json()
            if len(acknowledged) >= ACKNOWLEDGED_BEFORE_KILL:
                enough.set()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    assert enough.wait(timeout=TIMEOUT), "the writer saved too few hands"
    server.kill()
    writer.join(timeout=TIMEOUT)
    assert not writer.is_alive()
    print(f"killed after {len(acknowledged)} acknowledged of {len(sent)} sent")

    server.start()
    check = flask(server.database, "check")
    sheet = server.session(session_id)
    assert len(acknowledged) <= len(sheet["hands"]) <= len(sent)
    present = set(as_sent(sheet["hands"], bodies))
    assert set(sorted_bodies(acknowledged)) <= present
    assert integrity(sheet) == []

    began = time.perf_counter()
    resent = [
        server.call("POST", path, body, headers={"Idempotency-Key": key}) for key, body in sent
    ]
    print(f"{len(sent)} keys sent again in {time.perf_counter() - began:.1f} s")
    assert [answer.status for answer in resent] == [201] * len(sent)
    for (key, _), answer in zip(sent, resent, strict=True):
        if key in first_answers:
            assert answer.json() == first_answers[key]
    sheet = server.session(session_id)
    assert as_sent(sheet["hands"], bodies) == sorted_bodies([body for _, body in sent])
    assert integrity(sheet, acknowledged=len(sent)) == []
    assert check.returncode == 0, check.stdout + check.stderr
