"""Every form of the pages through the test client, as a browser without JavaScript sends it:
valid input, each refusal in the API's own sentence with what was typed kept and nothing written,
double submits, edits, deletes, undo, rounds, the score preview and the scoresheet after a save."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.sessions import loading

from ..helpers.api import SEATS, Api, default_rules, pick, session_with
from ..helpers.pages import (
    FormPage,
    assert_kept,
    filled,
    get_page,
    hands_path,
    html_page,
    redirected_page,
    sheet_path,
)


def scores(*values: int) -> dict[str, int]:
    return dict(zip(SEATS, values, strict=True))


def roster(app: Flask) -> list[str]:
    with app.app_context():
        return loading.roster()


ONE_ROUND = [pick(picker, None, 75) for picker in SEATS]
LEASTER = {"rules": {"no_bid": "leaster"}}
DOUBLER = {"rules": {"no_bid": "doubler"}}
REDEAL = {"rules": {"no_bid": "redeal"}}


def counts(field: str, values: Sequence[int | str]) -> dict[str, str]:
    """A leaster's points or tricks as typed, one box per seat."""
    return {f"{field}-{seat}": str(value) for seat, value in enumerate(values, start=1)}


# --- new session

SESSION_FORM = {
    **{f"seat_{seat}": name for seat, name in enumerate(SEATS, start=1)},
    "first_dealer": "0",
    "rounds": "2",
    "name": "Friday",
    "partner": "jack_of_diamonds",
    "no_bid": "forced_pick",
    "cracking": "y",
    "blitzing": "y",
    "sitting_out": "dealer",
}


def session_form(changes: Mapping[str, str], unchecked: Sequence[str] = ()) -> dict[str, str]:
    form = {**SESSION_FORM, **changes}
    return {name: value for name, value in form.items() if name not in unchecked}


def test_new_session_form_starts_empty_with_the_defaults(client: FlaskClient) -> None:
    fields = get_page(client, "/sessions/new").fields
    names = [*SESSION_FORM, "seat_6", "seat_7", "seat_8"]
    assert {name: fields.get(name) for name in names} == {
        **{f"seat_{seat}": [""] for seat in range(1, 9)},
        "sitting_out": ["dealer"],
        "first_dealer": ["0"],
        "rounds": ["2"],
        "name": [""],
        "partner": ["jack_of_diamonds"],
        "no_bid": ["forced_pick"],
        "cracking": ["y"],
        "blitzing": ["y"],
    }


@pytest.mark.parametrize(
    ("changes", "unchecked", "expected"),
    [
        pytest.param(
            {},
            (),
            {"name": "Friday", "rounds": 2, "rules": default_rules(), "next_dealer": "Ann"},
            id="defaults",
        ),
        pytest.param(
            {"first_dealer": "3", "rounds": "0", "name": "", "partner": "called_ace"},
            ("cracking", "blitzing"),
            {
                "name": "",
                "rounds": 0,
                "rules": {
                    **default_rules(),
                    "partner": "called_ace",
                    "cracking": False,
                    "blitzing": False,
                },
                "next_dealer": "Dan",
            },
            id="open-ended, no doubling",
        ),
        pytest.param(
            {"first_dealer": "4", "rounds": " 100 ", "no_bid": "leaster"},
            ("blitzing",),
            {
                "rounds": 100,
                "rules": {**default_rules(), "no_bid": "leaster", "blitzing": False},
                "next_dealer": "Eve",
            },
            id="leaster, no blitzing",
        ),
        pytest.param(
            {"no_bid": "doubler"},
            ("cracking",),
            {"rules": {**default_rules(), "no_bid": "doubler", "cracking": False}},
            id="doubler, no cracking",
        ),
    ],
)
def test_new_session_starts_the_session(
    api: Api,
    client: FlaskClient,
    changes: dict[str, str],
    unchecked: tuple[str, ...],
    expected: dict[str, Any],
) -> None:
    response = client.post("/sessions/new", data=session_form(changes, unchecked))
    (summary,) = client.get("/api/sessions").json["sessions"]
    redirected_page(client, response, sheet_path(summary["id"]))
    session = api.session(summary["id"])
    assert session["players"] == SEATS
    assert session["hands"] == []
    assert {key: session[key] for key in expected} == expected


def test_new_session_seats_known_players_under_their_names(api: Api, client: FlaskClient) -> None:
    api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Fay"])
    response = client.post("/sessions/new", data=session_form({"seat_1": " ann ", "seat_5": "Eve"}))
    assert response.status_code == 302
    newest = client.get("/api/sessions").json["sessions"][0]
    assert newest["players"] == SEATS


SESSION_REFUSALS = [
    pytest.param(
        {"seat_3": ""},
        {"players": ["Ann", "Bob", "", "Dan", "Eve"]},
        "seat_1",
        id="a seat left empty",
    ),
    pytest.param(
        {"seat_3": "", "seat_4": "", "seat_5": ""},
        {"players": ["Ann", "Bob"]},
        "seat_1",
        id="two names",
    ),
    pytest.param(
        {"seat_4": "", "seat_5": ""},
        {"players": ["Ann", "Bob", "Cat"], "rules": {"partner": "jack_of_diamonds"}},
        "seat_1",
        id="three with a partner",
    ),
    pytest.param(
        {"seat_6": "Fay", "seat_7": "Gus", "seat_8": "Hal", "sitting_out": "none"},
        {"players": [*SEATS, "Fay", "Gus", "Hal"], "rules": {"sitting_out": "none"}},
        "seat_1",
        id="eight all playing",
    ),
    pytest.param(
        {"seat_4": "ann"}, {"players": ["Ann", "Bob", "Cat", "ann", "Eve"]}, "seat_1", id="twice"
    ),
    pytest.param(
        {"seat_3": "C" * 41},
        {"players": ["Ann", "Bob", "C" * 41, "Dan", "Eve"]},
        "seat_1",
        id="41 characters",
    ),
    pytest.param({"rounds": "abc"}, {"rounds": "abc"}, "rounds", id="rounds abc"),
    pytest.param({"rounds": "-1"}, {"rounds": -1}, "rounds", id="rounds -1"),
    pytest.param({"rounds": "101"}, {"rounds": 101}, "rounds", id="rounds 101"),
    pytest.param({"rounds": ""}, {"rounds": None}, "rounds", id="rounds empty"),
    pytest.param({"partner": "spades"}, {"rules": {"partner": "spades"}}, None, id="partner rule"),
    pytest.param({"no_bid": "shuffle"}, {"rules": {"no_bid": "shuffle"}}, None, id="no-bid rule"),
]


@pytest.mark.parametrize(("changes", "body", "field"), SESSION_REFUSALS)
def test_new_session_refusal(
    app: Flask,
    api: Api,
    client: FlaskClient,
    changes: dict[str, str],
    body: dict[str, Any],
    field: str | None,
) -> None:
    sent = session_form(changes)
    page = html_page(client.post("/sessions/new", data=sent))
    sentence = api.new_session(status=400, **body)["error"]
    assert page.errors == [sentence]
    if field is not None:
        assert page.error_ids == [f"{field}-error"]
    # A rule value that is not offered has no radio to check again; all else is kept.
    unknown_rule = [name for name in changes if name in ("partner", "no_bid")]
    assert_kept(page, {name: value for name, value in sent.items() if name not in unknown_rule})
    assert client.get("/api/sessions").json == {"sessions": []}
    assert roster(app) == []


def test_new_session_takes_three_to_eight_names_and_ignores_blank_seats_after_them(
    api: Api, client: FlaskClient
) -> None:
    # Three names: the picker always plays alone.
    three = {"seat_4": "", "seat_5": "", "partner": "alone", "first_dealer": "2"}
    assert client.post("/sessions/new", data=session_form(three)).status_code == 302
    # Seven names, everyone plays, Gus deals first.
    seven = {"seat_6": "Fay", "seat_7": "Gus", "sitting_out": "none", "first_dealer": "6"}
    assert client.post("/sessions/new", data=session_form(seven)).status_code == 302
    newest, oldest = client.get("/api/sessions").json["sessions"]
    three_seated, seven_seated = api.session(oldest["id"]), api.session(newest["id"])
    assert three_seated["players"] == ["Ann", "Bob", "Cat"]
    assert three_seated["rules"]["partner"] == "alone"
    assert three_seated["next_dealer"] == "Cat"
    assert seven_seated["players"] == [*SEATS, "Fay", "Gus"]
    assert seven_seated["rules"]["sitting_out"] == "none"
    assert (seven_seated["next_dealer"], seven_seated["sitting_out_next"]) == ("Gus", [])


