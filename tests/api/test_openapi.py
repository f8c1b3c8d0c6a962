"""GET /api/openapi.json: a valid OpenAPI 3.1 document that covers exactly the API's routes."""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from schemathesis.core.errors import InvalidSchema

from scorekeeper.api.openapi import BODY_EXAMPLES, document

from ..helpers.api import SEATS, Api, pick

METHODS = {"get", "post", "put", "patch", "delete"}


def _validator(name: str) -> Any:
    """A validator of one component schema, its references resolved within the document."""
    schema = {"$ref": f"#/components/schemas/{name}", "components": document()["components"]}
    return jsonschema_rs.Draft202012Validator(schema)


def test_served_as_json(client: FlaskClient) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.json == document()
    assert response.json["openapi"] == "3.1.0"


def test_is_valid_openapi_3_1(app: Flask) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    schema.validate()
    for name, component in document()["components"]["schemas"].items():
        assert jsonschema_rs.meta.is_valid(component), name


def test_the_validator_notices_a_broken_document() -> None:
    broken = copy.deepcopy(document())
    broken["components"]["parameters"]["IfMatch"]["in"] = "body"  # OpenAPI 2's, not 3.1's
    with pytest.raises((InvalidSchema, jsonschema_rs.ValidationError)):
        schemathesis.openapi.from_dict(broken).validate()


def _shape(path: str) -> str:
    """A path with its parameters blanked: Flask's <int:x> and OpenAPI's {x} alike."""
    return re.sub(r"<[^>]*>|\{[^}]*\}", "{}", path)


