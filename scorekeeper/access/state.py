"""Reading and changing access: the passcode and its role, the phones signed in, API tokens,
and tries of a passcode or token counted in the database, so that every server worker sees the
same counts."""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..exchange.access_bodies import Role
from ..sessions.database import begin_write
from ..sessions.extensions import db
from ..sessions.models import as_utc, utcnow
from .models import AccessSetting, ApiToken, SignIn, SignInFailure

SETTING_ID = 1
# Wrong tries: at most MAX_FAILURES a minute from one address, and MAX_FAILURES_EVERYWHERE an
# hour from every address together.
MAX_FAILURES = 10
FAILURE_WINDOW = timedelta(minutes=1)
MAX_FAILURES_EVERYWHERE = 100
WIDE_FAILURE_WINDOW = timedelta(hours=1)
MIN_PASSCODE = 6
SIGN_IN_LIFETIME = timedelta(days=30)
READS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_TOKEN_NAME = 100
# Verified tokens by their SHA-256: a repeat request skips the slow hash, yet its row is still
# read, so a revoked token is refused at once.
_verified: dict[str, str] = {}
MAX_VERIFIED = 1000


class AccessRefused(Exception):
    """A command-line request that can't be done; its message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@contextmanager
def access_write(locked: bool = False) -> Iterator[None]:
    """Where every change to access commits: at the end of the block, or nothing when it fails.
    `locked` first takes the write lock for adding sessions and players, so that writes made at
    once run one after another."""
    if locked:
        begin_write(None)
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


@dataclass(frozen=True)
class Access:
    role: Role | None

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
        return Access(None)
    return Access(Role(setting.role))


def _hashed(secret: str) -> str:
    return generate_password_hash(secret, method=current_app.config["PASSWORD_HASH"])


def set_passcode(passcode: str, role: Role) -> None:
    if len(passcode) < MIN_PASSCODE:
        raise AccessRefused(f"A passcode needs at least {MIN_PASSCODE} characters.")
    with access_write():
        setting = db.session.get(AccessSetting, SETTING_ID) or AccessSetting(id=SETTING_ID)
        setting.role = role.value
        setting.passcode_hash = _hashed(passcode)
        db.session.add(setting)
        db.session.execute(delete(SignIn))


def turn_off() -> None:
    with access_write():
        setting = db.session.get(AccessSetting, SETTING_ID)
        if setting is not None:
            setting.role = None
            setting.passcode_hash = None
        db.session.execute(delete(SignIn))


def passcode_matches(passcode: str) -> bool:
    setting = db.session.get(AccessSetting, SETTING_ID)
    if setting is None or setting.passcode_hash is None:
        return False
    return check_password_hash(setting.passcode_hash, passcode)


def tokens() -> list[ApiToken]:
    return list(db.session.scalars(select(ApiToken).order_by(ApiToken.name)))


def create_token(
    name: str, session_id: int | None = None, role: Role = Role.SCORER, hours: int = 12
) -> str:
    """A new token named `name`, returned once: only its hash is stored. With `session_id`, it
    is for that session alone, in `role`, for `hours`."""
    name = name.strip()
    if not 1 <= len(name) <= MAX_TOKEN_NAME:
        raise AccessRefused(f"A token's name is 1 to {MAX_TOKEN_NAME} characters.")
    if db.session.scalar(select(ApiToken.id).where(ApiToken.name == name)) is not None:
        raise AccessRefused(
            f'A token named "{name}" already exists: revoke it first or choose another name.'
        )
    secret = secrets.token_urlsafe(32)
    token = ApiToken(name=name, secret_hash=_hashed(secret))
    if session_id is not None:
        token.session_id = session_id
        token.role = role.value
        token.expires_at = utcnow() + timedelta(hours=hours)
    with access_write():
        db.session.add(token)
    return f"{token.id}.{secret}"


def revoke_token(name: str) -> None:
    token = db.session.scalar(select(ApiToken).where(ApiToken.name == name.strip()))
    if token is None:
        raise AccessRefused(f'No token is named "{name}".')
    with access_write():
        db.session.delete(token)


def token_matches(token: str) -> bool:
    token_id, _, secret = token.partition(".")
    if not token_id.isdigit() or len(token_id) > 18 or not secret:
        return False
    row = db.session.get(ApiToken, int(token_id))
    if row is None:
        return False
    if not check_password_hash(row.secret_hash, secret):
        return False
    if len(_verified) >= MAX_VERIFIED:
        _verified.clear()
    _verified[_sha256(token)] = row.secret_hash
    return True


def token_id(token: str) -> int:
    """The row id a token's `<id>.<secret>` names (0: none)."""
    token_id, _, _secret = token.partition(".")
    return int(token_id) if token_id.isdigit() and len(token_id) <= 18 else 0


