"""House rules through the API (API.md, RULES.md "House rules"), on every database: the `rules`
object, example 12 and the other house-rule examples, a pick's `result` (with or without
points), penalty hands, the refusals with their status and field, `PATCH rules` before and after
the first hand, the settle-up of a session and of a range of sessions, and a backup round trip
of all of it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, date, datetime
from datetime import time as clock
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session

from ..helpers.api import (
    SEATS,
    Api,
    default_rules,
    every_rule_set,
    pick,
    refused,
    without_time,
)
from ..helpers.backups import answers, assert_same_answers, backup_of, restore
from ..helpers.database import Fresh

EVERY_RULE = every_rule_set(partner="called_ace", no_bid="doubler", max_multiplier=16)


def by_seat(*values: int) -> dict[str, int]:
    return dict(zip(SEATS, values, strict=True))


def result_pick(picker: str, partner: str | None, result: str, **more: Any) -> dict[str, Any]:
    return {"kind": "pick", "picker": picker, "partner": partner, "result": result, **more}


def penalty(penalized: str) -> dict[str, Any]:
    return {"kind": "penalty", "penalized": penalized}


PASS = {"kind": "pass"}


# The rules object


def test_a_session_with_every_option_and_one_with_the_defaults(api: Api) -> None:
    chosen = api.new_session(rules=EVERY_RULE)
    assert chosen["rules"] == EVERY_RULE
    assert api.session(chosen["id"])["rules"] == EVERY_RULE
    assert chosen["settle_up"] == {
        "stake": 10000,
        "unit": "cents",
        "balances": dict.fromkeys(SEATS, 0),
        "payments": [],
        "paid": [],
        "exact": True,
    }
    plain = api.new_session()
    assert plain["rules"] == default_rules()
    assert plain["settle_up"]["unit"] == "points"
    four = api.new_session(players=SEATS[:4], rules={"bump": True, "stake": 5})
    assert four["rules"] == {**default_rules(), "partner": "alone", "bump": True, "stake": 5}
    nulls = api.new_session(rules=dict.fromkeys(EVERY_RULE))
    assert nulls["rules"] == default_rules()


# The examples of "House rules" through the API


def test_example_12_a_result_only_pick_on_the_bump(api: Api) -> None:
    session = api.new_session(rules={"bump": True})
    hand = api.record(session["id"], **result_pick("Ann", "Bob", "lost"))
    assert hand["result"] == "lost"
    assert hand["picking_points"] is None
    assert (hand["multiplier"], hand["bumped"]) == (1, True)
    assert hand["penalized"] is None
    assert hand["scores"] == by_seat(-4, -2, 2, 2, 2)
    # The same with the points, or both.
    with_points = api.record(session["id"], **pick("Ann", "Bob", 45))
    assert (with_points["result"], with_points["picking_points"]) == ("lost", 45)
    assert with_points["scores"] == by_seat(-4, -2, 2, 2, 2)
    both = api.record(session["id"], **pick("Ann", "Bob", 45, result="lost"))
    assert both["scores"] == by_seat(-4, -2, 2, 2, 2)
    # A win is not bumped.
    won = api.record(session["id"], **result_pick("Ann", "Bob", "won"))
    assert (won["scores"], won["bumped"]) == (by_seat(2, 1, -1, -1, -1), False)
    totals = api.session(session["id"])
    assert totals["totals"] == by_seat(-10, -5, 5, 5, 5)
    assert totals["hands_won"] == by_seat(1, 1, 3, 3, 3)


def test_the_bump_alone_is_not_capped(api: Api) -> None:
    # Dealer Ann: Bob bids first, Dan after him. M = 8 capped to 2, then the bump.
    session = api.new_session(rules={"bump": True, "max_multiplier": 2})
    body = pick("Bob", None, 0, cracked_by="Dan", recracked=True, blitzes=["black"])
    hand = api.record(session["id"], **body)
    assert hand["multiplier"] == 2
    assert hand["result"] == "lost_schwarz"
    assert hand["scores"] == by_seat(12, -48, 12, 12, 12)


def test_the_cap_example_through_the_api(api: Api) -> None:
    session = api.new_session(rules={"max_multiplier": 8, "no_bid": "doubler"})
    every = {"cracked_by": "Eve", "recracked": True, "blitzes": ["black"]}
    api.record(session["id"], **PASS)
    # Bob deals: Cat bids first. Crack, re-crack, black blitz and a doubler: x16 capped to x8.
    doubled = api.record(session["id"], **pick("Cat", "Dan", 75, **every))
    assert (doubled["multiplier"], doubled["doubled"]) == (8, True)
    assert doubled["scores"] == by_seat(-8, -8, 16, 8, -8)
    # Cat deals: Dan bids first; no doubler pending: x8.
    plain = api.record(session["id"], **pick("Dan", "Ann", 75, **every | {"cracked_by": "Bob"}))
    assert (plain["multiplier"], plain["doubled"]) == (8, False)
    assert plain["scores"] == by_seat(8, -8, -8, 16, -8)


def test_stacked_doublers_through_the_api(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "doubler", "doublers": "stack"})
    api.record(session["id"], **PASS)
    api.record(session["id"], **PASS)
    assert api.session(session["id"])["pending_doublers"] == 2
    stacked = api.record(session["id"], **result_pick("Bob", "Cat", "won"))
    assert (stacked["multiplier"], stacked["doubled"]) == (4, True)
    assert stacked["scores"] == by_seat(-4, 8, 4, -4, -4)
    assert api.session(session["id"])["pending_doublers"] == 0
    after = api.record(session["id"], **result_pick("Dan", "Eve", "won"))
    assert after["multiplier"] == 1
    # A pass with doublers pending adds one more.
    for _ in range(3):
        api.record(session["id"], **PASS)
    assert api.session(session["id"])["pending_doublers"] == 3
    assert api.record(session["id"], **result_pick("Cat", "Dan", "won"))["multiplier"] == 8


@pytest.mark.parametrize(
    ("body", "scores", "result"),
    [
        (pick("Ann", "Bob", 120, result="won_schneider"), (4, 2, -2, -2, -2), "won_schneider"),
        (pick("Ann", "Bob", 0, result="lost_schneider"), (-4, -2, 2, 2, 2), "lost_schneider"),
        (pick("Ann", "Bob", 22, result="lost_schwarz"), (-6, -3, 3, 3, 3), "lost_schwarz"),
        (pick("Ann", "Bob", 120), (6, 3, -3, -3, -3), "won_schwarz"),
        (pick("Ann", "Bob", 0), (-6, -3, 3, 3, 3), "lost_schwarz"),
        (result_pick("Ann", None, "lost_schwarz"), (-12, 3, 3, 3, 3), "lost_schwarz"),
        (
            {**result_pick("Ann", "Bob", "won_schneider"), "opponent_points": 0},
            (4, 2, -2, -2, -2),
            "won_schneider",
        ),
    ],
)
def test_results_under_schwarz_by_tricks(
    api: Api, body: dict[str, Any], scores: tuple[int, ...], result: str
) -> None:
    session = api.new_session(rules={"schwarz": "tricks"})
    hand = api.record(session["id"], **body)
    assert hand["scores"] == by_seat(*scores)
    assert hand["result"] == result


@pytest.mark.parametrize(
    ("schwarz", "body", "sentence"),
    [
        (
            "points",
            pick("Ann", "Bob", 120, result="won_schneider"),
            "The picking team's 120 points mean won schwarz, not won schneider (91 to 119 points).",
        ),
        (
            "points",
            pick("Ann", "Bob", 0, result="lost_schneider"),
            "The picking team's 0 points mean lost schwarz, not lost schneider (1 to 30 points).",
        ),
        (
            "tricks",
            pick("Ann", "Bob", 23, result="lost_schwarz"),
            "The picking team's 23 points mean lost schneider, not lost schwarz "
            "(0 to 22 points when schwarz is counted by tricks).",
        ),
        (
            "points",
            {**result_pick("Ann", "Bob", "won"), "opponent_points": 75},
            "The picking team's 45 points mean lost, not won (61 to 90 points).",
        ),
    ],
)
def test_a_result_that_disagrees_with_the_points_is_refused(
    api: Api, client: FlaskClient, schwarz: str, body: dict[str, Any], sentence: str
) -> None:
    session = api.new_session(rules={"schwarz": schwarz})
    path = f"/api/sessions/{session['id']}/hands"
    assert refused(client, path, body, 400, "result") == sentence


def test_penalty_hands_through_the_api(api: Api) -> None:
    session = api.new_session(rounds=1, rules={"penalties": True, "no_bid": "doubler"})
    api.record(session["id"], **PASS)
    hand = api.record(session["id"], **penalty("dan"))
    assert hand["kind"] == "penalty"
    assert hand["penalized"] == "Dan"
    assert hand["dealer"] == "Bob"
    assert hand["multiplier"] == 1
    assert hand["doubled"] is False
    assert hand["result"] is None
    assert (hand["picker"], hand["partner"], hand["winner"]) == (None, None, None)
    assert hand["scores"] == by_seat(1, 1, 1, -4, 1)
    state = api.session(session["id"])
    assert state["pending_doublers"] == 1
    assert state["hands_won"] == dict.fromkeys(SEATS, 0)
    assert state["next_dealer"] == "Cat"
    # The doubler still pending doubles the next pick.
    assert api.record(session["id"], **result_pick("Dan", "Eve", "won"))["multiplier"] == 2
    api.record(session["id"], **penalty("Ann"))
    api.record(session["id"], **penalty("Ann"))
    done = api.session(session["id"])
    assert done["complete"] is True
    # Ann 1-2-4-4, Bob 1-2+1+1, Cat 1-2+1+1, Dan -4+4+1+1, Eve 1+2+1+1.
    assert done["totals"] == by_seat(-9, 1, 1, 2, 5)


def test_a_penalty_with_six_playing(api: Api) -> None:
    six = [*SEATS, "Fay"]
    session = api.new_session(players=six, rules={"penalties": True, "sitting_out": "none"})
    hand = api.record(session["id"], **penalty("Fay"))
    assert hand["scores"] == {**dict.fromkeys(SEATS, 1), "Fay": -5}
    # With the dealer's side sitting out, five play and the dealer can't be penalized.
    out = api.new_session(players=six, first_dealer="Fay", rules={"penalties": True})
    assert api.record(out["id"], **penalty("Ann"))["scores"] == {
        "Ann": -4, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1, "Fay": 0,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("rules", "body", "field", "sentence"),
    [
        (
            {},
            penalty("Dan"),
            "kind",
            "This session doesn't play penalty hands.",
        ),
        (
            {"penalties": True},
            {"kind": "penalty"},
            "penalized",
            "Choose who is penalized.",
        ),
        (
            {"penalties": True},
            pick("Ann", "Bob", 75, penalized="Dan"),
            "penalized",
            "Only a penalty hand has a penalized player.",
        ),
        (
            {"penalties": True},
            {**penalty("Dan"), "result": "won"},
            "result",
            "Only a pick has a result.",
        ),
        (
            {},
            result_pick("Ann", "Bob", "won_big"),
            "result",
            "The result is one of won_schwarz, won_schneider, won, lost, lost_schneider, "
            "lost_schwarz.",
        ),
        (
            {},
            {"kind": "pick", "picker": "Ann", "partner": "Bob"},
            "picking_points",
            "Give the picking team's points (or the opponents'), or how the hand went.",
        ),
    ],
)
def test_hand_refusals(
    api: Api,
    client: FlaskClient,
    rules: dict[str, Any],
    body: dict[str, Any],
    field: str,
    sentence: str,
) -> None:
    session = api.new_session(rules=rules)
    path = f"/api/sessions/{session['id']}/hands"
    assert refused(client, path, body, 400, field) == sentence


def test_a_result_of_another_type_is_refused(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    path = f"/api/sessions/{session['id']}/hands"
    for wrong in (3, True, ["won"]):
        refused(client, path, result_pick("Ann", "Bob", wrong), 400, "result")
    refused(client, path, {**penalty("Dan"), "penalized": 4}, 400, "penalized")


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        ({"max_multiplier": 3}, "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64."),
        ({"stake": 10001}, "The stake is a whole number of cents per point from 0 to 10000."),
        ({"stake": -5}, "The stake is a whole number of cents per point from 0 to 10000."),
        ({"stake": "25"}, "The stake must be a whole number."),
        ({"stake": 2.5}, "The stake must be a whole number."),
        ({"bump": "yes"}, "The bump rule must be true or false."),
        ({"schwarz": "cards"}, "What makes schwarz is one of points, tricks."),
        ({"doublers": "heap"}, "How doublers double is one of queue, stack."),
        (
            {"misdeal": True},
            "There is no rule option misdeal; the options are blitzing, bump, cracking, "
            "doublers, max_multiplier, no_bid, partner, penalties, schwarz, sitting_out, stake.",
        ),
    ],
)
def test_rule_refusals_on_post_and_patch(
    api: Api, client: FlaskClient, rules: dict[str, Any], sentence: str
) -> None:
    response = client.post("/api/sessions", json={"players": SEATS, "rounds": 0, "rules": rules})
    assert response.status_code == 400
    assert response.json == {"error": sentence, "field": "rules"}
    assert client.get("/api/sessions").json == {"sessions": []}
    session = api.new_session()
    path = f"/api/sessions/{session['id']}"
    assert refused(client, path, {"rules": rules}, 400, "rules") == sentence


# PATCH rules


def test_patch_every_rule_while_no_hand_is_played(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    path = f"/api/sessions/{session['id']}"
    changed = client.patch(path, json={"rules": EVERY_RULE})
    assert changed.status_code == 200
    assert changed.json["rules"] == EVERY_RULE
    assert changed.json["version"] == session["version"] + 1
    assert api.session(session["id"])["rules"] == EVERY_RULE
    # One option at a time keeps the others.
    back = client.patch(path, json={"rules": {"bump": False, "doublers": "queue"}})
    assert back.json["rules"] == {**EVERY_RULE, "bump": False, "doublers": "queue"}
    assert back.json["version"] == session["version"] + 2


def test_patch_rules_after_a_hand_only_the_stake(api: Api, client: FlaskClient) -> None:
    session = api.new_session(rules={"bump": True, "stake": 25})
    path = f"/api/sessions/{session['id']}"
    api.record(session["id"], **result_pick("Ann", "Bob", "lost"))
    played = api.session(session["id"])

    staked = client.patch(path, json={"rules": {"stake": 200}})
    assert staked.status_code == 200
    assert staked.json["rules"] == {**default_rules(), "bump": True, "stake": 200}
    assert staked.json["version"] == played["version"] + 1
    assert staked.json["hands"] == played["hands"]
    assert staked.json["settle_up"]["balances"] == by_seat(-800, -400, 400, 400, 400)
    assert staked.json["settle_up"]["stake"] == 200

    for change in ({"bump": False}, {"schwarz": "tricks"}, {"max_multiplier": 8},
                   {"penalties": True}, {"doublers": "stack"}, {"partner": "called_ace"},
                   {"stake": 50, "no_bid": "leaster"}):  # fmt: skip
        sentence = refused(client, path, {"rules": change}, 409, "rules")
        assert sentence == (
            "Hands are already played by these rules, so only the stake can change now."
        )
    # The same value again is no change, so it is allowed, with the stake.
    same = client.patch(path, json={"rules": {"bump": True, "schwarz": "points", "stake": 0}})
    assert same.status_code == 200
    assert same.json["rules"] == {**default_rules(), "bump": True}
    settle = same.json["settle_up"]
    assert (settle["stake"], settle["unit"]) == (0, "points")
    assert settle["balances"] == by_seat(-4, -2, 2, 2, 2)
    # Ann pays two of the three, Bob the third: any two will do.
    payments = [(p["from"], p["to"], p["amount"]) for p in settle["payments"]]
    assert sorted(payer for payer, _payee, _amount in payments) == ["Ann", "Ann", "Bob"]
    assert_settles(settle["balances"], payments)


def test_patch_rules_with_if_match_and_a_stale_version(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    path = f"/api/sessions/{session['id']}"
    stale = {"If-Match": f'"{session["version"]}"'}
    api.record(session["id"], **pick("Ann", "Bob", 75))
    response = client.patch(path, json={"rules": {"stake": 5}}, headers=stale)
    assert response.status_code == 412
    assert response.json["field"] == "version"
    assert api.session(session["id"])["rules"]["stake"] == 0


# Settle-up


def play_the_api_example(api: Api, rounds: int = 0, **rules: Any) -> int:
    """Ann 6, Bob -3, Cat -3, Dan 1, Eve -1: Ann picks with Dan, with Eve, with Dan; at a
    stake of 25 unless the rules say otherwise."""
    session = api.new_session(rounds=rounds, rules={"stake": 25, **rules})["id"]
    api.record(session, **pick("Ann", "Dan", 75))
    api.record(session, **result_pick("Ann", "Eve", "won"))
    api.record(session, **pick("Ann", "Dan", 61, result="won"))
    assert api.session(session)["totals"] == by_seat(6, -3, -3, 1, -1)
    return session


API_EXAMPLE = {
    "stake": 25,
    "unit": "cents",
    "balances": {"Ann": 150, "Bob": -75, "Cat": -75, "Dan": 25, "Eve": -25},
    "payments": [
        {"from": "Bob", "to": "Ann", "amount": 75},
        {"from": "Cat", "to": "Ann", "amount": 75},
        {"from": "Eve", "to": "Dan", "amount": 25},
    ],
    "paid": [],
    "exact": True,
}


def test_the_api_md_settle_up_example(api: Api, client: FlaskClient) -> None:
    session = play_the_api_example(api)
    assert api.session(session)["settle_up"] == API_EXAMPLE
    response = client.get(f"/api/sessions/{session}/settle-up")
    assert response.status_code == 200
    assert response.json == API_EXAMPLE


def test_a_session_settle_up_in_points_and_after_the_stake_changes(
    api: Api, client: FlaskClient
) -> None:
    session = play_the_api_example(api, stake=0)
    path = f"/api/sessions/{session}/settle-up"
    in_points = {
        **API_EXAMPLE,
        "stake": 0,
        "unit": "points",
        "balances": by_seat(6, -3, -3, 1, -1),
        "payments": [
            {"from": "Bob", "to": "Ann", "amount": 3},
            {"from": "Cat", "to": "Ann", "amount": 3},
            {"from": "Eve", "to": "Dan", "amount": 1},
        ],
    }
    assert client.get(path).json == in_points
    client.patch(f"/api/sessions/{session}", json={"rules": {"stake": 25}})
    assert client.get(path).json == API_EXAMPLE
    assert client.get("/api/sessions/999/settle-up").status_code == 404


def test_a_session_settle_up_names_everyone_of_its_totals(api: Api, client: FlaskClient) -> None:
    # Six seated, the dealer sits out: Fay scores 0 and is named; Gus arrives and is named.
    session = api.new_session(players=[*SEATS, "Fay"], first_dealer="Fay", rules={"stake": 10})
    api.record(session["id"], **pick("Ann", "Bob", 75))
    client.patch(f"/api/sessions/{session['id']}", json={"players": [*SEATS, "Fay", "Gus"]})
    settle = client.get(f"/api/sessions/{session['id']}/settle-up").json
    assert settle["balances"] == {
        "Ann": 20, "Bob": 10, "Cat": -10, "Dan": -10, "Eve": -10, "Fay": 0, "Gus": 0,
    }  # fmt: skip
    payments = [(p["from"], p["to"], p["amount"]) for p in settle["payments"]]
    assert sorted(payee for _payer, payee, _amount in payments) == ["Ann", "Ann", "Bob"]
    assert_settles(settle["balances"], payments)


def started_on(app: Flask, session_id: int, day: date) -> None:
    """Move a session's start to noon of `day` in the server's time zone."""
    moment = datetime.combine(day, clock(12)).astimezone().astimezone(UTC)
    with app.app_context():
        db.session.execute(
            update(Session).where(Session.id == session_id).values(created_at=moment)
        )
        db.session.commit()


@pytest.fixture
def season(app: Flask, api: Api) -> None:
    """Four nights:
    - 1 March, stake 25: the API.md example, Ann 6, Bob -3, Cat -3, Dan 1, Eve -1;
    - 2 March, stake 25, six seated, Gus deals and sits out: Bob & Cat 75, Bob 2, Cat 1, Ann Dan
      Eve -1, Gus 0;
    - 3 March, no stake, Fay for Eve: Fay & Ann 61, Fay 2, Ann 1, Bob Cat Dan -1;
    - 5 March, stake 10: Eve alone 95, Eve 8, the others -2."""
    first = play_the_api_example(api)
    second = api.new_session(players=[*SEATS, "Gus"], first_dealer="Gus", rules={"stake": 25})["id"]
    api.record(second, **pick("Bob", "Cat", 75))
    third = api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Fay"])["id"]
    api.record(third, **pick("Fay", "Ann", 61))
    fifth = api.new_session(rules={"stake": 10})["id"]
    api.record(fifth, **pick("Eve", None, 95))
    for session, day in ((first, 1), (second, 2), (third, 3), (fifth, 5)):
        started_on(app, session, date(2024, 3, day))


def settle_range(client: FlaskClient, query: str) -> dict[str, Any]:
    response = client.get(f"/api/settle-up{query}")
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    answer["payments"] = sorted((p["from"], p["to"], p["amount"]) for p in answer["payments"])
    return answer


@pytest.mark.usefixtures("season")
def test_settle_up_of_a_range_of_sessions(client: FlaskClient) -> None:
    # The first night alone is the API.md example.
    night = settle_range(client, "?to=2024-03-01")
    assert night["balances"] == API_EXAMPLE["balances"]
    assert night["payments"] == [("Bob", "Ann", 75), ("Cat", "Ann", 75), ("Eve", "Dan", 25)]
    assert (night["stake"], night["unit"]) == (25, "cents")

    # Two nights at 25: Ann 6-1, Bob -3+2, Cat -3+1, Dan 1-1, Eve -1-1, Gus 0.
    two = settle_range(client, "?from=2024-03-01&to=2024-03-02")
    assert (two["stake"], two["unit"]) == (25, "cents")
    assert two["balances"] == {
        "Ann": 125, "Bob": -25, "Cat": -50, "Dan": 0, "Eve": -50, "Gus": 0,
    }  # fmt: skip
    assert two["payments"] == [("Bob", "Ann", 25), ("Cat", "Ann", 50), ("Eve", "Ann", 50)]

    # The whole season: the unstaked night doesn't count (Fay is not named), the stakes
    # differ. Ann 125-20, Bob -25-20, Cat -50-20, Dan 0-20, Eve -50+80, Gus 0.
    season = {"Ann": 105, "Bob": -45, "Cat": -70, "Dan": -20, "Eve": 30, "Gus": 0}
    for query in ("", "?from=2024-03-01&to=2024-03-05", "?from=2024-02-01", "?to=2024-12-31"):
        whole = settle_range(client, query)
        assert (whole["stake"], whole["unit"]) == (None, "cents"), query
        assert whole["balances"] == season, query
        assert len(whole["payments"]) == 4
        assert_settles(whole["balances"], whole["payments"])

    # Only the unstaked night: in points.
    points = settle_range(client, "?from=2024-03-03&to=2024-03-04")
    assert (points["stake"], points["unit"]) == (0, "points")
    assert points["balances"] == {"Ann": 1, "Bob": -1, "Cat": -1, "Dan": -1, "Fay": 2}
    assert len(points["payments"]) == 3
    assert_settles(points["balances"], points["payments"])

    # From the unstaked night on, the staked one counts alone.
    later = settle_range(client, "?from=2024-03-03")
    assert (later["stake"], later["unit"]) == (10, "cents")
    assert later["balances"] == {"Ann": -20, "Bob": -20, "Cat": -20, "Dan": -20, "Eve": 80}

    nothing = settle_range(client, "?from=2024-04-01")
    assert nothing == {
        "stake": 0, "unit": "points", "balances": {}, "payments": [], "paid": [], "exact": True
    }  # fmt: skip


def assert_settles(balances: dict[str, int], payments: list[tuple[str, str, int]]) -> None:
    left = dict(balances)
    for payer, payee, amount in payments:
        assert amount > 0
        assert balances[payer] < 0 < balances[payee]
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) <= {0}


@pytest.fixture
def chicago() -> Iterator[None]:
    """The server's time zone six hours behind UTC (in March)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "America/Chicago")
        time.tzset()
        yield
    time.tzset()


