"""Rule changes (`PATCH rules`) among hands from several phones at once: the session ends exactly
as if the writes had run one after another, no rule but the stake changes once a hand is played,
and a retried change applies once (RULES.md "Players arriving and leaving", the rules; API.md
"Safe writes")."""

from __future__ import annotations

import random
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.hands import integrity
from harness.live_server import SEATS, Answer, LiveServer, at_once

from ..helpers.api import without_time
from ..helpers.database import NewApp
from ..helpers.live import assert_check_clean

CLIENTS = 8
WRITES_EACH = 12
# Penalty hands and doublers stay on: every hand sent is valid whatever the other rules are.
SESSION = {
    "players": SEATS,
    "rounds": 0,
    "rules": {"no_bid": "doubler", "penalties": True, "stake": 25},
}
RESULTS = {"won": 75, "lost": 45, "won_schneider": 100, "lost_schneider": 20}


def rule_change(rng: random.Random) -> dict[str, Any]:
    """Some of the rules that don't make a hand invalid, now and then with the stake."""
    rules: dict[str, Any] = {
        "bump": rng.choice([True, False]),
        "doublers": rng.choice(["queue", "stack"]),
        "max_multiplier": rng.choice([0, 2, 4, 8]),
        "schwarz": rng.choice(["points", "tricks"]),
    }
    rules = dict(rng.sample(sorted(rules.items()), rng.randint(2, 4)))
    if rng.random() < 0.3:
        rules["stake"] = rng.randrange(0, 10_001)
    return {"rules": rules}


def hand(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["pick", "pick", "pick", "pass", "penalty"])
    if kind == "pass":
        return {"kind": "pass"}
    if kind == "penalty":
        return {"kind": "penalty", "penalized": rng.choice(SEATS)}
    picker, partner = rng.sample(SEATS, 2)
    body: dict[str, Any] = {"kind": "pick", "picker": picker, "partner": partner}
    result = rng.choice(sorted(RESULTS))
    given = rng.choice(["points", "result", "both"])
    if given != "points":
        body["result"] = result
    if given != "result":
        body["picking_points"] = RESULTS[result]
    return body


@dataclass(frozen=True)
class Sent:
    method: str
    body: dict[str, Any]
    answer: Answer

    @property
    def stake_only(self) -> bool:
        return self.method == "PATCH" and set(self.body["rules"]) == {"stake"}


def serial_order(sent: list[Sent]) -> list[Sent]:
    """The one order the server ran the writes in: a change's answer gives its version (one
    more per write), the hands fill the versions left in their numbers' order, and the refused
    changes, which changed nothing, come last (refused then, refused at the end too)."""
    done = [s for s in sent if s.answer.status < 300]
    changes = {s.answer.json()["version"]: s for s in done if s.method == "PATCH"}
    assert len(changes) == sum(s.method == "PATCH" for s in done), "two changes, one version"
    hands = iter(
        sorted((s for s in done if s.method == "POST"), key=lambda s: s.answer.json()["number"])
    )
    order = [changes[v] if v in changes else next(hands) for v in range(2, len(done) + 2)]
    return order + [s for s in sent if s.answer.status >= 300]


def one_after_another(order: list[Sent], folder: Path, new_app: NewApp) -> Any:
    """Run the writes one by one, in `order`, on a fresh app of the test process; check each
    answers what it answered on the server and return the session they leave."""
    with new_app(f"sqlite:///{folder / 'serial.sqlite3'}") as app:
        client = app.test_client()
        assert client.post("/api/sessions", json=SESSION).status_code == 201
        for write in order:
            suffix = "" if write.method == "PATCH" else "/hands"
            answer = client.open(f"/api/sessions/1{suffix}", method=write.method, json=write.body)
            assert answer.status_code == write.answer.status, (write.body, answer.json)
            got, expected = answer.json, write.answer.json()
            if write.method == "PATCH" and write.answer.status == 200:
                got, expected = without_time(got), without_time({**expected, "id": 1})
            assert got == expected
        return client.get("/api/sessions/1").json


