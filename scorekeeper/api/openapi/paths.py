"""The OpenAPI document's operations, and the parameters, headers and error answers they share.

An operation names what it does and what it answers when it works. What else it may answer
follows from what it is: a read or a write, a write to a session at a version (If-Match, 412),
on a path naming a session, hand or change (404) or taking a query (400).
"""

from __future__ import annotations

import re
from typing import Any

from ...exchange.json_shapes import COUNT, STRING, Schema, obj, ref
from ...insights.scope import HOUSE_RULES, NO_HOUSE_RULE
from .schemas import BODY_EXAMPLES, array_of

ERRORS = {
    400: "Refused: malformed JSON, a wrong type, an unknown player or key, a number out of range, "
    "or a season, event or session to share that is not there.",
    401: "Access is on and the bearer token is missing or wrong.",
    403: "A write whose `Origin` names another site, or that reached the server under a name it "
    "is not served at; or a phone or token that reaches one session alone, elsewhere.",
    408: "The body came too slowly.",
    404: "No such session, hand, change, invite, player, merge, event, season or share link.",
    405: "The method is not allowed on this path.",
    409: "A conflict: the session is complete, a round is drawn while a table of the last one "
    "plays, a hand confirmed at a table that doesn't confirm, a name another season has, or the "
    "`Idempotency-Key` was used for another request.",
    412: "`If-Match` names an older version of the session (or event); `field` is `version`, and "
    "`version` is its version now.",
    413: "The body is over 1 MB (a spreadsheet of nights: over the upload limit, 64 MB unless "
    "set).",
    415: "The body is not `application/json` (nor, for a spreadsheet of nights, `text/csv`).",
    429: "Too many wrong passcodes or tokens, from this address or from every address within "
    "the hour; wait `Retry-After` seconds.",
    503: "A restore or import holds the database; try again after `Retry-After` seconds.",
}
RETRY_AFTER = (429, 503)
READ_ERRORS = (401, 429)
WRITE_ERRORS = (400, 401, 403, 408, 409, 413, 415, 429, 503)
QUOTED_VERSION: Schema = {"type": "string", "pattern": '^"[0-9]+"$'}


def _component(header: str) -> str:
    """The name of a header's component: the header's, without hyphens."""
    return header.replace("-", "")


def _parameter(name: str, where: str, description: str, schema: Schema, **more: Any) -> Schema:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "description": description,
        "schema": schema,
        **more,
    }


def _path_parameter(name: str, description: str, minimum: int) -> Schema:
    schema = {"type": "integer", "minimum": minimum}
    return _parameter(name, "path", description, schema, example=minimum)


PATH_PARAMETERS = {
    parameter["name"]: parameter
    for parameter in (
        _path_parameter("session_id", "The session's id.", 1),
        _path_parameter("number", "The hand's number in its session, from 1.", 1),
        _path_parameter("index", "The change's position in the history list, 0 the newest.", 0),
        _path_parameter("invite_id", "The invite's id.", 1),
        _path_parameter("player_id", "The player's id.", 1),
        _path_parameter("merge_id", "The merge's id.", 1),
        _path_parameter("event_id", "The club event's id.", 1),
        _path_parameter("season_id", "The season's id.", 1),
        _path_parameter("link_id", "The share link's id.", 1),
        _path_parameter("round", "A round's number in its event, from 1.", 1),
        _parameter(
            "name",
            "path",
            "A player's name, any case.",
            {"type": "string", "minLength": 1},
            example="Ann",
        ),
    )
}
DAYS = [
    _parameter(
        name,
        "query",
        f"{label} day, included, in the server's time zone.",
        {"type": "string", "format": "date"},
    )
    for name, label in (("from", "The first"), ("to", "The last"))
]
LIMIT = _parameter(
    "limit",
    "query",
    "How many a page lists, 100 when not given.",
    {"type": "integer", "minimum": 1, "maximum": 1000},
)
CHANGE_PAGES = [
    LIMIT,
    _parameter(
        "before",
        "query",
        "The index (0: the newest) of the first change this page lists, 0 when not given.",
        {"type": "integer", "minimum": 0},
    ),
]
SESSION_FILTERS = [
    LIMIT,
    _parameter(
        "before",
        "query",
        "The id of the last session of the page before: this page lists the ones after it.",
        {"type": "integer", "minimum": 1},
    ),
    _parameter("player", "query", "Only sessions this player sat in.", {"type": "string"}),
    *DAYS,
    *(
        _parameter(
            key,
            "query",
            f"Only sessions played with {rule.label.lower()}, when given (e.g. 1).",
            {"type": "string"},
        )
        for key, rule in HOUSE_RULES.items()
    ),
    _parameter(
        NO_HOUSE_RULE,
        "query",
        "Only sessions played with no house rule, when given.",
        {"type": "string"},
    ),
]
REQUEST_HEADERS = [
    _parameter(
        "Idempotency-Key",
        "header",
        "A repeat with the same key and the same method, path and body within 24 hours returns "
        "the first answer and changes nothing; the same key with another request is 409.",
        {
            "type": "string",
            "minLength": 1,
            "maxLength": 100,
            "pattern": "^[\\x21-\\x7e]+$",
            "description": "1-100 visible ASCII characters.",
        },
    ),
    _parameter(
        "If-Match",
        "header",
        "The session's (or event's) `ETag`; an older version is refused with 412.",
        QUOTED_VERSION,
    ),
]
ANSWER_HEADERS = {
    "ETag": {
        "description": "The session's (or event's) version, quoted: `\"12\"`.",
        "schema": QUOTED_VERSION,
    },
    "Retry-After": {"description": "Seconds to wait before trying again.", "schema": COUNT},
}