@pytest.mark.usefixtures("chicago")
def test_a_session_belongs_to_the_day_it_started_in_the_servers_time_zone(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    session = play_the_api_example(api)
    # 03:00 UTC on 2 March is 21:00 on 1 March in Chicago.
    with app.app_context():
        db.session.execute(
            update(Session)
            .where(Session.id == session)
            .values(created_at=datetime(2024, 3, 2, 3, 0, tzinfo=UTC))
        )
        db.session.commit()
    on_the_first = settle_range(client, "?from=2024-03-01&to=2024-03-01")
    assert on_the_first["balances"] == API_EXAMPLE["balances"]
    assert settle_range(client, "?from=2024-03-02&to=2024-03-02")["balances"] == {}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?from=2024-13-01", "from"),
        ("?from=2024-3-1", "from"),
        ("?from=yesterday", "from"),
        ("?to=2024-02-30", "to"),
        ("?from=2024-03-01&to=03/05/2024", "to"),
    ],
)
def test_a_bad_date_is_refused(client: FlaskClient, query: str, field: str) -> None:
    response = client.get(f"/api/settle-up{query}")
    assert response.status_code == 400
    assert response.json == {
        "error": f"The {field} date must be a day written as YYYY-MM-DD.",
        "field": field,
    }


# Backup


