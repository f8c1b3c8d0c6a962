"""Seasons on a live server: seasons made at once among hand writes all land, one name sent at
once is made once (the others 409), and a season sent again and again with one key, at once, in
turn and after a restart, is made once with one answer."""

from __future__ import annotations

import uuid
from typing import Any

from harness.hands import pick_bodies
from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean

WRITERS = 8
HANDS_EACH = 5


def season(name: str) -> dict[str, Any]:
    return {"name": name, "first_day": "2000-01-01", "last_day": "2099-12-31"}


def seasons_of(server: LiveServer) -> list[dict[str, Any]]:
    answer = server.call("GET", "/api/seasons")
    assert answer.status == 200, answer.body
    return answer.json()["seasons"]  # type: ignore[no-any-return]


def test_seasons_made_at_once_among_hand_writes_all_land_and_a_name_once(
    server: LiveServer,
) -> None:
    session_id = server.new_session()["id"]
    bodies = pick_bodies(WRITERS * HANDS_EACH)
    path = f"/api/sessions/{session_id}/hands"

    def work(worker: int) -> list[tuple[int, Any]]:
        if worker < WRITERS:
            mine = bodies[worker * HANDS_EACH : (worker + 1) * HANDS_EACH]
            return [(server.call("POST", path, body).status, None) for body in mine]
        if worker < 2 * WRITERS:
            made = server.call("POST", "/api/seasons", season(f"Season {worker}"))
            return [(made.status, made.json()["name"])]
        same = server.call("POST", "/api/seasons", season("Spring" if worker % 2 else "SPRING"))
        return [(same.status, same.json())]

    writers = at_once(3 * WRITERS, work)

    assert all(status == 201 for writer in writers[:WRITERS] for status, _ in writer)
    assert [answer for writer in writers[WRITERS : 2 * WRITERS] for answer in writer] == [
        (201, f"Season {n}") for n in range(WRITERS, 2 * WRITERS)
    ]
    same = [answer for writer in writers[2 * WRITERS :] for answer in writer]
    assert sorted(status for status, _ in same) == [201] + [409] * (WRITERS - 1), same
    made = next(body for status, body in same if status == 201)
    refusal = f"There is a season named {made['name']} already: choose another name."
    assert all(body == {"error": refusal, "field": "name"} for s, body in same if s == 409)
    names = sorted(s["name"] for s in seasons_of(server))
    assert names == sorted([made["name"], *(f"Season {n}" for n in range(WRITERS, 2 * WRITERS))])
    assert len(server.session(session_id)["hands"]) == len(bodies)
    assert_check_clean(server)


def test_a_season_retried_with_its_key_is_made_once(server: LiveServer) -> None:
    key = {"Idempotency-Key": f"season-{uuid.uuid4()}"}
    body = season("Fall league")

    concurrent = at_once(WRITERS, lambda _: server.call("POST", "/api/seasons", body, key))
    sequential = [server.call("POST", "/api/seasons", body, key) for _ in range(3)]

    answers = concurrent + sequential
    assert [answer.status for answer in answers] == [201] * (WRITERS + 3)
    assert len({answer.body for answer in answers}) == 1
    first = answers[0].json()
    assert seasons_of(server) == [first]
    reused = server.call("POST", "/api/seasons", season("Winter league"), key)
    assert reused.status == 409
    server.restart()
    again = server.call("POST", "/api/seasons", body, key)
    assert (again.status, again.json()) == (201, first)
    changed = {"Idempotency-Key": f"season-{uuid.uuid4()}"}
    path = f"/api/seasons/{first['id']}"
    renames = at_once(4, lambda _: server.call("PATCH", path, {"min_hands": 12}, changed))
    assert {(r.status, r.body) for r in renames} == {(200, renames[0].body)}
    deletes = at_once(4, lambda _: server.call("DELETE", path, None, {"Idempotency-Key": "gone"}))
    assert [d.status for d in deletes] == [204] * 4
    assert seasons_of(server) == []
    assert_check_clean(server)
