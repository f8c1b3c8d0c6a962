"""The hand endpoints of API.md: record, replace, delete; scores, dealers, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick


def test_worked_example_1(api: Api) -> None:
    session = api.new_session()
    hand = api.record(session["id"], **pick("Ann", "Bob", 75, called_card="JD"))
    assert hand == {
        "number": 1,
        "dealer": "Ann",
        "kind": "pick",
        "picker": "Ann",
        "partner": "Bob",
        "called_card": "JD",
        "forced": False,
        "picking_points": 75,
        "cracked_by": None,
        "recracked": False,
        "blitzes": [],
        "winner": None,
        "points": None,
        "tricks": None,
        "doubled": False,
        "bumped": False,
        "multiplier": 1,
        "result": "won",
        "penalized": None,
        "players": ["Bob", "Cat", "Dan", "Eve", "Ann"],
        "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"],
        "sitting_out": [],
        "scores": {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1},
    }
    after = api.session(session["id"])
    assert after["totals"] == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1}
    assert after["hands_won"] == {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0, "Eve": 0}
    assert after["standings"][0] == {
        "player": "Ann",
        "total": 2,
        "hands_won": 1,
        "place": 1,
        "seated": True,
    }
    assert after["next_dealer"] == "Bob"
    assert after["hands"] == [hand]


def test_worked_example_2_sixty_is_a_loss(api: Api) -> None:
    session = api.new_session()
    hand = api.record(session["id"], **pick("Ann", "Bob", 60))
    assert hand["scores"] == {"Ann": -2, "Bob": -1, "Cat": 1, "Dan": 1, "Eve": 1}
    assert api.session(session["id"])["hands_won"] == {
        "Ann": 0, "Bob": 0, "Cat": 1, "Dan": 1, "Eve": 1,
    }  # fmt: skip


def test_worked_example_3_alone_cracked_and_recracked(api: Api) -> None:
    session = api.new_session(first_dealer="Eve")
    hand = api.record(
        session["id"],
        kind="pick", picker="Ann", partner=None, opponent_points=25,
        cracked_by="Dan", recracked=True,
    )  # fmt: skip
    assert hand["picking_points"] == 95
    assert hand["dealer"] == "Eve"
    assert hand["multiplier"] == 4
    assert hand["scores"] == {"Ann": 32, "Bob": -8, "Cat": -8, "Dan": -8, "Eve": -8}


def test_worked_example_4_leaster(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "leaster"})
    hand = api.record(
        session["id"],
        kind="leaster",
        winner="cat",
        points={"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
        tricks={"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1},
    )
    assert hand["winner"] == "Cat"
    assert hand["multiplier"] == 1
    assert hand["scores"] == {"Ann": -1, "Bob": -1, "Cat": 4, "Dan": -1, "Eve": -1}
    for key in ("picker", "partner", "called_card", "forced", "picking_points",
                "cracked_by", "recracked", "blitzes"):  # fmt: skip
        assert hand[key] is None
    assert hand["points"]["Cat"] == 10
    assert api.session(session["id"])["hands_won"]["Cat"] == 1


def test_worked_example_5_doubler(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "doubler"})
    passed = api.record(session["id"], kind="pass")
    assert passed["scores"] == dict.fromkeys(SEATS, 0)
    assert passed["multiplier"] == 1
    assert api.session(session["id"])["pending_doublers"] == 1
    hand = api.record(session["id"], **pick("Bob", "Cat", 0, blitzes=["black"]))
    assert hand["multiplier"] == 4
    assert hand["doubled"] is True
    assert hand["scores"] == {"Ann": 12, "Bob": -24, "Cat": -12, "Dan": 12, "Eve": 12}
    assert api.session(session["id"])["pending_doublers"] == 0


def test_doubler_queue_follows_edits(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "doubler"})
    sid = session["id"]
    api.record(sid, kind="pass")
    api.record(sid, kind="pass")
    for _ in range(3):
        api.record(sid, **pick("Cat", "Dan", 75))
    assert [h["multiplier"] for h in api.session(sid)["hands"]] == [1, 1, 2, 2, 1]
    api.replace(sid, 2, **pick("Cat", "Dan", 75))
    assert [h["multiplier"] for h in api.session(sid)["hands"]] == [1, 2, 1, 1, 1]
    api.delete(sid, 1)
    after = api.session(sid)
    assert [h["multiplier"] for h in after["hands"]] == [1, 1, 1, 1]
    assert sum(after["totals"].values()) == 0
    assert after["totals"]["Cat"] == 2 * 4


def test_dealer_rotation_across_passes_edits_and_deletes(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "redeal"}, first_dealer="Dan")
    sid = session["id"]
    api.record(sid, kind="pass")
    api.record(sid, **pick("Ann", None, 75))
    api.record(sid, kind="pass")
    assert [h["dealer"] for h in api.session(sid)["hands"]] == ["Dan", "Eve", "Ann"]
    assert api.session(sid)["next_dealer"] == "Bob"
    api.replace(sid, 2, kind="pass")
    assert api.replace(sid, 3, **pick("Cat", "Bob", 80))["dealer"] == "Ann"
    api.delete(sid, 1)
    after = api.session(sid)
    assert [(h["number"], h["dealer"]) for h in after["hands"]] == [(1, "Eve"), (2, "Ann")]
    assert after["next_dealer"] == "Bob"


def test_dealer_given_on_post_and_corrected_on_put(api: Api) -> None:
    session = api.new_session()
    sid = session["id"]
    assert api.record(sid, **pick("Ann", "Bob", 75), dealer="cat")["dealer"] == "Cat"
    assert api.session(sid)["next_dealer"] == "Dan"
    assert api.record(sid, **pick("Ann", "Bob", 75))["dealer"] == "Dan"
    corrected = api.replace(sid, 1, **pick("Ann", "Bob", 75), dealer="Bob")
    assert corrected["dealer"] == "Bob"
    assert api.session(sid)["hands"][1]["dealer"] == "Dan"


def test_put_keeps_dealer_and_number(api: Api) -> None:
    session = api.new_session(first_dealer="Bob")
    sid = session["id"]
    api.record(sid, **pick("Ann", "Bob", 75))
    api.record(sid, **pick("Ann", "Bob", 75))
    replaced = api.replace(sid, 1, **pick("Dan", None, 120))
    assert replaced["number"] == 1
    assert replaced["dealer"] == "Bob"
    assert replaced["scores"] == {"Ann": -3, "Bob": -3, "Cat": -3, "Dan": 12, "Eve": -3}


def test_put_can_change_the_kind(api: Api) -> None:
    session = api.new_session(rules={"no_bid": "leaster"})
    sid = session["id"]
    api.record(sid, **pick("Bob", "Ann", 75, blitzes=["red"], cracked_by="Eve"))
    leaster = api.replace(sid, 1, kind="leaster", winner="Dan")
    assert leaster["scores"] == {"Ann": -1, "Bob": -1, "Cat": -1, "Dan": 4, "Eve": -1}
    assert leaster["blitzes"] is None
    back = api.replace(sid, 1, **pick("Ann", "Bob", 75))
    assert back["multiplier"] == 1
    assert back["blitzes"] == []


def test_output_only_keys_are_ignored(api: Api) -> None:
    session = api.new_session()
    hand = api.record(session["id"], **pick("Ann", "Bob", 75), number=9, multiplier=8, scores={})
    assert hand["number"] == 1
    assert hand["multiplier"] == 1
    response = api.client.put(f"/api/sessions/{session['id']}/hands/1", json=hand)
    assert response.json == hand


def test_delete_renumbers_later_hands(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    sid = session["id"]
    for points in (70, 80, 90, 100):
        api.record(sid, **pick("Ann", "Bob", points))
    api.delete(sid, 2)
    hands = api.session(sid)["hands"]
    assert [(h["number"], h["picking_points"], h["dealer"]) for h in hands] == [
        (1, 70, "Ann"), (2, 90, "Cat"), (3, 100, "Dan"),
    ]  # fmt: skip
    api.delete(sid, 3)
    api.delete(sid, 3, status=404)
    assert client.delete(f"/api/sessions/{sid}/hands/0").status_code == 404
    assert api.session(sid)["next_dealer"] == "Dan"


def test_deleting_every_hand_returns_to_the_first_dealer(api: Api) -> None:
    session = api.new_session(first_dealer="Eve")
    api.record(session["id"], **pick("Ann", "Bob", 75))
    api.delete(session["id"], 1)
    after = api.session(session["id"])
    assert after["hands"] == []
    assert after["next_dealer"] == "Eve"
    assert after["totals"] == dict.fromkeys(SEATS, 0)


def test_complete_session_refuses_a_hand_but_allows_edits(api: Api) -> None:
    session = api.new_session(rounds=1)
    sid = session["id"]
    for _ in range(5):
        api.record(sid, **pick("Ann", "Bob", 75))
    refused = api.record(sid, 409, **pick("Ann", "Bob", 75))
    assert "complete" in refused["error"]
    api.replace(sid, 5, **pick("Ann", "Bob", 30))
    api.delete(sid, 5)
    assert api.session(sid)["complete"] is False


def test_unknown_session_or_hand(api: Api, client: FlaskClient) -> None:
    assert client.post("/api/sessions/5/hands", json=pick("Ann", "Bob", 75)).status_code == 404
    session = api.new_session()
    response = client.put(f"/api/sessions/{session['id']}/hands/1", json=pick("Ann", "Bob", 75))
    assert response.status_code == 404
    assert "error" in response.json


REFUSED: list[tuple[dict[str, Any], dict[str, Any], str]] = [
    ({}, {"kind": "trick"}, "kind"),
    ({}, {"kind": 3}, "kind"),
    ({}, {"picker": "Ann", "partner": None, "picking_points": 75}, "kind"),
    ({}, {"kind": "pick", "picker": "Ann", "picking_points": 75}, "partner"),
    ({}, pick("Zed", None, 75), "picker"),
    ({}, pick(None, None, 75), "picker"),  # type: ignore[arg-type]
    ({}, pick("Ann", "Zed", 75), "partner"),
    ({}, pick("Ann", "ann", 75), "partner"),
    ({}, pick("Ann", "Bob", 1), "picking_points"),
    ({}, pick("Ann", "Bob", 119), "picking_points"),
    ({}, pick("Ann", "Bob", 121), "picking_points"),
    ({}, pick("Ann", "Bob", -1), "picking_points"),
    ({}, pick("Ann", "Bob", 60.0), "picking_points"),
    ({}, pick("Ann", "Bob", "60"), "picking_points"),  # type: ignore[arg-type]
    ({}, pick("Ann", "Bob", True), "picking_points"),
    ({}, pick("Ann", "Bob", 10**30), "picking_points"),
    (
        {},
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "opponent_points": 1},
        "opponent_points",
    ),
    (
        {},
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "opponent_points": 119},
        "opponent_points",
    ),
    ({}, {"kind": "pick", "picker": "Ann", "partner": "Bob"}, "picking_points"),
    ({}, pick("Ann", "Bob", 60, opponent_points=60), "opponent_points"),
    ({}, pick("Ann", "Bob", 75, called_card="AC"), "called_card"),
    ({"partner": "called_ace"}, pick("Ann", "Bob", 75, called_card="JD"), "called_card"),
    ({}, pick("Ann", "Bob", 75, called_card=5), "called_card"),
    ({}, pick("Bob", "Cat", 75, forced=True), "forced"),
    ({"no_bid": "redeal"}, pick("Ann", "Cat", 75, forced=True), "forced"),
    ({}, pick("Ann", "Cat", 75, forced="yes"), "forced"),
    ({}, pick("Cat", "Bob", 75, cracked_by="Bob"), "cracked_by"),
    ({}, pick("Cat", "Bob", 75, cracked_by="Cat"), "cracked_by"),
    ({}, pick("Ann", "Bob", 75, cracked_by="Cat"), "cracked_by"),
    ({"cracking": False}, pick("Cat", "Bob", 75, cracked_by="Dan"), "cracked_by"),
    ({}, pick("Cat", "Bob", 75, recracked=True), "recracked"),
    ({"blitzing": False}, pick("Cat", "Bob", 75, blitzes=["black"]), "blitzes"),
    ({}, pick("Cat", "Bob", 75, blitzes=["green"]), "blitzes"),
    ({}, pick("Cat", "Bob", 75, blitzes=["red", "red"]), "blitzes"),
    ({}, pick("Cat", "Bob", 75, blitzes="black"), "blitzes"),
    ({}, pick("Cat", "Bob", 75, winner="Cat"), "winner"),
    ({}, pick("Cat", "Bob", 75, dealer="Zed"), "dealer"),
    ({}, pick("Cat", "Bob", 75, dealer=4), "dealer"),
    ({}, pick("Cat", "Bob", 75, extra=1), "extra"),
    ({}, {"kind": "pass"}, "kind"),
    ({"no_bid": "doubler"}, {"kind": "leaster", "winner": "Cat"}, "kind"),
    ({"no_bid": "redeal"}, {"kind": "pass", "picker": "Ann"}, "picker"),
    ({"no_bid": "leaster"}, {"kind": "leaster"}, "winner"),
    (
        {"no_bid": "leaster"},
        {"kind": "leaster", "winner": "Cat", "picking_points": 20},
        "picking_points",
    ),
    (
        {"no_bid": "leaster"},
        {"kind": "leaster", "winner": "Cat", "points": {"Ann": 60, "Bob": 60}},
        "points",
    ),
    (
        {"no_bid": "leaster"},
        {
            "kind": "leaster",
            "winner": "Cat",
            "tricks": {"Ann": 2, "Bob": 1, "Cat": 0, "Dan": 1, "Eve": 2},
        },
        "winner",
    ),
    (
        {"no_bid": "leaster"},
        {
            "kind": "leaster",
            "winner": "Cat",
            "points": {"Ann": 30, "Bob": 40, "Cat": 10.5, "Dan": 25, "Eve": 14.5},
        },
        "points",
    ),
    (
        {"no_bid": "leaster"},
        {"kind": "leaster", "winner": "Cat", "points": [30, 40, 10, 25, 15]},
        "points",
    ),
]


@pytest.mark.parametrize(("rules", "body", "field"), REFUSED)
def test_refused_hand_changes_nothing(
    api: Api, client: FlaskClient, rules: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    session = api.new_session(rules=rules)
    sid = session["id"]
    api.record(sid, **pick("Dan", "Eve", 75), dealer="Ann")
    before = api.session(sid)
    for response in (
        client.post(
            f"/api/sessions/{sid}/hands", json={**body, "dealer": body.get("dealer", "Ann")}
        ),
        client.put(f"/api/sessions/{sid}/hands/1", json=body),
    ):
        assert response.status_code == 400, response.json
        assert response.json["field"] == field
        assert response.json["error"][0].isupper()
    assert api.session(sid) == before


def test_crack_message_names_the_players(api: Api, client: FlaskClient) -> None:
    session = api.new_session(first_dealer="Eve")
    response = client.post(
        f"/api/sessions/{session['id']}/hands", json=pick("Cat", None, 75, cracked_by="Ann")
    )
    assert response.json == {
        "error": "Ann bid before Cat, so Ann can't crack.",
        "field": "cracked_by",
    }


def test_partner_may_be_the_cracker(api: Api) -> None:
    session = api.new_session(first_dealer="Eve")
    hand = api.record(session["id"], **pick("Ann", "Bob", 75, cracked_by="Bob"))
    assert hand["multiplier"] == 2
    assert hand["scores"] == {"Ann": 4, "Bob": 2, "Cat": -2, "Dan": -2, "Eve": -2}


def test_forced_pick_by_the_dealer(api: Api) -> None:
    session = api.new_session(first_dealer="Cat")
    hand = api.record(session["id"], **pick("Cat", "Ann", 40, forced=True))
    assert hand["forced"] is True
    assert hand["scores"] == {"Ann": -1, "Bob": 1, "Cat": -2, "Dan": 1, "Eve": 1}


def test_malformed_hand_json_is_400(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    for data in ("{", "[]", "7", "null"):
        response = client.post(
            f"/api/sessions/{session['id']}/hands", data=data, content_type="application/json"
        )
        assert response.status_code == 400
    assert api.session(session["id"])["hands"] == []


def test_long_names_in_hands_are_refused(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    response = client.post(f"/api/sessions/{session['id']}/hands", json=pick("x" * 5000, None, 75))
    assert response.status_code == 400
    assert response.json["field"] == "picker"
    assert api.session(session["id"])["hands"] == []


# Enumerated values: one rule for all, as for names (any case, spaces around ignored)


def test_every_enumerated_value_is_taken_in_any_case(api: Api) -> None:
    rules = {"partner": " Called_Ace ", "no_bid": "LEASTER", "schwarz": "Tricks"}
    session = api.new_session(rules=rules)
    assert {key: session["rules"][key] for key in rules} == {
        "partner": "called_ace",
        "no_bid": "leaster",
        "schwarz": "tricks",
    }
    sid = session["id"]
    hand = api.record(
        sid,
        kind="PICK",
        picker="Ann",
        partner="Bob",
        called_card=" ac ",
        result="Won",
        blitzes=["Black", " RED"],
    )
    assert (hand["kind"], hand["called_card"], hand["result"], hand["blitzes"]) == (
        "pick",
        "AC",
        "won",
        ["black", "red"],
    )
    assert hand["scores"]["Ann"] == 8
    assert api.record(sid, kind=" Leaster", winner="Cat")["kind"] == "leaster"
    refused = api.record(sid, status=400, kind="Pick", picker="Ann", result="won")
    assert refused == {
        "error": "Say who the partner was, or that the picker went alone.",
        "field": "partner",
    }


@pytest.mark.parametrize(
    ("hand", "field", "error"),
    [
        ({"kind": "picked"}, "kind", "The kind of hand is one of pick, leaster, pass, penalty."),
        (
            pick("Ann", "Bob", 75, blitzes=["blue"]),
            "blitzes",
            "A blitz is one of black, red.",
        ),
        (
            pick("Ann", "Bob", 75, called_card="J D"),
            "called_card",
            "The called card is one of JD, JC, JS, JH.",
        ),
        (
            {"kind": "pick", "picker": "Ann", "partner": "Bob", "result": "win"},
            "result",
            "The result is one of won_schwarz, won_schneider, won, lost, lost_schneider, "
            "lost_schwarz.",
        ),
    ],
)
def test_an_enumerated_value_not_allowed_is_refused_with_the_allowed_values(
    api: Api, hand: dict[str, Any], field: str, error: str
) -> None:
    sid = api.new_session()["id"]
    assert api.record(sid, status=400, **hand) == {"error": error, "field": field}
    assert api.session(sid)["hands"] == []
    answer = api.new_session(status=400, rules={"doublers": "stacked"})
    assert answer == {"error": "How doublers double is one of queue, stack.", "field": "rules"}
