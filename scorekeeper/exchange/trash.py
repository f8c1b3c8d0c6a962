"""Deleted sessions, kept whole for 30 days so a mistaken delete can be taken back.

A deleted session leaves the sessions table (so no list, statistic or export sees it) and is
kept as its backup holds it, with its changes; restoring it records its hands again
through the rules engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from ..sessions import loading
from ..sessions.errors import NotFound
from ..sessions.extensions import db
from ..sessions.models import Change, Session, TrashedSession, as_utc
from ..sessions.records import change_json, iso
from ..sessions.writes import SessionWrite, changes_of
from .backup import session_backup_json
from .session_checks import add_session


def throw_away(write: SessionWrite) -> None:
    """Move the session of the write under way to the trash."""
    write.sheet_before()
    session = write.session
    changes = [change_json(change) for change in reversed(changes_of(session.id))]
    data = {"session": session_backup_json(session), "version": session.version, "changes": changes}
    _purge()
    db.session.add(TrashedSession(session_id=session.id, data=data))
    write.remove_session()


def _purge() -> None:
    db.session.execute(delete(TrashedSession).where(~TrashedSession.kept()))


def entries() -> Sequence[TrashedSession]:
    """What the trash holds, the latest deleted first: only what was deleted within 30 days."""
    return db.session.scalars(
        select(TrashedSession)
        .where(TrashedSession.kept())
        .order_by(TrashedSession.deleted_at.desc(), TrashedSession.session_id.desc())
    ).all()


def entry_json(entry: TrashedSession) -> dict[str, Any]:
    data = entry.data["session"]
    return {
        "id": entry.session_id,
        "name": data["name"],
        "created_at": data["created_at"],
        "deleted_at": iso(entry.deleted_at),
        "kept_until": iso(as_utc(entry.deleted_at) + TrashedSession.KEPT_FOR),
        "players": data["players"],
        "hand_count": len(data["hands"]),
    }


def restore(session_id: int) -> Session:
    """Bring a session back from the trash, inside a roster write; it keeps its id when no
    other session has taken it meanwhile."""
    _purge()
    entry = db.session.get(TrashedSession, session_id)
    if entry is None:
        raise NotFound(f"The trash holds no session {session_id}.")
    data = entry.data
    free = db.session.get(Session, session_id) is None
    session = add_session(data["session"], session_id if free else None, f"Session {session_id}")
    session.version = data["version"] + 1
    for change in data["changes"]:
        db.session.add(
            Change(
                session_id=session.id,
                at=datetime.fromisoformat(change["at"]),
                action=change["action"],
                number=change["number"],
                before=change["before"],
                after=change["after"],
            )
        )
    db.session.delete(entry)
    db.session.flush()
    return loading.session_or_404(session.id)
