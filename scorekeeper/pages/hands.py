"""Recording, previewing, correcting and deleting hands from a phone."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import store
from ..models import Hand, Session
from ..rules import RuleError
from . import bp
from .forms import HandForm
from .words import score_preview


def _hand_or_404(session: Session, number: int) -> Hand:
    row = store.find_hand(session, number)
    if row is None:
        abort(404, f"Session {session.id} has no hand {number}.")
    return row


def _scoresheet(session_id: int, saved: int | None = None) -> BaseResponse:
    return redirect(url_for("pages.session_page", session_id=session_id, saved=saved))


def _form(session: Session) -> HandForm:
    form = HandForm(store.table_of(session))
    form.read_leaster_counts(request.form)
    return form


def _dealer(session: Session, form: HandForm, row: Hand | None) -> str:
    """Who dealt: as chosen on the edit form, else the next seat in rotation."""
    if row is not None:
        return form.dealer.data or store.names_of(session)[row.dealer_id]
    return store.sheet_of(session).next_dealer or session.first_dealer.name


def _render(session: Session, form: HandForm, row: Hand | None, preview: str | None = None) -> str:
    sheet = store.sheet_of(session)
    dealer = _dealer(session, form, row)
    return render_template(
        "hand_form.html",
        session=session,
        sheet=sheet,
        form=form,
        row=row,
        dealer=dealer,
        bidding_order=sheet.table.bidding_order(dealer),
        preview=preview,
    )


def _preview(session: Session, form: HandForm, row: Hand | None) -> str:
    dealer = _dealer(session, form, row)
    result = store.preview_hand(session, row, form.hand_input(dealer), dealer)
    return score_preview(result, store.table_of(session).seats)


@bp.get("/sessions/<int:session_id>/hands/new")
def new_hand(session_id: int) -> str | BaseResponse:
    session = store.session_or_404(session_id)
    if store.table_of(session).is_complete(len(session.hands)):
        flash("This session is complete. Add a round to record another hand.")
        return _scoresheet(session_id)
    form = HandForm(store.table_of(session))
    form.number.data = str(len(session.hands) + 1)
    return _render(session, form, None)


@bp.post("/sessions/<int:session_id>/hands/new")
def record_hand(session_id: int) -> str | BaseResponse:
    session = store.session_or_404(session_id)
    form = _form(session)
    if not form.validate_on_submit():
        return _render(session, form, None)
    number = len(session.hands) + 1
    if form.number.data != str(number):
        # The same form sent twice (a double tap, a resubmit): its hand is already saved.
        flash(f"Hand {form.number.data} was already saved.")
        return _scoresheet(session_id, saved=int(form.number.data or 0) or None)
    try:
        if "preview" in request.form:
            return _render(session, form, None, _preview(session, form, None))
        dealer = _dealer(session, form, None)
        row = store.record_hand(session, form.hand_input(dealer), dealer)
    except RuleError as error:
        form.refuse(error)
        return _render(session, form, None)
    return _scoresheet(session_id, saved=row.number)


@bp.route("/sessions/<int:session_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(session_id: int, number: int) -> str | BaseResponse:
    session = store.session_or_404(session_id)
    row = _hand_or_404(session, number)
    form = _form(session)
    if request.method == "GET":
        form.fill(store.hand_of(row, store.names_of(session)))
        return _render(session, form, row)
    if not form.validate_on_submit():
        return _render(session, form, row)
    try:
        if "preview" in request.form:
            return _render(session, form, row, _preview(session, form, row))
        dealer = _dealer(session, form, row)
        store.replace_hand(session, row, form.hand_input(dealer), dealer)
    except RuleError as error:
        form.refuse(error)
        return _render(session, form, row)
    return _scoresheet(session_id, saved=number)


@bp.post("/sessions/<int:session_id>/hands/preview")
def preview_hand(session_id: int) -> dict[str, Any]:
    """The scores a hand being tapped in would give, for the form's live preview."""
    session = store.session_or_404(session_id)
    editing = request.form.get("editing", type=int)
    row = _hand_or_404(session, editing) if editing else None
    form = _form(session)
    try:
        return {"preview": _preview(session, form, row)}
    except RuleError as error:
        return {"error": error.message, "field": error.field}


@bp.route("/sessions/<int:session_id>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(session_id: int, number: int) -> str | BaseResponse:
    session = store.session_or_404(session_id)
    row = _hand_or_404(session, number)
    if request.method == "POST":
        # Only the hand the confirmation showed is deleted, so a double tap deletes one hand.
        if request.form.get("hand", type=int) == row.id:
            store.delete_hand(session, row)
            flash(f"Hand {number} deleted.")
        return _scoresheet(session_id)
    result = store.sheet_of(session).results[number - 1]
    return render_template(
        "delete_hand.html", session=session, row=row, number=number, result=result
    )


@bp.post("/sessions/<int:session_id>/undo")
def undo_last_hand(session_id: int) -> BaseResponse:
    session = store.session_or_404(session_id)
    number = request.form.get("number", type=int)
    # Only the hand the button showed is undone, so a double tap can't undo two hands.
    if session.hands and number == len(session.hands):
        store.delete_hand(session, session.hands[-1])
        flash(f"Hand {number} undone.")
    return _scoresheet(session_id)
