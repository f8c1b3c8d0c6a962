"""Nights kept without hands: a night added from paper (its date, name, and each player's net),
its page, and its edit. A form is read into the API's terms (`exchange.session_bodies`) and its nets
checked by the engine (`rules.check_nets`), then written as the API writes them, so a form
and the API refuse with the same sentence."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import HiddenField, StringField

from .. import rules
from ..exchange.session_bodies import NightRequest, night_request
from ..insights.dates import day_of, start_of, today
from ..rules import RuleError
from ..rules.nights import MAX_PLAYERS
from ..sessions import loading, rows
from ..sessions.errors import Conflict, VersionMismatch
from ..sessions.models import Session
from .blueprint import bp
from .forms import NewPlayersForm
from .saving import done, roster_write, session_write
from .words import shared_places

# Blank lines the form offers after those typed ("More lines" shows them again, without a
# script, once they are filled).
BLANK_LINES = 8
NET = re.compile(r"[+-]?\d{1,6}", re.ASCII)
# Minus signs a phone's keyboard or a paste may give instead of "-".
MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-"})

NO_SEATS = "A night kept without hands has no seats: Edit changes its players and their nets."
NO_TABLE_VIEW = "A night kept without hands has no table view: its standings are on its page."
NO_HANDS_CSV = (
    "A night kept without hands has no hands to download: Standings (CSV) holds its nets."
)


def typed_net(text: str) -> int | str:
    """A typed net as a number: empty is 0 (broke even), a sign may lead; anything else as
    typed, for the engine to refuse."""
    text = text.translate(MINUSES).replace(" ", "")
    if not text:
        return 0
    return int(text) if NET.fullmatch(text) else text


ADDS_UP = "Adds up to 0"


def tally(lines: list[tuple[str, str]]) -> str:
    """What the page says beside Save of the nets typed: "Adds up to 0", "Off by 3", or what
    keeps them from adding up yet. `static/night_form.js` says the same as they are typed."""
    nets = [(name.strip(), typed_net(net)) for name, net in lines]
    for name, net in nets:
        if isinstance(net, str):
            return f"{name or 'A player'}'s net is not a whole number"
    if sum(1 for name, _ in nets if name) < 2:
        return "Two players at least"
    off = sum(int(net) for _, net in nets)
    return ADDS_UP if off == 0 else f"Off by {off}"


class NightForm(NewPlayersForm):
    """A night as typed: its date, an optional name, and a line a player (`player` and `net`,
    repeated). A line with neither is left out."""

    played_on = StringField("Date")
    name = StringField("Name (optional)")
    # On the edit form: the session's version when it opened, to notice a change meanwhile.
    version = HiddenField()

    FIELD_FOR: ClassVar[dict[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.extra_errors["totals"] = []
        self.lines: list[tuple[str, str]] = []

    def read_lines(self, formdata: Any) -> None:
        names, nets = formdata.getlist("player"), formdata.getlist("net")
        width = max(len(names), len(nets))
        names += [""] * (width - len(names))
        nets += [""] * (width - len(nets))
        lines = zip(names, nets, strict=True)
        self.lines = [(name, net) for name, net in lines if name.strip() or net.strip()]

    def fill(self, session: Session) -> None:
        """Prefill the form with a night as kept, to edit it."""
        self.played_on.data = day_of(session.created_at)
        self.name.data = session.name
        self.version.data = str(session.version)
        self.lines = [(name, str(net)) for name, net in loading.nets_of(session).items()]

    def night(self) -> NightRequest:
        """The night as the API reads it, its nets checked by the engine."""
        given = night_request(
            {
                "played_on": (self.played_on.data or "").strip() or None,
                "name": self.name.data or "",
                "new_players": self.new_players,
            }
        )
        lines = [(name, typed_net(net)) for name, net in self.lines]
        return replace(given, nets=rules.check_nets(lines))

    @property
    def shown_lines(self) -> list[tuple[str, str]]:
        """The lines typed, then blank ones to type more."""
        room = max(0, MAX_PLAYERS - len(self.lines))
        return [*self.lines, *[("", "")] * min(BLANK_LINES, room)]

    @property
    def tally(self) -> str:
        return tally(self.lines)

    @property
    def refused(self) -> bool:
        return bool(self.errors or self.form_errors or any(self.extra_errors.values()))


def _render(
    form: NightForm, session: Session | None = None, notice: str | None = None
) -> tuple[str, int]:
    """The form: 409 with a change made meanwhile, 400 refused, else 200."""
    everyone = bool(request.args.get("everyone"))
    page = render_template(
        "nights/night_form.html",
        form=form,
        session=session,
        notice=notice,
        roster=loading.roster(everyone),
        show_everyone=not everyone and loading.has_retired(),
        max_players=MAX_PLAYERS,
        adds_up=ADDS_UP,
    )
    return page, 409 if notice else 400 if form.refused else 200


@bp.route("/sessions/nights/new", methods=["GET", "POST"])
def new_night() -> tuple[str, int] | BaseResponse:
    """Add a night from paper: its date (today unless changed), a name if it has one, and each
    player's net; saved once they add up to 0."""
    form = NightForm()
    if request.method == "GET":
        form.played_on.data = today().isoformat()
    form.read_lines(request.form)
    if form.validate_on_submit() and "more" not in request.form:
        form.read_new_players(request.form)
        try:
            given = form.night()
            assert given.nets is not None
            played_on = start_of(given.played_on or today())
            with roster_write() as write:
                session = rows.new_night(given.name or "", given.nets, played_on, given.new_players)
                page = url_for("pages.session_page", session_id=session.id)
                return done(write, page, "Night saved.")
        except RuleError as error:
            form.refuse(error)
    return _render(form)