def _json(schema: Schema, **more: Any) -> Schema:
    return {"application/json": {"schema": schema, **more}}


def _answer(schema: Schema, description: str, *headers: str) -> Schema:
    answer: Schema = {"description": description, "content": _json(schema)}
    if headers:
        answer["headers"] = {header: ref(_component(header), "headers") for header in headers}
    return answer


def ok(schema: Schema, description: str, *headers: str) -> dict[str, Schema]:
    return {"200": _answer(schema, description, *headers)}


def created(schema: Schema, description: str) -> dict[str, Schema]:
    return {"201": _answer(schema, description)}


NO_CONTENT = {"204": {"description": "Done; nothing in the body."}}


def _errors(*statuses: int) -> dict[str, Schema]:
    return {str(status): ref(str(status), "responses") for status in statuses}


def _operation(
    operation_id: str,
    summary: str,
    success: dict[str, Schema],
    errors: tuple[int, ...],
    headers: tuple[str, ...] = (),
    body: str | None = None,
) -> Schema:
    operation: Schema = {"operationId": operation_id, "summary": summary}
    if headers:
        operation["parameters"] = [ref(_component(header), "parameters") for header in headers]
    if body is not None:
        content = _json(ref(body), examples=BODY_EXAMPLES[body])
        operation["requestBody"] = {"required": True, "content": content}
    operation["responses"] = {**success, **_errors(*errors)}
    return operation


def read(operation_id: str, summary: str, success: dict[str, Schema]) -> Schema:
    return _operation(operation_id, summary, success, READ_ERRORS)


def write(
    operation_id: str, summary: str, success: dict[str, Schema], body: str | None = None
) -> Schema:
    """A write: its Idempotency-Key makes a repeat harmless, and another request with it a 409."""
    return _operation(operation_id, summary, success, WRITE_ERRORS, ("Idempotency-Key",), body)


def session_write(
    operation_id: str, summary: str, success: dict[str, Schema], body: str | None = None
) -> Schema:
    """A write to a session (or a club event) that exists: a write's header and answers, and
    If-Match, with 412 when it names an older version."""
    errors = (*WRITE_ERRORS, 412)
    return _operation(operation_id, summary, success, errors, ("Idempotency-Key", "If-Match"), body)


def _path(
    template: str, query: list[Schema] | None = None, **operations: Schema
) -> tuple[str, Schema]:
    """A path's operations, 404 for each when the path names something, 400 when it takes a
    query."""
    named = [PATH_PARAMETERS[name] for name in re.findall(r"\{(\w+)\}", template)]
    parameters = [*named, *(query or [])]
    also = [404] if named else []
    if query:
        also.append(400)
    item: Schema = {"parameters": parameters} if parameters else {}
    for method, operation in operations.items():
        item[method] = {**operation, "responses": {**operation["responses"], **_errors(*also)}}
    return template, item


