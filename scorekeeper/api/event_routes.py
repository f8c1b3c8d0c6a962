"""The API's club events: an event made, read, changed, its players checked in and out, its
rounds drawn, and its standings as CSV, each write through `event_writes.event_write`; a practice
event's round filled with made-up hands, and the practice event deleted whole."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request

from ..exchange.csv_out import event_standings_csv
from ..exchange.event_bodies import (
    check_in_request,
    draw_request,
    event_change,
    event_request,
    practice_request,
)
from ..exchange.json_in import json_object
from ..sessions import event_reads, event_writes, writes
from .blueprint import bp
from .routes import answer_of, etag, if_match, write_key


def _event_answer(write: Any, event: Any, status: int) -> Response:
    body = event_reads.event_json(event_reads.read_event(event))
    return etag(answer_of(write.answered(status, body)), event.version)


def _event_write(event_id: int, roster: bool = False) -> Any:
    return event_writes.event_write(event_id, *write_key(), if_match=if_match(), roster=roster)


@bp.post("/events")
def create_event() -> Response:
    given = event_request(json_object(request))
    with writes.roster_write(*write_key()) as write:
        event = event_writes.new_event(given)
        return _event_answer(write, event, 201)


@bp.get("/events")
def list_events() -> dict[str, Any]:
    return {"events": event_reads.list_events()}


@bp.get("/events/<id(event):event_id>")
def get_event(event_id: int) -> Response:
    # Never 304: a hand at any of its tables changes its standings, not its version.
    read = event_reads.read_event_or_404(event_id)
    response = etag(Response(status=200), read.event.version)
    body = event_reads.event_json(read)
    response.set_data(json.dumps(body, ensure_ascii=False))
    response.mimetype = "application/json"
    return response


@bp.patch("/events/<id(event):event_id>")
def update_event(event_id: int) -> Response:
    given = event_change(json_object(request))
    with _event_write(event_id) as write:
        write.update(given)
        write.finish()
        return _event_answer(write, write.event, 200)


@bp.post("/events/<id(event):event_id>/players")
def check_in(event_id: int) -> Response:
    given = check_in_request(json_object(request))
    with _event_write(event_id, roster=True) as write:
        write.check_in(given.name, given.new_players)
        write.finish()
        return _event_answer(write, write.event, 201)


@bp.delete("/events/<id(event):event_id>/players/<path:name>")
def check_out(event_id: int, name: str) -> Response:
    with _event_write(event_id) as write:
        write.check_out(name)
        write.finish()
        return _event_answer(write, write.event, 200)


@bp.post("/events/<id(event):event_id>/rounds")
def draw_round(event_id: int) -> Response:
    sizes = draw_request(json_object(request))
    with _event_write(event_id, roster=True) as write:
        write.draw_round(sizes)
        write.finish()
        return _event_answer(write, write.event, 201)


@bp.delete("/events/<id(event):event_id>")
def delete_event(event_id: int) -> Response:
    with _event_write(event_id, roster=True) as write:
        write.delete_event()
        write.answered(204, None)
    return Response(status=204)


@bp.post("/events/<id(event):event_id>/rounds/<int:round>/practice-hands")
def practice_hands(event_id: int, round: int) -> Response:
    practice_request(json_object(request))
    with _event_write(event_id) as write:
        write.practice_hands(round)
        write.finish()
        return _event_answer(write, write.event, 200)


@bp.get("/events/<id(event):event_id>/standings.csv")
def standings_csv(event_id: int) -> Response:
    read = event_reads.read_event_or_404(event_id)
    results = read.results
    body = event_standings_csv(
        results.standings, read.rounds, bool(read.event.entry), results.provisional
    )
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="sheepshead-event-{event_id}.csv"'},
    )
