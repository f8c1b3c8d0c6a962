"""Reading and changing access: the passcode and its role, API tokens, and wrong tries counted
in the database so that every server worker sees the same counts."""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import UTC, timedelta
from enum import StrEnum

from sqlalchemy import delete, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..models import utcnow
from .models import AccessSetting, ApiToken, SignInFailure

SETTING_ID = 1
MAX_FAILURES = 10
FAILURE_WINDOW = timedelta(minutes=1)
MIN_PASSCODE = 4
READS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_TOKEN_NAME = 100
# Verified tokens by their SHA-256: a repeat request skips the slow hash, yet its row is still
# read, so a revoked token is refused at once.
_verified: dict[str, str] = {}
MAX_VERIFIED = 1000


class Role(StrEnum):
    SCORER = "scorer"  # every change needs a sign-in or a token; reading is open
    READER = "reader"  # reading needs one too


class AccessRefused(Exception):
    """A command-line request that can't be done; its message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Access:
    role: Role | None
    generation: str | None

    @property
    def on(self) -> bool:
        return self.role is not None

    def guards(self, method: str) -> bool:
        if self.role is None:
            return False
        return self.role is Role.READER or method not in READS


def current() -> Access:
    setting = db.session.get(AccessSetting, SETTING_ID)
    if setting is None or setting.role is None:
        return Access(None, None)
    return Access(Role(setting.role), setting.generation)


def set_passcode(passcode: str, role: Role) -> None:
    if len(passcode) < MIN_PASSCODE:
        raise AccessRefused(f"A passcode needs at least {MIN_PASSCODE} characters.")
    setting = db.session.get(AccessSetting, SETTING_ID) or AccessSetting(id=SETTING_ID)
    setting.role = role.value
    setting.passcode_hash = generate_password_hash(passcode)
    setting.generation = secrets.token_urlsafe(24)
    setting.changed_at = utcnow()
    db.session.add(setting)
    db.session.commit()


def turn_off() -> None:
    setting = db.session.get(AccessSetting, SETTING_ID)
    if setting is not None:
        setting.role = None
        setting.passcode_hash = None
        setting.generation = secrets.token_urlsafe(24)
        setting.changed_at = utcnow()
        db.session.commit()


def passcode_matches(passcode: str) -> bool:
    setting = db.session.get(AccessSetting, SETTING_ID)
    if setting is None or setting.passcode_hash is None:
        return False
    return check_password_hash(setting.passcode_hash, passcode)


def tokens() -> list[ApiToken]:
    return list(db.session.scalars(select(ApiToken).order_by(ApiToken.name)))


def create_token(name: str) -> str:
    """A new token named `name`, returned once: only its hash is stored."""
    name = name.strip()
    if not 1 <= len(name) <= MAX_TOKEN_NAME:
        raise AccessRefused(f"A token's name is 1 to {MAX_TOKEN_NAME} characters.")
    if db.session.scalar(select(ApiToken.id).where(ApiToken.name == name)) is not None:
        raise AccessRefused(
            f'A token named "{name}" already exists: revoke it first or choose another name.'
        )
    secret = secrets.token_urlsafe(32)
    token = ApiToken(name=name, secret_hash=generate_password_hash(secret))
    db.session.add(token)
    db.session.commit()
    return f"{token.id}.{secret}"


def revoke_token(name: str) -> None:
    token = db.session.scalar(select(ApiToken).where(ApiToken.name == name.strip()))
    if token is None:
        raise AccessRefused(f'No token is named "{name}".')
    db.session.delete(token)
    db.session.commit()


def token_matches(token: str) -> bool:
    token_id, _, secret = token.partition(".")
    if not token_id.isdigit() or len(token_id) > 18 or not secret:
        return False
    row = db.session.get(ApiToken, int(token_id))
    if row is None:
        return False
    key = hashlib.sha256(token.encode()).hexdigest()
    if _verified.get(key) == row.secret_hash:
        return True
    if not check_password_hash(row.secret_hash, secret):
        return False
    if len(_verified) >= MAX_VERIFIED:
        _verified.clear()
    _verified[key] = row.secret_hash
    return True


def record_failure(address: str) -> None:
    now = utcnow()
    db.session.execute(delete(SignInFailure).where(SignInFailure.at < now - FAILURE_WINDOW))
    db.session.add(SignInFailure(address=address, at=now))
    db.session.commit()


def retry_after(address: str) -> int | None:
    """Seconds until `address` may try again, or None when it has not had too many wrong tries
    within the last minute."""
    now = utcnow()
    recent = db.session.scalars(
        select(SignInFailure.at)
        .where(SignInFailure.address == address, SignInFailure.at >= now - FAILURE_WINDOW)
        .order_by(SignInFailure.at.desc())
        .limit(MAX_FAILURES)
    ).all()
    if len(recent) < MAX_FAILURES:
        return None
    # Once the oldest of the last ten leaves the window, the address may try again.
    oldest = recent[-1] if recent[-1].tzinfo else recent[-1].replace(tzinfo=UTC)
    return max(1, math.ceil((oldest + FAILURE_WINDOW - now).total_seconds()))
