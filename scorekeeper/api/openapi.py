"""The OpenAPI 3.1 document of the JSON API (API.md), built from the rules' own names and limits.

Response objects list the fields served today and allow more (API.md: "add fields freely");
request bodies refuse unknown keys, as the API does.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any

from ..rules import CALLED_CARDS, MAX_ROUNDS, OPTIONS, Blitz, Kind, Option, Result
from ..rules.hands import CARD_POINTS_TOTAL, MAX_TRICKS
from ..rules.names import MAX_NAME_LENGTH, MAX_SESSION_NAME_LENGTH
from ..rules.table import MAX_SEATS, MIN_SEATS

Schema = dict[str, Any]

ERRORS = {
    400: "Refused: malformed JSON, a wrong type, an unknown player or key, a number out of range.",
    401: "Access is on and the bearer token is missing or wrong.",
    403: "A write whose `Origin` names another site, or that reached the server under a name it "
    "is not served at.",
    408: "The body came too slowly.",
    404: "No such session, hand or change.",
    405: "The method is not allowed on this path.",
    409: "A conflict: the session is complete, or the `Idempotency-Key` was used for another "
    "request.",
    412: "`If-Match` names an older version of the session; `field` is `version`, and `version` "
    "is the session's version now.",
    413: "The body is over 1 MB.",
    415: "The body is not `application/json`.",
    429: "Too many wrong passcodes or tokens, from this address or from every address within "
    "the hour; wait `Retry-After` seconds.",
    503: "A restore or import holds the database; try again after `Retry-After` seconds.",
}
RETRY_AFTER = (429, 503)
READ_ERRORS = (401, 429)
WRITE_ERRORS = (400, 401, 403, 408, 409, 413, 415, 429, 503)
# What the history says of a change to the session itself (no hand number).
SESSION_ACTIONS = ("end", "reopen", "settle-leaver")


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: Schema) -> Schema:
    kind = schema["type"]
    return {**schema, "type": [*([kind] if isinstance(kind, str) else kind), "null"]}


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


CARD_POINTS: Schema = {
    "type": "integer",
    "minimum": 0,
    "maximum": CARD_POINTS_TOTAL,
    "not": {"enum": [1, CARD_POINTS_TOTAL - 1]},
    "description": f"Card points, 0-{CARD_POINTS_TOTAL}; never 1 or {CARD_POINTS_TOTAL - 1}, "
    "which no set of cards adds up to.",
}
PER_PLAYER_NAMES: Schema = {"minLength": 1, "maxLength": MAX_NAME_LENGTH}
NO_NUL_AND_NOT_BLANK = r"^[^\x00]*[^\x00\s][^\x00]*$"
NO_NUL = r"^[^\x00]*$"
OUTPUT_ONLY: Schema = {"readOnly": True, "description": "Output only: ignored in a body."}


def _option_schema(option: Option) -> Schema:
    about = option.about
    if issubclass(option.kind, StrEnum):
        return {"enum": [value.value for value in option.kind]}
    if option.kind is bool:
        return {"type": "boolean"}
    if about.values:
        return {"enum": list(about.values), "description": about.note}
    return {"type": "integer", "minimum": 0, "maximum": about.high, "description": about.note}


def _schemas() -> dict[str, Schema]:
    player = {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_NAME_LENGTH,
        "pattern": NO_NUL_AND_NOT_BLANK,
        "description": "A player's name, 1-40 characters after trimming, no control or "
        "invisible character; any case, compared in Unicode's composed form (NFC).",
    }
    called_cards = sorted({card for cards in CALLED_CARDS.values() for card in cards})
    pick_fields: Schema = {
        "picker": _ref("PlayerName"),
        "partner": {
            "anyOf": [_ref("PlayerName"), {"type": "null"}],
            "description": "Required for a pick; null means the picker went alone.",
        },
        "called_card": {
            "enum": [*called_cards, "", None],
            "description": "Any case; JD, JC, JS or JH when the partner is the jack of "
            "diamonds, AC, AS, AH, 10C, 10S or 10H with a called ace.",
        },
        "forced": {"type": ["boolean", "null"]},
        "picking_points": _nullable({**CARD_POINTS, "description": "The picking team's points."}),
        "opponent_points": _nullable({**CARD_POINTS, "description": "The opponents' points."}),
        "cracked_by": {"anyOf": [_ref("PlayerName"), {"type": "null"}]},
        "recracked": {"type": ["boolean", "null"]},
        "blitzes": {
            "type": ["array", "null"],
            "items": {"enum": [blitz.value for blitz in Blitz]},
            "uniqueItems": True,
            "maxItems": len(Blitz),
        },
        "result": {
            "enum": [*(result.value for result in Result), None],
            "description": "How the hand went, from the picking team's side; with points, it "
            "must agree with them (RULES.md, Results instead of points).",
        },
    }
    leaster_fields: Schema = {
        "winner": _ref("PlayerName"),
        "points": {
            "type": ["object", "null"],
            "propertyNames": PER_PLAYER_NAMES,
            "additionalProperties": CARD_POINTS,
            "description": "Every player of the hand's card points, adding up to "
            f"{CARD_POINTS_TOTAL}.",
        },
        "tricks": {
            "type": ["object", "null"],
            "propertyNames": PER_PLAYER_NAMES,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MAX_TRICKS},
            "description": "Every player of the hand's tricks, adding up to the hand's tricks: "
            "10 with 3 playing, 7 with 4, 6 with 5, 5 with 6, 4 with 7.",
        },
    }
    common: Schema = {
        "dealer": {
            "anyOf": [_ref("PlayerName"), {"type": "null"}],
            "description": "POST: defaults to the seat after the previous hand's dealer. "
            "PUT: omitted keeps the hand's dealer.",
        },
        "number": OUTPUT_ONLY,
        "multiplier": OUTPUT_ONLY,
        "scores": OUTPUT_ONLY,
        "doubled": OUTPUT_ONLY,
        "bumped": OUTPUT_ONLY,
        "players": OUTPUT_ONLY,
        "seats": OUTPUT_ONLY,
        "sitting_out": OUTPUT_ONLY,
    }
    unset_pick = {
        "picker": _unset("string"),
        "partner": _unset("string"),
        "called_card": _unset("string"),
        "forced": _unset("boolean"),
        "picking_points": _unset(),
        "opponent_points": _unset(),
        "cracked_by": _unset("string"),
        "recracked": _unset("boolean"),
        "blitzes": _unset("array"),
    }
    unset_leaster = {
        "winner": _unset("string"),
        "points": _unset("object"),
        "tricks": _unset("object"),
    }
    unset_penalty = {"penalized": _unset("string")}

    def hand_input(
        kind: Kind, fields: Schema, required: list[str], not_: Schema | None = None, **more: Any
    ) -> Schema:
        schema = {
            "type": "object",
            "properties": {"kind": {"const": kind.value}, **fields, **common},
            "required": ["kind", *required],
            "additionalProperties": False,
            **more,
        }
        if not_ is not None:
            schema["not"] = not_
        return schema

    rules_object = {
        "type": "object",
        "properties": {option.name: _option_schema(option) for option in OPTIONS},
    }
    names = {"type": "array", "items": {"type": "string"}}
    hand_answer = {
        "number": {"type": "integer", "minimum": 1},
        "dealer": {"type": "string"},
        "kind": {"enum": [kind.value for kind in Kind]},
        "picker": {"type": ["string", "null"]},
        "partner": {"type": ["string", "null"]},
        "called_card": {"type": ["string", "null"]},
        "forced": {"type": ["boolean", "null"]},
        "picking_points": {"type": ["integer", "null"]},
        "cracked_by": {"type": ["string", "null"]},
        "recracked": {"type": ["boolean", "null"]},
        "blitzes": {
            "type": ["array", "null"],
            "items": {"enum": [blitz.value for blitz in Blitz]},
        },
        "winner": {"type": ["string", "null"]},
        "points": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}},
        "tricks": {"type": ["object", "null"], "additionalProperties": {"type": "integer"}},
        "doubled": {"type": "boolean"},
        "bumped": {
            "type": "boolean",
            "description": "A lost pick doubled on the bump (`bump`), apart from the multiplier.",
        },
        "multiplier": {"type": "integer", "minimum": 1},
        "result": {
            "enum": [*(result.value for result in Result), None],
            "description": "Set for every pick: given, or following from the points.",
        },
        "penalized": {"type": ["string", "null"]},
        "players": {**names, "description": "Who played the hand, in bidding order."},
        "seats": {**names, "description": "The seat order the hand was played with."},
        "sitting_out": {**names, "description": "Who sat the hand out, in seat order."},
        "scores": {
            "type": "object",
            "additionalProperties": {"type": "integer"},
            "description": "Everyone the session's totals name; 0 for who did not play.",
        },
    }
    summary = {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "players": {"type": "array", "items": {"type": "string"}},
        "rounds": {"type": "integer", "minimum": 0, "maximum": MAX_ROUNDS},
        "complete": {"type": "boolean", "description": "Every round played, or ended."},
        "ended": {
            "type": "boolean",
            "description": "Ended early: complete with the hands it has until reopened.",
        },
        "hand_count": {"type": "integer", "minimum": 0},
    }
    per_player_int = {"type": "object", "additionalProperties": {"type": "integer"}}
    payments = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "from": {"type": "string"},
                "to": {"type": "string"},
                "amount": {"type": "integer", "minimum": 1},
            },
            "required": ["from", "to", "amount"],
        },
    }
    # A change's hand, or the session ended or not, or a leaver's settlement.
    session_state = {
        "anyOf": [
            _ref("Hand"),
            {
                "type": "object",
                "properties": {"ended": {"type": "boolean"}},
                "required": ["ended"],
            },
            _ref("Settlement"),
            {"type": "null"},
        ]
    }
    session = {
        **summary,
        "version": {"type": "integer", "description": "Grows with every write to the session."},
        "first_dealer": {"type": "string"},
        "rules": {**rules_object, "required": list(rules_object["properties"])},
        "hands": {"type": "array", "items": _ref("Hand")},
        "totals": per_player_int,
        "hands_won": per_player_int,
        "standings": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "player": {"type": "string"},
                    "total": {"type": "integer"},
                    "hands_won": {"type": "integer", "minimum": 0},
                    "place": {"type": "integer", "minimum": 1},
                    "seated": {
                        "type": "boolean",
                        "description": "False for a player who has left the table.",
                    },
                },
                "required": ["player", "total", "hands_won", "place", "seated"],
            },
        },
        "next_dealer": {
            "type": ["string", "null"],
            "description": "Null once the session is complete.",
        },
        "pending_doublers": {"type": "integer", "minimum": 0},
        "sitting_out_next": {
            **names,
            "description": "Who sits out the next hand; empty when everyone plays.",
        },
        "settle_up": _ref("SettleUp"),
    }
    return {
        "Error": {
            "type": "object",
            "properties": {
                "error": {"type": "string", "description": "A sentence a person understands."},
                "field": {"type": "string", "description": "The offending field, if any."},
                "version": {
                    "type": "integer",
                    "description": "On a 412, the session's version now.",
                },
            },
            "required": ["error"],
        },
        "PlayerName": player,
        "NewPlayers": _nullable(
            {
                "type": "array",
                "items": {"type": "string", "pattern": NO_NUL},
                "description": "Names confirmed as new players: each becomes a player even "
                "though it looks like another player's name (which is 400 otherwise).",
            }
        ),
        "SessionInput": {
            "type": "object",
            "properties": {
                "name": {
                    "type": ["string", "null"],
                    "maxLength": MAX_SESSION_NAME_LENGTH,
                    "pattern": NO_NUL,
                    "description": "Default empty: pages show the date.",
                },
                "players": {
                    "type": "array",
                    "items": _ref("PlayerName"),
                    "minItems": MIN_SEATS,
                    "maxItems": MAX_SEATS,
                    "uniqueItems": True,
                    "description": "In seat order, each once (case ignored); new names become "
                    "players.",
                },
                "rounds": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_ROUNDS,
                    "description": "0 means open-ended.",
                },
                "first_dealer": {"anyOf": [_ref("PlayerName"), {"type": "null"}]},
                "rules": _nullable({**rules_object, "additionalProperties": False}),
                "new_players": _ref("NewPlayers"),
                **{key: OUTPUT_ONLY for key in ("id", "created_at", "hands", "complete", "ended")},
            },
            "required": ["players", "rounds"],
            "additionalProperties": False,
        },
        "SessionChange": {
            "type": "object",
            "properties": {
                "name": {
                    "type": ["string", "null"],
                    "maxLength": MAX_SESSION_NAME_LENGTH,
                    "pattern": NO_NUL,
                },
                "rounds": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "maximum": MAX_ROUNDS,
                    "description": "Never below the rounds already played (409 otherwise).",
                },
                "players": {
                    "type": ["array", "null"],
                    "items": _ref("PlayerName"),
                    "minItems": MIN_SEATS,
                    "maxItems": MAX_SEATS,
                    "uniqueItems": True,
                    "description": "The new seat order, from the next hand on: arrivals and "
                    "departures. A table the rules can't play is 400; one whose hands would "
                    "exceed the fixed rounds is 409.",
                },
                "rules": {
                    **_nullable({**rules_object, "additionalProperties": False}),
                    "description": "Any rule option while no hand is played; after, only the "
                    "stake (409 for a change to another).",
                },
                "new_players": _ref("NewPlayers"),
                "ended": {
                    "type": ["boolean", "null"],
                    "description": "True ends the session (complete with the hands it has; a "
                    "new hand is 409), false reopens it; applied after the other changes.",
                },
            },
            "anyOf": [
                {"required": ["name"], "properties": {"name": {"type": "string"}}},
                {"required": ["rounds"], "properties": {"rounds": {"type": "integer"}}},
                {"required": ["players"], "properties": {"players": {"type": "array"}}},
                {"required": ["rules"], "properties": {"rules": {"type": "object"}}},
                {"required": ["ended"], "properties": {"ended": {"type": "boolean"}}},
            ],
            "additionalProperties": False,
        },
        "HandInput": {
            "oneOf": [
                _ref("PickInput"),
                _ref("LeasterInput"),
                _ref("PassInput"),
                _ref("PenaltyInput"),
            ],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {
                    Kind.PICK.value: "#/components/schemas/PickInput",
                    Kind.LEASTER.value: "#/components/schemas/LeasterInput",
                    Kind.PASS.value: "#/components/schemas/PassInput",
                    Kind.PENALTY.value: "#/components/schemas/PenaltyInput",
                },
            },
        },
        "PickInput": hand_input(
            Kind.PICK,
            {**pick_fields, **unset_leaster, **unset_penalty},
            ["picker", "partner"],
            anyOf=[
                {
                    "required": ["picking_points"],
                    "properties": {"picking_points": {"type": "integer"}},
                },
                {
                    "required": ["opponent_points"],
                    "properties": {"opponent_points": {"type": "integer"}},
                },
                {"required": ["result"], "properties": {"result": {"type": "string"}}},
            ],
            not_={
                "required": ["picking_points", "opponent_points"],
                "properties": {
                    "picking_points": {"type": "integer"},
                    "opponent_points": {"type": "integer"},
                },
            },
            description="At most one of `picking_points` or `opponent_points`, a `result`, or "
            "both. A leaster's keys must be absent, null or empty.",
        ),
        "LeasterInput": hand_input(
            Kind.LEASTER,
            {**unset_pick, **leaster_fields, **unset_penalty},
            ["winner"],
            description="Only when the session plays a leaster when everyone passes.",
        ),
        "PassInput": hand_input(
            Kind.PASS,
            {**unset_pick, **unset_leaster, **unset_penalty},
            [],
            description="Only when the session re-deals (or plays a doubler) when everyone passes.",
        ),
        "PenaltyInput": hand_input(
            Kind.PENALTY,
            {**unset_pick, **unset_leaster, "penalized": _ref("PlayerName")},
            ["penalized"],
            description="Only when the session allows penalty hands: the penalized player pays "
            "1 to every other player of the hand.",
        ),
        "SettleUp": {
            "type": "object",
            "properties": {
                "stake": {
                    "type": ["integer", "null"],
                    "description": "Null when the sessions counted have different stakes.",
                },
                "unit": {"enum": ["cents", "points"]},
                "balances": {"type": "object", "additionalProperties": {"type": "integer"}},
                "payments": {
                    **payments,
                    "description": "They settle each balance less what was paid early.",
                },
                "paid": {
                    **payments,
                    "description": "Paid early, settling players who left; empty when none.",
                },
                "exact": {
                    "type": "boolean",
                    "description": "Whether the payments are proven the fewest (up to 20 "
                    "players owed or owing); beyond, a greedy match.",
                },
            },
            "required": ["stake", "unit", "balances", "payments", "paid"],
        },
        "LeaverInput": {
            "type": "object",
            "properties": {"player": _ref("PlayerName")},
            "required": ["player"],
            "additionalProperties": False,
        },
        "Settlement": {
            "type": "object",
            "properties": {"player": {"type": "string"}, "payments": payments},
            "required": ["player", "payments"],
        },
        "Hand": {"type": "object", "properties": hand_answer, "required": list(hand_answer)},
        "SessionSummary": {"type": "object", "properties": summary, "required": list(summary)},
        "Session": {"type": "object", "properties": session, "required": list(session)},
        "Change": {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "date-time"},
                "action": {"enum": ["add", "edit", "delete", "restore", *SESSION_ACTIONS]},
                "number": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "description": "The hand changed; null for a change to the session itself.",
                },
                "before": session_state,
                "after": session_state,
            },
            "required": ["at", "action", "number", "before", "after"],
        },
        "TrashedSession": {
            "type": "object",
            "properties": {**summary, "deleted_at": {"type": "string", "format": "date-time"}},
            "required": ["id"],
        },
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
        }
    },
    "SessionChange": {
        "rename": {"value": {"name": "Friday at Dan's", "rounds": 3}},
        "end": {"value": {"ended": True}},
    },
    "LeaverInput": {"leaver": {"value": {"player": "Ann"}}},
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


def _json(schema: Schema, description: str, headers: Schema | None = None) -> Schema:
    answer: Schema = {
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def _operation(
    operation_id: str,
    summary: str,
    success: dict[str, Any],
    errors: tuple[int, ...],
    *,
    body: str | None = None,
    write: bool = False,
    if_match: bool = False,
) -> Schema:
    parameters = []
    if write:
        parameters.append({"$ref": "#/components/parameters/IdempotencyKey"})
    if if_match:
        parameters.append({"$ref": "#/components/parameters/IfMatch"})
    operation: Schema = {"operationId": operation_id, "summary": summary}
    if parameters:
        operation["parameters"] = parameters
    if body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": _ref(body), "examples": BODY_EXAMPLES[body]}
            },
        }
    operation["responses"] = {
        **success,
        **{str(status): {"$ref": f"#/components/responses/{status}"} for status in errors},
    }
    return operation


def _path_parameter(name: str, description: str, minimum: int) -> Schema:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "integer", "minimum": minimum},
        "example": minimum,
    }


SESSION_ID = _path_parameter("session_id", "The session's id.", 1)
NUMBER = _path_parameter("number", "The hand's number in its session, from 1.", 1)
INDEX = _path_parameter("index", "The change's position in the history list, 0 the newest.", 0)


def _paths() -> dict[str, Any]:
    reads = READ_ERRORS
    one = (*READ_ERRORS, 404)
    writes = (*WRITE_ERRORS, 404, 412)
    session = _json(_ref("Session"), "The session.")
    hand = _json(_ref("Hand"), "The hand.")
    no_content = {"204": {"description": "Done; nothing in the body."}}
    return {
        "/api/openapi.json": {
            "get": _operation(
                "getOpenApi",
                "This document",
                {"200": _json({"type": "object"}, "The OpenAPI document.")},
                reads,
            )
        },
        "/api/sessions": {
            "get": _operation(
                "listSessions",
                "Every session, newest first",
                {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "sessions": {"type": "array", "items": _ref("SessionSummary")}
                            },
                            "required": ["sessions"],
                        },
                        "The sessions.",
                    )
                },
                reads,
            ),
            "post": _operation(
                "createSession",
                "Start a session",
                {"201": _json(_ref("Session"), "The new session.")},
                WRITE_ERRORS,
                body="SessionInput",
                write=True,
            ),
        },
        "/api/sessions/{session_id}": {
            "parameters": [SESSION_ID],
            "get": _operation(
                "getSession",
                "A session with its hands, totals and standings",
                {
                    "200": _json(
                        _ref("Session"),
                        "The session.",
                        {"ETag": {"$ref": "#/components/headers/ETag"}},
                    )
                },
                one,
            ),
            "patch": _operation(
                "updateSession",
                "Rename a session, change its rounds, seats or rules, end or reopen it",
                {"200": session},
                writes,
                body="SessionChange",
                write=True,
                if_match=True,
            ),
            "delete": _operation(
                "deleteSession",
                "Move a session to the trash (restorable for 30 days)",
                no_content,
                writes,
                write=True,
                if_match=True,
            ),
        },
        "/api/sessions/{session_id}/settle-leaver": {
            "parameters": [SESSION_ID],
            "post": _operation(
                "settleLeaver",
                "Settle a player who left at once, with the players still seated",
                {"201": _json(_ref("Settlement"), "The payments recorded, in cents.")},
                writes,
                body="LeaverInput",
                write=True,
                if_match=True,
            ),
        },
        "/api/sessions/{session_id}/hands": {
            "parameters": [SESSION_ID],
            "post": _operation(
                "recordHand",
                "Record the next hand",
                {"201": _json(_ref("Hand"), "The new hand.")},
                writes,
                body="HandInput",
                write=True,
                if_match=True,
            ),
        },
        "/api/sessions/{session_id}/hands/{number}": {
            "parameters": [SESSION_ID, NUMBER],
            "put": _operation(
                "replaceHand",
                "Correct a hand (its dealer kept unless given)",
                {"200": hand},
                writes,
                body="HandInput",
                write=True,
                if_match=True,
            ),
            "delete": _operation(
                "deleteHand",
                "Delete a hand; later hands are renumbered, dealers kept",
                no_content,
                writes,
                write=True,
                if_match=True,
            ),
        },
        "/api/sessions/{session_id}/history": {
            "parameters": [SESSION_ID],
            "get": _operation(
                "getHistory",
                "Every change to the session's hands, newest first",
                {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {"changes": {"type": "array", "items": _ref("Change")}},
                            "required": ["changes"],
                        },
                        "The changes.",
                    )
                },
                one,
            ),
        },
        "/api/sessions/{session_id}/history/{index}/restore": {
            "parameters": [SESSION_ID, INDEX],
            "post": _operation(
                "restoreChange",
                "Undo one change (a deleted hand comes back at its number)",
                {"200": session},
                writes,
                write=True,
                if_match=True,
            ),
        },
        "/api/sessions/{session_id}/settle-up": {
            "parameters": [SESSION_ID],
            "get": _operation(
                "getSessionSettleUp",
                "Who pays whom after the session: the fewest payments",
                {"200": _json(_ref("SettleUp"), "The settle-up.")},
                one,
            ),
        },
        "/api/settle-up": {
            "parameters": [
                {
                    "name": name,
                    "in": "query",
                    "required": False,
                    "description": f"{label} day, included, in the server's time zone.",
                    "schema": {"type": "string", "format": "date"},
                }
                for name, label in (("from", "The first"), ("to", "The last"))
            ],
            "get": _operation(
                "getSettleUp",
                "Who pays whom over every session started in a range of days",
                {"200": _json(_ref("SettleUp"), "The settle-up.")},
                (*reads, 400),
            ),
        },
        "/api/trash": {
            "get": _operation(
                "listTrash",
                "Sessions deleted within the last 30 days",
                {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "sessions": {"type": "array", "items": _ref("TrashedSession")}
                            },
                            "required": ["sessions"],
                        },
                        "The trash.",
                    )
                },
                reads,
            ),
        },
        "/api/trash/{session_id}/restore": {
            "parameters": [SESSION_ID],
            "post": _operation(
                "restoreSession",
                "Bring a deleted session back",
                {"200": session},
                (*WRITE_ERRORS, 404),
                write=True,
            ),
        },
    }


def _error_response(status: int) -> Schema:
    headers = None
    if status in RETRY_AFTER:
        headers = {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}}
    return _json(_ref("Error"), ERRORS[status], headers)


@cache
def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Sheepshead scorekeeper",
            "version": "1",
            "description": (
                'JSON in and out. Whole numbers are JSON integers: `60.0`, `"60"` and `true` '
                "are refused where a number is asked. Every error is "
                '`{"error": <sentence>, "field": <field>}` and changes nothing; an unknown '
                "path under `/api/` is a JSON 404 and a method a path does not take a JSON 405."
            ),
        },
        "servers": [{"url": "/"}],
        "security": [{}, {"bearer": []}],
        "paths": _paths(),
        "components": {
            "schemas": _schemas(),
            "responses": {str(status): _error_response(status) for status in ERRORS},
            "parameters": {
                "IdempotencyKey": {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "description": "A repeat with the same key and the same method, path and "
                    "body within 24 hours returns the first answer and changes nothing; the "
                    "same key with another request is 409.",
                    "schema": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 100,
                        "pattern": "^[\\x21-\\x7e]+$",
                        "description": "1-100 visible ASCII characters.",
                    },
                },
                "IfMatch": {
                    "name": "If-Match",
                    "in": "header",
                    "required": False,
                    "description": "The session's `ETag`; an older version is refused with 412.",
                    "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
                },
            },
            "headers": {
                "ETag": {
                    "required": True,
                    "description": 'The session\'s version, quoted: `"12"`.',
                    "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
                },
                "RetryAfter": {
                    "required": True,
                    "description": "Seconds to wait before trying again.",
                    "schema": {"type": "integer", "minimum": 0},
                },
            },
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Only when access is on: a token from `flask --app "
                    "scorekeeper access create-token NAME`.",
                }
            },
        },
    }