def test_rule_changes_among_hands_run_as_one_after_another(
    server: LiveServer, tmp_path: Path, new_app: NewApp
) -> None:
    session = server.new_session(**SESSION)
    path = f"/api/sessions/{session['id']}"
    rng = random.Random(10)
    plans = []
    for _ in range(CLIENTS):
        plan = []
        for j in range(WRITES_EACH):
            # Each phone changes the rules first, then the stake, then plays on.
            if j % 4 == 0:
                plan.append(("PATCH", rule_change(rng)))
            elif j % 4 == 1:
                plan.append(("PATCH", {"rules": {"stake": rng.randrange(0, 10_001)}}))
            else:
                plan.append(("POST", hand(rng)))
        plans.append(plan)

    def client(i: int) -> list[Sent]:
        sent = []
        for method, body in plans[i]:
            to = path if method == "PATCH" else f"{path}/hands"
            sent.append(Sent(method, body, server.call(method, to, body)))
        return sent

    sent = [s for one in at_once(CLIENTS, client) for s in one]

    statuses = Counter(("stake" if s.stake_only else s.method, s.answer.status) for s in sent)
    hands_sent = sum(s.method == "POST" for s in sent)
    stakes_sent = sum(s.stake_only for s in sent)
    rules_sent = len(sent) - hands_sent - stakes_sent
    assert statuses[("POST", 201)] == hands_sent, [s.answer.body for s in sent]
    assert statuses[("stake", 200)] == stakes_sent
    assert statuses[("PATCH", 200)] + statuses[("PATCH", 409)] == rules_sent
    # Some rule changes landed before the first hand, and later ones were refused.
    assert statuses[("PATCH", 200)] >= 1
    assert statuses[("PATCH", 409)] >= 1
    for refused in (s for s in sent if s.answer.status == 409):
        assert refused.answer.json() == {
            "error": "Hands are already played by these rules, so only the stake can change now.",
            "field": "rules",
        }

    final = server.session(session["id"])
    applied = sum(s.answer.status < 300 for s in sent)
    assert final["version"] == applied + 1
    assert [h["number"] for h in final["hands"]] == list(range(1, hands_sent + 1))
    assert integrity(final) == []
    assert_check_clean(server)

    # In the order the server ran them: once the first hand is in, every change answers the
    # rules of that hand but for the stake; before it, the changes apply in turn.
    order = serial_order(sent)
    rules = dict(session["rules"])
    first_hand_rules = None
    for write in order:
        if write.answer.status >= 300:
            continue
        if write.method == "POST":
            first_hand_rules = first_hand_rules or {**rules, "stake": None}
            continue
        rules |= write.body["rules"]
        assert write.answer.json()["rules"] == rules
        if first_hand_rules is not None:
            assert {**rules, "stake": None} == first_hand_rules
    assert final["rules"] == rules
    assert final["settle_up"]["stake"] == rules["stake"]
    serial = one_after_another(order, tmp_path, new_app)
    assert without_time(serial) == without_time({**final, "id": 1})


def test_a_rule_change_retried_at_once_and_after_changes_once(server: LiveServer) -> None:
    session = server.new_session(**SESSION)
    path = f"/api/sessions/{session['id']}"
    change = {"rules": {"bump": True, "doublers": "stack", "max_multiplier": 4}}
    key = {"Idempotency-Key": f"rules-{uuid.uuid4()}"}

    concurrent = at_once(CLIENTS, lambda _: server.call("PATCH", path, change, headers=key))
    after = [server.call("PATCH", path, change, headers=key) for _ in range(3)]
    answers = concurrent + after
    assert [answer.status for answer in answers] == [200] * (CLIENTS + 3)
    first = answers[0].json()
    assert all(answer.json() == first for answer in answers)
    assert first["version"] == 2
    assert first["rules"] == {**session["rules"], **change["rules"]}

    # Pass, pass, then a lost pick: stacked x4 capped, then bumped: 1 x 2 x 4 each.
    for body in ({"kind": "pass"}, {"kind": "pass"}):
        assert server.call("POST", f"{path}/hands", body).status == 201
    lost = {"kind": "pick", "picker": "Cat", "partner": "Dan", "result": "lost"}
    scored = server.call("POST", f"{path}/hands", lost).json()
    assert (scored["multiplier"], scored["scores"]) == (
        4,
        {"Ann": 8, "Bob": 8, "Cat": -16, "Dan": -8, "Eve": 8},
    )

    # Now the same change would be refused, but the key answers as it did, changing nothing.
    again = server.call("PATCH", path, change, headers=key)
    assert (again.status, again.json()) == (200, first)
    other = server.call("PATCH", path, {"rules": {"bump": False}}, headers=key)
    assert (other.status, other.json()["field"]) == (409, "Idempotency-Key")
    server.restart()
    after_restart = server.call("PATCH", path, change, headers=key)
    assert (after_restart.status, after_restart.json()) == (200, first)
    final = server.session(session["id"])
    assert final["version"] == 5
    assert final["rules"] == first["rules"]
    assert integrity(final) == []


def test_a_stake_change_retried_at_once_and_after_changes_once(server: LiveServer) -> None:
    session = server.new_session(**SESSION)
    path = f"/api/sessions/{session['id']}"
    body = {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75}
    assert server.call("POST", f"{path}/hands", body).status == 201
    change = {"rules": {"stake": 200}}
    key = {"Idempotency-Key": f"stake-{uuid.uuid4()}"}

    concurrent = at_once(CLIENTS, lambda _: server.call("PATCH", path, change, headers=key))
    after = [server.call("PATCH", path, change, headers=key) for _ in range(3)]
    answers = concurrent + after
    assert [answer.status for answer in answers] == [200] * (CLIENTS + 3)
    first = answers[0].json()
    assert all(answer.json() == first for answer in answers)
    assert first["version"] == 3
    assert first["rules"]["stake"] == 200
    assert first["settle_up"]["balances"] == {
        "Ann": 400, "Bob": 200, "Cat": -200, "Dan": -200, "Eve": -200,
    }  # fmt: skip

    # Another stake with a new key applies; the old key still answers its first answer.
    other = server.call(
        "PATCH", path, {"rules": {"stake": 5}}, headers={"Idempotency-Key": f"stake-{uuid.uuid4()}"}
    )
    assert (other.status, other.json()["version"]) == (200, 4)
    again = server.call("PATCH", path, change, headers=key)
    assert (again.status, again.json()) == (200, first)
    final = server.session(session["id"])
    assert (final["version"], final["rules"]["stake"]) == (4, 5)
    assert integrity(final) == []
    assert_check_clean(server)
