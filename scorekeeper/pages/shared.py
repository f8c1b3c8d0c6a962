"""Share results: a season's, an event's or a session's page makes a link anyone may open from
anywhere with no passcode (its QR code, Copy, Revoke), Settings lists every link, and the link
opens a page of its own that shows that one thing read-only: no menu, no link to another page,
no form, `noindex`, and no cookie set. Its views are counted for each address in the database
(`shares.count_view`), 429 beyond the limit; the access check lets it through by its name."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Response, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from ..exchange.rule_sets import qr_svg
from ..insights import sessions_list
from ..insights.season_standings import dates_of, house_of, standings
from ..sessions import event_reads, loading, season_writes, shares, writes
from ..sessions.database import one_or_404
from ..sessions.errors import NotFound
from ..sessions.extensions import db
from ..sessions.models import Event
from ..web import hosts
from .blueprint import bp
from .event_pages import EventView
from .filters import RANKED_SHOWN
from .saving import done, sent_key
from .season_pages import days_words, house_words
from .sessions import running_totals_chart
from .words import rules_words, short_names, tiebreaks

# The nights a shared season lists, the newest first.
NIGHTS_SHOWN = 50
# What a page that made or revoked a link sends the phone back to.
BACK = re.compile(r"/(?:settings|(?:seasons|events|sessions)/\d{1,10}/share)")
GONE = "This link is unknown or was revoked. Ask whoever shared it for a new one."
# A shared page's own headers: kept out of search engines and caches, its address (which
# holds its secret) sent nowhere.
SHARED_HEADERS = {
    "X-Robots-Tag": "noindex",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
}


class ShareForm(FlaskForm):  # type: ignore[misc]
    """The CSRF token of the forms that make and revoke links."""


def share_url(token: str) -> str:
    """A link's address, as an invite's: under the trusted name the page was opened with (over
    https when it came so, through a proxy), else on this computer's network address."""
    return hosts.lan_url("pages.shared_page", token=token)


@bp.app_template_global()
def share_links(kind: str, target: int) -> int:
    """How many links open one thing, for its page's Share results."""
    return shares.count_links(kind, target)


def make_share(kind: str, target: int, key: str | None, digest: str) -> writes.Answer:
    with shares.share_write(kind, target, key, digest) as write:
        link, token = shares.new_share(kind, target)
        return write.answered(201, shares.share_json(link, share_url(token)))


# Making and revoking


def _sheet(kind: str, target: int, thing: Any, back: str) -> str:
    """The share sheet of one thing: a link made (with its QR code, Copy and Revoke) when the
    form was sent, and every link to it."""
    form = ShareForm()
    made: dict[str, Any] | None = None
    if form.validate_on_submit():
        try:
            made = make_share(kind, target, *sent_key()).json
        except writes.Replay as replay:
            made = replay.answer.json if replay.answer else None
    return render_template(
        "shares/share_results.html",
        form=form,
        kind=kind,
        thing=thing,
        shows=shares.SHOWS[kind],
        back=back,
        made=made,
        qr=qr_svg(made["url"]) if made else None,
        links=shares.links_to(kind, target),
        here=request.path,
    )


@bp.route("/seasons/<id(season):season_id>/share", methods=["GET", "POST"])
def share_season(season_id: int) -> str:
    season = season_writes.season_or_404(season_id)
    return _sheet("season", season_id, season, url_for("pages.season_page", season_id=season_id))


@bp.route("/events/<id(event):event_id>/share", methods=["GET", "POST"])
def share_event(event_id: int) -> str:
    event = one_or_404("event", event_id, select(Event).where(Event.id == event_id))
    return _sheet("event", event_id, event, url_for("pages.event_page", event_id=event_id))


@bp.route("/sessions/<id(session):session_id>/share", methods=["GET", "POST"])
def share_session(session_id: int) -> str:
    session = loading.session_head(session_id)
    back = url_for("pages.session_page", session_id=session_id)
    return _sheet("session", session_id, session, back)


@bp.post("/shares/<id(share_link):link_id>/revoke")
def revoke_share(link_id: int) -> BaseResponse:
    sent = request.form.get("back", "")
    back = sent if BACK.fullmatch(sent) else url_for("pages.settings")
    if not ShareForm().validate_on_submit():
        return redirect(back, code=303)
    with writes.roster_write(*sent_key()) as write:
        revoked = shares.revoke(link_id)
        message = (
            "Link revoked: it opens nothing now." if revoked else "That link was revoked already."
        )
        return done(write, back, message)


# The shared page


@bp.get("/shared/<token>")
def shared_page(token: str) -> Response:
    wait = shares.count_view(request.remote_addr or "unknown")
    if wait is not None:
        message = f"This page was opened too often from here. Try again in {wait} seconds."
        page = render_template(
            "shares/shared_message.html", heading="Too many views", message=message
        )
        return _shared(page, 429, {"Retry-After": str(wait)})
    link = shares.share_of(token)
    try:
        if link is not None:
            return _shared(SHOWN[link.kind](link.target))
    except NotFound:
        # What it shows was deleted, with the link, as it was being read.
        pass
    page = render_template("shares/shared_message.html", heading="No such link", message=GONE)
    return _shared(page, 404)


def _shared(page: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(page, status, {**SHARED_HEADERS, **(headers or {})}, mimetype="text/html")


def _season(season_id: int) -> str:
    season = season_writes.season_or_404(season_id)
    read = standings(season)
    nights = sessions_list.find_sessions(
        sessions_list.SessionFilter(dates=dates_of(season), house=house_of(season)),
        per_page=NIGHTS_SHOWN,
    )
    settled = len(read.by_total) <= RANKED_SHOWN
    settle_up = read.settle_up() if settled else None
    return render_template(
        "shares/shared_season.html",
        read=read,
        season=season,
        days=days_words(season),
        rules=house_words(season),
        shown=RANKED_SHOWN,
        settle_up=settle_up,
        played=bool(settle_up and settle_up.balances),
        nights=nights,
    )


def _event(event_id: int) -> str:
    read = event_reads.read_event_or_404(event_id)
    return render_template("shares/shared_event.html", read=read, view=EventView.of(read))


def _session(session_id: int) -> str:
    read = loading.read_session_or_404(session_id)
    session, sheet = read.session, read.sheet
    table = sheet.table
    return render_template(
        "shares/shared_session.html",
        session=session,
        sheet=sheet,
        event=db.session.get(Event, session.event_id) if session.event_id else None,
        tiebreaks=tiebreaks(sheet.standings),
        chart=running_totals_chart(sheet) if sheet.results else None,
        left={standing.player for standing in sheet.standings if not standing.seated},
        short=short_names(sheet.named),
        rules_words=rules_words(table.options, len(table.seats)),
    )


# Each kind of link's page, from the id of what it shows.
SHOWN: dict[str, Callable[[int], str]] = {"season": _season, "event": _event, "session": _session}