def test_new_session_first_dealer_must_be_a_seat_with_a_name(
    app: Flask, client: FlaskClient
) -> None:
    sent = session_form({"first_dealer": "6"})
    page = html_page(client.post("/sessions/new", data=sent))
    assert page.errors == ["Choose the first dealer."]
    assert page.error_ids == ["first_dealer-error"]
    assert_kept(page, sent)
    assert roster(app) == []


def test_new_session_offers_the_rules_of_any_table(client: FlaskClient) -> None:
    html = client.get("/sessions/new").text
    assert offered(html, "partner") == ["jack_of_diamonds", "called_ace", "alone"]
    assert offered(html, "sitting_out") == ["dealer", "none"]
    page = FormPage(html)
    assert "With six or more seated" in page.text
    # Eight rows for names without a script; the script shows five to start with.
    assert [f"seat_{n}" in page.fields for n in range(1, 10)] == [True] * 8 + [False]


def offered(html: str, name: str) -> list[str]:
    """The values a page offers for a radio group, in order."""
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]*)"', html)


# --- recording a hand


def test_hand_form_starts_untouched(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    page = get_page(client, hands_path(session_id))
    assert {name: page.fields.get(name) for name in ("number", "kind", "picker", "partner")} == {
        "number": ["2"],
        "kind": ["pick"],
        "picker": None,
        "partner": None,
    }
    assert page.fields["picking_points"] == page.fields["opponent_points"] == [""]
    assert page.fields["cracked_by"] == [""]
    # Bob deals hand 2, so the bidding starts left of Bob and ends with him.
    assert "Cat → Dan → Eve → Ann → Bob" in page.text
    assert "Save hand" in page.texts["button"]


VALID_HANDS = [
    pytest.param(
        {},
        [{"picker": "Ann", "partner": "Bob", "picking_points": "75", "called_card": "JD"}],
        {
            "dealer": "Ann",
            "kind": "pick",
            "picker": "Ann",
            "partner": "Bob",
            "called_card": "JD",
            "forced": False,
            "picking_points": 75,
            "multiplier": 1,
            "scores": scores(2, 1, -1, -1, -1),
        },
        id="usual pick",
    ),
    pytest.param(
        {"first_dealer": "Eve"},
        [
            {
                "picker": "Ann",
                "partner": "",
                "picking_points": "95",
                "cracked_by": "Dan",
                "recracked": "y",
            }
        ],
        {
            "dealer": "Eve",
            "picker": "Ann",
            "partner": None,
            "cracked_by": "Dan",
            "recracked": True,
            "multiplier": 4,
            "scores": scores(32, -8, -8, -8, -8),
        },
        id="alone, cracked and re-cracked",
    ),
    pytest.param(
        {},
        [{"picker": "Bob", "partner": "Cat", "opponent_points": "25"}],
        {"picker": "Bob", "picking_points": 95, "scores": scores(-2, 4, 2, -2, -2)},
        id="opponents' points",
    ),
    pytest.param(
        {},
        [
            {
                "picker": "Cat",
                "partner": "Ann",
                "picking_points": "120",
                "black_blitz": "y",
                "red_blitz": "y",
            }
        ],
        {"blitzes": ["black", "red"], "multiplier": 4, "scores": scores(12, -12, 24, -12, -12)},
        id="both blitzes",
    ),
    pytest.param(
        {},
        [{"kind": "passed", "partner": "Cat", "picking_points": "30"}],
        {
            "dealer": "Ann",
            "kind": "pick",
            "picker": "Ann",
            "partner": "Cat",
            "forced": True,
            "picking_points": 30,
            "scores": scores(-4, 2, -2, 2, 2),
        },
        id="forced pick",
    ),
    pytest.param(
        REDEAL,
        [{"kind": "passed"}],
        {"kind": "pass", "picker": None, "multiplier": 1, "scores": scores(0, 0, 0, 0, 0)},
        id="re-deal",
    ),
    pytest.param(
        DOUBLER,
        [
            {"kind": "passed"},
            {"picker": "Bob", "partner": "Cat", "picking_points": "0", "black_blitz": "y"},
        ],
        {"dealer": "Bob", "doubled": True, "multiplier": 4, "scores": scores(12, -24, -12, 12, 12)},
        id="pass then a doubled blitz",
    ),
    pytest.param(
        LEASTER,
        [{"kind": "passed", "winner": "Cat"}],
        {
            "kind": "leaster",
            "winner": "Cat",
            "picker": None,
            "points": None,
            "tricks": None,
            "scores": scores(-1, -1, 4, -1, -1),
        },
        id="leaster",
    ),
    pytest.param(
        LEASTER,
        [
            {
                "kind": "passed",
                "winner": "Cat",
                **counts("points", [30, 40, 10, 25, 15]),
                **counts("tricks", [2, 1, 1, 1, 1]),
            }
        ],
        {
            "kind": "leaster",
            "winner": "Cat",
            "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
            "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1},
            "scores": scores(-1, -1, 4, -1, -1),
        },
        id="leaster with points and tricks",
    ),
    pytest.param(
        LEASTER,
        [{"picker": "Dan", "partner": "Eve", "picking_points": "61"}],
        {"kind": "pick", "picker": "Dan", "scores": scores(-1, -1, -1, 2, 1)},
        id="a pick in a leaster session",
    ),
    pytest.param(
        {},
        [{"picker": "Ann", "partner": "Bob", "result": "won_schneider"}],
        {"result": "won_schneider", "picking_points": None, "scores": scores(4, 2, -2, -2, -2)},
        id="result by tap, no points",
    ),
    pytest.param(
        {"rules": {"schwarz": "tricks"}},
        [{"picker": "Ann", "partner": "Bob", "picking_points": "120", "result": "won_schneider"}],
        {"result": "won_schneider", "picking_points": 120, "scores": scores(4, 2, -2, -2, -2)},
        id="120 points and a trick to the opponents, schwarz by tricks",
    ),
    pytest.param(
        {},
        [{"picker": "Ann", "partner": "Bob", "picking_points": "95", "result": "won_schneider"}],
        {"result": "won_schneider", "picking_points": 95, "scores": scores(4, 2, -2, -2, -2)},
        id="points and the result they mean",
    ),
    pytest.param(
        {"rules": {"bump": True}},
        [{"picker": "Ann", "partner": "Bob", "result": "lost"}],
        {"result": "lost", "scores": scores(-4, -2, 2, 2, 2)},
        id="example 12: a loss on the bump",
    ),
    pytest.param(
        {"rules": {"penalties": True}},
        [
            {"kind": "penalty", "penalized": "Dan", "picker": "Ann", "result": "won"},
        ],
        {
            "kind": "penalty",
            "penalized": "Dan",
            "picker": None,
            "result": None,
            "scores": scores(1, 1, 1, -4, 1),
        },
        id="penalty hand, what a pick would need left out",
    ),
]


@pytest.mark.parametrize(("given", "taps", "expected"), VALID_HANDS)
def test_record_hand(
    api: Api,
    client: FlaskClient,
    given: dict[str, Any],
    taps: list[dict[str, str]],
    expected: dict[str, Any],
) -> None:
    session_id = session_with(api, **given)
    path = hands_path(session_id)
    for number, tapped in enumerate(taps, start=1):
        response = client.post(path, data=filled(client, path, tapped))
        redirected_page(client, response, sheet_path(session_id, saved=number))
    session = api.session(session_id)
    assert len(session["hands"]) == len(taps)
    hand = session["hands"][-1]
    assert {key: hand[key] for key in expected} == expected


HAND_REFUSALS = [
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "75", "result": "lost"},
        pick("Ann", "Bob", 75, result="lost"),
        "result",
        id="points and a result that disagree",
    ),
    pytest.param(
        {"rules": {"schwarz": "tricks"}},
        {"picker": "Ann", "partner": "Bob", "picking_points": "40", "result": "lost_schwarz"},
        pick("Ann", "Bob", 40, result="lost_schwarz"),
        "result",
        id="schwarz by tricks with points taken in tricks",
    ),
    pytest.param(
        {"rules": {"penalties": True}},
        {"kind": "penalty"},
        {"kind": "penalty"},
        "penalized",
        id="penalty without who",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob"},
        {"kind": "pick", "picker": "Ann", "partner": "Bob"},
        "picking_points",
        id="points untouched",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "1"},
        pick("Ann", "Bob", 1),
        "picking_points",
        id="picking 1",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "opponent_points": "119"},
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "opponent_points": 119},
        "opponent_points",
        id="opponents 119",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "abc"},
        pick("Ann", "Bob", "abc"),
        "picking_points",
        id="picking abc",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "²"},
        pick("Ann", "Bob", "²"),
        "picking_points",
        id="picking superscript two",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "121"},
        pick("Ann", "Bob", 121),
        "picking_points",
        id="picking 121",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "picking_points": "75", "opponent_points": "45"},
        {**pick("Ann", "Bob", 75), "opponent_points": 45},
        "opponent_points",
        id="both sides",
    ),
    pytest.param(
        {},
        {"picker": "Cat", "partner": "Ann", "picking_points": "75", "cracked_by": "Bob"},
        pick("Cat", "Ann", 75, cracked_by="Bob"),
        "cracked_by",
        id="crack by an earlier bidder",
    ),
    pytest.param(
        {},
        {"picker": "Cat", "partner": "Ann", "picking_points": "75", "recracked": "y"},
        pick("Cat", "Ann", 75, recracked=True),
        "recracked",
        id="re-crack without a crack",
    ),
    pytest.param(
        {},
        {"partner": "Bob", "picking_points": "75"},
        {"kind": "pick", "partner": "Bob", "picking_points": 75},
        "picker",
        id="no picker",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "picking_points": "75"},
        {"kind": "pick", "picker": "Ann", "picking_points": 75},
        "partner",
        id="no partner",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Ann", "picking_points": "75"},
        pick("Ann", "Ann", 75),
        "partner",
        id="picker as partner",
    ),
    pytest.param(
        {},
        {"kind": "passed", "picking_points": "75"},
        {"kind": "pick", "picker": "Ann", "forced": True, "picking_points": 75},
        "partner",
        id="forced pick without partner",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed"},
        {"kind": "leaster"},
        "winner",
        id="no leaster winner",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed", "winner": "Cat", "points-1": "abc"},
        {"kind": "leaster", "winner": "Cat", "points": {"Ann": "abc"}},
        None,
        id="leaster points abc",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed", "winner": "Cat", **counts("points", [30, 40, 10, 25, 5])},
        {
            "kind": "leaster",
            "winner": "Cat",
            "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 5},
        },
        None,
        id="leaster points add up to 110",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed", "winner": "Cat", **counts("tricks", [2, 1, 1, 1, 0])},
        {
            "kind": "leaster",
            "winner": "Cat",
            "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 0},
        },
        None,
        id="leaster tricks add up to 5",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed", "winner": "Cat", **counts("tricks", [2, 2, 0, 1, 1])},
        {
            "kind": "leaster",
            "winner": "Cat",
            "tricks": {"Ann": 2, "Bob": 2, "Cat": 0, "Dan": 1, "Eve": 1},
        },
        "winner",
        id="leaster winner took no trick",
    ),
    pytest.param(
        LEASTER,
        {"kind": "passed", "winner": "Bob", **counts("points", [30, 40, 10, 25, 15])},
        {
            "kind": "leaster",
            "winner": "Bob",
            "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
        },
        "winner",
        id="leaster winner had more points",
    ),
]


