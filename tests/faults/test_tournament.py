"""Tournament tables on a live server: phones confirming one hand at once confirm it once,
while its table records its next hands; a confirm, a call for the director and a substitute each
sent again with one key (at once, then after a restart) happen once; two tables calling while
the board reads the event all show; two organisers seating substitutes at once seat each once."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean

WRITERS = 8
NAMES = [f"Player {n:02d}" for n in range(1, 17)]


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


def drawn(server: LiveServer, players: int, **given: Any) -> dict[str, Any]:
    event = new_event(server, players, **given)
    answer = server.call("POST", f"/api/events/{event['id']}/rounds", {})
    assert answer.status == 201, answer.body
    return answer.json()  # type: ignore[no-any-return]


def pick(seats: list[str], points: int = 75) -> dict[str, Any]:
    return {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": points}


def history(server: LiveServer, session_id: int) -> list[str]:
    changes = server.call("GET", f"/api/sessions/{session_id}/history").json()["changes"]
    return [change["action"] for change in changes]


def test_phones_confirming_one_hand_at_once_confirm_it_once(server: LiveServer) -> None:
    """The other side's three phones each tap their name at once, eight times over, while the
    table's scorer records the next hands: one change confirms the hand."""
    event = drawn(server, 5, confirm=True)
    table = event["draws"][0]["tables"][0]
    session_id, seats = table["session"], table["seats"]
    assert server.call("POST", f"/api/sessions/{session_id}/hands", pick(seats)).status == 201
    others = [seats[0], seats[3], seats[4]]
    path = f"/api/sessions/{session_id}/hands/1/confirm"

    def work(worker: int) -> list[int]:
        if worker == 0:
            return [
                server.call("POST", f"/api/sessions/{session_id}/hands", pick(seats, 61)).status
                for _ in range(4)
            ]
        return [server.call("POST", path, {"by": others[worker % 3]}).status]

    answers = at_once(WRITERS + 1, work)

    assert answers[0] == [201] * 4
    assert Counter(status for statuses in answers[1:] for status in statuses) == {200: WRITERS}
    sheet = server.session(session_id)
    assert sheet["hands"][0]["confirmed_by"] in others
    assert [hand["confirmed_by"] for hand in sheet["hands"][1:]] == [None] * 4
    assert Counter(history(server, session_id)) == {"add": 5, "confirm": 1}
    assert last(event_of(server, event["id"]))["to_confirm"] == 4
    assert_check_clean(server)


def last(event: dict[str, Any]) -> dict[str, Any]:
    return event["draws"][-1]["tables"][0]  # type: ignore[no-any-return]


def test_a_confirm_a_call_and_a_substitute_sent_again_happen_once(server: LiveServer) -> None:
    event = drawn(server, 5, confirm=True)
    table = event["draws"][0]["tables"][0]
    session_id, seats = table["session"], table["seats"]
    assert server.call("POST", f"/api/sessions/{session_id}/hands", pick(seats)).status == 201
    sent = [
        ("POST", f"/api/sessions/{session_id}/hands/1/confirm", {"by": seats[3]}, 200),
        ("POST", f"/api/sessions/{session_id}/director", {"note": "misdeal"}, 201),
        ("POST", f"/api/events/{event['id']}/substitutes", {"out": seats[4], "in": "Zed"}, 201),
        ("DELETE", f"/api/sessions/{session_id}/director", None, 204),
    ]
    for method, path, body, status in sent:
        key = {"Idempotency-Key": f"{method}-{uuid.uuid4()}"}

        def send(_: int, method: str = method, path: str = path, body: Any = body) -> Any:
            return server.call(method, path, body, headers=key)  # noqa: B023 (called at once)

        answers = at_once(WRITERS, send)
        answers.append(send(0))
        assert {answer.status for answer in answers} == {status}, [a.body for a in answers]
        assert len({answer.body for answer in answers}) == 1
        if method == "DELETE":
            server.restart()
            again = server.call(method, path, body, headers=key)
            assert again.status == status
    assert history(server, session_id) == [
        "answer-director", "substitute", "call-director", "confirm", "add",
    ]  # fmt: skip
    event = event_of(server, event["id"])
    assert last(event)["seats"] == [*seats[:4], "Zed"]
    assert event["calls"] == []
    assert_check_clean(server)


