"""Filters of the sessions list, player and leaderboard pages, read from the query string."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from ..insights import scope, stats
from ..insights.dates import DateRange, check_day
from ..rules import RuleError
from ..sessions import season_writes
from ..sessions.models import is_id

DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
MIN_PICKS = re.compile(r"\d{1,4}", re.ASCII)
# The places a ranking of the leaderboard or a season shows, until "Show everyone".
RANKED_SHOWN = 100
# The query string's keys of the house rule filters.
HOUSE_KEYS = (*scope.HOUSE_RULES, scope.NO_HOUSE_RULE)


@dataclass(frozen=True)
class Filters:
    """The filters as typed (to show them again), as understood, and what was wrong with them."""

    typed: dict[str, str]
    dates: DateRange
    min_picks: int
    errors: list[str]
    house: scope.RuleFilter

    @property
    def given(self) -> dict[str, str]:
        """The filters that were given, for links that keep them."""
        return {key: text for key, text in self.typed.items() if text}

    @property
    def given_dates(self) -> dict[str, str]:
        return {key: text for key, text in self.given.items() if key in ("from", "to")}

    @property
    def given_scope(self) -> dict[str, str]:
        """The dates and house rules given: which sessions the numbers are of."""
        return {k: text for k, text in self.given.items() if k in ("from", "to", *HOUSE_KEYS)}

    @property
    def house_choices(self) -> list[tuple[str, str, bool]]:
        """Each house rule filter offered: its key, label, and whether it is ticked."""
        labels = {key: rule.label for key, rule in scope.HOUSE_RULES.items()}
        labels[scope.NO_HOUSE_RULE] = scope.NO_HOUSE_RULE_LABEL
        return [(key, labels[key], bool(self.typed.get(key))) for key in HOUSE_KEYS]


def _date(text: str, label: str, errors: list[str]) -> date | None:
    if not text:
        return None
    try:
        if DATE.fullmatch(text):
            day = date.fromisoformat(text)
            check_day(day, label.lower())
            return day
    except RuleError as error:
        errors.append(error.message)
        return None
    except ValueError:
        pass
    errors.append(f"{label}: “{text}” is not a date. A date is written like 2026-11-21.")
    return None


def _in_season(args: Mapping[str, str], errors: list[str]) -> Mapping[str, str]:
    """The filters with a chosen season's days and house rules in place of those given."""
    chosen = args.get("season", "").strip()
    if not chosen:
        return args
    season = None
    if chosen.isdigit() and len(chosen) <= 10 and is_id(int(chosen)):
        season = season_writes.season_or_none(int(chosen))
    if season is None:
        errors.append(f"There is no season {chosen}: choose another.")
        return args
    kept = {key: text for key, text in args.items() if key not in ("from", "to", *HOUSE_KEYS)}
    return {
        **kept,
        "from": season.first_day.isoformat(),
        "to": season.last_day.isoformat(),
        **dict.fromkeys(season.house_rules, "y"),
    }


def read_filters(args: Mapping[str, str], keys: tuple[str, ...] = ("from", "to")) -> Filters:
    """The filters of `keys`; with "season" among them, a season chosen sets the days and the
    house rules to its own."""
    errors: list[str] = []
    if "season" in keys:
        args = _in_season(args, errors)
    typed = {key: args.get(key, "").strip() for key in keys}
    start = _date(typed["from"], "From", errors)
    end = _date(typed["to"], "To", errors)
    if start and end and start > end:
        errors.append("The first date comes after the last one.")
    min_picks = stats.DEFAULT_MIN_PICKS
    if typed.get("min_picks"):
        if MIN_PICKS.fullmatch(typed["min_picks"]):
            min_picks = int(typed["min_picks"])
        else:
            errors.append(
                f"The minimum number of picks, “{typed['min_picks']}”, must be a whole number "
                "from 0 to 9999."
            )
    wanted = frozenset(key for key in scope.HOUSE_RULES if typed.get(key))
    plain = bool(typed.get(scope.NO_HOUSE_RULE))
    if plain and wanted:
        ticked = ", ".join(scope.HOUSE_RULES[key].label for key in HOUSE_KEYS if key in wanted)
        errors.append(f"“{scope.NO_HOUSE_RULE_LABEL}” can't go with {ticked}: untick one.")
    house = scope.RuleFilter(wanted, plain)
    return Filters(typed, DateRange(start, end), min_picks, errors, house)