@pytest.mark.parametrize(("given", "taps", "body", "field"), HAND_REFUSALS)
def test_record_hand_refusal(
    api: Api,
    client: FlaskClient,
    given: dict[str, Any],
    taps: dict[str, str],
    body: dict[str, Any],
    field: str | None,
) -> None:
    session_id = session_with(api, **given)
    before = api.session(session_id)
    path = hands_path(session_id)
    sent = filled(client, path, taps)
    page = html_page(client.post(path, data=sent))
    sentence = api.record(session_id, 400, **body)["error"]
    assert page.errors == [sentence]
    if field is not None:
        assert page.error_ids == [f"{field}-error"]
    assert_kept(page, sent)
    assert api.session(session_id) == before


def test_complete_session_takes_no_more_hands(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, ONE_ROUND, rounds=1)
    before = api.session(session_id)
    path = hands_path(session_id)
    sheet = redirected_page(client, client.get(path), sheet_path(session_id))
    assert sheet.flashes == [
        "This session is complete: its round is played. Add a round to record another hand."
    ]

    sent = {
        "number": "6",
        "kind": "pick",
        "picker": "Ann",
        "partner": "Bob",
        "picking_points": "75",
    }
    page = html_page(client.post(path, data=sent))
    assert page.errors == [api.record(session_id, 409, **pick("Ann", "Bob", 75))["error"]]
    assert api.session(session_id) == before


@pytest.mark.parametrize("rounds", [0, 1])
def test_double_submit_records_one_hand(api: Api, client: FlaskClient, rounds: int) -> None:
    # With one round, the hand sent twice is the one that completes the session.
    session_id = session_with(api, ONE_ROUND[:4], rounds=rounds)
    path = hands_path(session_id)
    sent = filled(client, path, {"picker": "Eve", "partner": "Ann", "picking_points": "95"})
    first = client.post(path, data=sent)
    assert first.status_code == 302
    assert first.location == sheet_path(session_id, saved=5)
    sheet = redirected_page(client, client.post(path, data=sent), sheet_path(session_id, saved=5))
    assert sheet.flashes == ["Hand 5 saved."]
    hands = api.session(session_id)["hands"]
    assert len(hands) == 5
    assert hands[-1]["scores"] == scores(2, -2, -2, -2, 4)


@pytest.mark.parametrize(
    ("given", "taps", "expected"),
    [
        pytest.param(
            {"first_dealer": "Eve"},
            {"picker": "Ann", "partner": "", "picking_points": "75", "cracked_by": "Dan"},
            "Ann +8, 4 others -2, x2 for the crack",
            id="alone, cracked",
        ),
        pytest.param(
            {},
            {"kind": "passed", "partner": "Cat", "picking_points": "30"},
            "Ann -4, Cat -2, Bob, Dan, Eve +2",
            id="forced pick",
        ),
    ],
)
def test_preview_button_shows_the_scores_and_saves_nothing(
    api: Api, client: FlaskClient, given: dict[str, Any], taps: dict[str, str], expected: str
) -> None:
    session_id = session_with(api, **given)
    path = hands_path(session_id)
    sent = filled(client, path, taps)
    page = html_page(client.post(path, data={**sent, "preview": "1"}))
    assert page.errors == []
    assert page.texts["output"] == [expected]
    assert_kept(page, sent)
    assert api.session(session_id)["hands"] == []


# --- editing a hand

EDIT_PREFILLS = [
    pytest.param(
        {"first_dealer": "Eve"},
        pick(
            "Ann", None, 95, cracked_by="Dan", recracked=True, blitzes=["black"], called_card="JC"
        ),
        {
            "editing": ["1"],
            "dealer": ["Eve"],
            "kind": ["pick"],
            "picker": ["Ann"],
            "partner": [""],
            "called_card": ["JC"],
            "picking_points": ["95"],
            "opponent_points": [""],
            "cracked_by": ["Dan"],
            "recracked": ["y"],
            "black_blitz": ["y"],
            "red_blitz": None,
        },
        id="alone, cracked, blitzed",
    ),
    pytest.param(
        {},
        {**pick("Ann", "Cat", 30), "forced": True},
        {"kind": ["passed"], "partner": ["Cat"], "picking_points": ["30"], "dealer": ["Ann"]},
        id="forced pick",
    ),
    pytest.param(REDEAL, {"kind": "pass"}, {"kind": ["passed"], "picker": None}, id="pass"),
    pytest.param(
        {},
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "result": "won"},
        {"result": ["won"], "picking_points": [""], "picker": ["Ann"]},
        id="result only",
    ),
    pytest.param(
        {},
        pick("Ann", "Bob", 75),
        {"result": None, "picking_points": ["75"]},
        id="a result the points give is left to them",
    ),
    pytest.param(
        {"rules": {"schwarz": "tricks"}},
        pick("Ann", "Bob", 120, result="won_schneider"),
        {"result": ["won_schneider"], "picking_points": ["120"]},
        id="a result the points don't give is kept",
    ),
    pytest.param(
        {"rules": {"penalties": True}},
        {"kind": "penalty", "penalized": "Dan"},
        {"kind": ["penalty"], "penalized": ["Dan"], "picker": None},
        id="penalty",
    ),
    pytest.param(
        LEASTER,
        {
            "kind": "leaster",
            "winner": "Cat",
            "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
            "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1},
        },
        {
            "kind": ["passed"],
            "winner": ["Cat"],
            **{name: [value] for name, value in counts("points", [30, 40, 10, 25, 15]).items()},
            **{name: [value] for name, value in counts("tricks", [2, 1, 1, 1, 1]).items()},
        },
        id="leaster with counts",
    ),
]