def test_tables_calling_at_once_all_show_on_the_board(server: LiveServer) -> None:
    event = drawn(server, 16)
    tables = event["draws"][0]["tables"]
    numbers = list(range(1, len(tables) + 1))

    def work(worker: int) -> list[int]:
        if worker < len(tables):
            path = f"/api/sessions/{tables[worker]['session']}/director"
            return [server.call("POST", path, {"note": f"table {worker + 1}"}).status]
        return [server.call("GET", f"/events/{event['id']}/board").status for _ in range(5)]

    answers = at_once(len(tables) + 2, work)

    assert [statuses for statuses in answers[: len(tables)]] == [[201]] * len(tables)
    assert {status for statuses in answers[len(tables) :] for status in statuses} == {200}
    calls = event_of(server, event["id"])["calls"]
    assert sorted(call["table"] for call in calls) == numbers
    assert {call["note"] for call in calls} == {f"table {n}" for n in numbers}
    board = server.call("GET", f"/events/{event['id']}/board").body.decode()
    assert all(f"Table {n} calls the director" in board for n in numbers)


def test_substitutes_seated_at_once_each_take_one_seat(server: LiveServer) -> None:
    """Two organisers seat substitutes at once, some for the same player: each player leaves
    once, and no substitute sits twice."""
    event = drawn(server, 10)
    tables = event["draws"][0]["tables"]
    leaving = [tables[0]["seats"][0], tables[1]["seats"][0]]
    path = f"/api/events/{event['id']}/substitutes"

    answers = at_once(
        WRITERS,
        lambda w: server.call("POST", path, {"out": leaving[w % 2], "in": f"Sub {w % 4}"}),
    )

    statuses = Counter(answer.status for answer in answers)
    assert statuses[201] == 2 and set(statuses) == {201, 400}, [a.body for a in answers]
    event = event_of(server, event["id"])
    seated = [name for table in event["draws"][0]["tables"] for name in table["seats"]]
    assert len(seated) == len(set(seated)) == 10
    assert not set(leaving) & set(seated)
    assert_check_clean(server)


def test_a_table_s_writes_land_while_the_next_round_is_asked_for(server: LiveServer) -> None:
    """Each table records its hands, confirms each, calls the director and turns its seats
    round (a write that updates its session's row twice, and so checks the row's event on
    PostgreSQL) while the organiser asks for round 2 over and over: every write lands, and
    round 2 is drawn once."""
    event = drawn(server, 10, rounds=2, hands=4, confirm=True)
    tables = event["draws"][0]["tables"]
    path = f"/api/events/{event['id']}/rounds"
    done = [False] * len(tables)

    def work(worker: int) -> list[int]:
        if worker < len(tables):
            table = tables[worker]
            session, seats = table["session"], table["seats"]
            statuses = []
            for number in range(1, table["hands_to_play"] + 1):
                hand = server.call("POST", f"/api/sessions/{session}/hands", pick(seats))
                statuses.append(hand.status)
                by = next(p for p in hand.json()["players"] if p not in (seats[1], seats[2]))
                confirm = f"/api/sessions/{session}/hands/{number}/confirm"
                statuses.append(server.call("POST", confirm, {"by": by}).status)
                statuses.append(server.call("POST", f"/api/sessions/{session}/director").status)
                statuses.append(server.call("DELETE", f"/api/sessions/{session}/director").status)
                turned = [*seats[number:], *seats[:number]]
                moved = server.call("PATCH", f"/api/sessions/{session}", {"players": turned})
                statuses.append(moved.status)
            done[worker] = True
            return statuses
        statuses = []
        while True:
            finished = all(done)
            statuses.append(server.call("POST", path, {}).status)
            if finished:
                return statuses

    answers = at_once(len(tables) + 4, work)

    assert {s for statuses in answers[: len(tables)] for s in statuses} == {200, 201, 204}
    asked = Counter(status for statuses in answers[len(tables) :] for status in statuses)
    assert asked[201] == 1 and set(asked) == {201, 409}, asked
    assert [len(d["tables"]) for d in event_of(server, event["id"])["draws"]] == [2, 2]
    assert_check_clean(server)
