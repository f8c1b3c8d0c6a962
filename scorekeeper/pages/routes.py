from __future__ import annotations

from flask import Response, render_template

from .. import store
from ..csv_export import hands_csv
from . import bp


@bp.get("/")
def index() -> str:
    counts = store.hand_counts()
    sessions = [
        (session, store.table_of(session), counts.get(session.id, 0))
        for session in store.list_sessions()
    ]
    return render_template("index.html", sessions=sessions)


@bp.get("/sessions/<int:session_id>")
def session_page(session_id: int) -> str:
    session = store.session_or_404(session_id)
    return render_template("session.html", session=session, sheet=store.sheet_of(session))


@bp.get("/sessions/<int:session_id>/export.csv")
def export_csv(session_id: int) -> Response:
    session = store.session_or_404(session_id)
    filename = f"sheepshead-{session.created_at:%Y-%m-%d}-session-{session.id}.csv"
    return Response(
        hands_csv(store.sheet_of(session)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
