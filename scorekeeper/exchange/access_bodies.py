"""The body of an invite to one session (`json_shapes.Body`), read into its role and hours, and
the roles themselves as every body and command names them: what each role may do is access/'s
to decide."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from ..rules import RuleError
from .json_shapes import Body, Field, values


class Role(StrEnum):
    SCORER = "scorer"  # records and edits; behind the passcode, changes need a sign-in
    READER = "reader"  # only looks; behind the passcode, looking needs a sign-in too


DEFAULT_HOURS = 12
MAX_HOURS = 72
HOURS_RULE = f"An invite lasts a whole number of hours from 1 to {MAX_HOURS}."
ROLE_RULE = 'An invite\'s role is "scorer" (records and edits hands) or "reader" (only looks).'


INVITE = Body(
    {
        "role": Field(
            values(Role, None)
            | {
                "description": "scorer (the default) records and edits hands there; reader "
                "only looks."
            }
        ),
        "hours": Field(
            {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": MAX_HOURS,
                "description": "How long the link and the phones it signs in hold; "
                f"{DEFAULT_HOURS} when not given.",
            }
        ),
    }
)


def invite_request(given: Mapping[str, Any]) -> tuple[Role, int]:
    """An invite's role and hours, from the API's body or the invite sheet (both optional)."""
    for key in given:
        if key not in INVITE.fields:
            fields = " and ".join(INVITE.fields)
            raise RuleError(f"An invite takes {fields}; {key} is not one of them.", key)
    return _role(given.get("role")), _hours(given.get("hours"))


def _role(given: Any) -> Role:
    if given is None:
        return Role.SCORER
    if isinstance(given, str):
        for role in Role:
            if given.strip().lower() == role.value:
                return role
    raise RuleError(ROLE_RULE, "role")


def _hours(given: Any) -> int:
    if given is None:
        return DEFAULT_HOURS
    if isinstance(given, bool) or not isinstance(given, int | float) or given != int(given):
        raise RuleError(HOURS_RULE, "hours")
    if not 1 <= given <= MAX_HOURS:
        raise RuleError(HOURS_RULE, "hours")
    return int(given)
