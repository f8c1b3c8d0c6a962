"""Recording, previewing, correcting and deleting hands from a phone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import rules
from ..rules import RuleError
from ..sessions import loading, writes
from ..sessions.errors import NotFound
from ..sessions.models import Hand, Session
from ..sessions.records import hand_json
from .blueprint import bp
from .forms import HandForm
from .saving import done, saved_hand, session_write
from .words import score_preview, sitting_out_words, summary_of


def _hand_or_404(session: Session, number: int) -> Hand:
    row = loading.find_hand(session, number)
    if row is None:
        raise NotFound(f"Session {session.id} has no hand {number}.")
    return row


def _table(session: Session, row: Hand | None) -> rules.Table:
    """The table a hand is played with: the seats now for a new hand, its own for a stored one."""
    table = loading.table_of(session)
    return table if row is None else table.seated_as(loading.seats_of(row))


def _dealer(session: Session, row: Hand | None, chosen: str | None = None) -> str:
    """Who dealt: as chosen on the edit form (if seated for the hand), else the hand's own
    dealer, else the next seat in rotation."""
    if row is not None:
        return chosen if chosen in loading.seats_of(row) else loading.hand_of(row).dealer
    return loading.next_dealer_of(session)


def _form(session: Session, row: Hand | None) -> HandForm:
    dealer = _dealer(session, row, request.form.get("dealer"))
    form = HandForm(_table(session, row), dealer)
    form.read_leaster_counts(request.form)
    return form


def _render(
    session: Session,
    form: HandForm,
    row: Hand | None,
    preview: str | None = None,
    notice: str | None = None,
    cleared: Sequence[str] = (),
) -> str:
    dealer = _dealer(session, row, form.dealer.data)
    table = form.table
    return render_template(
        "hands/hand_form.html",
        session=session,
        form=form,
        row=row,
        dealer=dealer,
        bidding_order=table.bidding_order(dealer),
        sitting_out=sitting_out_words(table.seats, dealer, table.sitting_out(dealer)),
        forced_picker=table.forced_picker(dealer),
        card_points=rules.CARD_POINTS_TOTAL,
        result_floors=[[low, result.value] for low, result in rules.result_floors()],
        preview=preview,
        notice=notice,
        cleared=cleared,
    )


def _preview(session: Session, form: HandForm, row: Hand | None) -> str:
    dealer = _dealer(session, row, form.dealer.data)
    result = loading.preview_hand(session, row, form.hand_input(dealer), dealer)
    if loading.confirming(session):
        return f"{score_preview(result)} · {rules.confirms_words(result)}"
    return score_preview(result)


@bp.get("/sessions/<id(session):session_id>/hands/new")
def new_hand(session_id: int) -> str | BaseResponse:
    session = loading.session_or_404(session_id)
    try:
        loading.table_of(session).check_room_for_hand(len(session.hands))
    except rules.SessionComplete as complete:
        flash(complete.message)
        return _go_scoresheet(session_id)
    form = HandForm(loading.table_of(session), _dealer(session, None))
    form.number.data = str(len(session.hands) + 1)
    return _render(session, form, None)


def _go_scoresheet(session_id: int) -> BaseResponse:
    return redirect(url_for("pages.session_page", session_id=session_id))


class _Moved(Exception):
    """Another phone recorded the hand this form was opened for."""


@bp.post("/sessions/<id(session):session_id>/hands/new")
def record_hand(session_id: int) -> str | tuple[str, int] | BaseResponse:
    session = loading.session_or_404(session_id)
    if session.totals_only:
        # Refused before the form is read: it has no hand number or dealer to check.
        loading.table_of(session).check_room_for_hand(0)
    form = _form(session, None)
    if not form.validate_on_submit():
        return _render(session, form, None)
    notice = None
    try:
        if "preview" in request.form:
            return _render(session, form, None, _preview(session, form, None))
        with session_write(session_id) as write:
            tail = write.tail()
            expected = tail.count + 1
            if form.number.data != str(expected):
                form.number.data = str(expected)
                latest = write.hand_json(expected - 1) if expected > 1 else None
                notice = (
                    f"Hand {expected - 1} was recorded on another phone meanwhile"
                    + (f": {summary_of(latest)}" if latest else "")
                    + f". If yours is another hand, save it as hand {expected}."
                )
                raise _Moved
            number = write.record_hand(form.hand_input(tail.next_dealer), tail.next_dealer)
            return done(write, saved_hand(session_id, number), f"Hand {number} saved.")
    except RuleError as error:
        form.refuse(error)
    except _Moved:
        # Conflict: the phone's outbox tells this from a refusal.
        return _render(loading.session_or_404(session_id), form, None, notice=notice), 409
    return _render(loading.session_or_404(session_id), form, None)


@bp.route("/sessions/<id(session):session_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(session_id: int, number: int) -> str | BaseResponse:
    session = loading.session_or_404(session_id)
    row = loading.find_hand(session, number)
    if row is None and request.method == "POST" and request.form.get("original"):
        return _deleted_meanwhile(session_id, number)
    row = _hand_or_404(session, number)
    form = _form(session, row)
    if request.method == "GET":
        form.fill(loading.hand_of(row))
        sheet = loading.sheet_of(session)
        form.original.data = writes.recorded_print(
            hand_json(number, sheet.results[number - 1], sheet.named)
        )
        return _render(session, form, row)
    if not form.validate_on_submit():
        return _render(session, form, row)
    dealer = _dealer(session, row, form.dealer.data)
    if dealer != loading.hand_of(row).dealer:
        cleared = form.clear_for(dealer)
        if cleared:
            # Shown, not saved: the next Save is of what the page now shows.
            return _render(session, form, row, cleared=cleared)
    notice = None
    try:
        if "preview" in request.form:
            return _render(session, form, row, _preview(session, form, row))
        with session_write(session_id) as write:
            theirs = write.hand_json(number)
            if form.original.data and form.original.data != writes.recorded_print(theirs):
                form.original.data = writes.recorded_print(theirs)
                notice = (
                    f"Hand {number} was changed on another phone while you edited it. "
                    f"It is now: {summary_of(theirs)}. Yours is below: save it to replace "
                    "theirs, or go back to keep theirs."
                )
                raise _Moved
            current = write.hand(number)
            dealer = _dealer(write.session, current, form.dealer.data)
            write.replace_hand(number, form.hand_input(dealer), dealer)
            return done(write, saved_hand(session_id, number), f"Hand {number} saved.")
    except NotFound:
        return _deleted_meanwhile(session_id, number)
    except RuleError as error:
        form.refuse(error)
    except _Moved:
        pass
    session = loading.session_or_404(session_id)
    return _render(session, form, _hand_or_404(session, number), notice=notice)


def _deleted_meanwhile(session_id: int, number: int) -> BaseResponse:
    flash(f"Hand {number} was deleted on another phone, so your change was not saved.")
    return _go_scoresheet(session_id)


@bp.post("/sessions/<id(session):session_id>/hands/preview")
def preview_hand(session_id: int) -> dict[str, Any]:
    """The scores a hand being tapped in would give, for the form's live preview."""
    session = loading.session_or_404(session_id)
    editing = request.form.get("editing", type=int)
    row = _hand_or_404(session, editing) if editing else None
    form = _form(session, row)
    try:
        return {"preview": _preview(session, form, row)}
    except RuleError as error:
        return {"error": error.message, "field": error.field}


