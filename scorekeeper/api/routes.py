"""API endpoints: parse JSON, write through `writes` (the rules engine, the rows, the lock, the
session's changes and the write keys), answer JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Response, g, request, url_for
from flask.typing import ResponseReturnValue

from .. import rules
from ..exchange import trash
from ..exchange.json_in import day_in, json_object, whole_in
from ..exchange.session_bodies import (
    NightRequest,
    hand_request,
    is_night,
    leaver_request,
    merge_request,
    night_request,
    player_change,
    session_change,
    session_request,
)
from ..insights import roster, scope, sessions_list
from ..insights.dates import DateRange, start_of, today
from ..insights.roster import player_json
from ..insights.settle_up import of_range
from ..sessions import loading, players, rows, writes
from ..sessions.extensions import db
from ..sessions.models import MAX_ID
from ..sessions.records import (
    change_json,
    merge_json,
    session_json,
    session_summary,
    settle_up_json,
    settlement_json,
)
from ..web.errors import error_answer
from .blueprint import bp

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,100}")
KEY_REUSED = "This Idempotency-Key was already used for a different request."
# What a page of `GET /api/sessions` (or of a session's changes) lists: without `limit`, and
# at most.
PAGE, MAX_PAGE = 100, 1000


def answer_of(answer: writes.Answer) -> Response:
    if answer.status == 204:
        return Response(status=204)
    return Response(answer.body, status=answer.status, mimetype="application/json")


@bp.before_request
def repeated_write() -> ResponseReturnValue | None:
    """A write whose Idempotency-Key answered before gets that answer again, unread."""
    key = request.headers.get("Idempotency-Key")
    if request.method not in WRITE_METHODS or key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        return error_answer(
            400, "An Idempotency-Key is 1 to 100 visible ASCII characters.", "Idempotency-Key"
        )
    # The query counts where a write reads one (an import's `zeros`).
    path = request.full_path if request.query_string else request.path
    g.write_key = (f"api {key}", writes.fingerprint(request.method, path, request.data))
    writes.check_key(*g.write_key)
    return None


@bp.errorhandler(writes.Replay)
def replayed(replay: writes.Replay) -> ResponseReturnValue:
    if replay.answer is None:
        return error_answer(409, KEY_REUSED, "Idempotency-Key")
    return answer_of(replay.answer)


def if_match() -> str | None:
    """The version an If-Match header names (an ETag, `"12"`); `*` or no header: any."""
    header = request.headers.get("If-Match", "").strip()
    if not header or header == "*":
        return None
    return header.split(",")[0].strip().removeprefix("W/").strip('"')[:20]


def write_key() -> tuple[str | None, str]:
    key: tuple[str | None, str] = g.get("write_key", (None, ""))
    return key


@contextmanager
def _session_write(session_id: int) -> Iterator[writes.SessionWrite]:
    with writes.session_write(session_id, *write_key(), if_match=if_match()) as write:
        yield write


def etag(response: Response, version: int) -> Response:
    response.set_etag(str(version))
    return response


def _session_answer(write: writes.Write, session: Any, sheet: Any, status: int) -> Response:
    body = session_json(session, sheet, loading.settled_of(session), loading.confirmed_of(session))
    answer = write.answered(status, body)
    return etag(answer_of(answer), session.version)


@bp.post("/sessions")
def create_session() -> Response:
    body = json_object(request)
    if is_night(body):
        return _create_night(night_request(body))
    given = session_request(body)
    with writes.roster_write(*write_key()) as write:
        session = rows.new_session(
            given.name,
            given.players,
            given.rounds,
            given.first_dealer,
            given.options,
            new_players=given.new_players,
        )
        return _session_answer(write, session, loading.sheet_of(session), 201)


def _create_night(given: NightRequest) -> Response:
    assert given.nets is not None
    played_on = start_of(given.played_on or today())
    with writes.roster_write(*write_key()) as write:
        session = rows.new_night(given.name or "", given.nets, played_on, given.new_players)
        return _session_answer(write, session, loading.sheet_of(session), 201)


@bp.get("/sessions")
def list_sessions() -> dict[str, Any]:
    """A page of sessions, newest first, with the link to the next page when there is one."""
    args = request.args
    house = scope.RuleFilter(
        frozenset(key for key in scope.HOUSE_RULES if args.get(key)),
        bool(args.get(scope.NO_HOUSE_RULE)),
    )
    dates = DateRange(day_in(args, "from"), day_in(args, "to"))
    wanted = sessions_list.SessionFilter(args.get("player", "").strip(), dates, house)
    limit = whole_in(args, "limit", 1, MAX_PAGE) or PAGE
    before = whole_in(args, "before", 1, MAX_ID)
    sessions, more = sessions_list.sessions_after(wanted, limit, before)
    body: dict[str, Any] = {
        "sessions": [
            session_summary(session, loading.table_of(session), session.hand_count)
            for session in sessions
        ]
    }
    if more:
        following: dict[str, Any] = {**args, "limit": limit, "before": sessions[-1].id}
        body["next"] = url_for("api.list_sessions", **following)
    return body


@bp.get("/sessions/<id(session):session_id>")
def get_session(session_id: int) -> Response:
    # The version alone first: a phone asking whether anything changed costs one statement.
    version = loading.session_version(session_id)
    response = etag(Response(status=200), version)
    if request.if_none_match.contains(str(version)):
        return Response(status=304, headers={"ETag": response.headers["ETag"]})
    read = loading.read_session_or_404(session_id)
    body = session_json(read.session, read.sheet, read.settled, read.confirmed)
    response.set_data(json.dumps(body, ensure_ascii=False))
    response.mimetype = "application/json"
    return response


@bp.get("/sessions/<id(session):session_id>/settle-up")
def session_settle_up(session_id: int) -> dict[str, Any]:
    read = loading.read_session_or_404(session_id)
    return settle_up_json(rules.sheet_settle_up(read.sheet, read.settled))


@bp.get("/settle-up")
def settle_up() -> dict[str, Any]:
    start, end = (day_in(request.args, field) for field in ("from", "to"))
    return settle_up_json(of_range(start, end))


@bp.patch("/sessions/<id(session):session_id>")
def update_session(session_id: int) -> Response:
    change = session_change(json_object(request))
    with _session_write(session_id) as write:
        if change.night is not None:
            night = change.night
            played_on = None if night.played_on is None else start_of(night.played_on)
            write.change_night(night.name, played_on, night.nets, night.new_players)
        elif change.changes_table:
            write.update(
                change.name, change.rounds, change.players, change.rules, change.new_players
            )
        if change.ended is not None:
            write.end(change.ended)
        write.finish()
        return _session_answer(write, write.session, write.sheet_after(), 200)


@bp.delete("/sessions/<id(session):session_id>")
def delete_session(session_id: int) -> Response:
    with _session_write(session_id) as write:
        trash.throw_away(write)
        write.answered(204, None)
    return Response(status=204)


@bp.post("/sessions/<id(session):session_id>/settle-leaver")
def settle_leaver(session_id: int) -> Response:
    player = leaver_request(json_object(request))
    with _session_write(session_id) as write:
        leaver, payments = write.settle_leaver(player)
        write.finish()
        answer = write.answered(201, settlement_json(leaver, payments))
        return etag(answer_of(answer), write.session.version)


@bp.post("/sessions/<id(session):session_id>/hands")
def record_hand(session_id: int) -> Response:
    given = hand_request(json_object(request))
    with _session_write(session_id) as write:
        number = write.record_hand(given.entry, given.dealer)
        write.finish()
        return answer_of(write.answered(201, write.hand_after(number)))


@bp.put("/sessions/<id(session):session_id>/hands/<int:number>")
def replace_hand(session_id: int, number: int) -> Response:
    given = hand_request(json_object(request))
    with _session_write(session_id) as write:
        write.replace_hand(number, given.entry, given.dealer)
        write.finish()
        return answer_of(write.answered(200, write.hand_after(number)))


@bp.delete("/sessions/<id(session):session_id>/hands/<int:number>")
def delete_hand(session_id: int, number: int) -> Response:
    with _session_write(session_id) as write:
        write.delete_hand(number)
        write.answered(204, None)
    return Response(status=204)


@bp.get("/sessions/<id(session):session_id>/history")
def session_changes(session_id: int) -> dict[str, Any]:
    """A page of the session's changes, newest first, from index `before` (0: the newest)."""
    loading.session_or_404(session_id)
    limit = whole_in(request.args, "limit", 1, MAX_PAGE) or PAGE
    start = whole_in(request.args, "before", 0, MAX_ID) or 0
    changes = writes.changes_of(session_id, limit + 1, start)
    body: dict[str, Any] = {"changes": [change_json(change) for change in changes[:limit]]}
    if len(changes) > limit:
        body["next"] = url_for(
            "api.session_changes", session_id=session_id, limit=limit, before=start + limit
        )
    return body


