"""Ending a session and settling a leaver on a real multi-worker server: phones racing to end,
reopen, record and settle leave the session as if they had gone one after another, and a
retried write (the same Idempotency-Key, a restart between) happens once (API.md, "Ending, and
settling a leaver" and "Safe writes")."""

from __future__ import annotations

import uuid
from itertools import pairwise
from typing import Any

from harness.hands import integrity, pick_bodies
from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean

WRITERS = 8


def history(server: LiveServer, session_id: int) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = server.call(
        "GET", f"/api/sessions/{session_id}/history"
    ).json()["changes"]
    return changes


def test_an_end_racing_new_hands_takes_none_after_it(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    bodies = pick_bodies(WRITERS)

    def write(i: int) -> int:
        if i == 3:
            body: Any = {"ended": True}
            return server.call("PATCH", f"/api/sessions/{session_id}", body).status
        return server.call("POST", f"/api/sessions/{session_id}/hands", bodies[i]).status

    statuses = at_once(WRITERS, write)
    assert statuses[3] == 200
    recorded = [s for i, s in enumerate(statuses) if i != 3]
    assert set(recorded) <= {201, 409}
    sheet = server.session(session_id)
    assert (sheet["ended"], sheet["complete"], sheet["next_dealer"]) == (True, True, None)
    assert integrity(sheet, acknowledged=recorded.count(201)) == []
    # Newest first: the end, then only the hands added before it.
    actions = [change["action"] for change in history(server, session_id)]
    assert actions == ["end"] + ["add"] * recorded.count(201)
    assert sheet["version"] == 1 + len(actions)
    assert_check_clean(server)


def test_racing_ends_and_reopens_each_count_once(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    answers = at_once(
        WRITERS,
        lambda i: server.call("PATCH", f"/api/sessions/{session_id}", {"ended": i % 2 == 0}),
    )
    assert [answer.status for answer in answers] == [200] * WRITERS
    # Each write saw the one before it: only those that flipped the session wrote a change.
    changes = history(server, session_id)
    flips = [change["after"]["ended"] for change in reversed(changes)]
    assert all(a != b for a, b in pairwise(flips))
    assert [c["action"] for c in changes] == ["end" if e else "reopen" for e in reversed(flips)]
    sheet = server.session(session_id)
    assert sheet["ended"] == (flips[-1] if flips else False)
    assert sheet["version"] == 1 + len(changes)


def test_a_retried_end_happens_once_even_after_a_restart(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    path = f"/api/sessions/{session_id}"
    key = {"Idempotency-Key": f"end-{uuid.uuid4()}"}
    answers = at_once(WRITERS, lambda _: server.call("PATCH", path, {"ended": True}, headers=key))
    assert [answer.status for answer in answers] == [200] * WRITERS
    first = answers[0].json()
    assert all(answer.json() == first for answer in answers)
    assert server.call("PATCH", path, {"ended": False}).status == 200

    server.restart()
    again = server.call("PATCH", path, {"ended": True}, headers=key)
    assert (again.status, again.json()) == (200, first)
    sheet = server.session(session_id)
    assert (sheet["ended"], sheet["version"]) == (False, first["version"] + 1)
    assert [c["action"] for c in history(server, session_id)] == ["reopen", "end"]
    assert server.call("PATCH", path, {"ended": False}, headers=key).status == 409


def cat_has_left(server: LiveServer) -> int:
    """Worked examples 1 and 4 at 50 cents a point, then Cat leaves and Fay sits down: Ann
    +$0.50, Cat +$1.50, Dan and Eve -$1.00 each."""
    session_id: int = server.new_session(rules={"no_bid": "leaster", "stake": 50})["id"]
    hands = [
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75},
        {"kind": "leaster", "winner": "Cat"},
    ]
    for hand in hands:
        assert server.call("POST", f"/api/sessions/{session_id}/hands", hand).status == 201
    seats = {"players": ["Ann", "Bob", "Dan", "Eve", "Fay"]}
    assert server.call("PATCH", f"/api/sessions/{session_id}", seats).status == 200
    return session_id


CAT_SETTLED = {
    "player": "Cat",
    "payments": [
        {"from": "Dan", "to": "Cat", "amount": 100},
        {"from": "Eve", "to": "Cat", "amount": 50},
    ],
}


def test_racing_settlements_of_one_leaver_settle_once(server: LiveServer) -> None:
    session_id = cat_has_left(server)
    path = f"/api/sessions/{session_id}/settle-leaver"
    answers = at_once(WRITERS, lambda _: server.call("POST", path, {"player": "Cat"}))
    assert sorted(answer.status for answer in answers) == [201] + [409] * (WRITERS - 1)
    for answer in answers:
        if answer.status == 201:
            assert answer.json() == CAT_SETTLED
        else:
            assert answer.json() == {"error": "Cat is settled already.", "field": "player"}
    up = server.session(session_id)["settle_up"]
    assert up["paid"] == CAT_SETTLED["payments"]
    assert up["payments"] == [{"from": "Eve", "to": "Ann", "amount": 50}]
    assert history(server, session_id)[0]["action"] == "settle-leaver"
    assert_check_clean(server)


def test_a_retried_settlement_happens_once_even_after_a_restart(server: LiveServer) -> None:
    session_id = cat_has_left(server)
    path = f"/api/sessions/{session_id}/settle-leaver"
    version = server.session(session_id)["version"]
    key = {"Idempotency-Key": f"settle-{uuid.uuid4()}"}
    answers = at_once(WRITERS, lambda _: server.call("POST", path, {"player": "Cat"}, headers=key))
    assert [(answer.status, answer.json()) for answer in answers] == [(201, CAT_SETTLED)] * WRITERS

    server.restart()
    again = server.call("POST", path, {"player": "Cat"}, headers=key)
    assert (again.status, again.json()) == (201, CAT_SETTLED)
    sheet = server.session(session_id)
    assert sheet["version"] == version + 1
    assert sheet["settle_up"]["paid"] == CAT_SETTLED["payments"]
    assert server.call("POST", path, {"player": "Dan"}, headers=key).status == 409
