"""Two phones on one session, and retries: concurrent writes leave it as if they had run one
after another (API.md, "Safe writes")."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

from .server import (
    LiveServer,
    as_sent,
    assert_check_clean,
    at_once,
    integrity,
    pick_bodies,
    sent_fields,
    sorted_bodies,
)

WRITERS = 8


def test_eight_writers_on_one_session(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    bodies = pick_bodies(WRITERS * 25)
    path = f"/api/sessions/{session_id}/hands"

    def write(writer: int) -> list[int]:
        mine = bodies[writer * 25 : (writer + 1) * 25]
        return [server.call("POST", path, body).status for body in mine]

    began = time.perf_counter()
    statuses = Counter(status for writer in at_once(WRITERS, write) for status in writer)
    print(f"{WRITERS} writers x 25 hands: {time.perf_counter() - began:.1f} s")

    assert statuses == {201: 200}
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == list(range(1, 201))
    assert as_sent(sheet["hands"], bodies) == sorted_bodies(bodies)
    assert integrity(sheet, acknowledged=200) == []
    assert_check_clean(server)


def edits() -> list[dict[str, Any]]:
    """Eight valid edits of hand 1 (Ann deals, so Bob bids first), each different in picker,
    partner, points, crack, re-crack and blitz, so a mix of two shows."""
    pickers = ["Bob", "Cat", "Dan", "Bob", "Cat", "Dan", "Bob", "Cat"]
    later = {"Bob": "Eve", "Cat": "Dan", "Dan": "Ann"}
    partners: dict[str, list[str | None]] = {
        "Bob": ["Cat", "Dan", None],
        "Cat": ["Eve", "Ann", "Bob"],
        "Dan": ["Bob", "Eve"],
    }
    return [
        {
            "kind": "pick",
            "picker": picker,
            "partner": partners[picker][i % len(partners[picker])],
            "picking_points": 31 + 9 * i,
            "cracked_by": later[picker] if i % 2 == 0 else None,
            "recracked": i % 4 == 0,
            "blitzes": ["black"] if i % 3 == 0 else [],
        }
        for i, picker in enumerate(pickers)
    ]


def test_concurrent_edits_of_one_hand_leave_one_whole_edit(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    for body in pick_bodies(3):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    bodies = edits()
    assert len({repr(sorted(body.items())) for body in bodies}) == WRITERS

    answers = at_once(
        WRITERS,
        lambda i: server.call("PUT", f"/api/sessions/{session_id}/hands/1", bodies[i]),
    )

    assert [answer.status for answer in answers] == [200] * WRITERS, [a.body for a in answers]
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2, 3]
    assert sheet["hands"][0]["dealer"] == "Ann"
    assert sent_fields(sheet["hands"][0], bodies[0]) in bodies
    assert integrity(sheet) == []
    assert_check_clean(server)


def session_with_hands(server: LiveServer, count: int) -> int:
    session_id: int = server.new_session()["id"]
    for body in pick_bodies(count):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    return session_id


def test_concurrent_deletes_with_one_version_delete_once(server: LiveServer) -> None:
    session_id = session_with_hands(server, 6)
    etag = server.call("GET", f"/api/sessions/{session_id}").header("ETag")
    assert etag is not None, "GET /api/sessions/<id> answers no ETag"

    answers = at_once(
        WRITERS,
        lambda _: server.call(
            "DELETE", f"/api/sessions/{session_id}/hands/6", headers={"If-Match": etag}
        ),
    )

    assert sorted(answer.status for answer in answers) == [204] + [412] * (WRITERS - 1)
    for refused in (answer for answer in answers if answer.status == 412):
        assert refused.json()["field"] == "version"
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2, 3, 4, 5]
    assert integrity(sheet) == []


def test_concurrent_deletes_with_one_key_delete_once(server: LiveServer) -> None:
    session_id = session_with_hands(server, 6)
    key = f"undo-{uuid.uuid4()}"

    answers = at_once(
        WRITERS,
        lambda _: server.call(
            "DELETE", f"/api/sessions/{session_id}/hands/6", headers={"Idempotency-Key": key}
        ),
    )

    assert [answer.status for answer in answers] == [204] * WRITERS
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2, 3, 4, 5]
    assert integrity(sheet) == []


def test_idempotent_retries_add_one_hand(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    path = f"/api/sessions/{session_id}/hands"
    body, other = pick_bodies(2)
    key = {"Idempotency-Key": f"save-{uuid.uuid4()}"}

    concurrent = at_once(10, lambda _: server.call("POST", path, body, headers=key))
    sequential = [server.call("POST", path, body, headers=key) for _ in range(3)]

    answers = concurrent + sequential
    assert [answer.status for answer in answers] == [201] * 13
    first = answers[0].json()
    assert first["number"] == 1
    assert all(answer.json() == first for answer in answers)
    assert len(server.session(session_id)["hands"]) == 1

    reused = server.call("POST", path, other, headers=key)
    assert reused.status == 409
    assert "error" in reused.json()
    assert len(server.session(session_id)["hands"]) == 1

    server.restart()
    after_restart = server.call("POST", path, body, headers=key)
    assert after_restart.status == 201
    assert after_restart.json() == first
    sheet = server.session(session_id)
    assert len(sheet["hands"]) == 1
    assert integrity(sheet) == []