@pytest.mark.parametrize(("given", "hand", "expected"), EDIT_PREFILLS)
def test_edit_form_is_prefilled(
    api: Api,
    client: FlaskClient,
    given: dict[str, Any],
    hand: dict[str, Any],
    expected: dict[str, list[str] | None],
) -> None:
    session_id = session_with(api, [hand], **given)
    fields = get_page(client, hands_path(session_id, "1/edit")).fields
    assert {name: fields.get(name) for name in expected} == expected


THREE_PICKS = [pick("Ann", "Bob", 75), pick("Bob", "Cat", 75), pick("Cat", "Dan", 75)]


def test_edit_changes_scores_and_keeps_the_dealer(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, THREE_PICKS)
    path = hands_path(session_id, "2/edit")
    response = client.post(path, data=filled(client, path, {"picking_points": "30"}))
    redirected_page(client, response, sheet_path(session_id, saved=2))
    session = api.session(session_id)
    assert [hand["dealer"] for hand in session["hands"]] == ["Ann", "Bob", "Cat"]
    assert session["hands"][1]["scores"] == scores(2, -4, -2, 2, 2)
    assert session["totals"] == scores(3, -4, -1, 2, 0)
    assert session["next_dealer"] == "Dan"


def test_edit_corrects_the_dealer_of_that_hand_only(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, THREE_PICKS)
    path = hands_path(session_id, "2/edit")
    response = client.post(path, data=filled(client, path, {"dealer": "Eve"}))
    assert response.status_code == 302
    session = api.session(session_id)
    assert [hand["dealer"] for hand in session["hands"]] == ["Ann", "Eve", "Cat"]
    assert session["next_dealer"] == "Dan"
    assert session["totals"] == scores(0, 2, 2, -1, -3)


def test_edit_recomputes_totals_and_the_doubler_queue(api: Api, client: FlaskClient) -> None:
    hands = [{"kind": "pass"}, pick("Bob", "Cat", 75), pick("Cat", "Dan", 75)]
    session_id = session_with(api, hands, **DOUBLER)
    assert [hand["multiplier"] for hand in api.session(session_id)["hands"]] == [1, 2, 1]

    first = hands_path(session_id, "1/edit")
    taps = {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": "75"}
    assert client.post(first, data=filled(client, first, taps)).status_code == 302
    session = api.session(session_id)
    assert [hand["multiplier"] for hand in session["hands"]] == [1, 1, 1]
    assert session["pending_doublers"] == 0
    assert session["totals"] == scores(-3, 3, 4, -1, -3)

    third = hands_path(session_id, "3/edit")
    assert client.post(third, data=filled(client, third, {"kind": "passed"})).status_code == 302
    session = api.session(session_id)
    assert session["hands"][2]["kind"] == "pass"
    assert session["pending_doublers"] == 1
    assert session["totals"] == scores(-2, 4, 2, -2, -2)
    assert "Next 1 hand doubled" in get_page(client, sheet_path(session_id)).text


EDIT_REFUSALS = [
    pytest.param(
        {"opponent_points": "119", "picking_points": ""},
        {"kind": "pick", "picker": "Bob", "partner": "Cat", "opponent_points": 119},
        "opponent_points",
        id="opponents 119",
    ),
    pytest.param(
        {"picker": "Dan", "partner": "Eve", "cracked_by": "Cat"},
        pick("Dan", "Eve", 75, cracked_by="Cat"),
        "cracked_by",
        id="crack by an earlier bidder",
    ),
    pytest.param(
        {"partner": "Bob"},
        pick("Bob", "Bob", 75),
        "partner",
        id="picker as partner",
    ),
]


@pytest.mark.parametrize(("taps", "body", "field"), EDIT_REFUSALS)
def test_edit_refusal(
    api: Api, client: FlaskClient, taps: dict[str, str], body: dict[str, Any], field: str
) -> None:
    session_id = session_with(api, THREE_PICKS)
    before = api.session(session_id)
    path = hands_path(session_id, "2/edit")
    sent = filled(client, path, taps)
    page = html_page(client.post(path, data=sent))
    sentence = api.replace(session_id, 2, 400, **body)["error"]
    assert page.errors == [sentence]
    assert page.error_ids == [f"{field}-error"]
    assert_kept(page, sent)
    assert api.session(session_id) == before


@pytest.mark.parametrize("rest", ["9/edit", "9/delete", "0/edit"])
def test_unknown_hand_is_a_404(api: Api, client: FlaskClient, rest: str) -> None:
    session_id = session_with(api, THREE_PICKS)
    assert client.get(hands_path(session_id, rest)).status_code == 404
    assert client.post(hands_path(session_id, rest)).status_code == 404
    assert len(api.session(session_id)["hands"]) == 3


# --- deleting, undoing, adding a round


def test_delete_asks_first_then_deletes_and_renumbers(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, THREE_PICKS)
    path = hands_path(session_id, "2/delete")
    confirm = get_page(client, path)
    assert "Delete hand 2?" in confirm.text
    assert "Bob & Cat, 75" in confirm.text
    assert "Delete" in confirm.texts["button"]
    assert len(api.session(session_id)["hands"]) == 3

    # The confirmation as the page shows it, sent twice (a double tap): one hand goes.
    sent = {"hand": confirm.fields["hand"][0]}
    sheet = redirected_page(client, client.post(path, data=sent), sheet_path(session_id, undone=2))
    assert sheet.flashes == ["Hand 2 deleted."]
    again = redirected_page(client, client.post(path, data=sent), sheet_path(session_id))
    assert again.flashes == ["Hand 2 changed on another phone, so nothing was deleted."]
    hands = api.session(session_id)["hands"]
    assert [(hand["number"], hand["dealer"], hand["picker"]) for hand in hands] == [
        (1, "Ann", "Ann"),
        (2, "Cat", "Cat"),
    ]


def test_undo_removes_the_last_hand_once(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, THREE_PICKS)
    sheet = get_page(client, sheet_path(session_id))
    assert "Undo last hand" in sheet.texts["button"]
    # The Undo form as the scoresheet shows it, sent twice (a double tap).
    sent = {"number": sheet.fields["number"][0]}
    assert sent == {"number": "3"}
    for tap in range(2):
        response = client.post(f"/sessions/{session_id}/undo", data=sent)
        assert response.status_code == 302
        assert response.location == sheet_path(session_id, undone=None if tap else 3)
    hands = api.session(session_id)["hands"]
    assert [(hand["number"], hand["picker"]) for hand in hands] == [(1, "Ann"), (2, "Bob")]


def test_add_a_round_reopens_a_complete_session(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, ONE_ROUND, rounds=1)
    assert "Add a round" in get_page(client, sheet_path(session_id)).texts["button"]
    response = client.post(f"/sessions/{session_id}/rounds")
    assert response.status_code == 302
    assert response.location == sheet_path(session_id)
    session = api.session(session_id)
    assert (session["rounds"], session["complete"], session["next_dealer"]) == (2, False, "Ann")
    assert get_page(client, hands_path(session_id)).fields["number"] == ["6"]


# --- the live preview

PREVIEWS = [
    pytest.param(
        {},
        [],
        {"picker": "Ann", "partner": "Bob", "picking_points": "75"},
        "Ann +2, Bob +1, Cat, Dan, Eve -1",
        id="usual pick",
    ),
    pytest.param(
        {"first_dealer": "Eve"},
        [],
        {"picker": "Ann", "partner": "", "picking_points": "75", "cracked_by": "Dan"},
        "Ann +8, 4 others -2, x2 for the crack",
        id="alone, cracked",
    ),
    pytest.param(
        {"first_dealer": "Eve"},
        [],
        {
            "picker": "Ann",
            "partner": "Bob",
            "opponent_points": "25",
            "cracked_by": "Dan",
            "recracked": "y",
            "red_blitz": "y",
        },
        "Ann +32, Bob +16, Cat, Dan, Eve -16, x8 for the crack, the re-crack and the red blitz",
        id="three doublings",
    ),
    pytest.param(
        DOUBLER,
        [{"kind": "pass"}],
        {"picker": "Bob", "partner": "Cat", "picking_points": "95"},
        "Bob +8, Cat +4, Ann, Dan, Eve -4, x2 for the doubler",
        id="doubled after a pass",
    ),
    pytest.param(
        LEASTER, [], {"kind": "passed", "winner": "Cat"}, "Cat +4, 4 others -1", id="leaster"
    ),
    pytest.param(REDEAL, [], {"kind": "passed"}, "No scores: the deal moves on.", id="re-deal"),
    pytest.param(
        {},
        [],
        {"kind": "passed", "partner": "", "picking_points": "60"},
        "Ann -4, 4 others +1",
        id="forced pick alone, lost",
    ),
]


def preview(client: FlaskClient, session_id: int, data: Mapping[str, str]) -> Any:
    response = client.post(hands_path(session_id, "preview"), data=data)
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.json


@pytest.mark.parametrize(("given", "hands", "taps", "expected"), PREVIEWS)
def test_preview(
    api: Api,
    client: FlaskClient,
    given: dict[str, Any],
    hands: list[dict[str, Any]],
    taps: dict[str, str],
    expected: str,
) -> None:
    session_id = session_with(api, hands, **given)
    before = api.session(session_id)
    data = filled(client, hands_path(session_id), taps)
    assert preview(client, session_id, data) == {"preview": expected}
    assert api.session(session_id) == before


def test_preview_of_an_edit_keeps_the_hand_in_its_place(api: Api, client: FlaskClient) -> None:
    hands = [{"kind": "pass"}, pick("Bob", "Cat", 75), pick("Cat", "Dan", 75)]
    session_id = session_with(api, hands, **DOUBLER)
    before = api.session(session_id)
    data = filled(client, hands_path(session_id, "2/edit"), {"picking_points": "95"})
    assert preview(client, session_id, data) == {
        "preview": "Bob +8, Cat +4, Ann, Dan, Eve -4, x2 for the doubler"
    }
    assert api.session(session_id) == before


PREVIEW_REFUSALS = [
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob"},
        {"kind": "pick", "picker": "Ann", "partner": "Bob"},
        id="points untouched",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "partner": "Bob", "opponent_points": "119"},
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "opponent_points": 119},
        id="opponents 119",
    ),
    pytest.param(
        {},
        {"picker": "Cat", "partner": "Ann", "picking_points": "75", "cracked_by": "Bob"},
        pick("Cat", "Ann", 75, cracked_by="Bob"),
        id="crack by an earlier bidder",
    ),
    pytest.param(
        {},
        {"picker": "Ann", "picking_points": "75"},
        {"kind": "pick", "picker": "Ann", "picking_points": 75},
        id="no partner",
    ),
    pytest.param(LEASTER, {"kind": "passed"}, {"kind": "leaster"}, id="no leaster winner"),
]


