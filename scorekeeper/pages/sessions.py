"""Sessions: the home page, starting a session, the scoresheet, rounds and the CSV download."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_from_directory,
    stream_with_context,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import rules
from ..exchange import trash
from ..exchange.csv_out import all_hands_csv, hands_csv, long_hands_csv, standings_csv
from ..insights import sessions_list
from ..insights.dates import day_of, local
from ..rules import RuleError
from ..sessions import event_reads, hand_rows, loading, rows, writes
from ..sessions.extensions import db
from ..sessions.models import Event, Session, TrashedSession, as_utc
from .blueprint import bp
from .charts import line_chart, running_totals
from .filters import HOUSE_KEYS, Filters, read_filters
from .forms import SessionDetailsForm, SessionForm
from .nights import NO_HANDS_CSV, night_page, not_for_a_night
from .saving import done, roster_write, saved_hand, session_write
from .tournament import NOTES, table_view
from .words import rules_words, short_names, sitting_out_words, tiebreaks, undo_words

RECENT = 5
# Hands the scoresheet shows after "Show hands 1 to N": a round at the largest table, so that a
# long session's page stays small and paints soon (the totals and the chart cover every hand).
SHOWN_HANDS = 8


@bp.get("/")
def index() -> str:
    current = sessions_list.in_progress()
    alone = sessions_list.SessionFilter(tables=False)
    recent = sessions_list.rows_for(sessions_list.sessions_after(alone, RECENT + 1)[0])
    past = [row for row in recent if current is None or row.session.id != current.session.id]
    # An event is one row, its last round's tables under it, where its latest table was made.
    dated: list[tuple[datetime, Any]] = [
        (as_utc(row.session.created_at), row) for row in past[:RECENT]
    ]
    dated += [(item.last, item) for item in event_reads.recent_events(RECENT)]
    dated.sort(key=lambda item: item[0], reverse=True)
    return render_template(
        "sessions/index.html", in_progress=current, sessions=[item for _at, item in dated[:RECENT]]
    )


@bp.get("/favicon.ico")
def favicon() -> Response:
    # Browsers ask for /favicon.ico on their own, whatever the page's <link rel="icon">.
    return send_from_directory(
        Path(current_app.static_folder or "static") / "icons",
        "favicon.ico",
        mimetype="image/vnd.microsoft.icon",
        max_age=86400,
    )


# The filters of the sessions list, which its download of every hand keeps.
LIST_FILTERS = ("from", "to", "player", *HOUSE_KEYS)
# The forms of that download: a column for each player, or a row for each player of a hand.
WIDE, LONG = "wide", "long"


def session_filter(filters: Filters) -> sessions_list.SessionFilter:
    return sessions_list.SessionFilter(filters.typed["player"], filters.dates, filters.house)


@bp.get("/sessions")
def sessions_list_page() -> tuple[str, int]:
    filters = read_filters(request.args, LIST_FILTERS)
    page = {"filters": filters, "players": loading.seated_players()}
    if filters.errors:
        return render_template("sessions/history.html", found=None, **page), 400
    wanted = session_filter(filters)
    found = sessions_list.find_sessions(wanted, request.args.get("page", 1, type=int))
    return render_template("sessions/history.html", found=found, **page), 200


@bp.route("/sessions/new", methods=["GET", "POST"])
def new_session() -> str | BaseResponse:
    form = SessionForm()
    if request.method == "GET":
        form.choose(request.args)
    if form.validate_on_submit():
        form.read_new_players(request.form)
        try:
            with roster_write() as write:
                session = rows.new_session(
                    form.name.data or "",
                    form.players(),
                    form.rounds_number(),
                    form.first_dealer_name(),
                    form.options(),
                    new_players=form.new_players,
                )
                return done(write, url_for("pages.session_page", session_id=session.id))
        except RuleError as error:
            form.refuse(error)
    everyone = bool(request.args.get("everyone"))
    return render_template(
        "sessions/new_session.html",
        form=form,
        roster=loading.roster(everyone),
        show_everyone=not everyone and loading.has_retired(),
    )


@bp.get("/sessions/<id(session):session_id>")
def session_page(session_id: int) -> str:
    read = loading.read_session_or_404(session_id)
    if read.session.totals_only:
        return night_page(read)
    session, sheet = read.session, read.sheet
    table = sheet.table
    saved = request.args.get("saved", type=int)
    return render_template(
        "sessions/session.html",
        session=session,
        sheet=sheet,
        event=db.session.get(Event, session.event_id) if session.event_id else None,
        first_shown=_first_shown(len(sheet.results), saved),
        tiebreaks=tiebreaks(sheet.standings),
        chart=running_totals_chart(sheet) if sheet.results else None,
        player_ids=read.player_ids,
        sitting_out_next=sitting_out_words(
            table.seats, sheet.next_dealer or "", sheet.sitting_out_next
        ),
        left={standing.player for standing in sheet.standings if not standing.seated},
        short=short_names(sheet.named),
        rules_words=rules_words(table.options, len(table.seats)),
        saved=saved,
        saved_change=_saved_change(session.id, saved),
        undone=_undone(session.id, request.args.get("undone", type=int)),
        tournament=table_view(read),
        notes=NOTES,
    )


def _first_shown(hand_count: int, saved: int | None) -> int:
    """The number of the first hand the scoresheet shows: every hand when asked, else the last
    few, and from a hand just saved further back."""
    if request.args.get("hands") == "all":
        return 1
    first = max(1, hand_count - SHOWN_HANDS + 1)
    return min(first, saved) if saved and saved >= 1 else first


def _saved_change(session_id: int, number: int | None) -> tuple[str, int] | None:
    """After a hand is saved: the change that saved it (added or edited, and its id), to undo it
    from the status that says so, while it is still the newest change."""
    if number is None:
        return None
    changes = writes.changes_of(session_id)
    if changes and changes[0].action in ("add", "edit") and changes[0].number == number:
        return changes[0].action, changes[0].id
    return None


def _undone(session_id: int, number: int | None) -> tuple[int, int] | None:
    """After a hand is deleted: the change that deleted it (its index and id), to bring it back,
    while it is still the newest change."""
    if number is None:
        return None
    changes = writes.changes_of(session_id)
    if changes and changes[0].action == "delete" and changes[0].number == number:
        return 0, changes[0].id
    return None


def running_totals_chart(sheet: rules.Sheet) -> Markup:
    """Each player's running total after every hand, starting from 0, while seated."""
    return line_chart(running_totals(sheet), "Running totals, hand by hand", "hands")


