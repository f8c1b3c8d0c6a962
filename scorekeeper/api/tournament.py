"""The API of tournament tables (API.md "Tournament tables"): a hand confirmed by the other
side, the director called to a table and the call answered, and a substitute seated for a
player, each through the one write path."""

from __future__ import annotations

from contextlib import AbstractContextManager

from flask import Response, request

from ..exchange.event_bodies import confirm_request, director_request, substitute_request
from ..exchange.json_in import json_object
from ..sessions import writes
from ..sessions.records import director_json
from .blueprint import bp
from .event_routes import _event_answer, _event_write
from .routes import answer_of, etag, if_match, write_key


def _session_write(session_id: int) -> AbstractContextManager[writes.SessionWrite]:
    return writes.session_write(session_id, *write_key(), if_match=if_match())


@bp.post("/sessions/<id(session):session_id>/hands/<int:number>/confirm")
def confirm_hand(session_id: int, number: int) -> Response:
    by = confirm_request(json_object(request))
    with _session_write(session_id) as write:
        write.confirm(number, by)
        write.finish()
        answer = write.answered(200, write.hand_after(number))
        return etag(answer_of(answer), write.session.version)


@bp.post("/sessions/<id(session):session_id>/director")
def call_director(session_id: int) -> Response:
    # The note is optional, and so is the body.
    note = director_request(json_object(request) if request.content_length else {})
    with _session_write(session_id) as write:
        called = write.call_director(note)
        write.finish()
        session = write.session
        body = {
            "table": session.event_table,
            "round": session.event_round,
            "session": session.id,
            **(director_json(session) or {}),
        }
        answer = write.answered(201 if called else 200, body)
        return etag(answer_of(answer), session.version)


@bp.delete("/sessions/<id(session):session_id>/director")
def answer_director(session_id: int) -> Response:
    with _session_write(session_id) as write:
        write.answer_director()
        write.finish()
        write.answered(204, None)
    return Response(status=204)


@bp.post("/events/<id(event):event_id>/substitutes")
def substitute(event_id: int) -> Response:
    given = substitute_request(json_object(request))
    with _event_write(event_id, roster=True) as write:
        write.substitute(given.out, given.player, given.new_players)
        write.finish()
        return _event_answer(write, write.event, 201)
