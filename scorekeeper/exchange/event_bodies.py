"""The bodies of an event and of its tables (a check-in, a draw, a practice round, a confirm,
a call for the director, a substitute): each declared once (`json_shapes.Body`) and read into
the engine's terms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import rules
from ..rules import RuleError
from ..rules.table import MAX_SEATS, MIN_SEATS
from ..sessions.event_writes import MAX_ENTRY, MAX_PLACES, MAX_SEED, EventFields
from .json_in import (
    DAY_SCHEMA,
    ROUNDS_SCHEMA,
    RULES_INPUT,
    day_of,
    new_players,
    rounds_of,
    rule_options,
    text_of,
    whole_number,
)
from .json_shapes import (
    BOOLEAN,
    COUNT,
    FROM_ONE,
    INTEGER,
    NO_NUL_AND_NOT_BLANK,
    STRING,
    Body,
    Field,
    Schema,
    nullable,
    ref,
    values,
)

PERCENT_SCHEMA: Schema = {**COUNT, "maximum": 100}


_EVENT_NAME = {**STRING, "minLength": 1, "maxLength": 100, "pattern": NO_NUL_AND_NOT_BLANK}


_EVENT_SETTINGS = {
    "date": Field({**nullable(DAY_SCHEMA), "description": "The day it is played."}),
    "hands": Field(
        {
            **nullable({**FROM_ONE, "maximum": rules.MAX_HANDS}),
            "description": "The hands each player plays in a round; 20 when not given.",
        }
    ),
    "rounds": Field(
        {
            **nullable(ROUNDS_SCHEMA),
            "description": "The rounds the event plays; 0 (the default): as many as are drawn.",
        }
    ),
    "rules": Field(
        {
            **RULES_INPUT,
            "description": "Every table's rules (a table of three plays alone); only before the "
            "first draw (409 after).",
        }
    ),
    "entry": Field(
        {
            **nullable({**COUNT, "maximum": MAX_ENTRY}),
            "description": "The entry fee in cents; 0 (the default): points only. Only before "
            "the first draw.",
        }
    ),
    "places": Field(
        {
            "type": ["array", "null"],
            "items": PERCENT_SCHEMA,
            "maxItems": MAX_PLACES,
            "description": "Percents of the pot for places 1, 2, ...; with `round_top` once a "
            "round, at most 100 in all (400 otherwise).",
        }
    ),
    "round_top": Field(
        {
            **nullable(PERCENT_SCHEMA),
            "description": "Percent of the pot to each round's highest total.",
        }
    ),
    "ties": Field(
        {
            **values(rules.Ties, None),
            "description": "How equal totals are placed: share (the default), hands_won, lot.",
        }
    ),
    "seed": Field(
        {
            **nullable({**COUNT, "maximum": MAX_SEED}),
            "description": "The draw's seed, shown so a draw can be made again; random when not "
            "given. Only before the first draw.",
        }
    ),
    "confirm": Field(
        {
            **nullable(BOOLEAN),
            "description": "Every hand waits for a player of the side that did not pick to "
            "confirm it; false when not given.",
        }
    ),
    "apart": Field(
        {
            "type": ["array", "null"],
            "items": {"type": "array", "items": ref("PlayerName"), "minItems": 2, "maxItems": 2},
            "maxItems": rules.MAX_APART,
            "description": "Pairs of players the draws seat at different tables whenever some "
            "draw can, before they seat as few earlier tablemates together as they can: two "
            "different names a pair (checked in or not), each pair once. May change at any "
            "time; it applies to the draws after.",
        }
    ),
    "practice": Field(
        {
            **nullable(BOOLEAN),
            "description": "A practice event (a rehearsal): its tables can be filled with "
            "made-up hands, count in no total, list or statistic, and the event can be deleted "
            "whole. Set when the event is made; a change is 409.",
        }
    ),
}


_EVENT_OUTPUT = (
    "id", "created_at", "version", "players", "draws", "standings", "round_leaders", "played",
    "pot", "paid", "house", "complete", "provisional", "calls",
)  # fmt: skip


# A new event's name is asked for before its keys are checked (`event_request`).
EVENT_INPUT = Body(
    {"name": Field(_EVENT_NAME, required=True), **_EVENT_SETTINGS}, output=_EVENT_OUTPUT
)


EVENT_CHANGE = Body(
    {"name": Field(nullable(_EVENT_NAME)), **_EVENT_SETTINGS},
    output=_EVENT_OUTPUT,
    any_of=("name", *_EVENT_SETTINGS),
)


APART_SHAPE = 'Keep apart is a list of pairs of players\' names, such as [["Ann", "Bob"]].'


EVENT_NUMBERS = {
    "hands": "Hands a round",
    "rounds": "Rounds",
    "entry": "The entry fee in cents",
    "round_top": "A round's top prize",
    "seed": "The seed",
}


def _event_fields(body: Mapping[str, Any]) -> EventFields:
    EVENT_CHANGE.check(body)
    numbers = {
        key: whole_number(body[key], key, label, 0, 999_999)
        for key, label in EVENT_NUMBERS.items()
        if body.get(key) is not None
    }
    if "rounds" in numbers:
        numbers["rounds"] = rounds_of(numbers["rounds"])
    places = body.get("places")
    if places is not None:
        if not isinstance(places, list):
            raise RuleError("Places are a list of percents of the pot, one a place.", "places")
        places = [whole_number(p, "places", "A place's prize in percent", 0, 100) for p in places]
    given = body.get("rules")
    confirm = body.get("confirm")
    if confirm is not None and not isinstance(confirm, bool):
        raise RuleError("Confirm must be true or false.", "confirm")
    practice = body.get("practice")
    if practice is not None and not isinstance(practice, bool):
        raise RuleError("Practice must be true or false.", "practice")
    return EventFields(
        confirm=confirm,
        name=None if body.get("name") is None else text_of(body["name"], "name", "An event's name"),
        date=None if body.get("date") is None else day_of(body["date"], "date"),
        rules=None if given is None else rule_options(given),
        places=places,
        ties=None if body.get("ties") is None else text_of(body["ties"], "ties", "Ties"),
        apart=_apart(body.get("apart")),
        practice=practice,
        **numbers,
    )


def _apart(value: Any) -> list[list[str]] | None:
    """The pairs to keep apart as given, each a list of names (the engine checks the rest)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(pair, list) for pair in value):
        raise RuleError(APART_SHAPE, "apart")
    return [[text_of(name, "apart", "A player's name") for name in pair] for pair in value]


