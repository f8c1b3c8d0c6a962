"""Saving a page's form, through `writes` as every write goes. Every form carries a one-time
write key rendered into it, so a double tap, Back-then-Save or a form sent again after a dropped
reply is answered with where the first one went ("Hand 5 saved.") and writes nothing twice."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from flask import flash, get_flashed_messages, redirect, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..sessions import players, writes
from ..web.security import BACKGROUND_READS
from .blueprint import bp

WRITE_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


@bp.app_template_global()
def write_key() -> str:
    """The key of the form being rendered: the one it was sent with when it comes back with a
    refusal (nothing was written under it), else a new one."""
    sent = request.form.get("write_key", "")
    return sent if WRITE_KEY.fullmatch(sent) else new_write_key()


@bp.app_template_global()
def new_write_key() -> str:
    """A key for a form beside the one a page sends back (which keeps its own): never the key
    of a write that other form may still make."""
    return secrets.token_urlsafe(18)


@bp.app_template_global()
def shown_flashes() -> list[str]:
    """The messages to show on this page. A hand the outbox sent lands on the scoresheet unseen:
    its "Hand N saved." is left for the page the phone shows next; so is a message that a
    page's script reading in the background would be answered with, refused (its stream,
    opened again as the phone goes to sign in, would take the sign-in page's message)."""
    if request.headers.get("X-Sent-By") == "outbox" or request.endpoint in BACKGROUND_READS:
        return []
    # Two requests at once (a page and its live stream) may each have said the same.
    return list(dict.fromkeys(str(message) for message in get_flashed_messages()))


def sent_key() -> tuple[str | None, str]:
    sent = request.form.get("write_key", "")
    if not WRITE_KEY.fullmatch(sent):
        return None, ""
    return f"page {sent}", writes.fingerprint("page", sent)


@contextmanager
def session_write(session_id: int, if_match: str | None = None) -> Iterator[writes.SessionWrite]:
    with writes.session_write(session_id, *sent_key(), if_match=if_match) as write:
        yield write


@contextmanager
def roster_write() -> Iterator[writes.Write]:
    with writes.roster_write(*sent_key()) as write:
        yield write


@contextmanager
def player_write(player_ids: list[int], sessions: bool = True) -> Iterator[players.PlayerWrite]:
    with players.player_write(player_ids, *sent_key(), sessions=sessions) as write:
        yield write


def saved_hand(session_id: int, number: int) -> str:
    """The scoresheet after a hand was saved: from its top, where "Hand N saved." with Undo,
    who deals next and Record hand are, with the hand's row marked where it is."""
    return url_for("pages.session_page", session_id=session_id, saved=number)


def done(write: writes.Write, location: str, message: str | None = None) -> BaseResponse:
    """Where the write sends the phone, with what it tells it; kept under the write key."""
    write.answered(302, {"location": location, "message": message})
    return _go(location, message)


def _go(location: str, message: str | None) -> BaseResponse:
    # A form sent again after a dropped reply says what happened once, not twice.
    if message and ("message", message) not in session.get("_flashes", []):
        flash(message)
    return redirect(location)


@bp.errorhandler(writes.Replay)
def replayed(replay: writes.Replay) -> BaseResponse:
    """The form was sent before: go where it went then."""
    answer = replay.answer.json if replay.answer else {}
    return _go(answer.get("location") or request.path, answer.get("message"))