@bp.post("/sessions/<id(session):session_id>/rounds")
def add_round(session_id: int) -> BaseResponse:
    with session_write(session_id) as write:
        scoresheet = url_for("pages.session_page", session_id=session_id)
        rounds = write.session.rounds
        # A night has no rounds either: the write refuses it.
        if not rounds and not write.session.totals_only:
            return done(write, scoresheet)
        write.update(None, rounds + 1)
        return done(write, scoresheet, f"Round {rounds + 1} added.")


@bp.route("/sessions/<id(session):session_id>/edit", methods=["GET", "POST"])
def edit_session(session_id: int) -> str | BaseResponse | tuple[str, int]:
    """Rename the session or change its rounds (a night's name is changed with its nets)."""
    if loading.session_head(session_id).totals_only:
        return redirect(url_for("pages.edit_night", session_id=session_id))
    form = SessionDetailsForm()
    if form.validate_on_submit():
        try:
            with session_write(session_id) as write:
                write.update(form.name.data or "", form.rounds_number())
                return done(
                    write,
                    url_for("pages.session_page", session_id=session_id),
                    "Name and rounds saved.",
                )
        except RuleError as error:
            form.refuse(error)
    session = loading.session_head(session_id)
    if request.method == "GET":
        form.name.data, form.rounds.data = session.name, str(session.rounds)
    page = render_template("sessions/edit_session.html", session=session, form=form)
    return (page, 400) if form.errors or form.form_errors else page


@bp.post("/sessions/<id(session):session_id>/end")
def end_session(session_id: int) -> BaseResponse:
    with session_write(session_id) as write:
        write.end(True)
        scoresheet = url_for("pages.session_page", session_id=session_id)
        return done(write, scoresheet, "Session ended: the standings are final.")


@bp.post("/sessions/<id(session):session_id>/reopen")
def reopen_session(session_id: int) -> BaseResponse:
    with session_write(session_id) as write:
        write.end(False)
        scoresheet = url_for("pages.session_page", session_id=session_id)
        return done(write, scoresheet, "Session reopened.")


@bp.get("/sessions/<id(session):session_id>/changes")
def session_changes(session_id: int) -> str:
    session = loading.session_or_404(session_id)
    return render_template(
        "sessions/changes.html", session=session, changes=writes.changes_of(session_id)
    )


