"""Invites and scoped tokens: access to one session alone, as scorer (record and edit there) or
reader (only look), until a moment. An invite is a link another phone opens; a scoped token is
an API token made for one session from the command line."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..exchange.access_bodies import Role
from ..sessions.extensions import db
from ..sessions.models import as_utc, utcnow
from ..sessions.records import iso
from .models import ApiToken, Invite, InviteSignIn
from .state import access_write


@dataclass(frozen=True)
class Scope:
    """What a phone signed in by an invite, or a scoped token, may reach: one session, in a
    role, until a moment."""

    session_id: int
    role: Role
    expires_at: datetime

    @property
    def holds(self) -> bool:
        return as_utc(self.expires_at) > utcnow()


def new_invite(session_id: int, role: Role, hours: int) -> tuple[Invite, str]:
    """A new invite, inside a write that commits it: the row and its token, `<id>.<secret>`,
    which only the link holds. Expired invites go, and the phones they let in with them."""
    secret = secrets.token_urlsafe(24)
    now = utcnow()
    db.session.execute(delete(Invite).where(Invite.expires_at < now))
    invite = Invite(
        session_id=session_id,
        role=role.value,
        secret_hash=_sha256(secret),
        created_at=now,
        expires_at=now + timedelta(hours=hours),
    )
    db.session.add(invite)
    db.session.flush()
    return invite, f"{invite.id}.{secret}"


def invite_json(invite: Invite, url: str) -> dict[str, Any]:
    return {"id": invite.id, "url": url, "role": invite.role, "expires": iso(invite.expires_at)}


def invite_of(token: str) -> Invite | None:
    """The invite a link's `<id>.<secret>` names, expired or not; None when there is none (never
    made, or revoked)."""
    invite_id, _, secret = token.partition(".")
    if not invite_id.isdigit() or len(invite_id) > 18 or not secret:
        return None
    row = db.session.get(Invite, int(invite_id))
    if row is None or not hmac.compare_digest(row.secret_hash, _sha256(secret)):
        return None
    return row


def scope_of_invite(invite: Invite) -> Scope:
    return Scope(invite.session_id, Role(invite.role), invite.expires_at)


def link_scope(token: str) -> Scope | None:
    """What an invite's link lets a phone reach, or None once it is revoked or expired."""
    invite = invite_of(token)
    if invite is None:
        return None
    scope = scope_of_invite(invite)
    return scope if scope.holds else None


def sign_in(invite: Invite) -> str | None:
    """Let a phone in by the invite, in a write of its own: what its cookie keeps,
    `<id>.<secret>`; None when the invite was revoked meanwhile."""
    secret = secrets.token_urlsafe(32)
    row = InviteSignIn(invite_id=invite.id, secret_hash=_sha256(secret), created_at=utcnow())
    try:
        with access_write():
            db.session.add(row)
    except IntegrityError:
        return None
    return f"{row.id}.{secret}"


def invited_scope(cookie: str) -> Scope | None:
    """What a phone an invite let in may reach, or None once it signed out, or its invite is
    revoked or expired."""
    row = _invite_sign_in(cookie)
    invite = db.session.get(Invite, row.invite_id) if row is not None else None
    if invite is None:
        return None
    scope = scope_of_invite(invite)
    return scope if scope.holds else None


def end_sign_in(cookie: str) -> None:
    row = _invite_sign_in(cookie)
    if row is not None:
        with access_write():
            db.session.delete(row)


def _invite_sign_in(cookie: str) -> InviteSignIn | None:
    sign_in_id, _, secret = cookie.partition(".")
    if not sign_in_id.isdigit() or len(sign_in_id) > 18 or not secret:
        return None
    row = db.session.get(InviteSignIn, int(sign_in_id))
    if row is None or not hmac.compare_digest(row.secret_hash, _sha256(secret)):
        return None
    return row


def open_invites(session_id: int) -> list[Invite]:
    """The session's invites that have not expired, the newest first."""
    query = (
        select(Invite)
        .where(Invite.session_id == session_id, Invite.expires_at > utcnow())
        .order_by(Invite.id.desc())
    )
    return list(db.session.scalars(query))


def revoke(session_id: int, invite_id: int) -> bool:
    """Delete an invite of the session, inside a write; whether there was one."""
    invite = db.session.get(Invite, invite_id)
    if invite is None or invite.session_id != session_id:
        return False
    db.session.delete(invite)
    return True


def token_scope(token_id: int) -> Scope | None:
    """The scope of an API token made for one session, or None for an unscoped one."""
    row = db.session.get(ApiToken, token_id)
    if row is None or row.session_id is None or row.expires_at is None:
        return None
    return Scope(row.session_id, Role(row.role or Role.SCORER.value), row.expires_at)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
