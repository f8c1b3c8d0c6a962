"""The bodies of a session, a night kept without hands, a hand, a player and a spreadsheet
of nights: each declared once (`json_shapes.Body`) and read into the engine's terms."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import Request

from .. import rules
from ..rules import RuleError
from ..rules.hands import CARD_POINTS_TOTAL, MAX_TRICKS
from ..rules.table import MAX_SEATS, MIN_SEATS
from ..sessions.models import MAX_ID, is_id
from . import nights_in
from .json_in import (
    DAY_SCHEMA,
    NAME_LENGTH,
    ROUNDS_SCHEMA,
    RULES_INPUT,
    body_of,
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
    NO_NUL,
    STRING,
    Body,
    Field,
    Schema,
    nullable,
    ref,
    ref_or_null,
    values,
)

LABELS = {
    **{name: about.label for name, about in rules.HAND_FIELDS if about.label},
    "dealer": "The dealer",
    "first_dealer": "The first dealer",
    "name": "The session name",
    "ended": "Ended",
}


def _name_or_none(body: Mapping[str, Any], field: str) -> str | None:
    value = body.get(field)
    return None if value is None else text_of(value, field, LABELS[field])


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
    return {name: whole_number(n, field, f"{name}'s {label}", 0, high) for name, n in value.items()}


CARD_POINTS: Schema = {
    **COUNT,
    "maximum": CARD_POINTS_TOTAL,
    "not": {"enum": [1, CARD_POINTS_TOTAL - 1]},
    "description": f"Card points, 0-{CARD_POINTS_TOTAL}; never 1 or {CARD_POINTS_TOTAL - 1}, "
    "which no set of cards adds up to.",
}


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
    kind = text_of(body["kind"], "kind", "The kind of hand")
    # The key must be there: its null says the picker went alone.
    rules.check_partner_said(rules.kind_of(kind), "partner" in body)
    blitzes = body.get("blitzes")
    if blitzes is None:
        blitzes = []
    if not isinstance(blitzes, list) or not all(isinstance(b, str) for b in blitzes):
        raise RuleError('Blitzes are a list of "black", "red", or both.', "blitzes")
    points = {
        field: whole_number(body[field], field, label, 0, CARD_POINTS_TOTAL)
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
        text_of(player, field, "A player's name")
    return value


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


_PLAYED_ON: Schema = nullable(DAY_SCHEMA)


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
        name=text_of(body.get("name") or "", "name", "The session name"),
        players=players,
        rounds=rounds_of(body["rounds"]),
        first_dealer=_name_or_none(body, "first_dealer"),
        options=rules.options_from(**given_rules, seated=len(players)),
        new_players=new_players(body),
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
    played_on = None if given is None else day_of(given, "played_on")
    nets = None if body.get("totals") is None else rules.check_night(body["totals"])
    return NightRequest(
        name=_name_or_none(body, "name"),
        played_on=played_on,
        nets=nets,
        new_players=new_players(body),
    )


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
    rounds = None if body.get("rounds") is None else rounds_of(body["rounds"])
    players = None if body.get("players") is None else _names(body["players"], "players")
    options = None if body.get("rules") is None else rule_options(body["rules"])
    ended = None if body.get("ended") is None else _flag(body, "ended")
    change = SessionChange(name, rounds, players, options, new_players(body), ended)
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
    return text_of(body["player"], "player", "The player")


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
    return PlayerChange(None if name is None else text_of(name, "name", "A player's name"), active)


MERGE = Body({"into": Field(FROM_ONE, "Say which player to merge into: their id.")})


def merge_request(body: Mapping[str, Any]) -> int:
    """The id of the player to merge into."""
    MERGE.check(body)
    into = whole_number(body["into"], "into", "The player's id", 1, MAX_ID)
    if not is_id(into):
        raise rules.whole_number_error("The player's id", 1, MAX_ID, "into")
    return into


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
    sheet = text_of(body["csv"], "csv", "The spreadsheet")
    same_as = body.get("same_as") or {}
    if not isinstance(same_as, dict) or not all(isinstance(p, str) for p in same_as.values()):
        raise RuleError(
            "same_as maps each name of the file to the player it is, by name.", "same_as"
        )
    return NightsImport(
        sheet,
        nights_in.Answers(
            zeros=nights_in.zeros_answer(body.get("zeros")),
            new_players=new_players(body),
            same_as={
                text_of(name, "same_as", "A player's name"): text_of(
                    player, "same_as", "A player's name"
                )
                for name, player in same_as.items()
            },
        ),
    )
