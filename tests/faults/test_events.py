"""Club events on a live server: a draw sent at once with one key draws one round, check-ins
sent at once all land, and a round drawn the moment the last table of the one before completes,
while the tables record hands, makes each of its tables once."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean

NAMES = [f"Player {n:02d}" for n in range(1, 17)]
WRITERS = 8


def new_event(server: LiveServer, players: int, **given: Any) -> dict[str, Any]:
    answer = server.call("POST", "/api/events", {"name": "Club night", **given})
    assert answer.status == 201, answer.body
    event: dict[str, Any] = answer.json()
    for name in NAMES[:players]:
        checked = server.call("POST", f"/api/events/{event['id']}/players", {"name": name})
        assert checked.status == 201, checked.body
        event = checked.json()
    return event


def event_of(server: LiveServer, event_id: int) -> dict[str, Any]:
    answer = server.call("GET", f"/api/events/{event_id}")
    assert answer.status == 200, answer.body
    return answer.json()  # type: ignore[no-any-return]


def session_count(server: LiveServer) -> int:
    return len(server.call("GET", "/api/sessions").json()["sessions"])


def test_one_draw_sent_at_once_with_one_key_draws_one_round(server: LiveServer) -> None:
    event = new_event(server, 10, rounds=2)
    path = f"/api/events/{event['id']}/rounds"
    key = {"Idempotency-Key": f"draw-{uuid.uuid4()}"}

    answers = at_once(WRITERS, lambda _: server.call("POST", path, {}, key))

    assert [answer.status for answer in answers] == [201] * WRITERS, [a.body for a in answers]
    assert len({answer.body for answer in answers}) == 1
    event = event_of(server, event["id"])
    assert [len(draw["tables"]) for draw in event["draws"]] == [2]
    assert session_count(server) == 2
    assert_check_clean(server)


def test_check_ins_sent_at_once_all_land(server: LiveServer) -> None:
    event = new_event(server, 0)
    path = f"/api/events/{event['id']}/players"

    answers = at_once(len(NAMES), lambda i: server.call("POST", path, {"name": NAMES[i]}))

    assert [answer.status for answer in answers] == [201] * len(NAMES)
    event = event_of(server, event["id"])
    assert sorted(p["name"] for p in event["players"]) == NAMES
    assert {p["checked_in"] for p in event["players"]} == {True}
    assert event["version"] == 1 + len(NAMES)


def test_the_next_round_is_drawn_once_as_the_last_table_completes(server: LiveServer) -> None:
    """Each table records its hands on its own thread while the others ask for round 2 over
    and over: every ask before the last table completes is refused, one draws the round, and
    the ones after find every round drawn."""
    event = new_event(server, 10, rounds=2, hands=10)
    path = f"/api/events/{event['id']}/rounds"
    first = server.call("POST", path, {})
    assert first.status == 201, first.body
    tables = first.json()["draws"][0]["tables"]
    done = [False] * len(tables)

    def work(worker: int) -> list[int]:
        if worker < len(tables):
            table = tables[worker]
            seats = table["seats"]
            hand = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": 75}
            statuses = [
                server.call("POST", f"/api/sessions/{table['session']}/hands", hand).status
                for _ in range(table["hands_to_play"])
            ]
            done[worker] = True
            return statuses
        statuses = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            # An ask sent once every table has answered its last hand comes after they complete.
            finished = all(done)
            statuses.append(server.call("POST", path, {}).status)
            if finished:
                break
        return statuses

    answers = at_once(len(tables) + WRITERS, work)
    recorders, askers = answers[: len(tables)], answers[len(tables) :]

    assert all(status == 201 for statuses in recorders for status in statuses)
    asked = Counter(status for statuses in askers for status in statuses)
    assert asked[201] == 1, asked
    assert set(asked) == {201, 409}, asked
    event = event_of(server, event["id"])
    assert [len(draw["tables"]) for draw in event["draws"]] == [2, 2]
    assert [t["table"] for t in event["draws"][1]["tables"]] == [1, 2]
    assert session_count(server) == 4
    assert_check_clean(server)
