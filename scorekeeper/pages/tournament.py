"""Tournament tables from the phones and the board (RULES.md "Tournament tables"): a hand
confirmed by a player of the side that did not pick, the director called to a table and the
call answered from the table or the board, and a substitute seated for a player from the
round's tables page. Each form writes as the API writes, so both refuse with one sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import rules
from ..exchange.event_bodies import substitute_request
from ..rules import RuleError
from ..sessions import event_reads, event_writes, loading
from ..sessions.records import director_json
from .blueprint import bp
from .event_pages import render_round
from .forms import SubstituteForm
from .saving import done, sent_key, session_write

# What a call for the director may say, one tap each.
NOTES = ("misdeal", "revoke", "a dispute", "other")


@dataclass(frozen=True)
class TableView:
    """What the scoresheet of a table of an event shows of tournament play: who confirmed each
    hand (None while it waits; no list unless the event confirms), who may confirm each hand
    that waits, by number, and the table's open call for the director."""

    confirmed: tuple[str | None, ...] | None = None
    confirmers: dict[int, tuple[str, ...]] | None = None
    director: dict[str, Any] | None = None
    stand_ins: dict[str, str] | None = None

    @property
    def waiting(self) -> list[int]:
        """The numbers of the hands that wait to be confirmed."""
        return sorted(self.confirmers or {})


def table_view(read: loading.Read) -> TableView:
    session = read.session
    if session.event_id is None:
        return TableView()
    confirmers = None
    if read.confirmed is not None:
        confirmers = {
            number: rules.confirmers(result)
            for number, (result, by) in enumerate(
                zip(read.sheet.results, read.confirmed, strict=True), start=1
            )
            if by is None
        }
    return TableView(
        read.confirmed, confirmers, director_json(session), event_writes.stand_ins_of(session)
    )


def _scoresheet(session_id: int, number: int | None = None) -> str:
    anchor = None if number is None else f"hand-{number}"
    return url_for("pages.session_page", session_id=session_id, _anchor=anchor)


@bp.post("/sessions/<id(session):session_id>/hands/<int:number>/confirm")
def confirm_hand(session_id: int, number: int) -> BaseResponse:
    by = request.form.get("by", "")
    try:
        with session_write(session_id) as write:
            changed = write.confirm(number, by)
            write.finish()
            who = write.hand_after(number)["confirmed_by"]
            said = f"confirmed by {who}" if changed else f"was confirmed already, by {who}"
            return done(write, _scoresheet(session_id), f"Hand {number} {said}.")
    except RuleError as error:
        flash(error.message)
        return redirect(_scoresheet(session_id, number))


@bp.post("/sessions/<id(session):session_id>/director")
def call_director(session_id: int) -> BaseResponse:
    note = request.form.get("note", "")
    try:
        with session_write(session_id) as write:
            called = write.call_director(note)
            said = "The director is called." if called else "The director is called already."
            return done(write, _scoresheet(session_id), said)
    except RuleError as error:
        flash(error.message)
        return redirect(_scoresheet(session_id))


@bp.post("/sessions/<id(session):session_id>/director/answer")
def answer_director(session_id: int) -> BaseResponse:
    with session_write(session_id) as write:
        write.answer_director()
        return done(write, _scoresheet(session_id), "The director's call is answered.")


@bp.post("/events/<id(event):event_id>/board/calls/<id(session):session_id>/answer")
def answer_call_on_board(event_id: int, session_id: int) -> BaseResponse:
    board = url_for("pages.event_board", event_id=event_id)
    with session_write(session_id) as write:
        if write.session.event_id != event_id:
            return done(write, board)
        write.answer_director()
        table = write.session.event_table
        return done(write, board, f"Table {table}'s call for the director is answered.")


@bp.post("/events/<id(event):event_id>/substitutes")
def seat_substitute(event_id: int) -> tuple[str, int] | BaseResponse:
    event_reads.event_version(event_id)
    form = SubstituteForm()
    if form.validate_on_submit():
        form.read_new_players(request.form)
        try:
            given = substitute_request(
                {
                    "out": form.out.data or "",
                    "in": form.player.data or "",
                    "new_players": form.new_players,
                }
            )
            with event_writes.event_write(event_id, *sent_key(), roster=True) as write:
                made = write.substitute(given.out, given.player, given.new_players)
                write.finish()
                page = url_for("pages.event_round", event_id=event_id, number=made.round)
                said = (
                    f"{made.player} is back in their seat."
                    if made.stands_for is None
                    else f"{made.player} sits in for {made.stands_for}."
                )
                return done(write, page, said)
        except RuleError as error:
            form.refuse(error)
    return render_round(event_id, None, form), 400