@pytest.mark.parametrize(("given", "taps", "body"), PREVIEW_REFUSALS)
def test_preview_refusal(
    api: Api, client: FlaskClient, given: dict[str, Any], taps: dict[str, str], body: dict[str, Any]
) -> None:
    session_id = session_with(api, **given)
    before = api.session(session_id)
    data = filled(client, hands_path(session_id), taps)
    answer = preview(client, session_id, data)
    refusal = api.record(session_id, 400, **body)
    assert answer == {"error": refusal["error"], "field": refusal["field"]}
    assert api.session(session_id) == before


# --- the scoresheet after a save


def test_saved_hand_is_marked_on_the_scoresheet(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, THREE_PICKS[:2])
    path = hands_path(session_id)
    taps = {"picker": "Cat", "partner": "Dan", "picking_points": "75"}
    response = client.post(path, data=filled(client, path, taps))
    sheet = redirected_page(client, response, sheet_path(session_id, saved=3))
    (saved,) = sheet.texts["saved"]
    # Hand 3 and each player's score with the running total: Cat +2, Dan +1, the others -1.
    assert saved.split() == ["3", "-1", "0", "-1", "+2", "+2", "+2", "+1", "-1", "-1", "-3"]
    assert "saved" not in get_page(client, sheet_path(session_id)).texts


def test_complete_session_shows_final_standings_and_tiebreaks(
    api: Api, client: FlaskClient
) -> None:
    hands = [
        pick("Ann", "Dan", 75),
        pick("Bob", "Ann", 75),
        pick("Dan", None, 75),
        pick("Bob", None, 95),
        pick("Dan", "Ann", 95),
    ]
    session_id = session_with(api, hands, rounds=1)
    session = api.session(session_id)
    assert session["totals"] == scores(2, 6, -7, 6, -7)
    assert session["hands_won"] == scores(3, 2, 0, 3, 0)

    sheet = get_page(client, sheet_path(session_id))
    assert "Final standings" in sheet.text
    (winner,) = sheet.texts["winner"]
    assert "Dan" in winner.split()
    assert "Winner" in winner.split()
    assert sheet.texts["tiebreak"] == [
        "Dan and Bob both +6; Dan won more hands, 3 to 2.",
        "Cat and Eve both -7 with 0 hands won each, so they share 4th place.",
    ]
    assert "Record hand" not in sheet.text


# --- tables of 3 to 8: who plays a hand, who sits out, the alone rule

SIX = [*SEATS, "Fay"]
SEVEN = [*SIX, "Gus"]


def test_hand_form_offers_only_the_players_of_the_hand(api: Api, client: FlaskClient) -> None:
    # Seven seated, Cat deals: Cat and Bob sit out; Dan bids first and Ann last.
    session_id = session_with(api, players=SEVEN, first_dealer="Cat", rules=LEASTER["rules"])
    response = client.get(hands_path(session_id))
    page = html_page(response)
    playing = ["Ann", "Dan", "Eve", "Fay", "Gus"]
    assert offered(response.text, "picker") == playing
    assert offered(response.text, "partner") == [*playing, ""]
    assert offered(response.text, "cracked_by") == ["", *playing]
    assert offered(response.text, "winner") == playing
    assert "Cat dealt · Dan → Eve → Fay → Gus → Ann" in page.text
    assert "Cat and Bob sit out this hand." in page.text
    # The leaster's points and tricks: one row a player of the hand.
    assert re.findall(r"<tr><th scope=\"row\">(\w+)</th>", response.text) == playing


def test_a_hand_of_six_seated_scores_the_five_who_played(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, players=SIX, first_dealer="Fay")
    path = hands_path(session_id)
    taps = {"picker": "Ann", "partner": "Bob", "picking_points": "70"}
    response = client.post(path, data=filled(client, path, taps))
    sheet = redirected_page(client, response, sheet_path(session_id, saved=1))
    assert "Ann deals hand 2 · Ann sits out" in sheet.text
    (hand,) = api.session(session_id)["hands"]
    assert hand["sitting_out"] == ["Fay"]
    assert hand["scores"] == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0}


def test_a_player_sitting_out_is_refused_in_the_api_s_words(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, players=SIX, first_dealer="Fay")
    path = hands_path(session_id)
    # A form sent as if Fay had been offered (an old page, another phone): the engine says no.
    sent = filled(client, path, {"picker": "Fay", "partner": "Bob", "picking_points": "70"})
    page = html_page(client.post(path, data=sent))
    sentence = api.record(session_id, status=400, **pick("Fay", "Bob", 70))["error"]
    assert page.errors == [sentence] == ["Fay is not playing in this hand."]
    assert page.error_ids == ["picker-error"]
    assert api.session(session_id)["hands"] == []


