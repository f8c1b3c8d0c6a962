"""The stored access records: the passcode, the phones signed in, the API tokens, the invites
to one session and recent tries of a passcode or token.

Passcodes and token secrets are kept only as Werkzeug's slow salted hashes.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..sessions.extensions import db
from ..sessions.models import utcnow


class AccessSetting(db.Model):  # type: ignore[name-defined,misc]
    """One row at most. `role` None means access is off."""

    id: Mapped[int] = mapped_column(primary_key=True)
    role: Mapped[str | None] = mapped_column(String(10))
    passcode_hash: Mapped[str | None] = mapped_column(String(255))


class SignIn(db.Model):  # type: ignore[name-defined,misc]
    """A phone signed in with the passcode. Its cookie holds `<id>.<secret>`; only the secret's
    SHA-256 is kept (it is random, so a fast hash is enough). Signing out deletes the row, so a
    copy of the cookie is refused too; a new passcode deletes every row."""

    id: Mapped[int] = mapped_column(primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(
        db.DateTime(timezone=True), default=utcnow, index=True
    )


class ApiToken(db.Model):  # type: ignore[name-defined,misc]
    """A token reads `<id>.<secret>`: the id finds the row, so a request costs one hash check.
    A token with a `session_id` is for that session alone, in its `role`, until `expires_at`."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    secret_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)
    session_id: Mapped[int | None] = mapped_column()
    role: Mapped[str | None] = mapped_column(String(10))
    expires_at: Mapped[datetime | None] = mapped_column(db.DateTime(timezone=True))


class Invite(db.Model):  # type: ignore[name-defined,misc]
    """A link that signs a phone in for one session alone, in `role`, until `expires_at`. The
    link and the phone's cookie hold `<id>.<secret>`; only the secret's SHA-256 is kept.
    Revoking deletes the row, which signs out every phone it signed in (`InviteSignIn`)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(10))
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), index=True)


class InviteSignIn(db.Model):  # type: ignore[name-defined,misc]
    """A phone that opened an invite, with access on or off: it reaches the invite's session
    alone, in its role. Its cookie holds `<id>.<secret>` (not the link's own secret); only the
    secret's SHA-256 is kept. Signing out deletes the row, so a copy of the cookie is refused
    too; the invite's expiry or revoking ends it with the invite (its row is deleted with it)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    invite_id: Mapped[int] = mapped_column(ForeignKey("invite.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)


class SignInFailure(db.Model):  # type: ignore[name-defined,misc]
    """A try of a passcode or token, counted before it is checked and taken back when it is
    right, so that tries sent at once are all counted; kept an hour, in the database, so that
    every server worker counts the same tries."""

    __table_args__ = (Index("ix_sign_in_failure_address_at", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow, index=True)