def test_every_api_route_is_described_and_nothing_else(app: Flask) -> None:
    served = {
        (method.lower(), _shape(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods or ()
        if method.lower() in METHODS
    }
    described = {
        (method, _shape(path))
        for path, item in document()["paths"].items()
        for method in item
        if method in METHODS
    }
    assert served == described


def test_every_path_parameter_is_declared() -> None:
    for path, item in document()["paths"].items():
        parameters = item.get("parameters", [])
        declared = {parameter["name"] for parameter in parameters if parameter["in"] == "path"}
        assert declared == set(re.findall(r"\{([^}]*)\}", path)), path


def test_every_operation_has_the_write_headers_and_json_errors() -> None:
    doc = document()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            headers = {p["$ref"].rsplit("/", 1)[1] for p in operation.get("parameters", [])}
            assert ("IdempotencyKey" in headers) == (method != "get"), (method, path)
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    assert answer == {"$ref": f"#/components/responses/{status}"}
    for status in (
        "400",
        "401",
        "403",
        "404",
        "405",
        "408",
        "409",
        "412",
        "413",
        "415",
        "429",
        "503",
    ):
        answer = doc["components"]["responses"][status]
        assert answer["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }
    assert doc["paths"]["/api/sessions/{session_id}"]["get"]["responses"]["200"]["headers"] == {
        "ETag": {"$ref": "#/components/headers/ETag"}
    }


WRITE_ERRORS = {400, 401, 403, 408, 409, 413, 415, 429, 503}


def test_what_an_operation_may_answer_follows_from_what_it_is() -> None:
    """A write declares Idempotency-Key and a write's errors; a write to a live session or club
    event declares If-Match and 412; a path naming a session, hand, change or event answers 404,
    a query 400; a CSV answers text/csv, anything else JSON."""
    for path, item in document()["paths"].items():
        names_something = "{" in path
        takes_a_query = any(p["in"] == "query" for p in item.get("parameters", []))
        for method, operation in item.items():
            if method not in METHODS:
                continue
            headers = {p["$ref"].rsplit("/", 1)[1] for p in operation.get("parameters", [])}
            write = method != "get"
            versioned = write and path.startswith(
                ("/api/sessions/{session_id}", "/api/events/{event_id}")
            )
            assert ("IdempotencyKey" in headers) == write, (method, path)
            assert ("IfMatch" in headers) == versioned, (method, path)
            expected = set(WRITE_ERRORS) if write else {401, 429}
            for status, holds in ((412, versioned), (404, names_something), (400, takes_a_query)):
                if holds:
                    expected.add(status)
            errors = {int(status) for status in operation["responses"] if int(status) >= 400}
            assert errors == expected, (method, path)
            for status, answer in operation["responses"].items():
                if status == "204":
                    assert "content" not in answer
                elif int(status) < 400:
                    media = "text/csv" if path.endswith(".csv") else "application/json"
                    assert list(answer["content"]) == [media], (method, path)


def test_idempotency_key_is_1_to_100_visible_ascii_characters() -> None:
    key = document()["components"]["parameters"]["IdempotencyKey"]["schema"]
    validator = jsonschema_rs.Draft202012Validator(key)
    assert validator.is_valid("a")
    assert validator.is_valid("!" * 100)
    assert validator.is_valid("retry-7f3a~")
    for refused in ("", "x" * 101, "has space", "tab\tkey", "é"):
        assert not validator.is_valid(refused), refused


SESSION_BODIES_ACCEPTED = [
    {"players": SEATS, "rounds": 2},
    {
        "name": "Friday at Dan's",
        "players": SEATS,
        "rounds": 0,
        "first_dealer": "Ann",
        "rules": {"partner": "called_ace", "no_bid": "leaster", "cracking": False},
    },
    {"players": SEATS, "rounds": 100, "name": None, "rules": None},
]
SESSION_BODIES_REFUSED = [
    {"players": SEATS},
    {"players": SEATS, "rounds": 101},
    {"players": SEATS, "rounds": -1},
    {"players": SEATS, "rounds": "2"},
    {"players": SEATS, "rounds": True},
    {"players": SEATS[:2], "rounds": 1},
    {"players": [*SEATS, "Fay", "Gus", "Hal", "Ida"], "rounds": 1},
    {"players": [*SEATS[:4], "x" * 41], "rounds": 1},
    {"players": [*SEATS[:4], ""], "rounds": 1},
    {"players": [*SEATS[:4], "  "], "rounds": 1},
    {"players": [*SEATS[:4], "Z\x00e"], "rounds": 1},
    {"players": SEATS, "rounds": 1, "name": "Fri\x00day"},
    {"players": SEATS, "rounds": 1, "name": "x" * 101},
    {"players": SEATS, "rounds": 1, "colour": "red"},
    {"players": SEATS, "rounds": 1, "rules": {"cards": 32}},
    {"players": SEATS, "rounds": 1, "rules": {"partner": "queen_of_clubs"}},
]
HAND_BODIES_ACCEPTED = [
    pick("Ann", "Bob", 75, called_card="JD", forced=False, cracked_by=None, blitzes=[]),
    {"kind": "pick", "picker": "Ann", "partner": None, "opponent_points": 25,
     "cracked_by": "Dan", "recracked": True, "blitzes": ["black"]},
    {"kind": "pick", "picker": "Ann", "partner": None, "picking_points": None,
     "opponent_points": 120, "winner": None, "points": {}},
    {"kind": "leaster", "winner": "Cat",
     "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
     "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1}},
    {"kind": "leaster", "winner": "Cat", "picker": None, "forced": False, "blitzes": []},
    {"kind": "pass"},
    {"kind": "pass", "dealer": "Bob", "picker": "", "points": None},
    {**pick("Ann", "Bob", 61), "number": 3, "multiplier": 2, "scores": {}, "doubled": False},
]  # fmt: skip
HAND_BODIES_REFUSED = [
    {},
    {"kind": "misdeal"},
    {"kind": "pick", "picker": "Ann", "picking_points": 75},
    {"kind": "pick", "picker": "Ann", "partner": "Bob"},
    pick("Ann", "Bob", 75, opponent_points=45),
    pick("Ann", "Bob", 119),
    pick("Ann", "Bob", 1),
    pick("Ann", "Bob", 121),
    pick("Ann", "Bob", 75, blitzes=["green"]),
    pick("Ann", "Bob", 75, blitzes=["red", "red"]),
    pick("Ann", "Bob", 75, called_card="QS"),
    pick("Ann", "Bob", 75, winner="Cat"),
    {"kind": "leaster"},
    {"kind": "leaster", "winner": "Cat", "picker": "Ann"},
    {"kind": "leaster", "winner": "Cat", "tricks": {"Ann": 11}},
    {"kind": "pass", "blitzes": ["black"]},
    {"kind": "pass", "forced": True},
]
CHANGES_ACCEPTED = [
    {"name": "Friday"},
    {"rounds": 0},
    {"name": "", "rounds": 100},
    {"players": [*SEATS, "Fay"]},
]
CHANGES_REFUSED = [
    {},
    {"name": None},
    {"rounds": 101},
    {"players": SEATS[:2]},
    {"players": [*SEATS, "Fay", "Gus", "Hal", "Ida"]},
    {"name": "x" * 101},
    {"name": "\x00"},
]


@pytest.mark.parametrize(
    ("component", "body", "valid"),
    [("SessionInput", body, True) for body in SESSION_BODIES_ACCEPTED]
    + [("SessionInput", body, False) for body in SESSION_BODIES_REFUSED]
    + [("HandInput", body, True) for body in HAND_BODIES_ACCEPTED]
    + [("HandInput", body, False) for body in HAND_BODIES_REFUSED]
    + [("SessionChange", body, True) for body in CHANGES_ACCEPTED]
    + [("SessionChange", body, False) for body in CHANGES_REFUSED],
)
def test_request_bodies_are_described_precisely(
    component: str, body: dict[str, Any], valid: bool
) -> None:
    assert _validator(component).is_valid(body) is valid


def test_what_the_schema_accepts_the_api_accepts(api: Api, client: FlaskClient) -> None:
    # Its second hand is dealt by Dan, so Dan bids after Ann and may crack her pick.
    session = api.new_session(first_dealer="Cat", rules={"no_bid": "leaster"})
    for body in HAND_BODIES_ACCEPTED:
        if body["kind"] == "pass":
            continue  # this session plays a leaster when everyone passes
        response = client.post(f"/api/sessions/{session['id']}/hands", json=body)
        assert response.status_code == 201, (body, response.json)


def test_answers_match_their_schemas(api: Api, client: FlaskClient) -> None:
    session = api.new_session(first_dealer="Eve", rules={"no_bid": "leaster"}, rounds=1)
    api.record(session["id"], **pick("Ann", "Bob", 75, cracked_by="Dan", blitzes=["red"]))
    hand = api.record(session["id"], **HAND_BODIES_ACCEPTED[3])
    assert _validator("Hand").is_valid(hand)
    for body in ({"kind": "pick", "picker": "Cat", "partner": None, "opponent_points": 0},) * 3:
        api.record(session["id"], **body)
    whole = api.session(session["id"])
    assert whole["complete"] is True
    errors = [error.message for error in _validator("Session").iter_errors(whole)]
    assert errors == []
    listed = client.get("/api/sessions").json
    assert _validator("SessionSummary").is_valid(listed["sessions"][0])
    refused = client.post(f"/api/sessions/{session['id']}/hands", json={"kind": "pass"})
    assert refused.status_code == 409
    assert _validator("Error").is_valid(refused.json)


@pytest.mark.parametrize("component", sorted(BODY_EXAMPLES))
def test_body_examples_match_their_schemas(component: str) -> None:
    for example in BODY_EXAMPLES[component].values():
        assert _validator(component).is_valid(example["value"])