@bp.post("/sessions/<id(session):session_id>/changes/<int:index>/restore")
def undo_change(session_id: int, index: int) -> BaseResponse:
    """Undo one of the session's changes; the form names the change it showed, so a change that
    moved meanwhile is never undone by mistake."""
    changes_page = url_for("pages.session_changes", session_id=session_id)
    try:
        with session_write(session_id) as write:
            changes = writes.changes_of(session_id)
            shown = request.form.get("change", type=int)
            if not 0 <= index < len(changes) or changes[index].id != shown:
                return done(
                    write, changes_page, "The session changed meanwhile; nothing was undone."
                )
            number = write.undo(index)
            return done(
                write,
                url_for("pages.session_page", session_id=session_id)
                if number is None
                else saved_hand(session_id, number),
                f"{undo_words(changes[index])}.",
            )
    except RuleError as error:
        flash(error.message)
        return redirect(changes_page)


@bp.route("/sessions/<id(session):session_id>/delete", methods=["GET", "POST"])
def delete_session(session_id: int) -> str | BaseResponse:
    if request.method == "POST":
        with session_write(session_id) as write:
            name = session_title(write.session)
            trash.throw_away(write)
            return done(
                write,
                url_for("pages.trash_page"),
                f"{name} moved to the trash. It can be restored for 30 days.",
            )
    session = loading.session_or_404(session_id)
    return render_template(
        "sessions/delete_session.html", session=session, hands=len(session.hands)
    )


@bp.get("/trash")
def trash_page() -> str:
    return render_template(
        "sessions/trash.html", entries=trash.entries(), kept_for=TrashedSession.KEPT_FOR.days
    )


@bp.post("/trash/<id(deleted_session):session_id>/restore")
def restore_from_trash(session_id: int) -> BaseResponse:
    try:
        with roster_write() as write:
            session = trash.restore(session_id)
            return done(
                write,
                url_for("pages.session_page", session_id=session.id),
                f"{session_title(session)} restored from the trash.",
            )
    except RuleError as error:
        flash(error.message)
        return redirect(url_for("pages.trash_page"))


def session_title(session: Session) -> str:
    return session.name or f"{local(session.created_at):%a %d %b %Y}"


@bp.get("/sessions/<id(session):session_id>/standings.csv")
def export_standings(session_id: int) -> Response:
    session = loading.session_or_404(session_id)
    return csv_download(
        standings_csv(loading.sheet_of(session)), f"{session_file_name(session)}-standings"
    )


@bp.get("/sessions/export.csv")
def export_all_hands() -> Response:
    """Every hand of the sessions the list's filters find (all of them, without filters): a
    column for each of their players, or with `form=long` a row for each player of a hand."""
    filters = read_filters(request.args, LIST_FILTERS)
    form = request.args.get("form", "").strip() or WIDE
    errors = list(filters.errors)
    if form not in (WIDE, LONG):
        errors.append(f"The form is {WIDE} or {LONG}, not “{form}”.")
    if errors:
        abort(400, " ".join(errors))
    chosen = sessions_list.session_ids(session_filter(filters))

    def lines() -> Iterator[str]:
        with hand_rows.snapshot() as connection:
            sessions = (
                (found.session_id, day_of(found.created_at), found.name, found.hands)
                for found in hand_rows.every_hand(connection, chosen)
            )
            if form == LONG:
                yield from long_hands_csv(sessions)
            else:
                yield from all_hands_csv(hand_rows.players_of(connection, chosen), sessions)

    scope = "".join(f"-{key}-{day}" for key, day in filters.given_dates.items())
    name = f"sheepshead-{'all-sessions' if not filters.given else 'sessions' + scope}"
    suffix = "-long" if form == LONG else ""
    return csv_download(stream_with_context(lines()), f"{name}-{date.today():%Y-%m-%d}{suffix}")


@bp.get("/sessions/<id(session):session_id>/export.csv")
def export_csv(session_id: int) -> Response | BaseResponse:
    session = loading.session_or_404(session_id)
    if session.totals_only:
        return not_for_a_night(session, NO_HANDS_CSV)
    return csv_download(hands_csv(loading.sheet_of(session)), session_file_name(session))


def session_file_name(session: Session) -> str:
    return f"sheepshead-{day_of(session.created_at)}-session-{session.id}"


def csv_download(body: str | Iterable[str], name: str) -> Response:
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
