"""Two phones on one session, and retries: concurrent writes leave it as if they had run one
after another (API.md, "Safe writes")."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

from harness.hands import integrity, pick_bodies
from harness.live_server import LiveServer, at_once

from ..helpers.live import as_sent, assert_check_clean, sent_fields, sorted_bodies

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


def test_every_other_kind_of_write_under_concurrency_and_retries(server: LiveServer) -> None:
    """New session, rename, undo of a change, delete session and restore from the trash: the
    same request from 8 threads at once with one Idempotency-Key happens once."""

    def eight(method: str, path: str, body: Any = None) -> list[Any]:
        key = {"Idempotency-Key": f"{method}-{uuid.uuid4()}"}
        return at_once(WRITERS, lambda _: server.call(method, path, body, headers=key))

    created = eight(
        "POST", "/api/sessions", {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}
    )
    assert [answer.status for answer in created] == [201] * WRITERS
    assert len({answer.json()["id"] for answer in created}) == 1
    assert len(server.sessions()) == 1
    session_id = created[0].json()["id"]
    for body in pick_bodies(4):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    version = server.session(session_id)["version"]

    renamed = eight("PATCH", f"/api/sessions/{session_id}", {"name": "Friday"})
    assert [answer.status for answer in renamed] == [200] * WRITERS
    assert server.session(session_id)["version"] == version + 1

    server.call("DELETE", f"/api/sessions/{session_id}/hands/2")
    undone = eight("POST", f"/api/sessions/{session_id}/history/0/restore")
    assert [answer.status for answer in undone] == [200] * WRITERS
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2, 3, 4]
    assert sent_fields(sheet["hands"][1], pick_bodies(4)[1]) == pick_bodies(4)[1]
    assert integrity(sheet) == []

    # Without a key but with one version, eight undos of the newest change undo it once.
    etag = server.call("GET", f"/api/sessions/{session_id}").header("ETag")
    assert etag is not None
    raced = at_once(
        WRITERS,
        lambda _: server.call(
            "POST", f"/api/sessions/{session_id}/history/0/restore", headers={"If-Match": etag}
        ),
    )
    assert sorted(answer.status for answer in raced) == [200] + [412] * (WRITERS - 1)
    assert [hand["number"] for hand in server.session(session_id)["hands"]] == [1, 2, 3]

    deleted = eight("DELETE", f"/api/sessions/{session_id}")
    assert [answer.status for answer in deleted] == [204] * WRITERS
    assert server.call("GET", f"/api/sessions/{session_id}").status == 404
    restored = eight("POST", f"/api/trash/{session_id}/restore")
    assert [answer.status for answer in restored] == [200] * WRITERS
    sheet = server.session(session_id)
    assert [hand["number"] for hand in sheet["hands"]] == [1, 2, 3]
    assert integrity(sheet) == []
    assert server.call("GET", "/api/trash").json() == {"sessions": []}
    assert_check_clean(server)
