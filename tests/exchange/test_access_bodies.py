from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.exchange.access_bodies import (
    HOURS_RULE,
    INVITE,
    ROLE_RULE,
    Role,
    invite_request,
)
from scorekeeper.rules import RuleError


@pytest.mark.parametrize(
    ("body", "role", "hours"),
    [
        ({}, Role.SCORER, 12),
        ({"role": None, "hours": None}, Role.SCORER, 12),
        ({"role": " Reader ", "hours": 3}, Role.READER, 3),
        ({"role": "scorer", "hours": 72.0}, Role.SCORER, 72),
    ],
)
def test_an_invite_reads_its_role_and_hours_or_their_defaults(
    body: dict[str, Any], role: Role, hours: int
) -> None:
    assert invite_request(body) == (role, hours)


@pytest.mark.parametrize(
    ("body", "field", "sentence"),
    [
        ({"hours": 0}, "hours", HOURS_RULE),
        ({"hours": 73}, "hours", HOURS_RULE),
        ({"hours": 1.5}, "hours", HOURS_RULE),
        ({"hours": True}, "hours", HOURS_RULE),
        ({"role": "owner"}, "role", ROLE_RULE),
        ({"role": 1}, "role", ROLE_RULE),
        ({"roles": "reader"}, "roles", "An invite takes role and hours; roles is not one of them."),
    ],
)
def test_a_wrong_invite_is_refused_with_its_field(
    body: dict[str, Any], field: str, sentence: str
) -> None:
    with pytest.raises(RuleError) as refused:
        invite_request(body)
    assert (refused.value.message, refused.value.field) == (sentence, field)


def test_its_schema_names_the_roles_and_the_hours_it_reads() -> None:
    schema = INVITE.schema()
    assert schema["additionalProperties"] is False
    assert "required" not in schema
    assert schema["properties"]["role"]["enum"] == ["scorer", "reader", None]
    assert schema["properties"]["hours"]["maximum"] == 72
