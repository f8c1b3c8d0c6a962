"""The Seats page: players arriving, leaving and changing places between hands, and a player
who left with money on the table settled at once."""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import rules
from ..rules import RuleError
from ..sessions import event_writes, loading, rows
from ..sessions.errors import Conflict
from ..sessions.models import Session
from .blueprint import bp
from .forms import SeatsForm, seats_print
from .nights import NO_SEATS, not_for_a_night
from .saving import done, session_write
from .words import settlement_words, sitting_out_words


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
    dealer = rules.next_dealer_after(table, sheet.results[-1].hand if sheet.results else None)
    return NextHand(
        number=count + 1,
        dealer=dealer,
        sitting_out=sitting_out_words(table.seats, dealer, table.sitting_out(dealer)),
        bidding=table.bidding_order(dealer),
    )


@dataclass(frozen=True)
class Leaver:
    """A player who left a staked session: settled early (`settled`), or the payments that
    would settle them now, or why they can't be."""

    player: str
    settled: str = ""
    payments: tuple[rules.Payment, ...] = ()
    refused: str = ""


def leavers(sheet: rules.Sheet, settled: rules.Settled) -> list[Leaver]:
    """Everyone who left a staked session with a balance, or was settled early, in the order
    the totals name them."""
    stake = sheet.table.options.stake
    if not stake:
        return []
    balances = {player: total * stake for player, total in sheet.totals.items()}
    found = []
    for player in sheet.named:
        if player in sheet.table.seats:
            continue
        if player in settled:
            found.append(Leaver(player, settled=settlement_words(player, settled[player])))
            continue
        if not balances[player]:
            continue
        try:
            _, payments = rules.settle_leaver(balances, sheet.table.seats, settled, player, stake)
        except RuleError as error:
            found.append(Leaver(player, refused=error.message))
        else:
            found.append(Leaver(player, payments=payments))
    return found


class _Moved(Exception):
    """The seats were changed on another phone since this page opened."""


@bp.route("/sessions/<id(session):session_id>/seats", methods=["GET", "POST"])
def seats_page(session_id: int) -> str | BaseResponse:
    session = loading.session_or_404(session_id)
    if session.totals_only:
        return not_for_a_night(session, NO_SEATS)
    seats_now = loading.table_of(session).seats
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
            seats_now = loading.table_of(loading.session_or_404(session_id)).seats
            notice = (
                f"The seats were changed on another phone meanwhile: now "
                f"{', '.join(seats_now)}. Yours are below: save them to replace those, "
                "or go back to keep them."
            )
    return _render(loading.session_or_404(session_id), form, notice)


def _save(session_id: int, form: SeatsForm) -> BaseResponse:
    with session_write(session_id) as write:
        seats_now = seats_print(loading.table_of(write.session).seats)
        if form.before.data != seats_now:
            form.before.data = seats_now
            raise _Moved
        seated = {rules.name_key(player) for player in form.seats}
        left = any(rules.name_key(p) not in seated for p in loading.table_of(write.session).seats)
        write.update(None, None, form.seats, None, form.new_players)
        # Someone left a staked session: the page to settle them at once.
        page = "pages.seats_page" if left and write.session.stake else "pages.session_page"
        return done(write, url_for(page, session_id=session_id), "Seats changed.")


@bp.post("/sessions/<id(session):session_id>/settle-leaver")
def settle_leaver(session_id: int) -> BaseResponse:
    if loading.session_head(session_id).totals_only:
        raise Conflict(NO_SEATS)
    seats_page = url_for("pages.seats_page", session_id=session_id)
    try:
        with session_write(session_id) as write:
            leaver, payments = write.settle_leaver(request.form.get("player", ""))
            return done(
                write, seats_page, f"{leaver} settled: {settlement_words(leaver, payments)}."
            )
    except RuleError as error:
        flash(error.message)
        return redirect(seats_page)


def _render(session: Session, form: SeatsForm, notice: str | None) -> str:
    sheet = loading.sheet_of(session)
    form.offer_places()
    seated_now = {rules.name_key(player) for player in sheet.table.seats}
    seats_then = {rules.name_key(player) for player in form.seats}
    arriving = {p for p in form.seats if rules.name_key(p) not in seated_now}
    preview = None
    try:
        preview = next_hand(sheet, form.seats)
        if arriving:
            rows.check_new_players(form.seats, form.new_players)
    except RuleError as error:
        if not form.errors and not any(form.extra_errors.values()):
            form.refuse(error)
    return render_template(
        "sessions/seats.html",
        session=session,
        form=form,
        preview=preview,
        notice=notice,
        arriving=arriving,
        leaving=[p for p in sheet.table.seats if rules.name_key(p) not in seats_then],
        roster=loading.roster(),
        leavers=leavers(sheet, loading.settled_of(session)),
        stand_ins=event_writes.stand_ins_of(session),
    )