event_write = session_write


def csv_answer(description: str) -> dict[str, Schema]:
    return {"200": {"description": description, "content": {"text/csv": {"schema": STRING}}}}


def _listing(key: str, item: str, description: str) -> dict[str, Schema]:
    return ok(obj({key: array_of(item)}, key), description)


def _page(key: str, item: str, description: str) -> dict[str, Schema]:
    """A page of a listing, with the link to the next page when there is one."""
    listed = {key: array_of(item), "next": {**STRING, "description": "The next page, if any."}}
    return ok(obj(listed, key), description)


def paths() -> dict[str, Schema]:
    session = ok(ref("Session"), "The session.")
    settle_up = ok(ref("SettleUp"), "The settle-up.")
    player = ok(ref("Player"), "The player.")
    return dict(
        [
            _path(
                "/api/openapi.json",
                get=read(
                    "getOpenApi", "This document", ok({"type": "object"}, "The OpenAPI document.")
                ),
            ),
            _path(
                "/api/sessions",
                query=SESSION_FILTERS,
                get=read(
                    "listSessions",
                    "A page of sessions, newest first, and the link to the next page (`next`)",
                    _page("sessions", "SessionSummary", "The sessions."),
                ),
                post=write(
                    "createSession",
                    "Start a session",
                    created(ref("Session"), "The new session."),
                    "SessionInput",
                ),
            ),
            _path(
                "/api/sessions/{session_id}",
                get=read(
                    "getSession",
                    "A session with its hands, totals and standings",
                    ok(ref("Session"), "The session.", "ETag"),
                ),
                patch=session_write(
                    "updateSession",
                    "Rename a session, change its rounds, seats or rules, end or reopen it",
                    session,
                    "SessionChange",
                ),
                delete=session_write(
                    "deleteSession",
                    "Move a session to the trash (restorable for 30 days)",
                    NO_CONTENT,
                ),
            ),
            _path(
                "/api/sessions/{session_id}/settle-leaver",
                post=session_write(
                    "settleLeaver",
                    "Settle a player who left at once, with the players still seated",
                    created(ref("Settlement"), "The payments recorded, in cents."),
                    "LeaverInput",
                ),
            ),
            _path(
                "/api/sessions/{session_id}/hands",
                post=session_write(
                    "recordHand",
                    "Record the next hand",
                    created(ref("Hand"), "The new hand."),
                    "HandInput",
                ),
            ),
            _path(
                "/api/sessions/{session_id}/hands/{number}",
                put=session_write(
                    "replaceHand",
                    "Correct a hand (its dealer kept unless given)",
                    ok(ref("Hand"), "The hand."),
                    "HandInput",
                ),
                delete=session_write(
                    "deleteHand",
                    "Delete a hand; later hands are renumbered, dealers kept",
                    NO_CONTENT,
                ),
            ),
            _path(
                "/api/sessions/{session_id}/history",
                query=CHANGE_PAGES,
                get=read(
                    "getHistory",
                    "A page of the changes to the session, newest first, and the next page's link",
                    _page("changes", "Change", "The changes."),
                ),
            ),
            _path(
                "/api/sessions/{session_id}/history/{index}/restore",
                post=session_write(
                    "restoreChange",
                    "Undo one change (a deleted hand comes back at its number)",
                    session,
                ),
            ),
            _path(
                "/api/sessions/{session_id}/invites",
                post=session_write(
                    "createInvite",
                    "Invite a phone to this session alone, as scorer or reader, for some hours",
                    created(ref("Invite"), "The invite: its link, role and expiry."),
                    "InviteInput",
                ),
            ),
            _path(
                "/api/sessions/{session_id}/invites/{invite_id}",
                delete=session_write(
                    "revokeInvite",
                    "Revoke an invite: the phones it signed in are signed out at once",
                    NO_CONTENT,
                ),
            ),
            _path(
                "/api/sessions/{session_id}/settle-up",
                get=read(
                    "getSessionSettleUp",
                    "Who pays whom after the session: the fewest payments",
                    settle_up,
                ),
            ),
            _path(
                "/api/settle-up",
                query=DAYS,
                get=read(
                    "getSettleUp",
                    "Who pays whom over every session started in a range of days",
                    settle_up,
                ),
            ),
            _path(
                "/api/players",
                get=read(
                    "listPlayers",
                    "Every player, by name, with their sessions, hands played and total",
                    _listing("players", "Player", "The players."),
                ),
            ),
            _path(
                "/api/players/{player_id}",
                patch=write(
                    "updatePlayer",
                    "Rename a player everywhere at once, or retire them or bring them back",
                    player,
                    "PlayerChange",
                ),
            ),
            _path(
                "/api/players/{player_id}/merge",
                post=write(
                    "mergePlayer",
                    "Make every seat, hand and score of a player another's, and the first gone",
                    ok(ref("Player"), "The player merged into."),
                    "MergeInput",
                ),
            ),
            _path(
                "/api/players/merges",
                get=read(
                    "listMerges",
                    "The merges of the last 30 days, which can be undone, newest first",
                    _listing("merges", "Merge", "The merges."),
                ),
            ),
            _path(
                "/api/players/merges/{merge_id}/undo",
                post=write(
                    "undoMerge",
                    "Bring a merged player back with what they had",
                    ok(ref("Player"), "The player back."),
                ),
            ),
            *_event_paths(),
            *_tournament_paths(),
            *_season_paths(),
            *_share_paths(),
            _nights_import_path(),
            _path(
                "/api/trash",
                get=read(
                    "listTrash",
                    "Sessions deleted within the last 30 days",
                    _listing("sessions", "TrashedSession", "The trash."),
                ),
            ),
            _path(
                "/api/trash/{session_id}/restore",
                post=write("restoreSession", "Bring a deleted session back", session),
            ),
        ]
    )