def test_the_last_to_bid_is_forced_when_the_dealer_sits_out(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, players=SIX, first_dealer="Fay")
    path = hands_path(session_id)
    assert "Eve, the last to bid, had to pick." in get_page(client, path).text
    taps = {"kind": "passed", "partner": "Ann", "picking_points": "40"}
    client.post(path, data=filled(client, path, taps))
    (hand,) = api.session(session_id)["hands"]
    assert (hand["picker"], hand["partner"], hand["forced"]) == ("Eve", "Ann", True)


def test_with_the_alone_rule_the_form_asks_for_no_partner(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, players=SEATS[:4])
    assert api.session(session_id)["rules"]["partner"] == "alone"
    path = hands_path(session_id)
    response = client.get(path)
    assert offered(response.text, "partner") == []
    assert "Called card" not in html_page(response).text
    # Example 7: four seated, Ann picks, 95.
    response = client.post(
        path, data=filled(client, path, {"picker": "Ann", "picking_points": "95"})
    )
    assert response.status_code == 302
    (hand,) = api.session(session_id)["hands"]
    assert (hand["partner"], hand["scores"]) == (None, {"Ann": 6, "Bob": -2, "Cat": -2, "Dan": -2})


def test_edit_form_uses_the_hand_s_own_seats(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    # Bob leaves and Gus sits down after Ann before hand 2.
    response = client.patch(
        f"/api/sessions/{session_id}", json={"players": ["Ann", "Gus", "Cat", "Dan", "Eve", "Fay"]}
    )
    assert response.status_code == 200
    path = hands_path(session_id, "1/edit")
    response = client.get(path)
    assert offered(response.text, "picker") == SEATS
    assert "Fay sits out this hand." in html_page(response).text
    # Bob played hand 1, so he can still be its partner; points corrected to 91.
    sent = filled(client, path, {"picking_points": "91"})
    assert sent["dealer"] == "Fay"
    response = client.post(path, data=sent)
    assert response.status_code == 302
    hand = api.session(session_id)["hands"][0]
    assert (hand["partner"], hand["seats"]) == ("Bob", SIX)
    assert hand["scores"] == {
        "Ann": 4,
        "Bob": 2,
        "Cat": -2,
        "Dan": -2,
        "Eve": -2,
        "Fay": 0,
        "Gus": 0,
    }


def test_preview_names_only_the_players_of_the_hand(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, players=SIX, first_dealer="Fay")
    answer = preview(
        client, session_id, {"picker": "Ann", "partner": "Bob", "picking_points": "70"}
    )
    assert answer == {"preview": "Ann +2, Bob +1, Cat, Dan, Eve -1 · Fay sits out"}


# --- the Seats page


def seats_path(session_id: int) -> str:
    return f"/sessions/{session_id}/seats"


def seats_sent(client: FlaskClient, session_id: int, **more: Any) -> dict[str, Any]:
    """The Seats form as the page opens, with what was tapped or typed."""
    return as_sent(get_page(client, seats_path(session_id)), **more)


def seats_on(page: FormPage) -> list[str]:
    return page.fields.get("seat", [])


def as_sent(page: FormPage, **tapped: str) -> dict[str, Any]:
    """A Seats page's form, as it stands, sent with a tap."""
    return {
        **{name: values[0] for name, values in page.fields.items()},
        "seat": seats_on(page),
        **tapped,
    }


def test_seats_page_shows_the_table_and_who_deals_next(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    response = client.get(seats_path(session_id))
    page = html_page(response)
    assert "<h1>Seats</h1>" in response.text
    assert seats_on(page) == SIX
    assert "Ann deals hand 2 · Ann sits out" in page.text
    assert page.fields["arrive_after"] == ["Fay"]


@pytest.mark.parametrize(
    ("tapped", "seats", "next_hand"),
    [
        pytest.param(
            {"arrive_name": "Gus", "arrive_after": "Fay", "arrive": "1"},
            [*SIX, "Gus"],
            # Gus sat down after Fay, who dealt hand 1: he deals hand 2, with Fay out too.
            "Gus deals hand 2 · Gus and Fay sit out",
            id="Gus arrives after Fay",
        ),
        pytest.param(
            {"arrive_name": "Gus", "arrive_after": "Bob", "check": "1"},
            ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"],
            "Ann deals hand 2 · Ann and Fay sit out",
            id="a typed arrival counts on Check",
        ),
        pytest.param(
            {"leave": "1"},
            ["Ann", "Cat", "Dan", "Eve", "Fay"],
            "Ann deals hand 2",
            id="Bob leaves",
        ),
        pytest.param(
            {"leave": "5"},
            SEATS,
            # Fay dealt hand 1 and left: the first after her in hand 1's seats still seated.
            "Ann deals hand 2",
            id="the last dealer leaves",
        ),
        pytest.param(
            {"up": "1"},
            ["Bob", "Ann", "Cat", "Dan", "Eve", "Fay"],
            "Bob deals hand 2 · Bob sits out",
            id="Bob moves up",
        ),
        pytest.param(
            {"down": "5"},
            SIX,
            "Ann deals hand 2 · Ann sits out",
            id="the last seat can't move down",
        ),
    ],
)
def test_seats_page_arranges_the_table_without_saving(
    api: Api, client: FlaskClient, tapped: dict[str, str], seats: list[str], next_hand: str
) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    page = html_page(
        client.post(seats_path(session_id), data=seats_sent(client, session_id, **tapped))
    )
    assert seats_on(page) == seats
    assert next_hand in page.text
    assert page.errors == []
    assert page.fields["arrive_name"] == [""]
    assert api.session(session_id)["players"] == SIX


def test_seats_page_saves_through_the_write_path_once(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    sent = seats_sent(client, session_id, arrive_name="Gus", arrive_after="Fay", save="1")
    response = client.post(seats_path(session_id), data=sent)
    sheet = redirected_page(client, response, sheet_path(session_id))
    assert sheet.flashes == ["Seats changed."]
    assert "Gus deals hand 2 · Gus and Fay sit out" in sheet.text
    session = api.session(session_id)
    assert (session["players"], session["sitting_out_next"]) == ([*SIX, "Gus"], ["Fay", "Gus"])
    # Gus leaves again through the API; the same form sent again (a double tap, Back then
    # Save) lands where the first went and seats nobody.
    assert client.patch(f"/api/sessions/{session_id}", json={"players": SIX}).status_code == 200
    response = client.post(seats_path(session_id), data=sent)
    assert response.status_code == 302
    assert response.location == sheet_path(session_id)
    assert api.session(session_id)["players"] == SIX


def test_seats_changed_on_another_phone_meanwhile_are_shown_not_overwritten(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, players=SIX)
    page = html_page(
        client.post(seats_path(session_id), data=seats_sent(client, session_id, leave="1"))
    )
    assert seats_on(page) == ["Ann", "Cat", "Dan", "Eve", "Fay"]
    # Meanwhile Gus arrives on another phone.
    client.patch(f"/api/sessions/{session_id}", json={"players": [*SIX, "Gus"]})
    page = html_page(client.post(seats_path(session_id), data=as_sent(page, save="1")))
    assert (
        "The seats were changed on another phone meanwhile: now Ann, Bob, Cat, Dan, Eve, Fay, "
        "Gus. Yours are below: save them to replace those, or go back to keep them."
    ) in page.text
    assert seats_on(page) == ["Ann", "Cat", "Dan", "Eve", "Fay"]
    assert api.session(session_id)["players"] == [*SIX, "Gus"]
    # Saving again replaces them, knowingly.
    assert client.post(seats_path(session_id), data=as_sent(page, save="1")).status_code == 302
    assert api.session(session_id)["players"] == ["Ann", "Cat", "Dan", "Eve", "Fay"]


ROUND_OF_SIX = [pick(picker, None, 70) for picker in [*SIX[1:], SIX[0]]]


@pytest.mark.parametrize(
    ("given", "tapped", "kept", "status"),
    [
        pytest.param(
            {"players": SIX, "rounds": 1, "hands": ROUND_OF_SIX},
            {"leave": "1"},
            ["Ann", "Cat", "Dan", "Eve", "Fay"],
            409,
            id="rounds exceeded",
        ),
        pytest.param(
            {"players": SEATS[:4], "rules": {"partner": "jack_of_diamonds"}},
            {"leave": "1"},
            ["Ann", "Cat", "Dan"],
            400,
            id="three seated with a partner rule",
        ),
        pytest.param(
            {"players": [*SIX, "Gus"], "rules": {"sitting_out": "none"}},
            {"arrive_name": "Hal", "arrive_after": "Gus"},
            [*SIX, "Gus", "Hal"],
            400,
            id="eight all playing",
        ),
    ],
)
def test_seats_page_refusals_keep_the_seats_typed(
    api: Api,
    client: FlaskClient,
    given: dict[str, Any],
    tapped: dict[str, str],
    kept: list[str],
    status: int,
) -> None:
    session_id = session_with(api, **given)
    sent = seats_sent(client, session_id, **tapped, save="1")
    page = html_page(client.post(seats_path(session_id), data=sent))
    # The same change through the API: the page says its sentence, at the seats.
    response = client.patch(f"/api/sessions/{session_id}", json={"players": kept})
    assert response.status_code == status
    assert page.errors == [response.json["error"]]
    assert page.error_ids == ["seats-error"]
    assert seats_on(page) == kept
    assert api.session(session_id)["players"] == given["players"]
    # The key of a refused save was not used up: the form saves once the table can play.
    if status == 409:
        client.patch(f"/api/sessions/{session_id}", json={"rounds": 2})
        again = {**{k: v for k, v in sent.items() if k != "leave"}, "seat": kept}
        assert client.post(seats_path(session_id), data=again).status_code == 302
        assert api.session(session_id)["players"] == kept


# --- house rules on the new-session form

HOUSE_RULES = {
    "no_bid": "doubler",
    "bump": "y",
    "schwarz": "tricks",
    "doublers": "stack",
    "max_multiplier": "8",
    "penalties": "y",
    "stake": "0.25",
}


@pytest.mark.parametrize(
    ("stake", "cents"),
    [("0.25", 25), ("$1.5", 150), (" 2 ", 200), (".05", 5), ("100", 10000), ("", 0), ("0", 0)],
)
def test_new_session_with_house_rules(
    api: Api, client: FlaskClient, stake: str, cents: int
) -> None:
    response = client.post("/sessions/new", data=session_form({**HOUSE_RULES, "stake": stake}))
    (summary,) = client.get("/api/sessions").json["sessions"]
    sheet = redirected_page(client, response, sheet_path(summary["id"]))
    assert api.session(summary["id"])["rules"] == {
        **default_rules(),
        "no_bid": "doubler",
        "bump": True,
        "schwarz": "tricks",
        "doublers": "stack",
        "max_multiplier": 8,
        "penalties": True,
        "stake": cents,
    }
    words = "Doublers stack · bump doubles a loss · cap x8 · schwarz by tricks · penalty hands"
    assert words in sheet.text


@pytest.mark.parametrize("stake", ["abc", "100.01", "1.234", "-1", "$", "1,000"])
def test_new_session_refuses_a_stake_that_is_not_money(
    app: Flask, client: FlaskClient, stake: str
) -> None:
    sent = session_form({**HOUSE_RULES, "stake": stake})
    page = html_page(client.post("/sessions/new", data=sent))
    assert page.errors == ["The stake is money per point such as 0.25, from $0.00 to $100.00."]
    assert page.error_ids == ["stake-error"]
    assert_kept(page, sent)
    assert client.get("/api/sessions").json["sessions"] == []


def test_house_rules_are_closed_and_name_the_api_s_rule_keys(client: FlaskClient) -> None:
    html = client.get("/sessions/new").text
    assert re.search(r'<details class="house-rules">', html)
    names = set(re.findall(r'<(?:input|select)[^>]* name="([a-z_]+)"', html))
    keys = {"partner", "no_bid", "cracking", "blitzing", "sitting_out", "bump", "schwarz"}
    keys |= {"doublers", "max_multiplier", "penalties", "stake"}
    assert keys <= names
    page = FormPage(html)
    assert {key: page.fields.get(key) for key in sorted(keys)} == {
        "blitzing": ["y"],
        "bump": None,
        "cracking": ["y"],
        "doublers": ["queue"],
        "max_multiplier": ["0"],
        "no_bid": ["forced_pick"],
        "partner": ["jack_of_diamonds"],
        "penalties": None,
        "schwarz": ["points"],
        "sitting_out": ["dealer"],
        "stake": [""],
    }
    for line in (
        "A lost pick scores double",
        "Schwarz is a side taking no trick",
        "Every doubler waiting doubles the next pick",
        "No hand scores more than this many times its value",
        "the penalized player pays 1 to every other player",
        "Money a point, such as 0.25, for the settle-up",
    ):
        assert line in page.text


def test_a_link_opens_the_new_session_form_with_its_rules(api: Api, client: FlaskClient) -> None:
    query = (
        "partner=called_ace&no_bid=doubler&cracking=false&blitzing=true&sitting_out=none"
        "&bump=true&schwarz=tricks&doublers=stack&max_multiplier=16&penalties=true&stake=125"
    )
    response = client.get(f"/sessions/new?{query}")
    assert '<details class="house-rules" open>' in response.text
    page = html_page(response)
    assert page.errors == []
    chosen = {
        "partner": ["called_ace"],
        "no_bid": ["doubler"],
        "cracking": None,
        "blitzing": ["y"],
        "sitting_out": ["none"],
        "bump": ["y"],
        "schwarz": ["tricks"],
        "doublers": ["stack"],
        "max_multiplier": ["16"],
        "penalties": ["y"],
        "stake": ["1.25"],
    }
    assert {key: page.fields.get(key) for key in chosen} == chosen
    # The form as it opened, with the seats typed, starts a session with exactly those rules.
    sent = {name: values[0] for name, values in page.fields.items()}
    sent |= {f"seat_{seat}": name for seat, name in enumerate([*SEATS, "Fay"], start=1)}
    response = client.post("/sessions/new", data=sent)
    (summary,) = client.get("/api/sessions").json["sessions"]
    assert response.location == sheet_path(summary["id"])
    assert api.session(summary["id"])["rules"] == {
        **default_rules(),
        "partner": "called_ace",
        "no_bid": "doubler",
        "cracking": False,
        "blitzing": True,
        "sitting_out": "none",
        "bump": True,
        "schwarz": "tricks",
        "doublers": "stack",
        "max_multiplier": 16,
        "penalties": True,
        "stake": 125,
    }


def test_a_link_s_rules_that_can_t_be_read_are_said_and_left_usual(client: FlaskClient) -> None:
    page = get_page(client, "/sessions/new?bump=yes&max_multiplier=3&stake=10001&schwarz=tricks")
    assert page.errors == [
        "The link's bump, “yes”, is not a choice here; it is left as usual.",
        "The link's max multiplier, “3”, is not a choice here; it is left as usual.",
        "The link's stake, “10001”, is not a choice here; it is left as usual.",
    ]
    assert {
        key: page.fields.get(key) for key in ("bump", "max_multiplier", "stake", "schwarz")
    } == {
        "bump": None,
        "max_multiplier": ["0"],
        "stake": [""],
        "schwarz": ["tricks"],
    }


# --- settle-up


def settle_path(session_id: int) -> str:
    return f"/sessions/{session_id}/settle-up"


NIGHT = [pick("Ann", "Bob", 75), pick("Cat", None, 95), pick("Dan", "Eve", 40)]


def test_the_stake_is_set_once_from_the_settle_up_page(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, NIGHT)
    path = settle_path(session_id)
    page = get_page(client, path)
    assert page.fields["stake"] == [""]
    assert "Set stake" in page.texts["button"]
    sent = {"stake": "0.50", "write_key": page.fields["write_key"][0]}
    done = redirected_page(client, client.post(path, data=sent), path)
    assert done.flashes == ["Stake set to $0.50 a point."]
    assert done.fields["stake"] == ["0.50"]
    # Sent again (a double tap, a dropped reply): said once, written once.
    again = redirected_page(client, client.post(path, data=sent), path)
    assert again.flashes == ["Stake set to $0.50 a point."]
    assert api.session(session_id)["rules"]["stake"] == 50
    changed = {"stake": "", "write_key": done.fields["write_key"][0]}
    off = redirected_page(client, client.post(path, data=changed), path)
    assert off.flashes == ["Stake taken off."]
    assert api.session(session_id)["rules"]["stake"] == 0


def test_a_stake_that_is_not_money_is_refused_on_the_settle_up_page(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, NIGHT, rules={"stake": 10})
    response = client.post(settle_path(session_id), data={"stake": "lots"})
    assert response.status_code == 400
    page = FormPage(response.text)
    assert page.errors == ["The stake is money per point such as 0.25, from $0.00 to $100.00."]
    assert page.fields["stake"] == ["lots"]
    assert api.session(session_id)["rules"]["stake"] == 10


def test_money_is_written_in_the_app_s_currency(api: Api, app: Flask, client: FlaskClient) -> None:
    app.config["CURRENCY"] = "€"
    session_id = session_with(api, NIGHT, rules={"stake": 10})
    path = settle_path(session_id)
    page = get_page(client, path)
    assert "Settle up (€0.10 a point)" in page.text
    sent = {"stake": "€1,5", "write_key": page.fields["write_key"][0]}
    done = redirected_page(client, client.post(path, data=sent), path)
    assert done.flashes == ["Stake set to €1.50 a point."]
    assert api.session(session_id)["rules"]["stake"] == 150
    refused = FormPage(client.post(path, data={"stake": "€"}).text)
    assert refused.errors == ["The stake is money per point such as 0.25, from €0.00 to €100.00."]


def test_another_dealer_clears_a_crack_it_rules_out_and_says_so(
    api: Api, client: FlaskClient
) -> None:
    # Ann dealt: Bob, Cat, Dan, Eve, Ann bid; Bob picked and Dan, a later bidder, cracked.
    session_id = session_with(api, [pick("Bob", "Cat", 75, cracked_by="Dan")])
    path = hands_path(session_id, "1/edit")
    sent = filled(client, path, {"dealer": "Cat"})
    page = html_page(client.post(path, data=sent))
    # With Cat dealing, Dan bids first: the crack is cleared, said, and nothing saved yet.
    assert (
        page.text.count(
            "Cracked by Dan cleared: with Cat dealing, Dan bids before Bob, and only a later "
            "bidder can crack."
        )
        == 1
    )
    assert page.fields["cracked_by"] == [""] and page.fields["dealer"] == ["Cat"]
    hand = api.session(session_id)["hands"][0]
    assert (hand["dealer"], hand["cracked_by"]) == ("Ann", "Dan")
    # Saved as the page now shows it.
    response = client.post(path, data={**sent, "cracked_by": ""})
    assert response.status_code == 302
    hand = api.session(session_id)["hands"][0]
    assert (hand["dealer"], hand["cracked_by"], hand["multiplier"]) == ("Cat", None, 1)


def test_another_dealer_clears_a_player_who_then_sits_out(api: Api, client: FlaskClient) -> None:
    # Fay dealt and sat out; Ann picked with Eve.
    session_id = session_with(api, [pick("Ann", "Eve", 70)], players=SIX, first_dealer="Fay")
    path = hands_path(session_id, "1/edit")
    page = html_page(client.post(path, data=filled(client, path, {"dealer": "Eve"})))
    assert "Partner Eve cleared: Eve sits out when Eve deals." in page.text
    assert "partner" not in page.fields
    assert api.session(session_id)["hands"][0]["dealer"] == "Fay"


# --- names: what a name may hold, and a new name that looks like a player's

CYRILLIC_ANN = "\u0410nn"
LOOKS_LIKE_ANN = (
    f"{CYRILLIC_ANN} looks like Ann, who has played here, "
    "but holds U+0410 (cyrillic capital letter a). Choose Ann, "
    f"or confirm {CYRILLIC_ANN} as a new player."
)
CONFIRM_BOX = f'<input type="checkbox" name="new_player" value="{CYRILLIC_ANN}"'


def test_new_session_refuses_a_look_alike_until_it_is_confirmed(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    api.new_session()
    sent = session_form({"seat_1": CYRILLIC_ANN, "seat_5": "Fay"})
    response = client.post("/sessions/new", data=sent)
    page = html_page(response)
    assert page.errors == [LOOKS_LIKE_ANN]
    assert page.error_ids == ["seat_1-error"]
    assert_kept(page, sent)
    assert f"{CONFIRM_BOX}>" in response.text
    assert f"Confirm {CYRILLIC_ANN} as a new player" in page.text
    assert sorted(roster(app)) == sorted(SEATS)
    created = client.post("/sessions/new", data={**sent, "new_player": CYRILLIC_ANN})
    assert created.status_code == 302
    assert sorted(roster(app)) == sorted([*SEATS, "Fay", CYRILLIC_ANN])


def test_new_session_keeps_a_confirmed_name_ticked_while_refusing_another(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    api.new_session()
    sent = session_form({"seat_1": CYRILLIC_ANN, "seat_2": "B0b", "new_player": CYRILLIC_ANN})
    response = client.post("/sessions/new", data=sent)
    page = html_page(response)
    assert page.errors == [
        "B0b looks like Bob, who has played here, but holds U+0030 (digit zero). "
        "Choose Bob, or confirm B0b as a new player."
    ]
    assert page.fields["new_player"] == [CYRILLIC_ANN]
    assert f"{CONFIRM_BOX} checked>" in response.text
    assert '<input type="checkbox" name="new_player" value="B0b">' in response.text
    assert sorted(roster(app)) == sorted(SEATS)


@pytest.mark.parametrize(
    ("changes", "error_id", "error"),
    [
        (
            {"seat_2": "Bob\u200b"},
            "seat_1-error",
            "A player's name can't hold control or invisible characters; "
            "this one holds U+200B (zero width space).",
        ),
        (
            {"name": "Friday\x1b"},
            "name-error",
            "A session name can't hold control or invisible characters; this one holds U+001B.",
        ),
    ],
)
def test_new_session_refuses_an_invisible_character_where_it_was_typed(
    app: Flask, client: FlaskClient, changes: dict[str, str], error_id: str, error: str
) -> None:
    sent = session_form(changes)
    page = html_page(client.post("/sessions/new", data=sent))
    assert (page.errors, page.error_ids) == ([error], [error_id])
    assert_kept(page, sent)
    assert roster(app) == []


def test_seats_page_asks_to_confirm_an_arrival_that_looks_like_a_player(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    api.new_session()
    session_id = session_with(api, players=[*SEATS[1:], "Fay"])
    arrived = html_page(
        client.post(
            seats_path(session_id),
            data=seats_sent(client, session_id, arrive_name=CYRILLIC_ANN, arrive="1"),
        )
    )
    assert seats_on(arrived) == [*SEATS[1:], "Fay", CYRILLIC_ANN]
    assert arrived.errors == [LOOKS_LIKE_ANN]
    assert "new_player" not in arrived.fields
    saved = html_page(client.post(seats_path(session_id), data=as_sent(arrived, save="1")))
    assert saved.errors == [LOOKS_LIKE_ANN]
    assert api.session(session_id)["players"] == [*SEATS[1:], "Fay"]
    confirmed = client.post(
        seats_path(session_id), data=as_sent(saved, save="1", new_player=CYRILLIC_ANN)
    )
    assert confirmed.status_code == 302
    assert api.session(session_id)["players"] == [*SEATS[1:], "Fay", CYRILLIC_ANN]
    assert CYRILLIC_ANN in roster(app)


def test_seats_page_refuses_an_arrival_with_an_invisible_character(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api)
    page = html_page(
        client.post(
            seats_path(session_id),
            data=seats_sent(client, session_id, arrive_name="Fay\u00ad", arrive="1"),
        )
    )
    assert page.errors == [
        "A player's name can't hold control or invisible characters; "
        "this one holds U+00AD (soft hyphen)."
    ]
    assert page.error_ids == ["arrive_name-error"]
    assert page.fields["arrive_name"] == ["Fay\u00ad"]
    assert seats_on(page) == SEATS


@pytest.mark.parametrize("rest", ["new", "1/edit"])
def test_the_hand_form_carries_the_engines_result_floors(
    api: Api, client: FlaskClient, rest: str
) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    html = client.get(hands_path(session_id, rest)).text
    form = re.search(r'<form [^>]*class="hand-form"[^>]*>', html)
    assert form is not None
    points = re.search(r'data-points="(\d+)"', form[0])
    floors = re.search(r"data-results='([^']*)'", form[0])
    assert points is not None and floors is not None
    assert int(points[1]) == rules.CARD_POINTS_TOTAL
    expected = [[low, result.value] for low, result in rules.result_floors()]
    assert json.loads(floors[1]) == expected