@bp.route("/sessions/<id(session):session_id>/night", methods=["GET", "POST"])
def edit_night(session_id: int) -> tuple[str, int] | BaseResponse:
    """Change a night's date, name, players or nets. The form carries the night's version: a
    change made on another phone meanwhile is shown beside this one, never overwritten
    silently."""
    session = loading.session_head(session_id)
    if not session.totals_only:
        return redirect(url_for("pages.edit_session", session_id=session_id))
    form = NightForm()
    if request.method == "GET":
        form.fill(session)
        return _render(form, session)
    form.read_lines(request.form)
    notice = None
    if form.validate_on_submit() and "more" not in request.form:
        form.read_new_players(request.form)
        try:
            given = form.night()
            played_on = start_of(given.played_on) if given.played_on else None
            with session_write(session_id, if_match=form.version.data or None) as write:
                before = _night_words(write.session)
                write.change_night(given.name, played_on, given.nets, given.new_players)
                changed = _night_words(write.session) != before
                said = "Night saved." if changed else "Nothing changed."
                return done(write, url_for("pages.session_page", session_id=session_id), said)
        except VersionMismatch as mismatch:
            session = loading.session_head(session_id)
            form.version.data = str(mismatch.current)
            notice = (
                "This night was changed on another phone while you edited it: it is now "
                f"{_night_words(session)}. Yours is below: save it to replace theirs, or go "
                "back to keep theirs."
            )
        except RuleError as error:
            form.refuse(error)
    return _render(form, session, notice)


def _night_words(session: Session) -> str:
    """'2010-12-29, Dave -2, Greg 0' (named: 'Bowling, 2010-12-29, ...')."""
    nets = [f"{name} {net}" for name, net in loading.nets_of(session).items()]
    return ", ".join([*([session.name] if session.name else []), day_of(session.created_at), *nets])


def night_page(read: loading.Read) -> str:
    """A night's page: its standings by net, and what can be done with it."""
    return render_template(
        "nights/night.html",
        session=read.session,
        sheet=read.sheet,
        player_ids=read.player_ids,
        shared=shared_places(read.sheet.standings),
    )


def not_for_a_night(session: Session, sentence: str) -> BaseResponse:
    """A page a night kept without hands has none of: a look at it goes to the night's page,
    saying why; a form sent to it is refused, changing nothing."""
    if request.method not in ("GET", "HEAD"):
        raise Conflict(sentence)
    flash(sentence)
    return redirect(url_for("pages.session_page", session_id=session.id))
