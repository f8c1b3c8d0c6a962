"""Inviting a phone to one session: the invite sheet (a link and its QR code, and Revoke), the
link itself, the API's invites and the table view's own viewer code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, Response, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..exchange.access_bodies import DEFAULT_HOURS, Role, invite_request
from ..exchange.json_in import json_object
from ..exchange.rule_sets import qr_svg
from ..insights.dates import local
from ..rules import RuleError
from ..sessions import loading, writes
from ..sessions.errors import NotFound
from ..sessions.models import as_utc, utcnow
from ..sessions.records import iso
from ..web import hosts
from ..web.errors import error_answer
from . import invites, state
from .guard import invited_in, signed_in
from .invites import Scope

bp = Blueprint("invites", __name__)
api_bp = Blueprint("invites_api", __name__, url_prefix="/api")

# As the API's and the pages' write keys (`api.routes`, `pages.saving`).
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,100}")
PAGE_WRITE_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
KEY_REUSED = "This Idempotency-Key was already used for a different request."
# The table view keeps showing its viewer code while it has this long left.
TABLE_CODE_LEFT = timedelta(hours=1)
TABLE_INVITES = "table_invites"
MAX_TABLE_INVITES = 8


def invite_url(token: str) -> str:
    return hosts.lan_url("invites.open_invite", token=token)


def _create(
    session_id: int,
    given: dict[str, Any],
    key: str | None,
    digest: str,
    if_match: str | None = None,
) -> writes.Answer:
    role, hours = invite_request(given)
    with writes.session_write(session_id, key, digest, if_match) as write:
        invite, token = invites.new_invite(session_id, role, hours)
        return write.answered(201, invites.invite_json(invite, invite_url(token)))


# The API.


def _api_key() -> tuple[str | None, str]:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None, ""
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise RuleError(
            "An Idempotency-Key is 1 to 100 visible ASCII characters.", "Idempotency-Key"
        )
    return f"api {key}", writes.fingerprint(request.method, request.path, request.data)


def _if_match() -> str | None:
    """The version an If-Match header names, as the API's other writes read it."""
    header = request.headers.get("If-Match", "").strip()
    if not header or header == "*":
        return None
    return header.split(",")[0].strip().removeprefix("W/").strip('"')[:20]


def _json(answer: writes.Answer) -> Response:
    if answer.status == 204:
        return Response(status=204)
    return Response(answer.body, status=answer.status, mimetype="application/json")


@api_bp.errorhandler(writes.Replay)
def replayed(replay: writes.Replay) -> ResponseReturnValue:
    if replay.answer is None:
        return error_answer(409, KEY_REUSED, "Idempotency-Key")
    return _json(replay.answer)


@api_bp.post("/sessions/<id(session):session_id>/invites")
def create_invite(session_id: int) -> Response:
    key = _api_key()
    given = json_object(request) if request.get_data(cache=True).strip() else {}
    return _json(_create(session_id, given, *key, _if_match()))


@api_bp.delete("/sessions/<id(session):session_id>/invites/<id(invite):invite_id>")
def revoke_invite(session_id: int, invite_id: int) -> Response:
    with writes.session_write(session_id, *_api_key(), _if_match()) as write:
        if not invites.revoke(session_id, invite_id):
            raise NotFound(f"Session {session_id} has no invite {invite_id}.", "invite_id")
        write.answered(204, None)
    return Response(status=204)


# The pages.


class InviteForm(FlaskForm):  # type: ignore[misc]
    """The CSRF token of the invite sheet's forms; the role and hours are read as the API's."""


def _page_key() -> tuple[str | None, str]:
    sent = request.form.get("write_key", "")
    if not PAGE_WRITE_KEY.fullmatch(sent):
        return None, ""
    return f"page {sent}", writes.fingerprint("page", sent)


@bp.route("/sessions/<id(session):session_id>/invite", methods=["GET", "POST"])
def invite_sheet(session_id: int) -> str | tuple[str, int]:
    head = loading.session_head(session_id)
    form = InviteForm()
    made: dict[str, Any] | None = None
    error: RuleError | None = None
    role = request.form.get("role", Role.SCORER.value)
    hours = request.form.get("hours", str(DEFAULT_HOURS))
    if form.validate_on_submit():
        given = {"role": role, "hours": int(hours) if hours.strip().isdigit() else hours}
        try:
            made = _create(session_id, given, *_page_key()).json
        except writes.Replay as replay:
            made = replay.answer.json if replay.answer else None
        except RuleError as refused:
            error = refused
        head = loading.session_head(session_id)
    page = render_template(
        "access/invite.html",
        session=head,
        form=form,
        made=made,
        qr=qr_svg(made["url"]) if made else None,
        role=role,
        hours=hours,
        error=error,
        invites=invites.open_invites(session_id),
        roles={Role.SCORER.value: "scorer", Role.READER.value: "viewer"},
    )
    return (page, 400) if error else page