def _event_paths() -> list[tuple[str, Schema]]:
    event = ok(ref("Event"), "The event.")
    return [
        _path(
            "/api/events",
            get=read(
                "listEvents",
                "Every club event, newest first",
                _listing("events", "EventSummary", "The events."),
            ),
            post=write(
                "createEvent",
                "Make a club event: several tables, rounds and prizes",
                created(ref("Event"), "The new event."),
                "EventInput",
            ),
        ),
        _path(
            "/api/events/{event_id}",
            get=read(
                "getEvent",
                "A club event with its draws, standings and prizes",
                ok(ref("Event"), "The event.", "ETag"),
            ),
            patch=event_write(
                "updateEvent",
                "Change an event's settings; rules, entry and seed only before the first draw",
                event,
                "EventChange",
            ),
            delete=event_write(
                "deleteEvent",
                "Delete a practice event whole, its tables with their hands (409 for a real event)",
                NO_CONTENT,
            ),
        ),
        _path(
            "/api/events/{event_id}/players",
            post=event_write(
                "checkIn",
                "Check a player in for the next draw (a new name becomes a player)",
                created(ref("Event"), "The event."),
                "CheckInInput",
            ),
        ),
        _path(
            "/api/events/{event_id}/players/{name}",
            delete=event_write(
                "checkOut", "Check a player out of later draws; they keep their points", event
            ),
        ),
        _path(
            "/api/events/{event_id}/rounds",
            post=event_write(
                "drawRound",
                "Draw the next round once every table of the last one is complete",
                created(ref("Event"), "The event with the new round drawn."),
                "DrawInput",
            ),
        ),
        _path(
            "/api/events/{event_id}/rounds/{round}/practice-hands",
            post=event_write(
                "practiceHands",
                "Fill every table of a round of a practice event with made-up hands until it is "
                "complete (409 for a real event, 404 for a round not drawn)",
                event,
                "PracticeInput",
            ),
        ),
        _path(
            "/api/events/{event_id}/standings.csv",
            get=read(
                "getEventStandings",
                "The standings as CSV: place, player, each round, total, hands won, prize, "
                "round prizes, paid",
                csv_answer("The standings, one row a player."),
            ),
        ),
    ]


