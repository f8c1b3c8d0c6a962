"""API endpoints: parse JSON, go through the rules engine and the store, answer JSON."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, request

from .. import store
from ..json_format import hand_json, session_json, session_summary
from ..models import Hand, Session
from . import bp
from .parse import hand_request, json_object, session_change, session_request

JSON = tuple[dict[str, Any], int]


def _hand_or_404(session: Session, number: int) -> Hand:
    row = store.find_hand(session, number)
    if row is None:
        abort(404, f"Session {session.id} has no hand {number}.")
    return row


def _session_answer(session_id: int, status: int = 200) -> JSON:
    session = store.session_or_404(session_id)
    return session_json(session, store.sheet_of(session)), status


def _hand_answer(session_id: int, number: int, status: int) -> JSON:
    session = store.session_or_404(session_id)
    sheet = store.sheet_of(session)
    return hand_json(number, sheet.results[number - 1]), status


@bp.post("/sessions")
def create_session() -> JSON:
    given = session_request(json_object(request))
    session = store.create_session(
        given.name, given.players, given.rounds, given.first_dealer, given.options
    )
    return _session_answer(session.id, 201)


@bp.get("/sessions")
def list_sessions() -> dict[str, Any]:
    counts = store.hand_counts()
    return {
        "sessions": [
            session_summary(session, store.table_of(session), counts.get(session.id, 0))
            for session in store.list_sessions()
        ]
    }


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int) -> JSON:
    return _session_answer(session_id)


@bp.patch("/sessions/<int:session_id>")
def update_session(session_id: int) -> JSON:
    session = store.session_or_404(session_id)
    change = session_change(json_object(request))
    store.update_session(session, change.name, change.rounds)
    return _session_answer(session_id)


@bp.post("/sessions/<int:session_id>/hands")
def record_hand(session_id: int) -> JSON:
    session = store.session_or_404(session_id)
    given = hand_request(json_object(request))
    row = store.record_hand(session, given.entry, given.dealer)
    return _hand_answer(session_id, row.number, 201)


@bp.put("/sessions/<int:session_id>/hands/<int:number>")
def replace_hand(session_id: int, number: int) -> JSON:
    session = store.session_or_404(session_id)
    row = _hand_or_404(session, number)
    given = hand_request(json_object(request))
    store.replace_hand(session, row, given.entry, given.dealer)
    return _hand_answer(session_id, number, 200)


@bp.delete("/sessions/<int:session_id>/hands/<int:number>")
def delete_hand(session_id: int, number: int) -> Response:
    session = store.session_or_404(session_id)
    store.delete_hand(session, _hand_or_404(session, number))
    return Response(status=204)