@bp.post("/sessions/<id(session):session_id>/invites/<id(invite):invite_id>/revoke")
def revoke_invite_page(session_id: int, invite_id: int) -> BaseResponse:
    if InviteForm().validate_on_submit():
        with writes.session_write(session_id) as write:
            revoked = invites.revoke(session_id, invite_id)
            write.answered(200, None)
        flash(
            "Invite revoked: the phones it signed in are signed out."
            if revoked
            else "That invite was revoked already."
        )
    return redirect(url_for("invites.invite_sheet", session_id=session_id), code=303)


@bp.get("/invites/<token>")
def open_invite(token: str) -> ResponseReturnValue:
    """Let this phone in for the invite's session alone, in its role, then open it: with access
    off too, where the invite limits the phone that opens it (not the network)."""
    invite = invites.invite_of(token)
    if invite is None:
        return _unknown_invite()
    scope = invites.scope_of_invite(invite)
    if not scope.holds:
        message = "This invite link has expired. Ask for a new one."
        return render_template("error.html", status="Invite expired", message=message), 410
    if not invited_in(invite):
        return _unknown_invite()
    return redirect(url_for("pages.session_page", session_id=scope.session_id), code=303)


def _unknown_invite() -> ResponseReturnValue:
    message = "This invite link is unknown or was revoked. Ask for a new one."
    return render_template("error.html", status="No such invite", message=message), 404


def local_time(moment: datetime | str, day: bool = True) -> Markup:
    """When an invite expires, as a `<time>` that the phone writes in its own clock
    (`static/clock.js`, as the event board's time), the weekday too unless `day` is False; the
    server's `Fri 21:40` until then."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    shown = f"{local(moment):%a %H:%M}" if day else f"{local(moment):%H:%M}"
    return Markup('<time datetime="{}" data-clock="{}">{}</time>').format(
        iso(moment), "day" if day else "time", shown
    )


# The table view's code.


@dataclass(frozen=True)
class TableCode:
    url: str
    qr: Markup
    caption: Markup


def table_code(session_id: int) -> TableCode | None:
    """The table view's QR code for a phone to follow the session: an invite as viewer when
    access is on and this screen is signed in, the table view's own address when reading is open
    to all; none when it is not (a screen signed in by an invite)."""
    access = state.current()
    if access.on and signed_in(access):
        scope, token = _table_invite(session_id)
        until = local_time(scope.expires_at, day=False)
        caption = Markup("Scan to follow on your phone (viewer, until {})").format(until)
        return TableCode(invite_url(token), qr_svg(invite_url(token)), caption)
    if access.role is Role.READER:
        return None
    url = hosts.lan_url("pages.table_view", session_id=session_id)
    return TableCode(url, qr_svg(url), Markup("Scan to follow on your phone"))


def _table_invite(session_id: int) -> tuple[Scope, str]:
    """This screen's viewer invite to the session."""
    return _kept_invite(session_id, Role.READER, TABLE_INVITES, MAX_TABLE_INVITES)


def _kept_invite(session_id: int, role: Role, cookie: str, most: int) -> tuple[Scope, str]:
    """An invite to the session in `role`, kept in this screen's cookie under `cookie` (the
    `most` latest sessions' ones) while it has an hour left, else a new one."""
    kept: dict[str, str] = dict(session.get(cookie) or {})
    token = kept.get(str(session_id))
    scope = invites.link_scope(token) if isinstance(token, str) else None
    if token is None or scope is None or as_utc(scope.expires_at) - utcnow() < TABLE_CODE_LEFT:
        with state.access_write():
            invite, token = invites.new_invite(session_id, role, DEFAULT_HOURS)
            scope = invites.scope_of_invite(invite)
        kept = dict(list(kept.items())[-(most - 1) :])
        kept[str(session_id)] = token
        session[cookie] = kept
    return scope, token


# A club event's table cards.

SCORER_INVITES = "scorer_invites"
# An event's round seldom has more tables than this; older codes are made again when shown.
MAX_SCORER_INVITES = 24


def scorer_code(session_id: int) -> TableCode | None:
    """A table card's QR code for the phone that scores that table: an invite as scorer when
    access is on and this screen is signed in, the scoresheet's own address when access is
    off; none for a screen that may not invite."""
    access = state.current()
    if not access.on:
        url = hosts.lan_url("pages.session_page", session_id=session_id)
        return TableCode(url, qr_svg(url), Markup("Scan to score this table"))
    if not signed_in(access):
        return None
    scope, token = _kept_invite(session_id, Role.SCORER, SCORER_INVITES, MAX_SCORER_INVITES)
    until = local_time(scope.expires_at, day=False)
    caption = Markup("Scan to score this table (until {})").format(until)
    return TableCode(invite_url(token), qr_svg(invite_url(token)), caption)