def _tournament_paths() -> list[tuple[str, Schema]]:
    call = session_write(
        "callDirector",
        "Call the director to a table of an event, with an optional note; 200 and the call "
        "open already when there is one",
        created(ref("DirectorCall"), "The call."),
        "DirectorInput",
    )
    call["requestBody"]["required"] = False
    call["responses"] = {**ok(ref("DirectorCall"), "The call open already."), **call["responses"]}
    return [
        _path(
            "/api/sessions/{session_id}/hands/{number}/confirm",
            post=session_write(
                "confirmHand",
                "Confirm a hand at a table of an event that asks for it, by a player of the "
                "side that did not pick; confirming twice changes nothing",
                ok(ref("Hand"), "The hand, with `confirmed_by`."),
                "ConfirmInput",
            ),
        ),
        _path(
            "/api/sessions/{session_id}/director",
            post=call,
            delete=session_write(
                "answerDirector", "Answer the table's call for the director", NO_CONTENT
            ),
        ),
        _path(
            "/api/events/{event_id}/substitutes",
            post=event_write(
                "seatSubstitute",
                "Seat a substitute in a player's seat at their table of the current round; what "
                "the substitute scores counts for the player in the event",
                created(ref("Event"), "The event."),
                "SubstituteInput",
            ),
        ),
    ]


def _season_paths() -> list[tuple[str, Schema]]:
    season = ok(ref("Season"), "The season.")
    return [
        _path(
            "/api/seasons",
            get=read(
                "listSeasons",
                "Every season, the latest first",
                _listing("seasons", "Season", "The seasons."),
            ),
            post=write(
                "createSeason",
                "Name a season: its first and last day, house rules and fewest hands to rank",
                created(ref("Season"), "The new season."),
                "SeasonInput",
            ),
        ),
        _path(
            "/api/seasons/{season_id}",
            get=read(
                "getSeason",
                "A season with its standings and settle-up",
                ok(ref("SeasonStandings"), "The season and its standings."),
            ),
            patch=write("updateSeason", "Change a season's settings", season, "SeasonChange"),
            delete=write("deleteSeason", "Delete a season; its sessions stay", NO_CONTENT),
        ),
    ]


ZEROS_QUERY = _parameter(
    "zeros",
    "query",
    "For a `text/csv` body: what a 0 is, `played` (a player who broke even) or `absent` (a "
    "player who wasn't there).",
    {"enum": ["played", "absent"]},
)


def _nights_import_path() -> tuple[str, Schema]:
    operation = write(
        "importNights",
        "Import a spreadsheet of nights kept without hands, a line a night; 409 asks what it "
        "can't say (`ask`, `ask_zeros`), and nothing is kept until every line is right",
        created(ref("NightsImported"), "What the import kept."),
    )
    operation["requestBody"] = {
        "required": True,
        "content": {
            **_json(ref("NightsImportInput"), examples=BODY_EXAMPLES["NightsImportInput"]),
            "text/csv": {
                "schema": STRING,
                "example": "Date,Ann,Bob,Cat\n2010-7-6,5,-2,-3\n2010-7-13,,4,-4\n",
            },
        },
    }
    return _path("/api/imports/nights", query=[ZEROS_QUERY], post=operation)


def _share_paths() -> list[tuple[str, Schema]]:
    return [
        _path(
            "/api/shares",
            get=read(
                "listShares",
                "Every share link, the newest first (without its url, which only its maker saw)",
                _listing("shares", "ShareLink", "The share links."),
            ),
            post=write(
                "createShare",
                "Make a link anyone may open with no passcode, to one season's standings and "
                "nights, one event's board and results, or one session's scoresheet",
                created(ref("NewShareLink"), "The link, with its url."),
                "ShareInput",
            ),
        ),
        _path(
            "/api/shares/{link_id}",
            delete=write("revokeShare", "Revoke a share link: it opens nothing after", NO_CONTENT),
        ),
    ]


def _error(status: int) -> Schema:
    headers = ["Retry-After"] if status in RETRY_AFTER else []
    return _answer(ref("Error"), ERRORS[status], *headers)


def components() -> dict[str, Schema]:
    """The error answers, request headers and answer headers the operations refer to."""
    return {
        "responses": {str(status): _error(status) for status in ERRORS},
        "parameters": {_component(header["name"]): header for header in REQUEST_HEADERS},
        "headers": {
            _component(name): {"required": True, **header}
            for name, header in ANSWER_HEADERS.items()
        },
    }