def build_house_rules(api: Api, client: FlaskClient) -> list[int]:
    """Sessions with every rule, results, penalties and a stake changed after hands."""
    every = api.new_session(name="Every rule", players=[*SEATS, "Fay"], rules=EVERY_RULE)["id"]
    for hand in (
        PASS,
        PASS,
        result_pick("Bob", "Cat", "lost"),
        pick("Cat", None, 120, result="won_schneider"),
        penalty("Fay"),
        PASS,
        {"kind": "pick", "picker": "Fay", "partner": "Ann", "opponent_points": 100,
         "result": "lost_schwarz"},
        pick("Ann", "Bob", 0, result="lost_schneider"),
    ):  # fmt: skip
        api.record(every, **hand)
    client.patch(f"/api/sessions/{every}", json={"rules": {"stake": 35}})
    api.replace(every, 4, **result_pick("Cat", None, "won"))

    example = play_the_api_example(api, rounds=1, bump=True, penalties=True)
    api.record(example, **penalty("Bob"))
    api.record(example, **result_pick("Eve", "Dan", "lost_schneider"))
    return [every, example]


def test_a_backup_round_trip_with_house_rules_answers_the_same(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    sessions = build_house_rules(api, client)
    every = api.session(sessions[0])
    assert [hand["multiplier"] for hand in every["hands"]] == [1, 1, 4, 1, 1, 1, 2, 1]
    assert every["hands"][6]["scores"] == {
        "Ann": -12, "Bob": 12, "Cat": 12, "Dan": 12, "Eve": 12, "Fay": -36,
    }  # fmt: skip
    paths = ["/api/settle-up", *(f"/api/sessions/{session}/settle-up" for session in sessions)]
    original = answers(client) | {path: client.get(path).json for path in paths}
    assert original["/api/settle-up"]["stake"] is None
    backup = backup_of(app)
    restored = fresh()
    restore(restored, backup)
    again = restored.test_client()
    assert_same_answers(answers(again) | {path: again.get(path).json for path in paths}, original)
    assert without_time(backup_of(restored)) == without_time(backup)
    # The restored sessions keep their rules: only the stake can change.
    locked = again.patch(f"/api/sessions/{sessions[0]}", json={"rules": {"bump": False}})
    assert (locked.status_code, locked.json["field"]) == (409, "rules")
