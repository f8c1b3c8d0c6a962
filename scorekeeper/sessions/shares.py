"""Share links: a link anyone may open, with no passcode, to read one season's standings and
nights, one club event's board and results, or one session's scoresheet, and nothing else.

A link is made inside the write that holds the lock of what it shows (`share_write`: the
session's own write for a session, a roster write for a season or an event, which seasons are
deleted in too), and revoked inside a roster write. Its address holds `<id>.<secret>`; only the
secret's SHA-256 is kept, as an invite's. The shared pages' views are counted a minute at a time
for each address, in the database, so that every server worker counts the same views.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite

from ..rules import RuleError
from . import writes
from .errors import NotFound
from .extensions import db
from .models import Event, Season, Session, ShareLink, ShareView, is_id, utcnow
from .records import iso

KINDS = ("season", "event", "session")
# What each kind of link shows, in words.
SHOWS = {"season": "standings and nights", "event": "board and results", "session": "scoresheet"}
# Views of share links from one address within a minute; more wait for the next minute.
MAX_VIEWS = 120
MINUTE = 60


@contextmanager
def share_write(
    kind: str, target: int, key: str | None = None, digest: str = ""
) -> Iterator[writes.Write]:
    """The write a link to `target` of `kind` is made in: it holds the lock of what the link
    shows, and refuses one that is not there as a request naming an unknown player is (400),
    since the request names it in its body."""
    if kind == "session":
        try:
            with writes.session_write(target, key, digest) as write:
                yield write
        except NotFound:
            raise _not_there(kind, target) from None
        return
    with writes.roster_write(key, digest) as write:
        if db.session.get(Season if kind == "season" else Event, target) is None:
            raise _not_there(kind, target)
        yield write


def _not_there(kind: str, target: int) -> RuleError:
    return RuleError(f"There is no {kind} {target}.", kind)


def new_share(kind: str, target: int) -> tuple[ShareLink, str]:
    """A new link to `target` of `kind`, inside its `share_write`: the row and its token,
    `<id>.<secret>`, which only the link holds."""
    secret = secrets.token_urlsafe(24)
    link = ShareLink(kind=kind, secret_hash=_sha256(secret), created_at=utcnow())
    setattr(link, f"{kind}_id", target)
    db.session.add(link)
    db.session.flush()
    return link, f"{link.id}.{secret}"


def share_json(link: ShareLink, url: str | None = None) -> dict[str, Any]:
    """A link as the API answers it; its `url` only when it is made, as only then is it known."""
    shown: dict[str, Any] = {"id": link.id}
    if url is not None:
        shown["url"] = url
    return shown | {"kind": link.kind, "target": link.target, "created_at": iso(link.created_at)}


def share_of(token: str) -> ShareLink | None:
    """The link a token names; None when there is none (never made, or revoked) or its secret is
    wrong."""
    link_id, _, secret = token.partition(".")
    if not link_id.isdigit() or len(link_id) > 10 or not is_id(int(link_id)):
        return None
    if not secret or len(secret) > 100:
        return None
    link = db.session.get(ShareLink, int(link_id))
    if link is None or not hmac.compare_digest(link.secret_hash, _sha256(secret)):
        return None
    return link


def links_to(kind: str, target: int) -> list[ShareLink]:
    """The links to one thing, the newest first."""
    column = getattr(ShareLink, f"{kind}_id")
    query = select(ShareLink).where(column == target).order_by(ShareLink.id.desc())
    return list(db.session.scalars(query))


def count_links(kind: str, target: int) -> int:
    column = getattr(ShareLink, f"{kind}_id")
    return db.session.scalar(select(func.count()).where(column == target)) or 0


@dataclass(frozen=True)
class Listed:
    """A link with the name of what it shows, and for a session when it began and whether it
    is a night kept without hands."""

    link: ShareLink
    name: str
    began: datetime | None = None
    # A night kept without hands, which shows its standings rather than a scoresheet.
    night: bool = False


def listed() -> list[Listed]:
    """Every link there is, the newest first, with the name of what it shows."""
    rows = db.session.execute(
        select(
            ShareLink,
            Season.name,
            Event.name,
            Session.name,
            Session.created_at,
            Session.totals_only,
        )
        .outerjoin(Season, Season.id == ShareLink.season_id)
        .outerjoin(Event, Event.id == ShareLink.event_id)
        .outerjoin(Session, Session.id == ShareLink.session_id)
        .order_by(ShareLink.id.desc())
    )
    return [
        Listed(link, season or event or session or "", began, bool(night))
        for link, season, event, session, began, night in rows
    ]


def revoke(link_id: int) -> ShareLink | None:
    """Delete a link, inside a roster write: the link as it was, or None when there was none."""
    link = db.session.get(ShareLink, link_id)
    if link is None:
        return None
    db.session.expunge(link)
    # Deleting what it shows may have deleted it meanwhile: a statement, not the row's delete,
    # which would fail on a row gone.
    db.session.execute(delete(ShareLink).where(ShareLink.id == link_id))
    return link


def count_view(address: str) -> int | None:
    """Count a view of a shared page from `address`, in a write of its own: None, or the seconds
    to wait when the address has had its `MAX_VIEWS` this minute. One statement counts it, so
    views at once are each counted."""
    now = utcnow().timestamp()
    minute = int(now // MINUTE)
    table = ShareView.__table__
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    counted = (
        insert(table)
        .values(address=address[:64], minute=minute, views=1)
        .on_conflict_do_update(
            index_elements=[table.c.address, table.c.minute], set_={"views": table.c.views + 1}
        )
        .returning(table.c.views)
    )
    try:
        views = db.session.execute(counted).scalar_one()
        if views == 1:
            db.session.execute(delete(ShareView).where(ShareView.minute < minute))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    if views <= MAX_VIEWS:
        return None
    return max(1, math.ceil((minute + 1) * MINUTE - now))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
