"""JSON bodies turned into the rules engine's inputs, refusing wrong types with a sentence.

Whole numbers must be JSON integers: 60.0, "60" and true are refused.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from flask import Request

from .. import rules
from ..rules import RuleError
from ..rules.hands import CARD_POINTS_TOTAL, MAX_TRICKS
from ..rules.table import MAX_SEATS, MIN_SEATS
from ..sessions.event_writes import MAX_ENTRY, MAX_PLACES, MAX_SEED, EventFields
from ..sessions.models import MAX_ID, is_id
from ..sessions.season_writes import (
    DEFAULT_MIN_HANDS,
    HOUSE_RULE_KEYS,
    MAX_MIN_HANDS,
    MAX_SEASON_NAME_LENGTH,
    SeasonFields,
)
from ..sessions.shares import KINDS as SHARE_KINDS
from . import nights_in
from .json_shapes import (
    BOOLEAN,
    COUNT,
    FROM_ONE,
    INTEGER,
    NO_NUL,
    NO_NUL_AND_NOT_BLANK,
    STRING,
    Body,
    Field,
    Schema,
    nullable,
    obj,
    ref,
    ref_or_null,
    values,
)

RULE_FLAGS = {option.name for option in rules.OPTIONS if option.kind is bool}
RULE_NUMBERS = {option.name for option in rules.OPTIONS if option.kind is int}
RULES_KEYS = set(rules.OPTION_NAMES)
RULE_TEXTS = RULES_KEYS - RULE_FLAGS - RULE_NUMBERS


def body_of(request: Request) -> bytes:
    """The body as it came, or 413 when it is over the limit."""
    data = request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and len(data) >= limit:
        # A streamed body stops at the limit without a word; the next read refuses it (413).
        request.stream.read(1)
    return data


def json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object, refusing what could upset the parser or the database: invalid
    UTF-8, deep nesting, long numbers, NaN and Infinity, and lone surrogates."""
    data = body_of(request)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RuleError("The body is not valid UTF-8 text.") from None
    try:
        body = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except RecursionError:
        raise RuleError(TOO_DEEP) from None
    except ValueError:
        raise RuleError("The body must be a JSON object.") from None
    if not isinstance(body, dict):
        raise RuleError("The body must be a JSON object.")
    _check_values(body)
    return body


MAX_DEPTH = 10
MAX_DIGITS = 6
TOO_DEEP = f"The body is nested too deeply: at most {MAX_DEPTH} levels of objects and lists."
LONE_SURROGATE = re.compile("[\\ud800-\\udfff]")


@dataclass(frozen=True)
class _Refused:
    """A number the parser met but the body may not hold; refused, with its field, once the
    whole body is read."""

    message: str


TOO_LONG = _Refused(f"A number has more than {MAX_DIGITS} digits.")


def _json_int(literal: str) -> int | _Refused:
    # Checked before int(), which raises on thousands of digits.
    return TOO_LONG if len(literal.lstrip("-")) > MAX_DIGITS else int(literal)


def _json_float(literal: str) -> float | _Refused:
    mantissa = literal.lstrip("-").lower().partition("e")[0]
    value = float(literal)
    if sum(c.isdigit() for c in mantissa) > MAX_DIGITS:
        return TOO_LONG
    return value if math.isfinite(value) else _Refused(f"{literal} is too large a number.")


def _json_constant(literal: str) -> _Refused:
    return _Refused(f"{literal} is not a number JSON allows.")


def _check_values(body: dict[str, Any]) -> None:
    """Depth, numbers and text of every value, walked without recursion. A refusal names the
    top-level field it was found under."""
    pending: list[tuple[Any, int, str | None]] = [(body, 1, None)]
    while pending:
        value, depth, field = pending.pop()
        if depth > MAX_DEPTH:
            raise RuleError(TOO_DEEP, field)
        if isinstance(value, _Refused):
            raise RuleError(value.message, field)
        if isinstance(value, str) and LONE_SURROGATE.search(value):
            raise RuleError(
                "Text in the body holds a lone surrogate (such as \\ud800), "
                "which is not a character.",
                field,
            )
        if isinstance(value, dict):
            for key, item in value.items():
                pending.append((key, depth, field))
                pending.append((item, depth + 1, key if field is None else field))
        elif isinstance(value, list):
            pending.extend((item, depth + 1, field) for item in value)


