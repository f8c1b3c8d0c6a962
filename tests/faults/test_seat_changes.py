"""Seat changes among hands from several phones at once: the session ends exactly as if the
writes had run one after another (RULES.md, "Players arriving and leaving"; API.md, "Safe
writes")."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.hands import integrity
from harness.live_server import Answer, LiveServer, at_once

from ..helpers.api import without_time
from ..helpers.database import NewApp
from ..helpers.live import assert_check_clean

CLIENTS = 8
WRITES_EACH = 12
CORE = ["Ann", "Bob", "Cat"]


@dataclass(frozen=True)
class Table:
    """A session to start and the writes that keep every request valid whatever order they
    land in: the players a hand names are seated, and playing, at every seat order sent."""

    session: dict[str, Any]
    extras: list[str]
    sizes: range
    core_first: bool
    dealer: str | None

    def seat_order(self, rng: random.Random) -> list[str]:
        chosen = rng.sample(self.extras, rng.choice(self.sizes) - len(CORE))
        if self.core_first:
            return CORE + chosen
        order = CORE + chosen
        rng.shuffle(order)
        return order

    def hand(self, rng: random.Random) -> dict[str, Any]:
        picker, other = rng.sample(["Bob", "Cat"], 2) if self.dealer else rng.sample(CORE, 2)
        body: dict[str, Any] = {
            "kind": "pick",
            "picker": picker,
            "partner": rng.choice([other, None]),
            "picking_points": rng.randrange(2, 119),
        }
        if self.dealer is not None:
            body["dealer"] = self.dealer
        return body


TABLES = {
    # Everyone seated plays: 4 to 7 seated in any order, each hand dealt in rotation.
    "everyone plays": Table(
        session={
            "players": [*CORE, "Dan", "Eve", "Fay"],
            "rounds": 0,
            "rules": {"sitting_out": "none"},
        },
        extras=["Dan", "Eve", "Fay", "Gus"],
        sizes=range(4, 8),
        core_first=False,
        dealer=None,
    ),
    # The dealer's side sits out: 4 to 8 seated, Ann deals and the players before her (the
    # last seats) sit out, so Bob and Cat always play.
    "dealer's side sits out": Table(
        session={"players": [*CORE, "Dan", "Eve", "Fay"], "rounds": 0, "first_dealer": "Ann"},
        extras=["Dan", "Eve", "Fay", "Gus", "Hal"],
        sizes=range(4, 9),
        core_first=True,
        dealer="Ann",
    ),
}


@dataclass(frozen=True)
class Sent:
    method: str
    body: dict[str, Any]
    answer: Answer


def serial_order(sent: list[Sent]) -> list[Sent]:
    """The one order the server ran the writes in: a seat change's answer gives its version
    (one more per write), and the hands fill the versions left in their numbers' order."""
    changes = {s.answer.json()["version"]: s for s in sent if s.method == "PATCH"}
    assert len(changes) == sum(s.method == "PATCH" for s in sent), "two changes, one version"
    hands = iter(
        sorted((s for s in sent if s.method == "POST"), key=lambda s: s.answer.json()["number"])
    )
    return [changes[v] if v in changes else next(hands) for v in range(2, len(sent) + 2)]


