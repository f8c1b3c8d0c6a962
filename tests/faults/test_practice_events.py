"""Practice events on a live server with several workers: a round filled with made-up hands by
many at once, while phones record hands at its tables, is filled once and every table holds
exactly its hands; a fill or a delete retried with its key, even after a restart, happens once
and answers the same; deletes and fills racing end with the event gone and nothing left of it."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean

WRITERS = 8


def practice_event(server: LiveServer, players: int, **given: Any) -> dict[str, Any]:
    """A practice event with its players checked in and round 1 drawn."""
    body = {"name": "Rehearsal", "practice": True, "hands": 5, **given}
    answer = server.call("POST", "/api/events", body)
    assert answer.status == 201, answer.body
    event_id = answer.json()["id"]
    for number in range(1, players + 1):
        checked = server.call(
            "POST", f"/api/events/{event_id}/players", {"name": f"Player {number:02d}"}
        )
        assert checked.status == 201, checked.body
    drawn = server.call("POST", f"/api/events/{event_id}/rounds", {})
    assert drawn.status == 201, drawn.body
    return drawn.json()  # type: ignore[no-any-return]


def event_of(server: LiveServer, event_id: int) -> dict[str, Any]:
    answer = server.call("GET", f"/api/events/{event_id}")
    assert answer.status == 200, answer.body
    return answer.json()  # type: ignore[no-any-return]


def test_fills_sent_at_once_while_tables_record_fill_each_table_once(server: LiveServer) -> None:
    event = practice_event(server, 15)
    tables = event["draws"][0]["tables"]
    fill = f"/api/events/{event['id']}/rounds/1/practice-hands"

    def work(worker: int) -> list[int]:
        if worker < len(tables):
            # A phone at each table records a hand or two of its own meanwhile.
            table = tables[worker]
            seats = table["seats"]
            hand = {"kind": "pick", "picker": seats[0], "partner": seats[1], "picking_points": 61}
            sent = f"/api/sessions/{table['session']}/hands"
            return [server.call("POST", sent, hand).status for _ in range(2)]
        return [server.call("POST", fill, {}).status]

    answers = at_once(len(tables) + WRITERS, work)
    recorded, filled = answers[: len(tables)], answers[len(tables) :]

    assert Counter(s for statuses in filled for s in statuses) == {200: WRITERS}
    # A hand a phone sent after its table was filled finds the table complete.
    assert {s for statuses in recorded for s in statuses} <= {201, 409}
    event = event_of(server, event["id"])
    for table in event["draws"][0]["tables"]:
        assert table["complete"] and table["hands"] == table["hands_to_play"]
        sheet = server.session(table["session"])
        assert len(sheet["hands"]) == table["hands_to_play"]
        assert [h["number"] for h in sheet["hands"]] == list(range(1, len(sheet["hands"]) + 1))
    assert_check_clean(server)


def test_a_retried_fill_fills_once_even_after_a_restart(server: LiveServer) -> None:
    event = practice_event(server, 10)
    fill = f"/api/events/{event['id']}/rounds/1/practice-hands"
    key = {"Idempotency-Key": f"fill-{uuid.uuid4()}"}

    answers = at_once(WRITERS, lambda _: server.call("POST", fill, {}, headers=key))

    assert [answer.status for answer in answers] == [200] * WRITERS
    first = answers[0].json()
    assert all(answer.json() == first for answer in answers)
    server.restart()
    again = server.call("POST", fill, {}, headers=key)
    assert (again.status, again.json()) == (200, first)
    assert event_of(server, event["id"]) == first
    hands = [server.session(t["session"])["hands"] for t in first["draws"][0]["tables"]]
    assert [len(h) for h in hands] == [t["hands_to_play"] for t in first["draws"][0]["tables"]]
    assert_check_clean(server)


def test_a_retried_delete_deletes_once_even_after_a_restart(server: LiveServer) -> None:
    event = practice_event(server, 10)
    path = f"/api/events/{event['id']}"
    key = {"Idempotency-Key": f"delete-{uuid.uuid4()}"}

    answers = at_once(WRITERS, lambda _: server.call("DELETE", path, headers=key))

    assert [answer.status for answer in answers] == [204] * WRITERS
    server.restart()
    assert server.call("DELETE", path, headers=key).status == 204
    assert server.call("GET", path).status == 404
    assert server.call("DELETE", path).status == 404
    assert server.sessions() == []
    assert_check_clean(server)


def test_deletes_and_fills_racing_leave_nothing_of_the_event(server: LiveServer) -> None:
    event = practice_event(server, 15)
    path = f"/api/events/{event['id']}"
    fill = f"{path}/rounds/1/practice-hands"

    def work(worker: int) -> int:
        if worker % 2:
            return server.call("DELETE", path).status
        return server.call("POST", fill, {}).status

    statuses = Counter(at_once(2 * WRITERS, work))

    assert statuses[204] == 1, statuses
    assert set(statuses) <= {200, 204, 404}, statuses
    assert server.call("GET", path).status == 404
    for table in event["draws"][0]["tables"]:
        assert server.call("GET", f"/api/sessions/{table['session']}").status == 404
    assert server.sessions() == []
    assert_check_clean(server)
