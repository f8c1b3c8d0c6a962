"""Sessions: the home page, starting a session, the scoresheet, rounds and the CSV download."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from flask import Response, flash, redirect, render_template, request, stream_with_context, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import history, rules, store
from ..charts import Series, line_chart
from ..csv_export import all_hands_csv, hands_csv, standings_csv
from ..models import Session
from ..rules import RuleError
from . import bp
from .filters import read_filters
from .forms import SessionForm
from .words import tiebreaks

RECENT = 5


@bp.get("/")
def index() -> str:
    current = history.in_progress()
    recent = history.find_sessions(history.SessionFilter(), per_page=RECENT + 1).rows
    past = [row for row in recent if current is None or row.session.id != current.session.id]
    return render_template("index.html", in_progress=current, sessions=past[:RECENT])


@bp.get("/sessions")
def session_history() -> tuple[str, int]:
    filters = read_filters(request.args, ("from", "to", "player"))
    page = {"filters": filters, "players": store.seated_players()}
    if filters.errors:
        return render_template("history.html", found=None, **page), 400
    wanted = history.SessionFilter(player=filters.typed["player"], dates=filters.dates)
    found = history.find_sessions(wanted, request.args.get("page", 1, type=int))
    return render_template("history.html", found=found, **page), 200


@bp.route("/sessions/new", methods=["GET", "POST"])
def new_session() -> str | BaseResponse:
    form = SessionForm()
    if form.validate_on_submit():
        try:
            session = store.create_session(
                form.name.data or "",
                form.players(),
                form.rounds_number(),
                form.first_dealer_name(),
                form.options(),
            )
        except RuleError as error:
            form.refuse(error)
        else:
            return redirect(url_for("pages.session_page", session_id=session.id))
    return render_template("new_session.html", form=form, roster=store.roster())


@bp.get("/sessions/<int:session_id>")
def session_page(session_id: int) -> str:
    session = store.session_or_404(session_id)
    sheet = store.sheet_of(session)
    return render_template(
        "session.html",
        session=session,
        sheet=sheet,
        tiebreaks=tiebreaks(sheet.standings),
        chart=running_totals_chart(sheet) if sheet.results else None,
        player_ids={name: player_id for player_id, name in store.names_of(session).items()},
        saved=request.args.get("saved", type=int),
    )


def running_totals_chart(sheet: rules.Sheet) -> Markup:
    """Each player's running total after every hand, starting from 0."""
    series = [
        Series(player, [0, *(running[player] for running in sheet.running_totals)])
        for player in sheet.table.seats
    ]
    return line_chart(series, "Running totals, hand by hand", "hands")


@bp.post("/sessions/<int:session_id>/rounds")
def add_round(session_id: int) -> BaseResponse:
    session = store.session_or_404(session_id)
    if session.rounds:
        store.add_round(session)
        flash(f"Round {session.rounds} added.")
    return redirect(url_for("pages.session_page", session_id=session_id))


@bp.get("/sessions/<int:session_id>/standings.csv")
def export_standings(session_id: int) -> Response:
    session = store.session_or_404(session_id)
    return csv_download(
        standings_csv(store.sheet_of(session)), f"{session_file_name(session)}-standings"
    )


@bp.get("/sessions/export.csv")
def export_all_hands() -> Response:
    sheets = (
        (session.id, f"{session.created_at:%Y-%m-%d}", session.name, sheet)
        for session, sheet in store.every_sheet()
    )
    body = stream_with_context(all_hands_csv(store.seated_players(), sheets))
    return csv_download(body, f"sheepshead-all-sessions-{date.today():%Y-%m-%d}")


@bp.get("/sessions/<int:session_id>/export.csv")
def export_csv(session_id: int) -> Response:
    session = store.session_or_404(session_id)
    return csv_download(hands_csv(store.sheet_of(session)), session_file_name(session))


def session_file_name(session: Session) -> str:
    return f"sheepshead-{session.created_at:%Y-%m-%d}-session-{session.id}"


def csv_download(body: str | Iterable[str], name: str) -> Response:
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
