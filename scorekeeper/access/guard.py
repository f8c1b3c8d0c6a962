"""The check before every request: when access guards it, a signed-in phone or an API token
lets it through; otherwise a page goes to sign-in and the API answers 401. A phone an invite let
in, with access on or off, or a token made for one session, reaches that session alone
(`within`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import flash, g, redirect, request, session, url_for
from flask.typing import ResponseReturnValue

from ..exchange.access_bodies import Role
from ..sessions.extensions import db
from ..web.errors import error_answer
from . import invites, state
from .invites import Scope
from .models import Invite
from .state import Access

# The session key of a sign-in: `<id>.<secret>` of its row (`state.new_sign_in`).
SIGNED_IN = "access"
# The session key of a phone an invite let in: `<id>.<secret>` of its row (`invites.sign_in`).
INVITED = "invite"
# The invites this screen made and shows as codes (`invite_routes`): links, ended with the rest.
KEPT_INVITES = ("table_invites", "scorer_invites")
# What a phone fetches before anyone signs in, which shows nothing of the scores.
OPEN_ENDPOINTS = frozenset(
    {
        "static",
        "access.sign_in_page",
        "access.sign_out_page",
        "invites.open_invite",
        "pages.service_worker",
        "pages.manifest",
        "pages.favicon",
        "pages.install",
        "pages.install_root",
        "pages.page_scripts",
        "pages.linked_stylesheet",
        # A share link's page: anyone with the link reads what it shares, and nothing else.
        "pages.shared_page",
    }
)
NO_TOKEN = (
    "This scorekeeper needs an API token for that: send the header Authorization: Bearer <token>."
)
WRONG_TOKEN = "That API token is wrong or has been revoked."
NOT_SAVED = "Sign in to make changes. What you sent was not saved: make the change again."
UNSAVED = "What you sent was not saved."
INVITE_ENDED = "The invite this phone was signed in with has expired or was revoked."
TOKEN_EXPIRED = "That API token has expired."
NOT_SIGNED_IN = "Sign in to follow the scores."
# Which session a page or an API request is for: the id in its address.
SESSION_PATH = re.compile(r"(?:/api)?/sessions/(\d+)(?:/|$)")
# Under a session, yet beyond a phone or token that reaches that session alone.
BEYOND_SCOPE = frozenset({"api.delete_session", "pages.delete_session", "pages.share_session"})
# Pages that are only a form to change the session: beyond a reader even to look at.
CHANGE_FORMS = frozenset(
    {
        "pages.new_hand",
        "pages.edit_hand",
        "pages.delete_hand",
        "pages.edit_session",
        "pages.seats_page",
    }
)
SCOPE_BLUEPRINTS = frozenset({"invites", "invites_api"})


@dataclass(frozen=True)
class Status:
    """What the pages show about access."""

    on: bool
    role: str | None
    signed_in: bool


def status() -> Status:
    access = state.current()
    return Status(access.on, access.role, signed_in(access))


def signed_in(access: Access) -> bool:
    cookie = session.get(SIGNED_IN)
    return access.on and isinstance(cookie, str) and state.sign_in_holds(cookie)


def sign_in() -> None:
    leave_invite()
    session[SIGNED_IN] = state.new_sign_in()
    session.permanent = True


def invited_in(invite: Invite) -> bool:
    """Let this phone in by an invite, in place of one it held; False when the invite was
    revoked meanwhile."""
    leave_invite()
    cookie = invites.sign_in(invite)
    if cookie is None:
        return False
    session[INVITED] = cookie
    session.permanent = True
    return True


def leave_invite() -> None:
    cookie = session.pop(INVITED, None)
    if isinstance(cookie, str):
        invites.end_sign_in(cookie)


def sign_out() -> None:
    """End every sign-in this phone holds, the passcode's and an invite's, copies of its
    cookie included."""
    cookie = session.pop(SIGNED_IN, None)
    if isinstance(cookie, str):
        state.end_sign_in(cookie)
    leave_invite()
    for kept in KEPT_INVITES:
        session.pop(kept, None)
    session.permanent = False


def holds_invite() -> bool:
    """Whether this phone was let in by an invite, ended or not."""
    return isinstance(session.get(INVITED), str)


def address() -> str:
    return request.remote_addr or "unknown"


def guard() -> ResponseReturnValue | None:
    if request.endpoint in OPEN_ENDPOINTS:
        return None
    try:
        return check(state.current())
    finally:
        # The view begins with no transaction open, as it would without this check.
        db.session.close()


def check(access: Access) -> ResponseReturnValue | None:
    if signed_in(access):
        return None
    # With access off too: the invite promised its session alone, and its role.
    invited = session.get(INVITED)
    if isinstance(invited, str):
        scope = invites.invited_scope(invited)
        if scope is None:
            if is_api() or is_stream():
                return unauthorized(INVITE_ENDED)
            return redirect_to_sign_in(INVITE_ENDED, NOT_SAVED if access.on else UNSAVED)
        return within(scope)
    if not access.on:
        return None
    token = bearer_token()
    scoped = token is not None and state.token_is_scoped(token)
    if not access.guards(request.method) and not scoped:
        return None
    if token is None:
        if is_api():
            return unauthorized(NO_TOKEN)
        if is_stream():
            return unauthorized(NOT_SIGNED_IN)
        return redirect_to_sign_in()
    if not state.token_known(token):
        counted = state.count_try(address())
        if isinstance(counted, state.Wait):
            return too_many_tries(counted)
        if not state.token_matches(token):
            return unauthorized(WRONG_TOKEN)
        state.take_back(counted)
    if not scoped:
        return None
    scope = invites.token_scope(state.token_id(token))
    if scope is None or not scope.holds:
        return unauthorized(TOKEN_EXPIRED)
    return within(scope)


def within(scope: Scope) -> ResponseReturnValue | None:
    """Let a request through when it is for the scope's session and its role may make it; else
    403."""
    g.access_scope = scope
    found = SESSION_PATH.match(request.path)
    if (
        found is None
        or found[1] != str(scope.session_id)
        or request.endpoint in BEYOND_SCOPE
        or request.blueprint in SCOPE_BLUEPRINTS
    ):
        return error_answer(
            403, f"This phone or token may reach session {scope.session_id} alone, not this."
        )
    if scope.role is Role.READER and (
        request.method not in state.READS or request.endpoint in CHANGE_FORMS
    ):
        return error_answer(
            403, f"This phone or token may only look at session {scope.session_id}, not change it."
        )
    return None


def scope() -> Scope | None:
    """The one session (and role) this request's phone or token may reach, when it is one
    that an invite or a token for one session let through."""
    found: Scope | None = g.get("access_scope")
    return found


def may_change() -> bool:
    """Whether this request's phone may change what it sees: not a reader of one session."""
    found = scope()
    return found is None or found.role is not Role.READER