def event_request(body: Mapping[str, Any]) -> EventFields:
    """A new event's settings: `name` required, the rest optional."""
    if body.get("name") is None:
        raise RuleError("Give the event a name.", "name")
    return _event_fields(body)


def event_change(body: Mapping[str, Any]) -> EventFields:
    """The settings of an event to change: at least one."""
    given = _event_fields(body)
    if not given.given():
        raise RuleError(
            "Give a new name, date, hands, rounds, rules, entry, places, round_top, ties, seed "
            "confirm or apart."
        )
    return given


@dataclass(frozen=True)
class CheckIn:
    name: str
    new_players: list[str]


CHECK_IN = Body(
    {
        "name": Field(ref("PlayerName"), "Say who checks in: their name."),
        "new_players": Field(ref("NewPlayers")),
    }
)


def check_in_request(body: Mapping[str, Any]) -> CheckIn:
    """A player to check in to an event, as typed; `new_players` as in a session's input."""
    CHECK_IN.check(body)
    return CheckIn(text_of(body["name"], "name", "A player's name"), new_players(body))


DRAW = Body(
    {
        "tables": Field(
            {
                "type": ["array", "null"],
                "items": {**INTEGER, "minimum": MIN_SEATS, "maximum": MAX_SEATS},
                "minItems": 1,
                "description": "How many sit at each table, numbered in this order, summing "
                "to the players checked in; the engine's sizes when not given.",
            }
        )
    }
)


def draw_request(body: Mapping[str, Any]) -> list[int] | None:
    """The table sizes of a draw, in table order, or None for the engine's."""
    DRAW.check(body)
    tables = body.get("tables")
    if tables is None:
        return None
    if not isinstance(tables, list) or not tables:
        raise RuleError("Tables are a list of how many sit at each table.", "tables")
    return [whole_number(size, "tables", "A table's size", MIN_SEATS, MAX_SEATS) for size in tables]


CONFIRM = Body(
    {
        "by": Field(
            {**STRING, "description": "A player of the hand's side that did not pick."},
            "Say who confirms the hand: by, a player's name.",
        )
    }
)


def confirm_request(body: Mapping[str, Any]) -> str:
    """Who confirms a hand, as typed."""
    CONFIRM.check(body)
    return text_of(body["by"], "by", "Who confirms")


DIRECTOR = Body(
    {
        "note": Field(
            {
                **nullable(STRING),
                "maxLength": rules.MAX_NOTE,
                "description": "What the call is about: misdeal, revoke, a dispute, ...",
            }
        )
    }
)


def director_request(body: Mapping[str, Any]) -> str:
    """A call for the director's note, as typed ("" for none)."""
    DIRECTOR.check(body)
    note = body.get("note")
    return "" if note is None else text_of(note, "note", "The note for the director")


@dataclass(frozen=True)
class SubstituteRequest:
    out: str
    player: str
    new_players: list[str]


SUBSTITUTE = Body(
    {
        "out": Field(
            {**STRING, "description": "Who leaves their seat."},
            "Say who leaves their seat: out, a player's name.",
        ),
        "in": Field(
            {**STRING, "description": "Who takes it (a new name becomes a player)."},
            "Say who takes the seat: in, a player's name.",
        ),
        "new_players": Field(ref("NewPlayers")),
    }
)


def substitute_request(body: Mapping[str, Any]) -> SubstituteRequest:
    """Who leaves their seat and who takes it, as typed; `new_players` as in a session's
    input."""
    SUBSTITUTE.check(body)
    return SubstituteRequest(
        text_of(body["out"], "out", "Who leaves"),
        text_of(body["in"], "in", "Who takes the seat"),
        new_players(body),
    )


PRACTICE = Body({}, more={"description": "Nothing: the round is in the address."})


def practice_request(body: Mapping[str, Any]) -> None:
    """Made-up hands for a round's tables: nothing to say but which round (in the address)."""
    PRACTICE.check(body)
