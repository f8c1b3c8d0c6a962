"""The OpenAPI document's data shapes, built from the rules' own names and limits.

Answers list the fields served today and allow more (API.md: "add fields freely"); request
bodies refuse unknown keys, as the API does.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import NoneType, UnionType
from typing import Any, get_args, get_origin, get_type_hints

from ...exchange import access_bodies, event_bodies, json_in, season_bodies, session_bodies
from ...exchange.json_shapes import (
    BOOLEAN,
    COUNT,
    FROM_ONE,
    INTEGER,
    NO_NUL,
    NO_NUL_AND_NOT_BLANK,
    STRING,
    Schema,
    given,
    nullable,
    obj,
    output_only,
    ref,
    ref_or_null,
    values,
)
from ...rules import (
    DERIVED_FIELDS,
    HAND_FIELDS,
    HandInput,
    Kind,
    Shape,
    Ties,
)
from ...sessions.renames import PLAYER_ACTIONS
from ...sessions.season_writes import (
    HOUSE_RULE_KEYS,
)
from ...sessions.shares import KINDS as SHARE_KINDS

# What the history says of a change to the session itself or to one of its players (no hand
# number).
SESSION_ACTIONS = (
    "end", "reopen", "settle-leaver", "call-director", "answer-director", "substitute",
    *PLAYER_ACTIONS,
)  # fmt: skip


def array_of(name: str) -> Schema:
    return {"type": "array", "items": ref(name)}


def _unset(*types: str) -> Schema:
    """A key of the other kind of hand: absent, or null, false or empty."""
    allowed: list[Any] = [None]
    if "string" in types:
        allowed.append("")
    if "boolean" in types:
        allowed.append(False)
    schema: Schema = {"enum": allowed}
    if "array" in types:
        schema = {"anyOf": [schema, {"type": "array", "maxItems": 0}]}
    if "object" in types:
        schema = {"anyOf": [schema, {"type": "object", "maxProperties": 0}]}
    return schema


DATE_TIME: Schema = {**STRING, "format": "date-time"}
NAMES: Schema = {"type": "array", "items": STRING}
PER_PLAYER: Schema = {"type": "object", "additionalProperties": INTEGER}
# A part of a hand the engine derives (`rules.DERIVED_FIELDS`), by its shape.
DERIVED: dict[Shape, Schema] = {
    Shape.FACTOR: FROM_ONE,
    Shape.FLAG: BOOLEAN,
    Shape.NAMES: NAMES,
    Shape.SCORES: PER_PLAYER,
}


def described(about: str) -> Schema:
    return {"description": about} if about else {}


def _player_names() -> Schema:
    return {
        "PlayerName": {
            **STRING,
            **json_in.NAME_LENGTH,
            "pattern": NO_NUL_AND_NOT_BLANK,
            "description": "A player's name, 1-40 characters after trimming, no control or "
            "invisible character; any case, compared in Unicode's composed form (NFC).",
        },
        "NewPlayers": nullable(
            {
                "type": "array",
                "items": {**STRING, "pattern": NO_NUL},
                "description": "Names confirmed as new players: each becomes a player even "
                "though it looks like another player's name (which is 400 otherwise).",
            }
        ),
    }


def _player_inputs() -> dict[str, Schema]:
    return {
        "PlayerChange": session_bodies.PLAYER_CHANGE.schema(),
        "MergeInput": session_bodies.MERGE.schema(),
    }


def _session_inputs() -> dict[str, Schema]:
    return {
        "SessionInput": {
            "anyOf": [session_bodies.SESSION_INPUT.schema(), ref("NightInput")],
        },
        "NightInput": session_bodies.NIGHT_INPUT.schema(),
        "SessionChange": session_bodies.SESSION_CHANGE.schema(),
        "LeaverInput": session_bodies.LEAVER.schema(),
        "InviteInput": access_bodies.INVITE.schema(),
    }


def _event_inputs() -> dict[str, Schema]:
    return {
        "EventInput": event_bodies.EVENT_INPUT.schema(),
        "EventChange": event_bodies.EVENT_CHANGE.schema(),
        "CheckInInput": event_bodies.CHECK_IN.schema(),
        "ConfirmInput": event_bodies.CONFIRM.schema(),
        "DirectorInput": event_bodies.DIRECTOR.schema(),
        "SubstituteInput": event_bodies.SUBSTITUTE.schema(),
        "PracticeInput": event_bodies.PRACTICE.schema(),
        "DrawInput": event_bodies.DRAW.schema(),
    }


EVENT_REQUIRED = (
    "id", "name", "date", "created_at", "hands", "rounds", "version", "rules", "entry", "places",
    "round_top", "ties", "seed", "players", "draws", "standings", "round_leaders", "complete",
    "apart", "practice",
)  # fmt: skip


def _event_answers() -> dict[str, Schema]:
    money = {**nullable(INTEGER), "description": "In cents; null with no entry fee."}
    summary = {
        "id": FROM_ONE,
        "name": STRING,
        "date": nullable(json_in.DAY_SCHEMA),
        "created_at": DATE_TIME,
        "hands": FROM_ONE,
        "rounds": json_in.ROUNDS_SCHEMA,
        "version": {**INTEGER, "description": "Grows with every write to the event."},
        "practice": {**BOOLEAN, "description": "A practice event: it counts nowhere else."},
    }
    table = {
        "table": FROM_ONE,
        "session": {**FROM_ONE, "description": "The table's session, an ordinary one."},
        "seats": NAMES,
        "hands": {**COUNT, "description": "Hands played."},
        "hands_to_play": COUNT,
        "complete": BOOLEAN,
        "to_confirm": {
            **COUNT,
            "description": "Its hands waiting to be confirmed (0 unless the event confirms).",
        },
        "substitutes": {
            "type": "array",
            "items": obj({"in": STRING, "for": STRING}, "in", "for"),
            "description": "Who sits in there for whom.",
        },
    }
    draw = {"round": FROM_ONE, "tables": {"type": "array", "items": obj(table, *table)}}
    standing = {
        "player": STRING,
        "place": FROM_ONE,
        "total": INTEGER,
        "rounds": {
            "type": "array",
            "items": nullable(INTEGER),
            "description": "The total each round drawn; null for a round not sat.",
        },
        "hands_won": COUNT,
        "prize": {**money, "description": "The place prize, in cents; null with no entry fee."},
        "round_prizes": {
            **money,
            "description": "What the player's round tops won, in cents; null with no entry fee.",
        },
        "paid": {
            **money,
            "description": "The place prize and the round prizes together, what the player is "
            "paid, in cents; null with no entry fee. The standings' add up to the event's.",
        },
        "by_lot": {**BOOLEAN, "description": "With `ties: lot`: the lot decided this place."},
        "provisional": {
            **BOOLEAN,
            "description": "Some hand of the event waits to be confirmed.",
        },
        "substitutes": {**NAMES, "description": "Who sat in for the player at some table."},
    }
    leader = {"round": FROM_ONE, "players": NAMES, "total": INTEGER, "prize": money}
    call = {
        "table": FROM_ONE,
        "round": FROM_ONE,
        "session": FROM_ONE,
        "note": {**STRING, "description": "Empty when the call says nothing."},
        "at": DATE_TIME,
    }
    player = {"name": STRING, "checked_in": BOOLEAN}
    event = {
        **summary,
        "rules": obj(json_in.RULES_SCHEMA, *json_in.RULES_SCHEMA),
        "entry": COUNT,
        "places": {"type": "array", "items": event_bodies.PERCENT_SCHEMA},
        "round_top": event_bodies.PERCENT_SCHEMA,
        "ties": values(Ties),
        "seed": COUNT,
        "apart": {
            "type": "array",
            "items": {"type": "array", "items": STRING, "minItems": 2, "maxItems": 2},
            "description": "The pairs the draws keep apart.",
        },
        "players": {"type": "array", "items": obj(player, *player)},
        "draws": {"type": "array", "items": obj(draw, *draw)},
        "standings": {
            "type": "array",
            "items": obj(standing, "player", "place", "total", "rounds", "hands_won"),
        },
        "round_leaders": {"type": "array", "items": obj(leader, "round", "players", "total")},
        "pot": money,
        "paid": money,
        "house": money,
        "complete": {
            **BOOLEAN,
            "description": "Every round of a fixed number drawn, all their tables complete and "
            "every hand confirmed where the event confirms.",
        },
        "confirm": BOOLEAN,
        "provisional": {
            **BOOLEAN,
            "description": "Some hand waits to be confirmed: nothing is final yet.",
        },
        "calls": {
            "type": "array",
            "items": ref("DirectorCall"),
            "description": "The tables calling the director now, the earliest first.",
        },
    }
    return {
        "EventSummary": obj(
            {
                **summary,
                "rounds_drawn": COUNT,
                "players": {**NAMES, "description": "Who is checked in."},
            },
            *summary,
        ),
        "Event": obj(event, *EVENT_REQUIRED),
        "DirectorCall": obj(call, *call),
    }


def _seasons() -> dict[str, Schema]:
    day = json_in.DAY_SCHEMA
    season = {
        "id": FROM_ONE,
        "name": STRING,
        "first_day": day,
        "last_day": day,
        "house_rules": {"type": "array", "items": {"enum": list(HOUSE_RULE_KEYS)}},
        "min_hands": COUNT,
        "created_at": DATE_TIME,
    }
    standing = {
        "player": STRING,
        "player_id": FROM_ONE,
        "place": {**FROM_ONE, "description": "By total, then hands won; equals share it."},
        "average_place": {
            **nullable(FROM_ONE),
            "description": "By average per hand; null under the season's `min_hands`.",
        },
        "total": INTEGER,
        "hands": {**COUNT, "description": "Hands played (0 for a player of nights alone)."},
        "hands_won": COUNT,
        "average": {
            "type": ["number", "null"],
            "description": "Per hand played, to two decimals; null without a hand.",
        },
        "sessions": {
            **FROM_ONE,
            "description": "Sessions the player played a hand in, and nights kept without hands.",
        },
        "money": {**INTEGER, "description": "Total x stake over the staked sessions, in cents."},
        "nights": {**COUNT, "description": "Their nights kept without hands in the season."},
    }
    standings = {
        **season,
        "standings": {"type": "array", "items": obj(standing, *standing)},
        "staked": {**BOOLEAN, "description": "Whether anyone won or lost money."},
        "settle_up": ref("SettleUp"),
    }
    return {
        "SeasonInput": season_bodies.SEASON_INPUT.schema(),
        "SeasonChange": season_bodies.SEASON_CHANGE.schema(),
        "Season": obj(season, *season),
        "SeasonStandings": obj(standings, *standings),
    }


def _nights_import() -> dict[str, Schema]:
    """A spreadsheet of nights kept without hands to import, in JSON with the answers to its
    questions, and what the import kept."""
    day = nullable(json_in.DAY_SCHEMA)
    imported = {
        "nights": {**COUNT, "description": "Nights added."},
        "already_here": {**COUNT, "description": "Nights of the file already kept, skipped."},
        "skipped": {**COUNT, "description": "Lines without a player, skipped."},
        "new_players": {**NAMES, "description": "The players the import added."},
        "sessions": {"type": "array", "items": FROM_ONE, "description": "The nights' ids."},
        "players": {**COUNT, "description": "Players of the nights added."},
        "from": {**day, "description": "The first day of the nights added."},
        "to": {**day, "description": "The last day of the nights added."},
    }
    return {
        "NightsImportInput": session_bodies.NIGHTS_IMPORT.schema(),
        "NightsImported": obj(imported, *imported),
    }


# JSON's type of a value of each Python type, a bool's before an int's.
_JSON_TYPES = (
    (bool, "boolean"),
    (int, "integer"),
    (str, "string"),
    (tuple, "array"),
    (Mapping, "object"),
)


def _json_type(hint: Any) -> str:
    """The JSON type of a field of `HandInput`, by its Python type."""
    if get_origin(hint) is UnionType:
        (hint,) = (arg for arg in get_args(hint) if arg is not NoneType)
    kind = get_origin(hint) or hint
    return next(name for python, name in _JSON_TYPES if issubclass(kind, python))


def _hand_inputs() -> dict[str, Schema]:
    """HandInput, one of an input for each kind of hand: PickInput, LeasterInput and so on,
    each with the fields only that kind has (`rules.HAND_FIELDS`), the other kinds' absent,
    null or empty."""
    hints = get_type_hints(HandInput)
    kinds = (Kind.PICK, Kind.LEASTER, Kind.PENALTY)
    fields = session_bodies.HAND.fields
    own = {
        kind: {name: fields[name].schema for name, about in HAND_FIELDS if about.only is kind}
        for kind in kinds
    }
    unset = {kind: {name: _unset(_json_type(hints[name])) for name in own[kind]} for kind in kinds}
    every_kind = {
        "dealer": fields["dealer"].schema,
        **output_only(*session_bodies.HAND.output),
    }

    def hand_input(kind: Kind, *required: str, **more: Any) -> tuple[Kind, Schema]:
        those: Schema = {}
        for other in kinds:
            those |= own[other] if other is kind else unset[other]
        properties = {"kind": {"const": kind.value}, **those, **every_kind}
        return kind, obj(properties, "kind", *required, additionalProperties=False, **more)

    inputs = dict(
        [
            hand_input(
                Kind.PICK,
                "picker",
                "partner",
                anyOf=[
                    given(picking_points="integer"),
                    given(opponent_points="integer"),
                    given(result="string"),
                ],
                description="At most one of `picking_points` or `opponent_points`, a `result`, "
                "or both. A leaster's keys must be absent, null or empty.",
                **{"not": given(picking_points="integer", opponent_points="integer")},
            ),
            hand_input(
                Kind.LEASTER,
                "winner",
                description="Only when the session plays a leaster when everyone passes.",
            ),
            hand_input(
                Kind.PASS,
                description="Only when the session re-deals (or plays a doubler) when everyone "
                "passes.",
            ),
            hand_input(
                Kind.PENALTY,
                "penalized",
                description="Only when the session allows penalty hands: the penalized player "
                "pays 1 to every other player of the hand.",
            ),
        ]
    )
    names = {kind: f"{kind.value.capitalize()}Input" for kind in inputs}
    return {
        "HandInput": {
            "oneOf": [ref(name) for name in names.values()],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {kind.value: ref(name)["$ref"] for kind, name in names.items()},
            },
        },
        **{names[kind]: schema for kind, schema in inputs.items()},
    }


def _answers() -> dict[str, Schema]:
    hand = {
        "number": FROM_ONE,
        "dealer": STRING,
        "kind": values(Kind),
        "picker": nullable(STRING),
        "partner": nullable(STRING),
        "called_card": nullable(STRING),
        "forced": nullable(BOOLEAN),
        "picking_points": nullable(INTEGER),
        "cracked_by": nullable(STRING),
        "recracked": nullable(BOOLEAN),
        "blitzes": session_bodies.BLITZES,
        "winner": nullable(STRING),
        "points": nullable(PER_PLAYER),
        "tricks": nullable(PER_PLAYER),
        "result": {
            **session_bodies.RESULT,
            "description": "Set for every pick: given, or following from the points.",
        },
        "penalized": nullable(STRING),
        "seats": {**NAMES, "description": "The seat order the hand was played with."},
        **{
            name: {**DERIVED[derived.shape], **described(derived.about)}
            for name, derived in DERIVED_FIELDS
        },
        "confirmed_by": {
            **nullable(STRING),
            "description": "At a table of an event that confirms its hands only: who of the "
            "side that did not pick confirmed it; null while it waits.",
        },
    }
    summary = {
        "id": INTEGER,
        "name": STRING,
        "created_at": DATE_TIME,
        "players": NAMES,
        "rounds": json_in.ROUNDS_SCHEMA,
        "complete": {**BOOLEAN, "description": "Every round played, or ended."},
        "ended": {
            **BOOLEAN,
            "description": "Ended early: complete with the hands it has until reopened.",
        },
        "hand_count": COUNT,
        "totals_only": {
            **BOOLEAN,
            "description": "A night kept without hands: complete with none, its totals as given.",
        },
    }
    standing = {
        "player": STRING,
        "total": INTEGER,
        "hands_won": COUNT,
        "place": FROM_ONE,
        "seated": {**BOOLEAN, "description": "False for a player who has left the table."},
    }
    session = {
        **summary,
        "version": {**INTEGER, "description": "Grows with every write to the session."},
        "first_dealer": STRING,
        "rules": obj(json_in.RULES_SCHEMA, *json_in.RULES_SCHEMA),
        "hands": array_of("Hand"),
        "totals": PER_PLAYER,
        "hands_won": PER_PLAYER,
        "standings": {"type": "array", "items": obj(standing, *standing)},
        "next_dealer": {**nullable(STRING), "description": "Null once the session is complete."},
        "pending_doublers": COUNT,
        "sitting_out_next": {
            **NAMES,
            "description": "Who sits out the next hand; empty when everyone plays.",
        },
        "settle_up": ref("SettleUp"),
        "director": {
            **ref_or_null("DirectorNow"),
            "description": "At a table of an event only: its open call for the director.",
        },
    }
    payment = {"from": STRING, "to": STRING, "amount": FROM_ONE}
    payments = {"type": "array", "items": obj(payment, *payment)}
    settle_up = {
        "stake": {
            **nullable(INTEGER),
            "description": "Null when the sessions counted have different stakes.",
        },
        "unit": {"enum": ["cents", "points"]},
        "balances": PER_PLAYER,
        "payments": {
            **payments,
            "description": "They settle each balance less what was paid early.",
        },
        "paid": {
            **payments,
            "description": "Paid early, settling players who left; empty when none.",
        },
        "exact": {
            **BOOLEAN,
            "description": "Whether the payments are proven the fewest (up to 20 players owed or "
            "owing); beyond, a greedy match.",
        },
    }
    settlement = {"player": STRING, "payments": payments}
    # A change's hand, or the session ended or not, or a leaver's settlement, or the name of a
    # player renamed or merged, or a night kept without hands.
    night = {"name": STRING, "created_at": DATE_TIME, "totals": PER_PLAYER}
    director = {"note": STRING, "at": DATE_TIME}
    substitute = {"out": STRING, "in": STRING, "for": STRING}
    state = {
        "anyOf": [
            ref("Hand"),
            obj({"ended": BOOLEAN}, "ended"),
            obj(night, *night),
            ref("Settlement"),
            obj({"name": STRING}, "name"),
            obj(director, *director),
            obj(substitute, *substitute),
            {"type": "null"},
        ]
    }
    change = {
        "at": DATE_TIME,
        "action": {"enum": ["add", "edit", "delete", "restore", "confirm", *SESSION_ACTIONS]},
        "number": {
            **nullable(FROM_ONE),
            "description": "The hand changed; null for a change to the session itself.",
        },
        "before": state,
        "after": state,
    }
    player = {
        "id": FROM_ONE,
        "name": STRING,
        "sessions": COUNT,
        "hands": {**COUNT, "description": "Hands played (a hand sat out doesn't count)."},
        "total": INTEGER,
        "last_played": {**nullable(DATE_TIME), "description": "When their last session began."},
        "active": {**BOOLEAN, "description": "False: retired, not offered for new sessions."},
        "nights": {**COUNT, "description": "How many of their sessions were kept without hands."},
        "rating": {
            **nullable({"type": "number"}),
            "description": (
                "Their rating over the whole history (OpenSkill's ordinal, mu - 3 sigma), to one "
                "decimal; null before their first rated hand."
            ),
        },
        "rating_provisional": {
            **BOOLEAN,
            "description": "True until they have played 100 rated hands (picks and leasters).",
        },
    }
    merge = {
        "id": FROM_ONE,
        "at": DATE_TIME,
        "player": {**FROM_ONE, "description": "The id of the player merged, back if undone."},
        "name": STRING,
        "active": BOOLEAN,
        "into": FROM_ONE,
        "sessions": {"type": "array", "items": FROM_ONE},
        "trashed": {"type": "array", "items": FROM_ONE},
    }
    invite = {
        "id": FROM_ONE,
        "url": {
            **STRING,
            "description": "The link, on the server's network address when it listens on one.",
        },
        "role": {"enum": ["scorer", "reader"]},
        "expires": DATE_TIME,
    }
    return {
        "Player": obj(player, *player),
        "Merge": obj(merge, *merge),
        "SettleUp": obj(settle_up, "stake", "unit", "balances", "payments", "paid"),
        "Settlement": obj(settlement, *settlement),
        "Hand": obj(hand, *(key for key in hand if key != "confirmed_by")),
        "SessionSummary": obj(summary, *summary),
        "Session": obj(session, *(key for key in session if key != "director")),
        "DirectorNow": obj(director, *director),
        "Change": obj(change, *change),
        "TrashedSession": obj({**summary, "deleted_at": DATE_TIME}, "id"),
        "Invite": obj(invite, *invite),
        **_share_links(),
    }


def _share_links() -> dict[str, Schema]:
    link = {
        "id": FROM_ONE,
        "kind": {"enum": list(SHARE_KINDS), "description": "What the link shows."},
        "target": {**FROM_ONE, "description": "The id of the season, event or session."},
        "created_at": DATE_TIME,
    }
    url = {
        **STRING,
        "description": "The link, answered only as it is made (only its secret's hash is kept): "
        "under the name the request came by over https, else on the server's network address.",
    }
    return {
        "ShareLink": obj(link, *link),
        "NewShareLink": obj({**link, "url": url}, *link, "url"),
        "ShareInput": season_bodies.SHARE.schema(),
    }


def schemas() -> dict[str, Schema]:
    error = {
        "error": {**STRING, "description": "A sentence a person understands."},
        "field": {**STRING, "description": "The offending field, if any."},
        "version": {**INTEGER, "description": "On a 412, the session's version now."},
        "ask": {
            "type": "array",
            "items": obj({"name": STRING, "like": NAMES}, "name", "like"),
            "description": "On an import's 409: each new name like a player's, and whose.",
        },
        "ask_zeros": {
            **obj({"zeros": COUNT, "cells": COUNT}, "zeros", "cells"),
            "description": "On an import's 409: the sheet's cells that are 0, of those filled.",
        },
    }
    return {
        "Error": obj(error, "error"),
        **_player_names(),
        **_player_inputs(),
        **_session_inputs(),
        **_hand_inputs(),
        **_event_inputs(),
        **_answers(),
        **_event_answers(),
        **_seasons(),
        **_nights_import(),
    }


SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
BODY_EXAMPLES: dict[str, dict[str, Schema]] = {
    "SessionInput": {
        "session": {
            "value": {
                "name": "Friday at Dan's",
                "players": SEATS,
                "rounds": 2,
                "first_dealer": "Ann",
                "rules": {"partner": "jack_of_diamonds", "no_bid": "forced_pick"},
            }
        },
        "night": {
            "value": {
                "played_on": "2010-12-29",
                "totals": {"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5},
            }
        },
    },
    "SessionChange": {
        "rename": {"value": {"name": "Friday at Dan's", "rounds": 3}},
        "night": {"value": {"totals": {"Dave": -2, "Greg": 1, "Jacob": -4, "Mark": 5}}},
        "end": {"value": {"ended": True}},
    },
    "LeaverInput": {"leaver": {"value": {"player": "Ann"}}},
    "PlayerChange": {
        "rename": {"value": {"name": "Robert"}},
        "retire": {"value": {"active": False}},
    },
    "MergeInput": {"merge": {"value": {"into": 2}}},
    "EventInput": {
        "event": {
            "value": {
                "name": "Oktoberfest 2026",
                "date": "2026-10-03",
                "hands": 20,
                "rounds": 3,
                "rules": {"partner": "jack_of_diamonds", "sitting_out": "dealer"},
                "entry": 2500,
                "places": [30, 15, 10, 10, 10],
                "round_top": 5,
                "ties": "share",
                "seed": 41,
                "apart": [["Ann", "Bob"]],
            }
        },
        "practice": {"value": {"name": "Oktoberfest rehearsal", "practice": True}},
    },
    "EventChange": {
        "rename": {"value": {"name": "Oktoberfest 2026, the final"}},
        "apart": {"value": {"apart": [["Ann", "Bob"], ["Cat", "Dan"]]}},
    },
    "CheckInInput": {"ann": {"value": {"name": "Ann"}}},
    "PracticeInput": {"nothing": {"value": {}}},
    "SeasonInput": {
        "season": {
            "value": {
                "name": "Spring 2026",
                "first_day": "2026-03-01",
                "last_day": "2026-05-31",
                "house_rules": ["bump"],
                "min_hands": 30,
            }
        }
    },
    "SeasonChange": {"rename": {"value": {"name": "Spring league 2026", "min_hands": 40}}},
    "NightsImportInput": {
        "sheet": {
            "value": {
                "csv": "Date,Tom Kiebzak,Blake Adams,Ann\n2010-7-6,5,-2,-3\n2010-7-13,,4,-4\n",
                "zeros": "played",
                "new_players": ["Blake Adams"],
                "same_as": {"Tom Kiebzak": "Tom Kiebzack"},
            }
        }
    },
    "DrawInput": {"engine": {"value": {}}, "given": {"value": {"tables": [4, 4, 4]}}},
    "ShareInput": {
        "season": {"value": {"season": 1}},
        "event": {"value": {"event": 1}},
        "session": {"value": {"session": 1}},
    },
    "ConfirmInput": {"cat": {"value": {"by": "Cat"}}},
    "DirectorInput": {"note": {"value": {"note": "misdeal at seat 3"}}, "none": {"value": {}}},
    "SubstituteInput": {"zed": {"value": {"out": "Ann", "in": "Zed"}}},
    "InviteInput": {
        "scorer": {"value": {"role": "scorer", "hours": 12}},
        "reader": {"value": {"role": "reader", "hours": 3}},
    },
    "HandInput": {
        "pick": {
            "value": {
                "kind": "pick",
                "picker": "Ann",
                "partner": "Bob",
                "called_card": "JD",
                "picking_points": 75,
            }
        },
        "alone_cracked": {
            "value": {
                "kind": "pick",
                "picker": "Eve",
                "partner": None,
                "opponent_points": 25,
                "cracked_by": "Ann",
                "recracked": True,
                "blitzes": ["black"],
            }
        },
        "leaster": {
            "value": {
                "kind": "leaster",
                "winner": "Cat",
                "points": dict(zip(SEATS, (30, 40, 10, 25, 15), strict=True)),
                "tricks": dict(zip(SEATS, (2, 1, 1, 1, 1), strict=True)),
            }
        },
        "pass": {"value": {"kind": "pass"}},
    },
}
