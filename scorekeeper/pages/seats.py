"""The Seats page: players arriving, leaving and changing places between hands."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import rules, store
from ..models import Session
from ..rules import RuleError
from . import bp
from .forms import SeatsForm, seats_print
from .words import sitting_out_words
from .writing import done, session_write


@dataclass(frozen=True)
class NextHand:
    """Who deals the next hand with the seats as the page holds them, and who sits it out;
    no dealer when the session would be complete."""

    number: int
    dealer: str | None = None
    sitting_out: str = ""
    bidding: tuple[str, ...] = ()


def next_hand(sheet: rules.Sheet, seats: list[str]) -> NextHand:
    """The next hand after a seat change, as the engine has it (a refusal if the seats can't
    be played)."""
    count = len(sheet.results)
    table = rules.change_seats(sheet.table, seats, count)
    if table.is_complete(count):
        return NextHand(count + 1)
    last = sheet.results[-1].hand if sheet.results else None
    dealer = table.next_dealer(last.dealer, last.seats) if last else table.first_dealer
    return NextHand(
        number=count + 1,
        dealer=dealer,
        sitting_out=sitting_out_words(table.seats, dealer, table.sitting_out(dealer)),
        bidding=table.bidding_order(dealer),
    )


class _Moved(Exception):
    """The seats were changed on another phone since this page opened."""


@bp.route("/sessions/<id(session):session_id>/seats", methods=["GET", "POST"])
def seats_page(session_id: int) -> str | BaseResponse:
    session = store.session_or_404(session_id)
    seats_now = store.table_of(session).seats
    form = SeatsForm(seats_now)
    notice = None
    if request.method == "POST" and form.validate_on_submit():
        form.read_new_players(request.form)
        try:
            form.arrange(request.form)
            if "save" in request.form:
                return _save(session_id, form)
        except RuleError as error:
            form.refuse(error)
        except _Moved:
            seats_now = store.table_of(store.session_or_404(session_id)).seats
            notice = (
                f"The seats were changed on another phone meanwhile: now "
                f"{', '.join(seats_now)}. Yours are below: save them to replace those, "
                "or go back to keep them."
            )
    return _render(store.session_or_404(session_id), form, notice)


def _save(session_id: int, form: SeatsForm) -> BaseResponse:
    with session_write(session_id) as write:
        seats_now = seats_print(store.table_of(write.session).seats)
        if form.before.data != seats_now:
            form.before.data = seats_now
            raise _Moved
        write.update(None, None, form.seats, None, form.new_players)
        return done(write, url_for("pages.session_page", session_id=session_id), "Seats changed.")


def _render(session: Session, form: SeatsForm, notice: str | None) -> str:
    sheet = store.sheet_of(session)
    form.offer_places()
    seated_now = {rules.name_key(player) for player in sheet.table.seats}
    seats_then = {rules.name_key(player) for player in form.seats}
    arriving = {p for p in form.seats if rules.name_key(p) not in seated_now}
    preview = None
    try:
        preview = next_hand(sheet, form.seats)
        if arriving:
            store.check_new_players(form.seats, form.new_players)
    except RuleError as error:
        if not form.errors and not any(form.extra_errors.values()):
            form.refuse(error)
    return render_template(
        "seats.html",
        session=session,
        form=form,
        preview=preview,
        notice=notice,
        arriving=arriving,
        leaving=[p for p in sheet.table.seats if rules.name_key(p) not in seats_then],
        roster=store.roster(),
    )
