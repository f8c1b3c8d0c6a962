"""Invites made at once and retried: one Idempotency-Key makes one invite, whatever the number
of server workers the requests reach."""

from __future__ import annotations

import uuid

from harness.live_server import LiveServer, at_once

REQUESTS = 8


def test_one_key_sent_at_once_and_again_makes_one_invite(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    path = f"/api/sessions/{session_id}/invites"
    body = {"role": "reader", "hours": 2}
    key = {"Idempotency-Key": f"invite-{uuid.uuid4()}"}

    concurrent = at_once(REQUESTS, lambda _: server.call("POST", path, body, headers=key))
    sequential = [server.call("POST", path, body, headers=key) for _ in range(3)]

    answers = concurrent + sequential
    assert [answer.status for answer in answers] == [201] * (REQUESTS + 3)
    first = answers[0].json()
    assert first["role"] == "reader"
    assert all(answer.json() == first for answer in answers)
    sheet = server.call("GET", f"/sessions/{session_id}/invite")
    assert sheet.status == 200
    assert sheet.body.decode().count("As viewer, until") == 1

    server.restart()
    again = server.call("POST", path, body, headers=key)
    assert again.status == 201
    assert again.json() == first
    other = server.call("POST", path, {"role": "scorer"}, headers=key)
    assert other.status == 409
    assert server.call("POST", path, body).json()["id"] == first["id"] + 1
