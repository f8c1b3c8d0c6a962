"""Sessions: the home page, starting a session, the scoresheet, rounds and the CSV download."""

from __future__ import annotations

from flask import Response, flash, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import rules, store
from ..charts import Series, line_chart
from ..csv_export import hands_csv
from ..rules import RuleError
from . import bp
from .forms import SessionForm
from .words import tiebreaks


@bp.get("/")
def index() -> str:
    counts = store.hand_counts()
    sessions = [
        (session, store.table_of(session), counts.get(session.id, 0))
        for session in store.list_sessions()
    ]
    in_progress = next((entry for entry in sessions if not entry[1].is_complete(entry[2])), None)
    past = [entry for entry in sessions if entry is not in_progress]
    return render_template("index.html", in_progress=in_progress, sessions=past)


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


@bp.get("/sessions/<int:session_id>/export.csv")
def export_csv(session_id: int) -> Response:
    session = store.session_or_404(session_id)
    filename = f"sheepshead-{session.created_at:%Y-%m-%d}-session-{session.id}.csv"
    return Response(
        hands_csv(store.sheet_of(session)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
