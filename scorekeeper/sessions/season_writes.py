"""Seasons in the database: a season made, changed and deleted, each inside a roster write
(`writes.roster_write`), its settings checked the same way for a page's form, the API and a
backup, so each refuses with the same sentence.

A season names the sessions started from its first day to its last (days in the server's time
zone, as `insights/dates.py` reads them) and, when it names some, played with its house rules:
the keys of the leaderboard's house rule filters, or "plain" for sessions played with none.
Its standings are read by `insights/season_standings.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from .database import one_or_404
from .errors import Conflict, NotFound
from .extensions import db
from .models import Season, utcnow
from .records import iso

MAX_SEASON_NAME_LENGTH = 60
SEASON_NAME = "A season's name"
# The fewest hands a player plays to be ranked by average, unless the season says otherwise.
DEFAULT_MIN_HANDS = 30
MAX_MIN_HANDS = 9999
# The house rules a season can ask for, by the keys of the leaderboard's filters, in their order,
# and the one that asks for sessions played with none of them.
HOUSE_RULE_LABELS = {
    option.about.filter_key: option.about.filter_label
    for option in rules.OPTIONS
    if option.about.filter_key
}
PLAIN = "plain"
PLAIN_LABEL = "No house rule"
HOUSE_RULE_KEYS = (*HOUSE_RULE_LABELS, PLAIN)
# The days whose first and last moment are times Python can hold in any time zone, as
# `insights/dates.py` allows in a date filter.
FIRST_DAY = date(1, 1, 2)
LAST_DAY = date(9999, 12, 30)


@dataclass(frozen=True)
class SeasonFields:
    """A season's settings as a request gives them, their types checked; None: not given."""

    name: str | None = None
    first_day: date | None = None
    last_day: date | None = None
    house_rules: list[str] | None = None
    min_hands: int | None = None

    def given(self) -> set[str]:
        return {f.name for f in fields(self) if getattr(self, f.name) is not None}


@dataclass(frozen=True)
class Checked:
    """A season's settings, every one checked."""

    name: str
    first_day: date
    last_day: date
    house_rules: list[str]
    min_hands: int


def season_name(name: str) -> str:
    """A season's name as it is kept, or a refusal saying why it can't be one."""
    return rules.checked_name(name, SEASON_NAME, MAX_SEASON_NAME_LENGTH, "name")


def house_rules_of(given: list[str]) -> list[str]:
    """The house rules asked for, as their keys in the filters' order, each once; an unknown one,
    or "plain" with another, refused."""
    keys = set()
    for typed in given:
        key = typed.strip().lower()
        if key not in HOUSE_RULE_KEYS:
            raise RuleError(
                f"A season's house rules are among {', '.join(HOUSE_RULE_KEYS[:-1])} and "
                f"{PLAIN}; “{typed}” is none of them.",
                "house_rules",
            )
        keys.add(key)
    if PLAIN in keys and len(keys) > 1:
        others = [label for key, label in HOUSE_RULE_LABELS.items() if key in keys]
        raise RuleError(
            f"“{PLAIN_LABEL}” can't go with {', '.join(others)}: choose one or the other.",
            "house_rules",
        )
    return [key for key in HOUSE_RULE_KEYS if key in keys]


def _day(day: date | None, field: str, label: str) -> date:
    if day is None:
        raise RuleError(f"Give the season's {label}.", field)
    if not FIRST_DAY <= day <= LAST_DAY:
        raise RuleError(f"The {label} must be a day from {FIRST_DAY} to {LAST_DAY}.", field)
    return day


def checked(given: SeasonFields) -> Checked:
    """Every setting of a season checked, the fewest hands at its default when not given."""
    name = season_name(given.name if given.name is not None else "")
    first = _day(given.first_day, "first_day", "first day")
    last = _day(given.last_day, "last_day", "last day")
    if last < first:
        raise RuleError(f"The last day, {last}, comes before the first day, {first}.", "last_day")
    min_hands = DEFAULT_MIN_HANDS if given.min_hands is None else given.min_hands
    if not 0 <= min_hands <= MAX_MIN_HANDS:
        raise rules.whole_number_error(
            "The fewest hands to be ranked by average", 0, MAX_MIN_HANDS, "min_hands"
        )
    return Checked(name, first, last, house_rules_of(given.house_rules or []), min_hands)


def named(name: str) -> Season | None:
    return db.session.scalar(select(Season).where(Season.name_key == rules.name_key(name)))


def _check_free(name: str, season_id: int | None = None) -> None:
    held = named(name)
    if held is not None and held.id != season_id:
        raise Conflict(f"There is a season named {held.name} already: choose another name.", "name")


def _set(season: Season, settings: Checked) -> None:
    season.name = settings.name
    season.name_key = rules.name_key(settings.name)
    season.first_day = settings.first_day
    season.last_day = settings.last_day
    season.house_rules = settings.house_rules
    season.min_hands = settings.min_hands


def new_season(given: SeasonFields) -> Season:
    """Add a season, inside a roster write; a name another season has (case ignored) is 409."""
    settings = checked(given)
    _check_free(settings.name)
    season = Season(created_at=utcnow())
    _set(season, settings)
    db.session.add(season)
    db.session.flush()
    return season


def season_or_none(season_id: int) -> Season | None:
    return db.session.get(Season, season_id)


def season_or_404(season_id: int) -> Season:
    return one_or_404("season", season_id, select(Season).where(Season.id == season_id))


def _season(season_id: int) -> Season:
    season = season_or_none(season_id)
    if season is None:
        raise NotFound(f"There is no season {season_id}.", "id")
    return season


def change_season(season_id: int, given: SeasonFields) -> Season:
    """Change what is given of a season, inside a roster write, the season then checked whole."""
    season = _season(season_id)
    now = SeasonFields(
        season.name, season.first_day, season.last_day, season.house_rules, season.min_hands
    )
    settings = checked(replace(now, **{key: getattr(given, key) for key in given.given()}))
    _check_free(settings.name, season.id)
    _set(season, settings)
    db.session.flush()
    return season


def delete_season(season_id: int) -> str:
    """Delete a season, inside a roster write; its name. Its sessions stay as they are."""
    season = _season(season_id)
    db.session.delete(season)
    db.session.flush()
    return season.name


def listed() -> list[Season]:
    """Every season, the latest first."""
    return list(
        db.session.scalars(
            select(Season).order_by(Season.first_day.desc(), Season.last_day.desc(), Season.id)
        )
    )


def by_name() -> list[Season]:
    """Every season by name."""
    return list(db.session.scalars(select(Season).order_by(Season.name_key, Season.id)))


def season_json(season: Season) -> dict[str, Any]:
    """A season as the API answers it (and a backup keeps it, without its id)."""
    return {
        "id": season.id,
        "name": season.name,
        "first_day": season.first_day.isoformat(),
        "last_day": season.last_day.isoformat(),
        "house_rules": list(season.house_rules),
        "min_hands": season.min_hands,
        "created_at": iso(season.created_at),
    }


def restored_season(given: SeasonFields, created_at: Any) -> bool:
    """A season from a backup, checked as a new one, added unless a season of its name is here
    already; whether it was added."""
    settings = checked(given)
    if named(settings.name) is not None:
        return False
    season = Season(created_at=created_at)
    _set(season, settings)
    db.session.add(season)
    db.session.flush()
    return True
