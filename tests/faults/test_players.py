"""Renames and merges among hand writes on a live server: each runs wholly before or after every
hand write of the sessions it touches, a retry with its key happens once, and nothing is lost."""

from __future__ import annotations

import uuid
from typing import Any

from harness.hands import integrity, pick_bodies
from harness.live_server import SEATS, LiveServer, at_once

from ..helpers.live import as_sent, assert_check_clean, sorted_bodies

WRITERS = 4
HANDS_EACH = 15
RENAMES = 6


def without(name: str, count: int) -> list[dict[str, Any]]:
    """`count` different pick hands that don't name `name`."""
    bodies = [b for b in pick_bodies(4 * count) if name not in (b["picker"], b["partner"])]
    return bodies[:count]


def sent_to(index: int, bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands the writers sent to session `index`: every other writer writes to each."""
    return [
        body
        for writer in range(index, WRITERS, 2)
        for body in bodies[writer * HANDS_EACH : (writer + 1) * HANDS_EACH]
    ]


def player_ids(server: LiveServer) -> dict[str, int]:
    return {p["name"]: p["id"] for p in server.call("GET", "/api/players").json()["players"]}


def test_renames_among_hand_writes_and_their_retries_each_happen_once(
    server: LiveServer,
) -> None:
    sessions = [server.new_session()["id"] for _ in range(2)]
    bob = player_ids(server)["Bob"]
    bodies = without("Bob", WRITERS * HANDS_EACH)
    names = [f"Bob {n}" for n in range(1, RENAMES + 1)]
    keys = [f"rename-{uuid.uuid4()}" for _ in names]

    def work(worker: int) -> list[tuple[int, Any]]:
        if worker == WRITERS:
            answers = []
            for name, key in zip(names, keys, strict=True):
                for _ in range(2):
                    headers = {"Idempotency-Key": key}
                    answer = server.call("PATCH", f"/api/players/{bob}", {"name": name}, headers)
                    answers.append((answer.status, answer.json()["name"]))
            return answers
        mine = bodies[worker * HANDS_EACH : (worker + 1) * HANDS_EACH]
        path = f"/api/sessions/{sessions[worker % 2]}/hands"
        return [(server.call("POST", path, body).status, None) for body in mine]

    *writers, renames = at_once(WRITERS + 1, work)

    assert all(status == 201 for writer in writers for status, _ in writer)
    assert renames == [(200, name) for name in names for _ in range(2)]
    for index, session_id in enumerate(sessions):
        sheet = server.session(session_id)
        sent = sent_to(index, bodies)
        assert sheet["players"] == ["Ann", names[-1], "Cat", "Dan", "Eve"]
        assert integrity(sheet, acknowledged=len(sent)) == []
        assert as_sent(sheet["hands"], bodies) == sorted_bodies(sent)
        assert sheet["version"] == 1 + len(sent) + RENAMES
        changes = server.call("GET", f"/api/sessions/{session_id}/history").json()["changes"]
        renamed = [c for c in reversed(changes) if c["action"] == "rename"]
        assert [(c["before"]["name"], c["after"]["name"]) for c in renamed] == list(
            zip(["Bob", *names[:-1]], names, strict=True)
        )
        hands_named = {h["seats"][1] for h in sheet["hands"]}
        assert hands_named == {names[-1]}
    assert_check_clean(server)


def test_a_merge_among_hand_writes_loses_nothing_and_happens_once(server: LiveServer) -> None:
    theirs = server.new_session(players=["Ann", "Bobby", "Cat", "Dan", "Eve"])["id"]
    ours = server.new_session()["id"]
    ids = player_ids(server)
    bodies = without("Bob", WRITERS * HANDS_EACH)
    key = {"Idempotency-Key": f"merge-{uuid.uuid4()}"}
    merge = {"into": ids["Bob"]}

    def work(worker: int) -> list[tuple[int, Any]]:
        if worker >= WRITERS:
            path = f"/api/players/{ids['Bobby']}/merge"
            answer = server.call("POST", path, merge, headers=key)
            return [(answer.status, answer.json())]
        mine = bodies[worker * HANDS_EACH : (worker + 1) * HANDS_EACH]
        path = f"/api/sessions/{(theirs, ours)[worker % 2]}/hands"
        return [(server.call("POST", path, body).status, None) for body in mine]

    *writers, first, second = at_once(WRITERS + 2, work)

    assert all(status == 201 for writer in writers for status, _ in writer)
    assert first == second and first[0][0] == 200
    merged = first[0][1]
    assert (merged["id"], merged["name"], merged["sessions"]) == (ids["Bob"], "Bob", 2)
    listed = {p["name"]: p for p in server.call("GET", "/api/players").json()["players"]}
    assert "Bobby" not in listed
    assert (listed["Bob"]["sessions"], listed["Bob"]["hands"]) == (2, len(bodies))
    for index, session_id in enumerate((theirs, ours)):
        sheet = server.session(session_id)
        sent = sent_to(index, bodies)
        assert sheet["players"] == SEATS
        assert integrity(sheet, acknowledged=len(sent)) == []
        assert as_sent(sheet["hands"], bodies) == sorted_bodies(sent)
        assert {tuple(h["seats"]) for h in sheet["hands"]} == {tuple(SEATS)}
    assert server.session(theirs)["version"] == 1 + len(bodies) // 2 + 1
    assert server.session(ours)["version"] == 1 + len(bodies) // 2
    assert_check_clean(server)
