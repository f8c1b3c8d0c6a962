"""The bodies of a season and of a share link (of a season, an event or a session): each
declared once (`json_shapes.Body`) and read into the engine's terms."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from ..rules import RuleError
from ..sessions.models import MAX_ID
from ..sessions.season_writes import (
    DEFAULT_MIN_HANDS,
    HOUSE_RULE_KEYS,
    MAX_MIN_HANDS,
    MAX_SEASON_NAME_LENGTH,
    SeasonFields,
)
from ..sessions.shares import KINDS as SHARE_KINDS
from .json_in import DAY, DAY_SCHEMA, text_of, whole_number
from .json_shapes import (
    COUNT,
    FROM_ONE,
    NO_NUL_AND_NOT_BLANK,
    STRING,
    Body,
    Field,
    nullable,
)

_SEASON_NAME = {
    **STRING,
    "minLength": 1,
    "maxLength": MAX_SEASON_NAME_LENGTH,
    "pattern": NO_NUL_AND_NOT_BLANK,
    "description": "Unique, case ignored (409 otherwise).",
}


_FIRST_DAY = {**DAY_SCHEMA, "description": "The first day, in the server's time zone."}


_LAST_DAY = {**DAY_SCHEMA, "description": "The last day, included; not before the first."}


_SEASON_SETTINGS = {
    "house_rules": Field(
        {
            "type": ["array", "null"],
            "items": {"enum": list(HOUSE_RULE_KEYS)},
            "description": "Only sessions played with every one of these house rules (the "
            "leaderboard's filters), or `plain` alone: with none of them. Empty: every session.",
        }
    ),
    "min_hands": Field(
        {
            **nullable({**COUNT, "maximum": MAX_MIN_HANDS}),
            "description": f"The fewest hands played to be ranked by average; {DEFAULT_MIN_HANDS} "
            "when not given.",
        }
    ),
}


_SEASON_OUTPUT = ("id", "created_at", "standings", "staked", "settle_up")


# A new season's name is asked for before its keys are checked (`season_request`); its days,
# by the season's own check.
SEASON_INPUT = Body(
    {
        "name": Field(_SEASON_NAME, required=True),
        "first_day": Field(_FIRST_DAY, required=True),
        "last_day": Field(_LAST_DAY, required=True),
        **_SEASON_SETTINGS,
    },
    output=_SEASON_OUTPUT,
)


SEASON_CHANGE = Body(
    {
        "name": Field(nullable(_SEASON_NAME)),
        "first_day": Field(nullable(_FIRST_DAY)),
        "last_day": Field(nullable(_LAST_DAY)),
        **_SEASON_SETTINGS,
    },
    output=_SEASON_OUTPUT,
    any_of=("name", "first_day", "last_day", "house_rules", "min_hands"),
)


def _season_fields(body: Mapping[str, Any]) -> SeasonFields:
    SEASON_CHANGE.check(body)
    house = body.get("house_rules")
    if house is not None and (
        not isinstance(house, list) or not all(isinstance(key, str) for key in house)
    ):
        raise RuleError(
            'House rules are a list of the filters\' keys, such as ["bump"], or ["plain"].',
            "house_rules",
        )
    min_hands = body.get("min_hands")
    fewest = "The fewest hands to be ranked by average"
    return SeasonFields(
        name=None if body.get("name") is None else text_of(body["name"], "name", "A season's name"),
        first_day=_season_day(body, "first_day", "first day"),
        last_day=_season_day(body, "last_day", "last day"),
        house_rules=house,
        min_hands=None
        if min_hands is None
        else whole_number(min_hands, "min_hands", fewest, 0, MAX_MIN_HANDS),
    )


def _season_day(body: Mapping[str, Any], field: str, label: str) -> date | None:
    value = body.get(field)
    if value is None:
        return None
    try:
        if isinstance(value, str) and DAY.fullmatch(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise RuleError(f"The {label} must be a day written as YYYY-MM-DD.", field)


def season_request(body: Mapping[str, Any]) -> SeasonFields:
    """A new season's settings: `name`, `first_day` and `last_day` required, the rest
    optional."""
    if body.get("name") is None:
        raise RuleError("Give the season a name.", "name")
    return _season_fields(body)


def season_change(body: Mapping[str, Any]) -> SeasonFields:
    """The settings of a season to change: at least one."""
    given = _season_fields(body)
    if not given.given():
        raise RuleError("Give a new name, first_day, last_day, house_rules or min_hands.")
    return given


SHARE_WHAT = 'Say what to share: {"season": id}, {"event": id} or {"session": id}.'


SHARE = Body(
    {
        kind: Field({**FROM_ONE, "maximum": MAX_ID, "description": f"The {kind}'s id."})
        for kind in SHARE_KINDS
    },
    more={"minProperties": 1, "maxProperties": 1},
)


def share_request(body: Mapping[str, Any]) -> tuple[str, int]:
    """What a share link shows: one of `season`, `event` or `session`, with its id."""
    SHARE.check(body)
    if len(body) != 1:
        raise RuleError(SHARE_WHAT)
    [kind] = body
    return kind, whole_number(body[kind], kind, f"The {kind}'s id", 1, MAX_ID)