def token_is_scoped(token: str) -> bool:
    """Whether a token names a token made for one session: read by its id alone, with no hash
    checked, so that an open read sent with any other token costs nothing more."""
    row = db.session.get(ApiToken, token_id(token))
    return row is not None and row.session_id is not None


def new_sign_in() -> str:
    """Sign a phone in: what its cookie keeps, `<id>.<secret>`."""
    secret = secrets.token_urlsafe(32)
    now = utcnow()
    row = SignIn(secret_hash=_sha256(secret), created_at=now)
    with access_write():
        db.session.execute(delete(SignIn).where(SignIn.created_at < now - SIGN_IN_LIFETIME))
        db.session.add(row)
    return f"{row.id}.{secret}"


def sign_in_holds(cookie: str) -> bool:
    """Whether a sign-in cookie's value is a sign-in that still holds."""
    row = _sign_in(cookie)
    return row is not None and as_utc(row.created_at) > utcnow() - SIGN_IN_LIFETIME


def end_sign_in(cookie: str) -> None:
    row = _sign_in(cookie)
    if row is not None:
        with access_write():
            db.session.delete(row)


def _sign_in(cookie: str) -> SignIn | None:
    sign_in_id, _, secret = cookie.partition(".")
    if not sign_in_id.isdigit() or len(sign_in_id) > 18 or not secret:
        return None
    row = db.session.get(SignIn, int(sign_in_id))
    if row is None or not hmac.compare_digest(row.secret_hash, _sha256(secret)):
        return None
    return row


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def token_known(token: str) -> bool:
    """Whether this process has checked the token already and it still exists: no try to
    count, no slow hash."""
    token_id, _, _secret = token.partition(".")
    cached = _verified.get(_sha256(token))
    if cached is None or not token_id.isdigit() or len(token_id) > 18:
        return False
    row = db.session.get(ApiToken, int(token_id))
    return row is not None and row.secret_hash == cached


@dataclass(frozen=True)
class Wait:
    """Too many wrong tries: from this address (`everywhere` False) or from every address."""

    seconds: int
    everywhere: bool


def count_try(address: str) -> int | Wait:
    """Count a try of a passcode or token from `address` before it is checked, in a write of
    its own: the try's id, to take back once it proves right, or how long to wait when too
    many tries were wrong. Tries sent at once are counted one after another, every one."""
    with access_write(locked=True):
        now = utcnow()
        db.session.execute(
            delete(SignInFailure).where(SignInFailure.at < now - WIDE_FAILURE_WINDOW)
        )
        wait = _wait(address, now)
        if wait is None:
            row = SignInFailure(address=address, at=now)
            db.session.add(row)
            db.session.flush()
            counted: int | Wait = row.id
        else:
            counted = wait
    return counted


def take_back(try_id: int) -> None:
    """A try proved right: it no longer counts."""
    with access_write(locked=True):
        db.session.execute(delete(SignInFailure).where(SignInFailure.id == try_id))


def _wait(address: str, now: datetime) -> Wait | None:
    here = _oldest_of_last(MAX_FAILURES, now - FAILURE_WINDOW, address)
    if here is not None:
        return Wait(_seconds_until(here + FAILURE_WINDOW, now), everywhere=False)
    everywhere = _oldest_of_last(MAX_FAILURES_EVERYWHERE, now - WIDE_FAILURE_WINDOW, None)
    if everywhere is not None:
        return Wait(_seconds_until(everywhere + WIDE_FAILURE_WINDOW, now), everywhere=True)
    return None


def _oldest_of_last(count: int, since: datetime, address: str | None) -> datetime | None:
    """The oldest of the last `count` tries since `since` (from `address`, or from anywhere),
    when there are that many; once it leaves the window, one more try may be made."""
    query = select(SignInFailure.at).where(SignInFailure.at >= since)
    if address is not None:
        query = query.where(SignInFailure.address == address)
    recent = db.session.scalars(query.order_by(SignInFailure.at.desc()).limit(count)).all()
    return as_utc(recent[-1]) if len(recent) == count else None


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, math.ceil((moment - now).total_seconds()))


def recent_failures() -> int:
    """How many tries were wrong within the last hour, from every address."""
    since = utcnow() - WIDE_FAILURE_WINDOW
    return db.session.scalar(select(func.count()).where(SignInFailure.at >= since)) or 0