def one_after_another(
    session: dict[str, Any], order: list[Sent], folder: Path, new_app: NewApp
) -> Any:
    """Run the writes one by one, in `order`, on a fresh app of the test process; check each
    answers what it answered on the server and return the session they leave."""
    with new_app(f"sqlite:///{folder / 'serial.sqlite3'}") as app:
        client = app.test_client()
        assert client.post("/api/sessions", json=session).status_code == 201
        for write in order:
            suffix = "" if write.method == "PATCH" else "/hands"
            answer = client.open(f"/api/sessions/1{suffix}", method=write.method, json=write.body)
            assert answer.status_code == write.answer.status
            got, expected = answer.json, write.answer.json()
            if write.method == "PATCH":
                got, expected = without_time(got), without_time({**expected, "id": 1})
            assert got == expected
        return client.get("/api/sessions/1").json


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_seat_changes_among_hands_run_as_one_after_another(
    server: LiveServer, table: Table, tmp_path: Path, new_app: NewApp
) -> None:
    session = server.new_session(**table.session)
    assert session["version"] == 1
    path = f"/api/sessions/{session['id']}"
    rng = random.Random(9)
    orders = [[table.seat_order(rng) for _ in range(WRITES_EACH)] for _ in range(CLIENTS)]
    hands = [[table.hand(rng) for _ in range(WRITES_EACH)] for _ in range(CLIENTS)]

    def client(i: int) -> list[Sent]:
        sent = []
        for j in range(WRITES_EACH):
            if (i + j) % 3 == 0:
                method, body, to = "PATCH", {"players": orders[i][j]}, path
            else:
                method, body, to = "POST", hands[i][j], f"{path}/hands"
            sent.append(Sent(method, body, server.call(method, to, body)))
        return sent

    sent = [s for one in at_once(CLIENTS, client) for s in one]

    statuses = Counter((s.method, s.answer.status) for s in sent)
    changes = sum(s.method == "PATCH" for s in sent)
    assert statuses == {("PATCH", 200): changes, ("POST", 201): len(sent) - changes}, [
        s.answer.body for s in sent if s.answer.status >= 300
    ]
    final = server.session(session["id"])
    assert final["version"] == len(sent) + 1
    assert [hand["number"] for hand in final["hands"]] == list(range(1, len(sent) - changes + 1))
    sent_orders = [s.body["players"] for s in sent if s.method == "PATCH"]
    sent_orders.append(table.session["players"])
    assert all(hand["seats"] in sent_orders for hand in final["hands"])
    # The changes landed among the hands, not all before or after them.
    assert len({tuple(hand["seats"]) for hand in final["hands"]}) >= 4
    assert integrity(final) == []
    assert_check_clean(server)

    # Each hand was played with the seats of the last change before it, and the same writes
    # one after another, in that order, on a fresh app answer exactly what the server did.
    order = serial_order(sent)
    seats = table.session["players"]
    for write in order:
        if write.method == "PATCH":
            seats = write.body["players"]
        else:
            assert write.answer.json()["seats"] == seats
    serial = one_after_another(table.session, order, tmp_path, new_app)
    assert without_time(serial) == without_time({**final, "id": 1})


def test_a_seat_change_retried_at_once_and_after_changes_once(server: LiveServer) -> None:
    session = server.new_session(players=[*CORE, "Dan", "Eve", "Fay"], first_dealer="Ann")
    path = f"/api/sessions/{session['id']}"
    hand = {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 70}
    assert server.call("POST", f"{path}/hands", hand).status == 201
    arriving = {"players": ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"]}
    key = {"Idempotency-Key": f"seats-{uuid.uuid4()}"}

    concurrent = at_once(CLIENTS, lambda _: server.call("PATCH", path, arriving, headers=key))
    after = [server.call("PATCH", path, arriving, headers=key) for _ in range(3)]

    answers = concurrent + after
    assert [answer.status for answer in answers] == [200] * (CLIENTS + 3)
    first = answers[0].json()
    assert all(answer.json() == first for answer in answers)
    assert first["version"] == 3
    assert first["players"] == arriving["players"]
    # Ann dealt the first hand, so Bob deals next; with seven seated he and Ann sit out.
    assert first["next_dealer"] == "Bob"
    assert first["sitting_out_next"] == ["Ann", "Bob"]
    assert first["totals"] == {"Ann": 0, "Bob": 2, "Cat": 1, "Dan": -1, "Eve": -1,
                               "Fay": -1, "Gus": 0}  # fmt: skip
    assert server.session(session["id"]) == first

    # A hand after it is played with the new seats, and the key still answers as it did.
    assert (
        server.call("POST", f"{path}/hands", hand | {"picker": "Cat", "partner": "Dan"}).json()[
            "seats"
        ]
        == arriving["players"]
    )
    again = server.call("PATCH", path, arriving, headers=key)
    assert (again.status, again.json()) == (200, first)
    leaving = server.call("PATCH", path, {"players": [*CORE, "Dan"]}, headers=key)
    assert leaving.status == 409
    assert leaving.json()["field"] == "Idempotency-Key"

    server.restart()
    after_restart = server.call("PATCH", path, arriving, headers=key)
    assert (after_restart.status, after_restart.json()) == (200, first)
    final = server.session(session["id"])
    assert final["version"] == 4
    assert [hand["seats"] for hand in final["hands"]] == [session["players"], arriving["players"]]
    assert integrity(final) == []
    assert_check_clean(server)