@bp.post("/sessions/<id(session):session_id>/history/<int:index>/restore")
def undo_change(session_id: int, index: int) -> Response:
    with _session_write(session_id) as write:
        write.undo(index)
        write.finish()
        return _session_answer(write, write.session, write.sheet_after(), 200)


@bp.get("/trash")
def trash_list() -> dict[str, Any]:
    return {"sessions": [trash.entry_json(entry) for entry in trash.entries()]}


@bp.post("/trash/<id(deleted_session):session_id>/restore")
def trash_restore(session_id: int) -> Response:
    with writes.roster_write(*write_key()) as write:
        session = trash.restore(session_id)
        return _session_answer(write, session, loading.sheet_of(session), 200)


def _player_json(player_id: int) -> dict[str, Any]:
    (listed,) = roster.players(player_id=player_id)
    return player_json(listed)


@bp.get("/players")
def list_players() -> dict[str, Any]:
    return {"players": [player_json(listed) for listed in roster.players()]}


@bp.patch("/players/<id(player):player_id>")
def update_player(player_id: int) -> Response:
    change = player_change(json_object(request))
    with players.player_write([player_id], *write_key(), sessions=change.name is not None) as write:
        if change.name is not None:
            write.rename(change.name)
        if change.active is not None:
            write.set_active(change.active)
        db.session.flush()
        return answer_of(write.answered(200, _player_json(player_id)))


@bp.post("/players/<id(player):player_id>/merge")
def merge_player(player_id: int) -> Response:
    into = merge_request(json_object(request))
    with players.player_write([player_id, into], *write_key()) as write:
        kept = write.merge()
        db.session.flush()
        return answer_of(write.answered(200, _player_json(kept.id)))


@bp.get("/players/merges")
def list_merges() -> dict[str, Any]:
    return {"merges": [merge_json(merge) for merge in roster.merges()]}


@bp.post("/players/merges/<id(merge):merge_id>/undo")
def undo_merge(merge_id: int) -> Response:
    with players.merge_undone(merge_id, *write_key()) as write:
        back = write.players[0]
        db.session.flush()
        return answer_of(write.answered(200, _player_json(back.id)))
