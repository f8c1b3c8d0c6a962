"""A request body declared once (`json_shapes.Body`): the parser's check of its keys and of what
it must give, and the schema made from it, which is the OpenAPI document's."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.api.openapi import document
from scorekeeper.api.openapi.schemas import schemas
from scorekeeper.exchange import access_bodies, event_bodies, season_bodies, session_bodies
from scorekeeper.exchange.json_shapes import BOOLEAN, STRING, Body, Field, json_type, nullable
from scorekeeper.rules import HAND_FIELDS, Kind, RuleError

BODY = Body(
    {
        "out": Field(STRING, "Say who leaves."),
        "in": Field(STRING, "Say who comes."),
        "note": Field(nullable(STRING)),
        "day": Field(STRING, required=True),
    },
    output=("id", "note"),
    any_of=("out", "note"),
)


@pytest.mark.parametrize(
    ("given", "refusal"),
    [
        ({"colour": "red"}, ("There is no field called colour here.", "colour")),
        ({"colour": "red", "in": "Zed"}, ("There is no field called colour here.", "colour")),
        ({}, ("Say who leaves.", "out")),
        ({"out": None, "in": "Zed"}, ("Say who leaves.", "out")),
        ({"out": "Ann"}, ("Say who comes.", "in")),
    ],
)
def test_a_body_refuses_a_key_it_has_no_field_for_then_a_field_it_must_give(
    given: dict[str, Any], refusal: tuple[str, str]
) -> None:
    with pytest.raises(RuleError) as refused:
        BODY.check(given)
    assert (refused.value.message, refused.value.field) == refusal


def test_a_body_ignores_the_keys_of_its_answer_and_leaves_a_later_check_to_its_others() -> None:
    BODY.check({"out": "Ann", "in": "Zed", "id": 4})


def test_its_schema_requires_what_it_must_give_and_ignores_only_the_answers_other_keys() -> None:
    schema = BODY.schema()
    assert schema["required"] == ["out", "in", "day"]
    assert schema["additionalProperties"] is False
    assert list(schema["properties"]) == ["out", "in", "note", "day", "id"]
    assert schema["properties"]["note"] == nullable(STRING)
    assert schema["properties"]["id"]["readOnly"] is True
    assert schema["anyOf"] == [
        {"required": ["out"], "properties": {"out": {"type": "string"}}},
        {"required": ["note"], "properties": {"note": {"type": "string"}}},
    ]


def test_the_json_type_of_a_schema_is_its_type_or_its_choices_but_null() -> None:
    assert json_type(nullable(BOOLEAN)) == "boolean"
    assert json_type({"enum": [None, "share", "lot"]}) == "string"
    assert json_type({"type": ["null", "array"]}) == "array"


# The request body whose schema is made otherwise: a hand's, one of each kind's (below).
MADE_OTHERWISE = {"HandInput"}


def test_every_request_body_of_the_document_is_one_declared() -> None:
    components = schemas()
    declared = [
        body.schema()
        for module in (session_bodies, event_bodies, season_bodies, access_bodies)
        for body in vars(module).values()
        if isinstance(body, Body)
    ]
    bodies = {
        content["schema"]["$ref"].rsplit("/", 1)[1]
        for path in document()["paths"].values()
        for operation in path.values()
        if "requestBody" in operation
        for content in operation["requestBody"]["content"].values()
        if "$ref" in content["schema"]
    }
    assert len(bodies) >= 17
    for name in bodies - MADE_OTHERWISE:
        schema = components[name]
        # A new session's body is a session's or a night's.
        for branch in [schema] if schema in declared else schema["anyOf"]:
            resolved = components[branch["$ref"].rsplit("/", 1)[1]] if "$ref" in branch else branch
            assert resolved in declared, name


@pytest.mark.parametrize("kind", list(Kind))
def test_each_kind_of_hands_input_has_every_field_of_a_hand_its_own_or_unset(kind: Kind) -> None:
    """A field only another kind of hand has is there too, absent, null or empty."""
    component = schemas()[f"{kind.value.capitalize()}Input"]
    properties = component["properties"]
    assert set(properties) == set(session_bodies.HAND.fields) | set(session_bodies.HAND.output)
    for name, about in HAND_FIELDS:
        if about.only is not None and name in properties:
            own = properties[name] == session_bodies.HAND.fields[name].schema
            assert own is (about.only is kind), name
