"""Settle-up pages: who pays whom at the end of a night, or over a season of sessions, and the
stake a session is played for."""

from __future__ import annotations

from flask import render_template, request, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField

from .. import rules
from ..insights.settle_up import of_range
from ..rules import RuleError
from ..sessions import loading, writes
from ..sessions.errors import Conflict
from .blueprint import bp
from .filters import read_filters
from .forms import typed_stake
from .saving import done, session_write
from .sessions import session_title
from .words import decimal, money, recap


class StakeForm(FlaskForm):  # type: ignore[misc]
    stake = StringField("Stake a point")


@bp.route("/sessions/<id(session):session_id>/settle-up", methods=["GET", "POST"])
def session_settle_up(session_id: int) -> str | BaseResponse | tuple[str, int]:
    form = StakeForm()
    if request.method == "POST" and loading.session_head(session_id).totals_only:
        # A night's page offers no stake: it has no rules.
        raise Conflict(writes.NIGHT_CHANGES, "stake")
    if form.validate_on_submit():
        try:
            cents = typed_stake(form.stake.data)
            with session_write(session_id) as write:
                write.update(None, None, None, {"stake": cents})
                said = f"Stake set to {money(cents)} a point." if cents else "Stake taken off."
                return done(write, url_for("pages.session_settle_up", session_id=session_id), said)
        except RuleError as error:
            form.stake.errors = [error.message]
    read = loading.read_session_or_404(session_id)
    session, sheet = read.session, read.sheet
    stake = sheet.table.options.stake
    if request.method == "GET":
        form.stake.data = decimal(stake) if stake else ""
    settle_up = rules.sheet_settle_up(sheet, read.settled)
    page = render_template(
        "settle/settle_up.html",
        session=session,
        sheet=sheet,
        settle_up=settle_up,
        played=bool(sheet.results),
        form=form,
        recap=recap(session_title(session), sheet, settle_up),
    )
    return (page, 400) if form.stake.errors else page


@bp.get("/settle-up")
def settle_range() -> tuple[str, int]:
    filters = read_filters(request.args)
    settle_up = None
    if not filters.errors:
        try:
            settle_up = of_range(filters.dates.start, filters.dates.end)
        except RuleError as error:
            filters.errors.append(error.message)
    if settle_up is None:
        return render_template("settle/settle_range.html", filters=filters, settle_up=None), 400
    page = render_template(
        "settle/settle_range.html",
        filters=filters,
        settle_up=settle_up,
        played=bool(settle_up.balances),
    )
    return page, 200