def bearer_token() -> str | None:
    authorization = request.authorization
    if authorization is None or authorization.type != "bearer":
        return None
    return authorization.token or None


def is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def is_stream() -> bool:
    """Whether a page's live stream asks (an EventSource), which shows no page: sent to sign in,
    it would take the message meant for the page the phone shows."""
    return request.accept_mimetypes.best == "text/event-stream"


def unauthorized(message: str) -> ResponseReturnValue:
    return error_answer(401, message, headers={"WWW-Authenticate": "Bearer"})


def too_many_tries(wait: state.Wait) -> ResponseReturnValue:
    if wait.everywhere:
        minutes = math.ceil(wait.seconds / 60)
        message = (
            f"Too many wrong passcodes or tokens were tried within the hour. Try again in "
            f"{minutes} minute{'s' if minutes != 1 else ''}; phones signed in already go on."
        )
    else:
        message = (
            "Too many wrong passcodes or tokens from this address. "
            f"Try again in {wait.seconds} seconds."
        )
    return error_answer(429, message, headers={"Retry-After": str(wait.seconds)})


def redirect_to_sign_in(why: str | None = None, not_saved: str = NOT_SAVED) -> ResponseReturnValue:
    if why is not None:
        flash(why)
    if request.method in ("GET", "HEAD"):
        back = request.full_path.removesuffix("?")
    else:
        # A form was sent: say it was not saved, and come back to the page that held it.
        flash(not_saved)
        back = local_path(request.referrer, same_host=True) or "/"
    return redirect(url_for("access.sign_in_page", next=back), code=303)


def local_path(target: str | None, same_host: bool = False) -> str | None:
    """`target` as a path on this site, or None when it leads elsewhere. With `same_host`, a
    full URL of this host (a Referer) gives its path."""
    if not target or any(ord(c) < 32 or c == "\\" for c in target):
        return None
    parts = urlsplit(target)
    ours = same_host and parts.scheme in ("http", "https") and parts.netloc == request.host
    if (parts.scheme or parts.netloc) and not ours:
        return None
    path = parts.path
    if not path.startswith("/") or path.startswith("//"):
        return None
    return path + (f"?{parts.query}" if parts.query else "")
