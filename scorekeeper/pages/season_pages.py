"""The seasons' pages: the list with New season, a season's page with its standings and
settle-up, its CSV, Edit and Delete. A form is read into the API's terms
(`season_bodies.season_request`) and written inside a roster write with the form's write key, so a
form and the API refuse with the same sentence and a form sent twice writes once."""

from __future__ import annotations

import re
from typing import Any

from flask import Response, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField

from ..exchange.csv_out import csv_lines
from ..exchange.season_bodies import season_change, season_request
from ..insights.scope import RuleFilter
from ..insights.season_standings import CSV_HEADER, Standings, standings, standings_rows
from ..rules import RuleError
from ..sessions import season_writes
from ..sessions.models import Season
from .blueprint import bp
from .filters import RANKED_SHOWN
from .forms import EngineForm
from .saving import done, roster_write
from .sessions import csv_download

DIGITS = re.compile(r"\d{1,6}", re.ASCII)


class SeasonForm(EngineForm):
    """A season's settings, as typed; its house rules are boxes named `house_rules`."""

    name = StringField("Name")
    first_day = StringField("First day")
    last_day = StringField("Last day")
    min_hands = StringField(
        "Fewest hands to be ranked by average", default=str(season_writes.DEFAULT_MIN_HANDS)
    )

    def __init__(self, *args: Any, house_rules: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.extra_errors["house_rules"] = []
        sent = request.form.getlist("house_rules") if request.method == "POST" else None
        self.house_rules: list[str] = sent if sent is not None else list(house_rules or [])

    @classmethod
    def of(cls, season: Season) -> SeasonForm:
        return cls(
            formdata=None,
            name=season.name,
            first_day=season.first_day.isoformat(),
            last_day=season.last_day.isoformat(),
            min_hands=str(season.min_hands),
            house_rules=season.house_rules,
        )

    @property
    def house_choices(self) -> list[tuple[str, str, bool]]:
        """Each house rule offered: its key, label, and whether it is ticked."""
        labels = {**season_writes.HOUSE_RULE_LABELS, season_writes.PLAIN: season_writes.PLAIN_LABEL}
        return [
            (key, labels[key], key in self.house_rules) for key in season_writes.HOUSE_RULE_KEYS
        ]

    def body(self) -> dict[str, Any]:
        """The season as the API takes it, for the API's checks."""
        typed = (self.min_hands.data or "").strip()
        # Typed digits are a number; anything else goes as typed, for the API's refusal.
        min_hands: int | str | None = int(typed) if DIGITS.fullmatch(typed) else typed or None
        return {
            "name": self.name.data or "",
            "first_day": (self.first_day.data or "").strip() or None,
            "last_day": (self.last_day.data or "").strip() or None,
            "house_rules": self.house_rules,
            "min_hands": min_hands,
        }

    @property
    def refused(self) -> bool:
        return bool(self.errors or self.form_errors or self.extra_errors["house_rules"])


class Listed:
    """A season as the list shows it."""

    def __init__(self, season: Season) -> None:
        self.id = season.id
        self.name = season.name
        self.days = days_words(season)
        self.rules = house_words(season)


def days_words(season: Season) -> str:
    first, last = season.first_day.isoformat(), season.last_day.isoformat()
    return first if first == last else f"{first} to {last}"


def house_words(season: Season) -> str:
    """Which sessions it takes, in words: "every session", "sessions played with bump"."""
    keys = frozenset(season.house_rules)
    words = RuleFilter(keys - {season_writes.PLAIN}, season_writes.PLAIN in keys).words
    return f"sessions {words}" if words else "every session"


def scope(season: Season) -> dict[str, str]:
    """The season as the leaderboard's and a player page's filters."""
    return {
        "from": season.first_day.isoformat(),
        "to": season.last_day.isoformat(),
        **dict.fromkeys(season.house_rules, "y"),
    }


@bp.app_template_global()
def season_choices() -> list[tuple[int, str]]:
    """Every season by name, for the leaderboard's Season choice."""
    return [(season.id, season.name) for season in season_writes.by_name()]


@bp.route("/seasons", methods=["GET", "POST"])
def seasons_page() -> str | tuple[str, int] | BaseResponse:
    form = SeasonForm()
    status = 400
    if form.validate_on_submit():
        try:
            given = season_request(form.body())
            with roster_write() as write:
                season = season_writes.new_season(given)
                page = url_for("pages.season_page", season_id=season.id)
                return done(write, page, f"{season.name} is made.")
        except RuleError as error:
            form.refuse(error)
            status = error.status
    listed = [Listed(season) for season in season_writes.listed()]
    page = render_template("seasons/seasons.html", form=form, seasons=listed)
    return (page, status) if form.refused else page


@bp.get("/seasons/<id(season):season_id>")
def season_page(season_id: int) -> str:
    read = standings(season_writes.season_or_404(season_id))
    shown = None if request.args.get("everyone") == "1" else RANKED_SHOWN
    settled = shown is None or len(read.by_total) <= shown
    return render_template("seasons/season.html", shown=shown, **_shown(read, settled))


def _shown(read: Standings, settled: bool = True) -> dict[str, Any]:
    """What the season's page shows; the settle-up only when `settled`."""
    season = read.season
    settle_up = read.settle_up() if settled else None
    return {
        "read": read,
        "season": season,
        "days": days_words(season),
        "rules": house_words(season),
        "season_scope": scope(season),
        "settle_up": settle_up,
        "played": bool(settle_up and settle_up.balances),
    }


@bp.get("/seasons/<id(season):season_id>.csv")
def season_csv(season_id: int) -> Response:
    read = standings(season_writes.season_or_404(season_id))
    body = "".join(csv_lines([CSV_HEADER, *standings_rows(read)]))
    return csv_download(body, f"sheepshead-season-{season_id}")


@bp.route("/seasons/<id(season):season_id>/edit", methods=["GET", "POST"])
def edit_season(season_id: int) -> str | tuple[str, int] | BaseResponse:
    season = season_writes.season_or_404(season_id)
    form = SeasonForm() if request.method == "POST" else SeasonForm.of(season)
    status = 400
    if form.validate_on_submit():
        try:
            given = season_change(form.body())
            with roster_write() as write:
                changed = season_writes.change_season(season_id, given)
                page = url_for("pages.season_page", season_id=season_id)
                return done(write, page, f"{changed.name} is saved.")
        except RuleError as error:
            form.refuse(error)
            status = error.status
        season = season_writes.season_or_404(season_id)
    page = render_template("seasons/edit_season.html", form=form, season=season)
    return (page, status) if form.refused else page


@bp.route("/seasons/<id(season):season_id>/delete", methods=["GET", "POST"])
def delete_season(season_id: int) -> str | BaseResponse:
    if request.method == "POST":
        with roster_write() as write:
            season = season_writes.season_or_none(season_id)
            message = "That season was deleted already."
            if season is not None:
                message = f"{season_writes.delete_season(season_id)} is deleted; its sessions stay."
            return done(write, url_for("pages.seasons_page"), message)
    season = season_writes.season_or_404(season_id)
    return render_template(
        "seasons/delete_season.html",
        season=season,
        days=days_words(season),
        rules=house_words(season),
    )
