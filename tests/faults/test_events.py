"""Club events on a live server: a draw sent at once with one key draws one round, check-ins
sent at once all land, and a round drawn the moment the last table of the one before completes,
while the tables record hands, makes each of its tables once."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

from harness.live_server import LiveServer, at_once

from ..helpers.live import assert_check_clean, sent_fields

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
    return len(server.sessions())


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

    assert all(status == 201 for statuses in recorders for status in statuses), recorders
    asked = Counter(status for statuses in askers for status in statuses)
    assert asked[201] == 1, asked
    assert set(asked) == {201, 409}, asked
    event = event_of(server, event["id"])
    assert [len(draw["tables"]) for draw in event["draws"]] == [2, 2]
    assert [t["table"] for t in event["draws"][1]["tables"]] == [1, 2]
    assert session_count(server) == 4
    assert_check_clean(server)


NIGHT_TABLES = 40
NIGHT_HANDS = 5
ASK_EVERY_S = 0.25
# Once every table is done, round 2 is drawn at the next ask; a few more 409s mean it never is.
DRAWS_AFTER_THE_LAST = 20


def night_hand(seats: list[str], number: int) -> dict[str, Any]:
    """Hand `number` at a table of five, where everyone plays."""
    points = [30, 61, 75, 90, 100][number % 5]
    return {"kind": "pick", "picker": seats[number % 5], "partner": seats[(number + 2) % 5],
            "picking_points": points}  # fmt: skip


def test_an_event_night_of_forty_tables_loses_and_doubles_nothing(server: LiveServer) -> None:
    """Forty tables record every hand at once while screens read the event and its board, and
    two organisers keep asking for round 2 until the last table completes."""
    answer = server.call(
        "POST", "/api/events", {"name": "Night", "hands": NIGHT_HANDS, "rounds": 2, "seed": 5}
    )
    assert answer.status == 201, answer.body
    event_id = answer.json()["id"]
    path = f"/api/events/{event_id}"
    names = [f"Player {n:03d}" for n in range(NIGHT_TABLES * 5)]
    checked = at_once(
        WRITERS,
        lambda w: [server.call("POST", f"{path}/players", {"name": n}).status
                   for n in names[w::WRITERS]],
    )  # fmt: skip
    assert Counter(s for statuses in checked for s in statuses) == {201: len(names)}
    first = server.call("POST", f"{path}/rounds", {"tables": [5] * NIGHT_TABLES})
    assert first.status == 201, first.body
    tables = first.json()["draws"][0]["tables"]
    done = Counter[str]()

    def record(table: dict[str, Any]) -> list[int]:
        sent = f"/api/sessions/{table['session']}/hands"
        try:
            return [server.call("POST", sent, night_hand(table["seats"], n)).status
                    for n in range(table["hands_to_play"])]  # fmt: skip
        finally:
            # A table whose phone gave up is done too: the others stop, and the test fails.
            done["tables"] += 1

    # The screens and organisers ask as often as the board and a keen organiser do, no more.
    def read() -> list[int]:
        statuses = []
        while done["tables"] < NIGHT_TABLES:
            statuses.append(server.call("GET", path).status)
            statuses.append(server.call("GET", f"/events/{event_id}/board").status)
            time.sleep(ASK_EVERY_S)
        return statuses

    def draw() -> list[int]:
        statuses = []
        late = 0
        while late <= DRAWS_AFTER_THE_LAST:
            status = server.call("POST", f"{path}/rounds", {"tables": [5] * NIGHT_TABLES}).status
            statuses.append(status)
            if status != 409 or len(event_of(server, event_id)["draws"]) == 2:
                break
            late += done["tables"] == NIGHT_TABLES
            time.sleep(ASK_EVERY_S)
        return statuses

    work = [*(lambda t=t: record(t) for t in tables), read, read, read, draw, draw]
    results = at_once(len(work), lambda i: work[i]())
    recorded, reads, draws = results[:NIGHT_TABLES], results[-5:-2], results[-2:]

    assert all(status == 201 for statuses in recorded for status in statuses)
    assert all(status == 200 for statuses in reads for status in statuses)
    asked = Counter(status for statuses in draws for status in statuses)
    assert asked[201] == 1 and set(asked) <= {201, 409}, asked
    event = event_of(server, event_id)
    first_round, second_round = (drawn["tables"] for drawn in event["draws"])
    assert all(t["complete"] and t["hands"] == t["hands_to_play"] for t in first_round)
    assert len(second_round) == NIGHT_TABLES
    assert sorted(p for t in second_round for p in t["seats"]) == sorted(names)
    for table in first_round:
        sheet = server.call("GET", f"/api/sessions/{table['session']}").json()
        sent = [night_hand(table["seats"], n) for n in range(table["hands_to_play"])]
        assert [sent_fields(h, sent[0]) for h in sheet["hands"]] == sent
    assert session_count(server) == 2 * NIGHT_TABLES
    assert_check_clean(server)
