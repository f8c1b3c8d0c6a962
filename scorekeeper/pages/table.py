"""The table view: the standings in large type, for a TV on the wall or a tablet on the table."""

from __future__ import annotations

from flask import render_template
from werkzeug.wrappers import Response as BaseResponse

from .. import rules
from ..sessions import loading
from .blueprint import bp
from .nights import NO_TABLE_VIEW, not_for_a_night
from .words import sitting_out_words


@bp.get("/sessions/<id(session):session_id>/table")
def table_view(session_id: int) -> str | BaseResponse:
    read = loading.read_session_or_404(session_id)
    session, sheet = read.session, read.sheet
    if session.totals_only:
        return not_for_a_night(session, NO_TABLE_VIEW)
    table = sheet.table
    return render_template(
        "sessions/table.html",
        session=session,
        sheet=sheet,
        sitting_out_next=sitting_out_words(
            table.seats, sheet.next_dealer or "", sheet.sitting_out_next
        ),
        last=sheet.results[-1] if sheet.results else None,
        last_scores=last_scores(sheet),
    )


def last_scores(sheet: rules.Sheet) -> list[tuple[str, int]]:
    """The last hand's score of each player who played it, in seat order; none for a pass."""
    if not sheet.results or sheet.results[-1].hand.kind is rules.Kind.PASS:
        return []
    last = sheet.results[-1]
    players = sorted(last.players, key=last.hand.seats.index)
    return [(player, last.scores[player]) for player in players]
