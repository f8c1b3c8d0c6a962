"""The session endpoints of API.md: create, list, get, change; refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, default_rules, every_rule_set, pick


def test_create_session_answers_the_session(api: Api) -> None:
    session = api.new_session(name="Friday at Dan's", rounds=2, first_dealer="Cat")
    assert session["name"] == "Friday at Dan's"
    assert session["players"] == SEATS
    assert session["rounds"] == 2
    assert session["rules"] == default_rules()
    assert session["hands"] == []
    assert session["totals"] == dict.fromkeys(SEATS, 0)
    assert session["hands_won"] == dict.fromkeys(SEATS, 0)
    assert [s["place"] for s in session["standings"]] == [1, 1, 1, 1, 1]
    assert session["next_dealer"] == "Cat"
    assert session["pending_doublers"] == 0
    assert session["complete"] is False
    assert session["created_at"].endswith("+00:00")


def test_session_defaults(api: Api) -> None:
    session = api.new_session()
    assert session["name"] == ""
    assert session["next_dealer"] == "Ann"
    assert session["rules"] == default_rules()


def test_rules_are_stored(api: Api) -> None:
    chosen = every_rule_set(partner="called_ace", max_multiplier=8, stake=25)
    session = api.new_session(rules=chosen)
    assert api.session(session["id"])["rules"] == chosen
    partial = api.new_session(rules={"no_bid": "doubler"})
    assert partial["rules"] == {**default_rules(), "no_bid": "doubler"}


def test_names_resolve_case_insensitively_and_keep_their_spelling(api: Api) -> None:
    api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Eve"])
    again = api.new_session(players=["  ann ", "BOB", "cat", "Dan", "Fay"], first_dealer="fay")
    assert again["players"] == ["Ann", "Bob", "Cat", "Dan", "Fay"]
    assert again["next_dealer"] == "Fay"


def test_list_sessions_newest_first(api: Api, client: FlaskClient) -> None:
    first = api.new_session(name="one", rounds=1)
    second = api.new_session(name="two")
    api.record(first["id"], **pick("Ann", "Bob", 75))
    listed = client.get("/api/sessions").json["sessions"]
    assert [s["id"] for s in listed] == [second["id"], first["id"]]
    summary = listed[1]
    assert summary["name"] == "one"
    assert summary["players"] == SEATS
    assert summary["rounds"] == 1
    assert summary["complete"] is False
    assert summary["hand_count"] == 1
    assert summary["created_at"] == first["created_at"]


def test_unknown_session_is_json_404(client: FlaskClient) -> None:
    for path in ("/api/sessions/999", "/api/sessions/99999999999999999999"):
        response = client.get(path)
        assert response.status_code == 404
        assert "error" in response.json


def test_patch_name_and_rounds(api: Api, client: FlaskClient) -> None:
    session = api.new_session(rounds=1)
    response = client.patch(f"/api/sessions/{session['id']}", json={"name": "Renamed"})
    assert response.status_code == 200
    assert response.json["name"] == "Renamed"
    assert response.json["rounds"] == 1
    response = client.patch(f"/api/sessions/{session['id']}", json={"rounds": 3})
    assert response.json["rounds"] == 3
    assert response.json["name"] == "Renamed"


def test_raising_rounds_reopens_a_complete_session(api: Api, client: FlaskClient) -> None:
    session = api.new_session(rounds=1)
    for _ in range(5):
        api.record(session["id"], **pick("Ann", "Bob", 75, dealer=None))
    assert api.session(session["id"])["complete"] is True
    assert api.session(session["id"])["next_dealer"] is None
    refused = client.post(f"/api/sessions/{session['id']}/hands", json=pick("Ann", "Bob", 75))
    assert refused.status_code == 409
    assert "complete" in refused.json["error"]
    client.patch(f"/api/sessions/{session['id']}", json={"rounds": 2})
    reopened = api.session(session["id"])
    assert reopened["complete"] is False
    assert reopened["next_dealer"] == "Ann"
    api.record(session["id"], **pick("Bob", "Ann", 75))


def test_rounds_cannot_go_below_what_is_played(api: Api, client: FlaskClient) -> None:
    session = api.new_session(rounds=0)
    for _ in range(6):
        api.record(session["id"], **pick("Cat", "Bob", 75))
    response = client.patch(f"/api/sessions/{session['id']}", json={"rounds": 1})
    assert response.status_code == 400
    assert response.json["field"] == "rounds"
    assert api.session(session["id"])["rounds"] == 0
    ok = client.patch(f"/api/sessions/{session['id']}", json={"rounds": 2})
    assert ok.status_code == 200


BAD_SESSIONS: list[tuple[dict[str, Any], str]] = [
    ({"players": SEATS[:2], "rounds": 1}, "players"),
    ({"players": [*SEATS, "Fay", "Gus", "Hal", "Ida"], "rounds": 1}, "players"),
    ({"players": ["Ann", "Bob", "Cat", "Dan", "ann"], "rounds": 1}, "players"),
    ({"players": ["Ann", "Bob", "Cat", "Dan", "  "], "rounds": 1}, "players"),
    ({"players": ["Ann", "Bob", "Cat", "Dan", "x" * 41], "rounds": 1}, "players"),
    ({"players": ["Ann", "Bob", "Cat", "Dan", "x" * 5000], "rounds": 1}, "players"),
    ({"players": ["Ann", "Bob", "Cat", "Dan", 7], "rounds": 1}, "players"),
    ({"players": "Ann Bob Cat Dan Eve", "rounds": 1}, "players"),
    ({"rounds": 1}, "players"),
    ({"players": SEATS}, "rounds"),
    ({"players": SEATS, "rounds": -1}, "rounds"),
    ({"players": SEATS, "rounds": 101}, "rounds"),
    ({"players": SEATS, "rounds": 2.0}, "rounds"),
    ({"players": SEATS, "rounds": "2"}, "rounds"),
    ({"players": SEATS, "rounds": True}, "rounds"),
    ({"players": SEATS, "rounds": 1, "name": "x" * 101}, "name"),
    ({"players": SEATS, "rounds": 1, "name": "x" * 5000}, "name"),
    ({"players": SEATS, "rounds": 1, "name": 12}, "name"),
    ({"players": SEATS, "rounds": 1, "first_dealer": "Zed"}, "first_dealer"),
    ({"players": SEATS, "rounds": 1, "rules": {"doublers": True}}, "rules"),
    ({"players": SEATS, "rounds": 1, "rules": {"partner": "queen"}}, "rules"),
    ({"players": SEATS, "rounds": 1, "rules": {"no_bid": "shuffle"}}, "rules"),
    ({"players": SEATS, "rounds": 1, "rules": {"cracking": "yes"}}, "rules"),
    ({"players": SEATS, "rounds": 1, "rules": ["doubler"]}, "rules"),
    ({"players": SEATS, "rounds": 1, "colour": "red"}, "colour"),
]


@pytest.mark.parametrize(("body", "field"), BAD_SESSIONS)
def test_bad_session_is_refused_and_nothing_written(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 400
    assert response.json["field"] == field
    assert response.json["error"].endswith(".")
    assert client.get("/api/sessions").json["sessions"] == []


@pytest.mark.parametrize("data", ["{not json", "[1, 2]", '"text"', "null", "", "\xff\xfe"])
def test_malformed_json_is_400(client: FlaskClient, data: str) -> None:
    response = client.post("/api/sessions", data=data, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rounds": "3"}, "rounds"),
        ({"rounds": 200}, "rounds"),
        ({"name": "x" * 5000}, "name"),
        ({"name": ["x"]}, "name"),
        ({"players": ["A", "B"]}, "players"),
        ({}, None),
    ],
)
def test_bad_patch_changes_nothing(
    api: Api, client: FlaskClient, body: dict[str, Any], field: str | None
) -> None:
    session = api.new_session(name="Kept", rounds=2)
    response = client.patch(f"/api/sessions/{session['id']}", json=body)
    assert response.status_code == 400
    assert response.json.get("field") == field
    assert api.session(session["id"]) == session


def test_patch_with_good_name_and_bad_rounds_changes_nothing(api: Api, client: FlaskClient) -> None:
    session = api.new_session(name="Kept", rounds=0)
    for _ in range(6):
        api.record(session["id"], **pick("Cat", "Bob", 75))
    before = api.session(session["id"])
    response = client.patch(f"/api/sessions/{session['id']}", json={"name": "New", "rounds": 1})
    assert response.status_code == 400
    assert api.session(session["id"]) == before