@bp.route("/sessions/<id(session):session_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(session_id: int, number: int) -> str | BaseResponse:
    if request.method == "POST":
        with session_write(session_id) as write:
            # Only the hand the confirmation showed is deleted, so a double tap deletes one hand.
            row = write.hand(number)
            if request.form.get("hand", type=int) != row.id:
                return done(
                    write,
                    url_for("pages.session_page", session_id=session_id),
                    f"Hand {number} changed on another phone, so nothing was deleted.",
                )
            write.delete_hand(number)
            return done(
                write,
                url_for("pages.session_page", session_id=session_id, undone=number),
                f"Hand {number} deleted.",
            )
    session = loading.session_or_404(session_id)
    row = _hand_or_404(session, number)
    result = loading.sheet_of(session).results[number - 1]
    return render_template(
        "hands/delete_hand.html", session=session, row=row, number=number, result=result
    )


@bp.post("/sessions/<id(session):session_id>/undo")
def undo_last_hand(session_id: int) -> BaseResponse:
    number = request.form.get("number", type=int)
    with session_write(session_id) as write:
        # Only the hand the button showed is undone, so a double tap can't undo two hands.
        if number is None or number != write.tail().count or number == 0:
            return done(write, url_for("pages.session_page", session_id=session_id))
        write.delete_hand(number)
        return done(
            write,
            url_for("pages.session_page", session_id=session_id, undone=number),
            f"Hand {number} undone.",
        )