def _whole(value: Any, field: str, label: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise rules.whole_number_error(label, low, high, field)
    return value


def _text(value: Any, field: str, what: str) -> str:
    if not isinstance(value, str):
        raise RuleError(f"{what} must be given as text.", field)
    # PostgreSQL can't store it; SQLite would, so both databases refuse it here.
    if "\x00" in value:
        raise RuleError(f"{what} can't hold a NUL character.", field)
    return value


LABELS = {
    **{name: about.label for name, about in rules.HAND_FIELDS if about.label},
    "dealer": "The dealer",
    "first_dealer": "The first dealer",
    "name": "The session name",
    "ended": "Ended",
}


def _name_or_none(body: Mapping[str, Any], field: str) -> str | None:
    value = body.get(field)
    return None if value is None else _text(value, field, LABELS[field])


def _flag(body: Mapping[str, Any], field: str) -> bool:
    value = body.get(field)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RuleError(f"{LABELS[field]} must be true or false.", field)
    return value


def _per_player(
    body: Mapping[str, Any], field: str, label: str, high: int
) -> dict[str, int] | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RuleError(f"{LABELS[field]} must map each player's name to a whole number.", field)
    return {name: _whole(n, field, f"{name}'s {label}", 0, high) for name, n in value.items()}


CARD_POINTS: Schema = {
    **COUNT,
    "maximum": CARD_POINTS_TOTAL,
    "not": {"enum": [1, CARD_POINTS_TOTAL - 1]},
    "description": f"Card points, 0-{CARD_POINTS_TOTAL}; never 1 or {CARD_POINTS_TOTAL - 1}, "
    "which no set of cards adds up to.",
}
NAME_LENGTH: Schema = {"minLength": 1, "maxLength": rules.MAX_NAME_LENGTH}
RESULT = values(rules.Result, None)
BLITZES = nullable({"type": "array", "items": values(rules.Blitz)})


def _each_player(value: Schema, description: str) -> Schema:
    return {
        "type": ["object", "null"],
        "propertyNames": NAME_LENGTH,
        "additionalProperties": value,
        "description": description,
    }


# The schema of each field of a hand as recorded but its kind: what the API takes of it.
_RECORDED: dict[str, Schema] = {
    "picker": ref("PlayerName"),
    "partner": ref_or_null(
        "PlayerName", description="Required for a pick; null means the picker went alone."
    ),
    "called_card": {
        "enum": [
            *sorted({card for cards in rules.CALLED_CARDS.values() for card in cards}),
            "",
            None,
        ],
        "description": "Any case; JD, JC, JS or JH when the partner is the jack of diamonds, "
        "AC, AS, AH, 10C, 10S or 10H with a called ace.",
    },
    "forced": nullable(BOOLEAN),
    "picking_points": nullable({**CARD_POINTS, "description": "The picking team's points."}),
    "opponent_points": nullable({**CARD_POINTS, "description": "The opponents' points."}),
    "cracked_by": ref_or_null("PlayerName"),
    "recracked": nullable(BOOLEAN),
    "blitzes": {**BLITZES, "uniqueItems": True, "maxItems": len(rules.Blitz)},
    "winner": ref("PlayerName"),
    "points": _each_player(
        CARD_POINTS, f"Every player of the hand's card points, adding up to {CARD_POINTS_TOTAL}."
    ),
    "tricks": _each_player(
        {**COUNT, "maximum": MAX_TRICKS},
        "Every player of the hand's tricks, adding up to the hand's tricks: 10 with 3 "
        "playing, 7 with 4, 6 with 5, 5 with 6, 4 with 7.",
    ),
    "result": {
        **RESULT,
        "description": "How the hand went, from the picking team's side; with points, it "
        "must agree with them (RULES.md, Results instead of points).",
    },
    "penalized": ref("PlayerName"),
}
# A hand's body: its kind, each field of `rules.HandInput` (one without a schema here fails
# now), and the dealer; the parts of the hand's answer are ignored in it. `seats` is read back
# from a backup only; to the API it is output, like the others.
HAND = Body(
    {
        "kind": Field({"enum": [kind.value for kind in rules.Kind]}),
        **{name: Field(_RECORDED[name]) for name, _about in rules.HAND_FIELDS if name != "kind"},
        "dealer": Field(
            ref_or_null(
                "PlayerName",
                description="POST: defaults to the seat after the previous hand's dealer. PUT: "
                "omitted keeps the hand's dealer.",
            )
        ),
    },
    output=("number", "seats", "confirmed_by", *(name for name, _ in rules.DERIVED_FIELDS)),
)
HAND_KEYS = set(HAND.fields)
HAND_OUTPUT_KEYS = set(HAND.output)


@dataclass(frozen=True)
class HandRequest:
    entry: rules.HandInput
    dealer: str | None
    seats: list[str] | None = None


def hand_request(body: Mapping[str, Any]) -> HandRequest:
    HAND.check(body)
    if body.get("kind") is None:
        raise RuleError("Say what kind of hand it was: pick, leaster or pass.", "kind")
    kind = _text(body["kind"], "kind", "The kind of hand")
    # The key must be there: its null says the picker went alone.
    rules.check_partner_said(rules.kind_of(kind), "partner" in body)
    blitzes = body.get("blitzes")
    if blitzes is None:
        blitzes = []
    if not isinstance(blitzes, list) or not all(isinstance(b, str) for b in blitzes):
        raise RuleError('Blitzes are a list of "black", "red", or both.', "blitzes")
    points = {
        field: _whole(body[field], field, label, 0, CARD_POINTS_TOTAL)
        for field, label in (
            ("picking_points", rules.PICKING_POINTS_LABEL),
            ("opponent_points", rules.OPPONENT_POINTS_LABEL),
        )
        if body.get(field) is not None
    }
    entry = rules.HandInput(
        kind=kind,
        picker=_name_or_none(body, "picker"),
        partner=_name_or_none(body, "partner"),
        called_card=_name_or_none(body, "called_card"),
        forced=_flag(body, "forced"),
        picking_points=points.get("picking_points"),
        opponent_points=points.get("opponent_points"),
        cracked_by=_name_or_none(body, "cracked_by"),
        recracked=_flag(body, "recracked"),
        blitzes=tuple(blitzes),
        winner=_name_or_none(body, "winner"),
        result=_name_or_none(body, "result"),
        penalized=_name_or_none(body, "penalized"),
        points=_per_player(body, "points", "points", CARD_POINTS_TOTAL),
        tricks=_per_player(body, "tricks", "tricks", MAX_TRICKS),
    )
    seats = body.get("seats")
    return HandRequest(
        entry=entry,
        dealer=_name_or_none(body, "dealer"),
        seats=None if seats is None else _names(seats, "seats"),
    )


def _names(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise RuleError("Players must be a list of the players' names in seat order.", field)
    for player in value:
        _text(player, field, "A player's name")
    return value


def _option_schema(option: rules.Option) -> Schema:
    about = option.about
    if issubclass(option.kind, StrEnum):
        return values(option.kind)
    if option.kind is bool:
        return BOOLEAN
    if about.values:
        return {"enum": list(about.values), "description": about.note}
    return {**COUNT, "maximum": about.high, "description": about.note}


RULES_SCHEMA = {option.name: _option_schema(option) for option in rules.OPTIONS}
RULES_INPUT = nullable(obj(RULES_SCHEMA, additionalProperties=False))
ROUNDS_SCHEMA: Schema = {**COUNT, "maximum": rules.MAX_ROUNDS}
PERCENT_SCHEMA: Schema = {**COUNT, "maximum": 100}


# The keys of a session's answer, which a body sent back may hold.
_SESSION_OUTPUT = (
    "id", "created_at", "hands", "totals", "hands_won", "standings", "next_dealer",
    "pending_doublers", "complete", "hand_count", "version", "sitting_out_next", "settle_up",
    "ended", "totals_only",
)  # fmt: skip
SESSION_NAME: Schema = {
    "type": ["string", "null"],
    "maxLength": rules.MAX_SESSION_NAME_LENGTH,
    "pattern": NO_NUL,
}
_NAMED = {**SESSION_NAME, "description": "Default empty: pages show the date."}
NIGHT_TOTALS: Schema = {
    "type": "object",
    "additionalProperties": {**INTEGER, "minimum": -rules.MAX_NET, "maximum": rules.MAX_NET},
    "minProperties": 2,
    "maxProperties": 40,
    "description": "Each player's net for the night; they add up to 0 (400 otherwise, saying by "
    "how much they are off).",
}
_SEATING: Schema = {
    "type": "array",
    "items": ref("PlayerName"),
    "minItems": MIN_SEATS,
    "maxItems": MAX_SEATS,
    "uniqueItems": True,
}
_PLAYED_ON: Schema = nullable({**STRING, "format": "date"})
# Its players and rounds are refused, when left out, as the parser reads them.
SESSION_INPUT = Body(
    {
        "name": Field(_NAMED),
        "players": Field(
            {
                **_SEATING,
                "description": "In seat order, each once (case ignored); new names become players.",
            },
            required=True,
        ),
        "rounds": Field({**ROUNDS_SCHEMA, "description": "0 means open-ended."}, required=True),
        "first_dealer": Field(ref_or_null("PlayerName")),
        "rules": Field(RULES_INPUT),
        "new_players": Field(ref("NewPlayers")),
    },
    output=_SESSION_OUTPUT,
)
NIGHT_INPUT = Body(
    {
        "name": Field(_NAMED),
        "played_on": Field(
            {
                **_PLAYED_ON,
                "description": "The day it was played (default: today); it starts at 00:00 there.",
            }
        ),
        "totals": Field(NIGHT_TOTALS, required=True),
        "new_players": Field(ref("NewPlayers")),
    },
    output=_SESSION_OUTPUT,
)
SESSION_CHANGE = Body(
    {
        "name": Field(SESSION_NAME),
        "rounds": Field(
            {
                **nullable(ROUNDS_SCHEMA),
                "description": "Never below the rounds already played (409 otherwise).",
            }
        ),
        "players": Field(
            {
                **nullable(_SEATING),
                "description": "The new seat order, from the next hand on: arrivals and "
                "departures. A table the rules can't play is 400; one whose hands would exceed "
                "the fixed rounds is 409.",
            }
        ),
        "rules": Field(
            {
                **RULES_INPUT,
                "description": "Any rule option while no hand is played; after, only the stake "
                "(409 for a change to another).",
            }
        ),
        "new_players": Field(ref("NewPlayers")),
        "ended": Field(
            {
                **nullable(BOOLEAN),
                "description": "True ends the session (complete with the hands it has; a new "
                "hand is 409), false reopens it; applied after the other changes.",
            }
        ),
        "played_on": Field(
            {
                **_PLAYED_ON,
                "description": "A night kept without hands moved to another day (409 for a "
                "session with hands).",
            }
        ),
        "totals": Field(
            {
                **nullable(NIGHT_TOTALS),
                "description": "A night's new nets, checked as a new night's (409 for a session "
                "with hands).",
            }
        ),
    },
    output=_SESSION_OUTPUT,
    any_of=("name", "rounds", "players", "rules", "ended", "played_on", "totals"),
)


@dataclass(frozen=True)
class SessionRequest:
    name: str
    players: list[str]
    rounds: int
    first_dealer: str | None
    options: rules.Options
    new_players: list[str]


def session_request(body: Mapping[str, Any]) -> SessionRequest:
    SESSION_INPUT.check(body)
    players = _names(body.get("players"), "players")
    if "rounds" not in body:
        raise RuleError("Say how many rounds to play (0 means open-ended).", "rounds")
    # Null means not given; any other value that is not an object is refused, never defaults.
    given = body.get("rules")
    given_rules = rule_options({} if given is None else given)
    return SessionRequest(
        name=_text(body.get("name") or "", "name", "The session name"),
        players=players,
        rounds=_rounds(body["rounds"]),
        first_dealer=_name_or_none(body, "first_dealer"),
        options=rules.options_from(**given_rules, seated=len(players)),
        new_players=_new_players(body),
    )


def is_night(body: Mapping[str, Any]) -> bool:
    """Whether a new session's body is a night kept without hands: it gives `totals` and no
    `players` (a session's own JSON sent back holds its totals, which a new one ignores)."""
    return body.get("totals") is not None and body.get("players") is None


@dataclass(frozen=True)
class NightRequest:
    """A night kept without hands, or a change to one (None: not given, left as it is)."""

    name: str | None
    played_on: date | None
    nets: dict[str, int] | None
    new_players: list[str]


def night_request(body: Mapping[str, Any]) -> NightRequest:
    NIGHT_INPUT.check(body)
    return _night_fields(body)


def _night_fields(body: Mapping[str, Any]) -> NightRequest:
    given = body.get("played_on")
    played_on = None if given is None else _day(given, "played_on")
    nets = None if body.get("totals") is None else rules.check_night(body["totals"])
    return NightRequest(
        name=_name_or_none(body, "name"),
        played_on=played_on,
        nets=nets,
        new_players=_new_players(body),
    )


def _new_players(body: Mapping[str, Any]) -> list[str]:
    """The names confirmed as new players, though they look like another player's."""
    value = body.get("new_players")
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise RuleError("New players must be a list of names.", "new_players")
    return [_text(name, "new_players", "A player's name") for name in value]


_TEXT = {**STRING, "pattern": NO_NUL}
NIGHTS_IMPORT = Body(
    {
        "csv": Field(
            {
                **_TEXT,
                "description": "The spreadsheet as CSV: a header `Date` and a column for each "
                "player, then a line a night, its date (YYYY-MM-DD, 2010-7-6 too) and each "
                "player's net, empty where they did not play.",
            },
            "Send the spreadsheet as CSV text in csv.",
        ),
        "zeros": Field(
            {
                "enum": [*nights_in.ZEROS, None],
                "description": "What a 0 is: a player who was there and broke even (`played`), "
                "or one who wasn't there (`absent`). Asked (409, `ask_zeros`) when the sheet "
                "has a 0.",
            }
        ),
        "new_players": Field(
            {
                **nullable({"type": "array", "items": _TEXT}),
                "description": "Names like a player's (409, `ask`) that are new players.",
            }
        ),
        "same_as": Field(
            {
                "type": ["object", "null"],
                "propertyNames": _TEXT,
                "additionalProperties": _TEXT,
                "description": "A name of the file, and the player (here, or another column) "
                "it is.",
            }
        ),
    }
)


@dataclass(frozen=True)
class NightsImport:
    """A spreadsheet of nights to import, and the answers to its questions."""

    csv: bytes | str
    answers: nights_in.Answers


def nights_import_csv(request: Request) -> NightsImport:
    """A spreadsheet sent as it is (`text/csv`), what a 0 is in its query (`zeros`)."""
    return NightsImport(
        body_of(request), nights_in.Answers(zeros=nights_in.zeros_answer(request.args.get("zeros")))
    )


def nights_import_request(body: Mapping[str, Any]) -> NightsImport:
    NIGHTS_IMPORT.check(body)
    sheet = _text(body["csv"], "csv", "The spreadsheet")
    same_as = body.get("same_as") or {}
    if not isinstance(same_as, dict) or not all(isinstance(p, str) for p in same_as.values()):
        raise RuleError(
            "same_as maps each name of the file to the player it is, by name.", "same_as"
        )
    return NightsImport(
        sheet,
        nights_in.Answers(
            zeros=nights_in.zeros_answer(body.get("zeros")),
            new_players=_new_players(body),
            same_as={
                _text(name, "same_as", "A player's name"): _text(
                    player, "same_as", "A player's name"
                )
                for name, player in same_as.items()
            },
        ),
    )


def rule_options(given: Any) -> dict[str, Any]:
    """The rule options given by name, their types checked (their values are the engine's to
    check); null means not given."""
    if not isinstance(given, dict):
        raise RuleError("Rules must be an object of rule options.", "rules")
    for key in given:
        if key not in RULES_KEYS:
            names = ", ".join(sorted(RULES_KEYS))
            raise RuleError(f"There is no rule option {key}; the options are {names}.", "rules")
    options = {key: value for key, value in given.items() if value is not None}
    for key, value in options.items():
        if key in RULE_TEXTS:
            _text(value, "rules", f"The {key.replace('_', ' ')} rule")
        elif key in RULE_FLAGS and not isinstance(value, bool):
            raise RuleError(f"The {key} rule must be true or false.", "rules")
        elif key in RULE_NUMBERS and (not isinstance(value, int) or isinstance(value, bool)):
            raise RuleError(f"The {key.replace('_', ' ')} must be a whole number.", "rules")
    return options


def _rounds(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise rules.rounds_error()
    return value


@dataclass(frozen=True)
class SessionChange:
    """`ended` None: neither ending nor reopening the session; `night` the change to a night
    kept without hands, when its date or totals are given."""

    name: str | None
    rounds: int | None
    players: list[str] | None = None
    rules: dict[str, Any] | None = None
    new_players: list[str] = field(default_factory=list)
    ended: bool | None = None
    night: NightRequest | None = None

    @property
    def changes_table(self) -> bool:
        """Whether the name, rounds, seats or rules change."""
        given = (self.name, self.rounds, self.players, self.rules)
        return any(value is not None for value in given)


def session_change(body: Mapping[str, Any]) -> SessionChange:
    SESSION_CHANGE.check(body)
    table_keys = ("rounds", "players", "rules", "ended")
    if body.get("played_on") is not None or (
        body.get("totals") is not None and all(body.get(key) is None for key in table_keys)
    ):
        night = _night_fields(body)
        if any(body.get(key) is not None for key in table_keys):
            raise RuleError(
                "A night kept without hands changes its name, date and totals alone.", "played_on"
            )
        return SessionChange(night.name, None, new_players=night.new_players, night=night)
    name = _name_or_none(body, "name")
    rounds = None if body.get("rounds") is None else _rounds(body["rounds"])
    players = None if body.get("players") is None else _names(body["players"], "players")
    options = None if body.get("rules") is None else rule_options(body["rules"])
    ended = None if body.get("ended") is None else _flag(body, "ended")
    change = SessionChange(name, rounds, players, options, _new_players(body), ended)
    if not change.changes_table and ended is None:
        raise RuleError(
            "Give a new name, number of rounds, seat order of players or rules, "
            "or end or reopen the session."
        )
    return change


LEAVER = Body({"player": Field(ref("PlayerName"), "Say which player to settle.")})


def leaver_request(body: Mapping[str, Any]) -> str:
    """The player to settle early, as typed."""
    LEAVER.check(body)
    return _text(body["player"], "player", "The player")


def day_in(args: Mapping[str, str], field: str) -> date | None:
    """A day given as YYYY-MM-DD in the query string, or None when it is not given."""
    value = args.get(field)
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value) if DAY.fullmatch(value) else _no_day(field)
    except ValueError:
        return _no_day(field)


DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
WHOLE = re.compile(r"\d{1,10}", re.ASCII)


def whole_in(args: Mapping[str, str], field: str, low: int, high: int) -> int | None:
    """A whole number from `low` to `high` in the query string, or None when it is not given."""
    value = args.get(field)
    if value is None or value == "":
        return None
    if WHOLE.fullmatch(value) and low <= int(value) <= high:
        return int(value)
    raise RuleError(f"The {field} must be a whole number from {low} to {high}.", field)


def _no_day(field: str) -> date:
    raise RuleError(f"The {field} date must be a day written as YYYY-MM-DD.", field)


@dataclass(frozen=True)
class PlayerChange:
    """A player renamed and/or retired or brought back; None: left as it is."""

    name: str | None
    active: bool | None


PLAYER_CHANGE = Body(
    {"name": Field(ref("PlayerName")), "active": Field(BOOLEAN)}, more={"minProperties": 1}
)


def player_change(body: Mapping[str, Any]) -> PlayerChange:
    PLAYER_CHANGE.check(body)
    if body.get("name") is None and body.get("active") is None:
        raise RuleError('Send a new "name", or "active": true or false.', "name")
    name = body.get("name")
    active = body.get("active")
    if active is not None and not isinstance(active, bool):
        raise RuleError("Active must be true or false.", "active")
    return PlayerChange(None if name is None else _text(name, "name", "A player's name"), active)


MERGE = Body({"into": Field(FROM_ONE, "Say which player to merge into: their id.")})


def merge_request(body: Mapping[str, Any]) -> int:
    """The id of the player to merge into."""
    MERGE.check(body)
    into = _whole(body["into"], "into", "The player's id", 1, MAX_ID)
    if not is_id(into):
        raise rules.whole_number_error("The player's id", 1, MAX_ID, "into")
    return into


_EVENT_NAME = {**STRING, "minLength": 1, "maxLength": 100, "pattern": NO_NUL_AND_NOT_BLANK}
_EVENT_SETTINGS = {
    "date": Field({**nullable(STRING), "format": "date", "description": "The day it is played."}),
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
        key: _whole(body[key], key, label, 0, 999_999)
        for key, label in EVENT_NUMBERS.items()
        if body.get(key) is not None
    }
    if "rounds" in numbers:
        numbers["rounds"] = _rounds(numbers["rounds"])
    places = body.get("places")
    if places is not None:
        if not isinstance(places, list):
            raise RuleError("Places are a list of percents of the pot, one a place.", "places")
        places = [_whole(p, "places", "A place's prize in percent", 0, 100) for p in places]
    given = body.get("rules")
    confirm = body.get("confirm")
    if confirm is not None and not isinstance(confirm, bool):
        raise RuleError("Confirm must be true or false.", "confirm")
    practice = body.get("practice")
    if practice is not None and not isinstance(practice, bool):
        raise RuleError("Practice must be true or false.", "practice")
    return EventFields(
        confirm=confirm,
        name=None if body.get("name") is None else _text(body["name"], "name", "An event's name"),
        date=None if body.get("date") is None else _day(body["date"], "date"),
        rules=None if given is None else rule_options(given),
        places=places,
        ties=None if body.get("ties") is None else _text(body["ties"], "ties", "Ties"),
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
    return [[_text(name, "apart", "A player's name") for name in pair] for pair in value]


def _day(value: Any, field: str) -> date:
    if not isinstance(value, str):
        return _no_day(field)
    try:
        return date.fromisoformat(value) if DAY.fullmatch(value) else _no_day(field)
    except ValueError:
        return _no_day(field)


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
    return CheckIn(_text(body["name"], "name", "A player's name"), _new_players(body))


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
    return [_whole(size, "tables", "A table's size", MIN_SEATS, MAX_SEATS) for size in tables]


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
    return _text(body["by"], "by", "Who confirms")


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
    return "" if note is None else _text(note, "note", "The note for the director")


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
        _text(body["out"], "out", "Who leaves"),
        _text(body["in"], "in", "Who takes the seat"),
        _new_players(body),
    )


PRACTICE = Body({}, more={"description": "Nothing: the round is in the address."})


def practice_request(body: Mapping[str, Any]) -> None:
    """Made-up hands for a round's tables: nothing to say but which round (in the address)."""
    PRACTICE.check(body)


_SEASON_NAME = {
    **STRING,
    "minLength": 1,
    "maxLength": MAX_SEASON_NAME_LENGTH,
    "pattern": NO_NUL_AND_NOT_BLANK,
    "description": "Unique, case ignored (409 otherwise).",
}
DAY_SCHEMA = {**STRING, "format": "date"}
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
        name=None if body.get("name") is None else _text(body["name"], "name", "A season's name"),
        first_day=_season_day(body, "first_day", "first day"),
        last_day=_season_day(body, "last_day", "last day"),
        house_rules=house,
        min_hands=None
        if min_hands is None
        else _whole(min_hands, "min_hands", fewest, 0, MAX_MIN_HANDS),
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
    return kind, _whole(body[kind], kind, f"The {kind}'s id", 1, MAX_ID)
