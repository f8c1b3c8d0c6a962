"""A season's standings: every player who played a hand in its sessions or a night kept without
hands, ranked by total and by average per hand (only those with the season's fewest hands),
with their money, the sessions they played in, and the settle-up of the season's sessions.

Totals, hands and money come from `stats.player_totals`, the leaderboard's own numbers, over the
season's days and house rules; the sessions each played in are one grouped query more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select

from .. import rules
from ..sessions.extensions import db
from ..sessions.models import Season, Session, SessionPlayer
from ..sessions.records import settle_up_json
from ..sessions.season_writes import PLAIN, season_json
from . import scope, stats
from .dates import DateRange
from .settle_up import of_range


@dataclass(frozen=True)
class Standing:
    """A player's season: their numbers, their place by total and by average (None under the
    season's fewest hands), and the sessions they played a hand in."""

    totals: stats.Totals
    sessions: int
    place: int = 0
    average_place: int | None = None

    @property
    def player_id(self) -> int:
        return self.totals.player_id

    @property
    def name(self) -> str:
        return self.totals.name

    @property
    def total(self) -> int:
        return self.totals.total

    @property
    def hands(self) -> int:
        return self.totals.hands.of

    @property
    def hands_won(self) -> int:
        return self.totals.hands.count

    @property
    def nights(self) -> int:
        return self.totals.nights

    @property
    def average(self) -> Fraction | None:
        """Per hand recorded; None for a player of nights kept without hands alone."""
        return self.totals.average

    @property
    def average_shown(self) -> Decimal | None:
        """The average per hand to two decimals, rounded half up."""
        return self.totals.average_shown

    @property
    def money(self) -> int:
        return self.totals.money


@dataclass(frozen=True)
class Standings:
    season: Season
    # Every player, best total first (then more hands won; equals share a place).
    by_total: tuple[Standing, ...]
    # The players with the fewest hands or more, best average first, then the others by
    # average with no place.
    by_average: tuple[Standing, ...]
    # Most sessions first.
    attendance: tuple[Standing, ...]
    # The nights kept without hands among its sessions: in the totals, in no average.
    nights: int = 0

    def settle_up(self) -> rules.SettleUp:
        """Who pays whom over the season's sessions."""
        season = self.season
        return of_range(season.first_day, season.last_day, house_of(season))

    @property
    def staked(self) -> bool:
        """Whether anyone won or lost money: the money is shown only then."""
        return any(standing.money for standing in self.by_total)

    @property
    def ranked(self) -> tuple[Standing, ...]:
        return tuple(s for s in self.by_average if s.average_place is not None)

    @property
    def unranked(self) -> tuple[Standing, ...]:
        return tuple(s for s in self.by_average if s.average_place is None)


def house_of(season: Season) -> scope.RuleFilter:
    """The sessions a season's house rules keep, as the leaderboard's filter."""
    keys = frozenset(season.house_rules)
    return scope.RuleFilter(keys - {PLAIN}, PLAIN in keys)


def dates_of(season: Season) -> DateRange:
    return DateRange(season.first_day, season.last_day)


def _sessions_played(dates: DateRange, house: scope.RuleFilter) -> dict[int, int]:
    """How many of the sessions each player played a hand in, by the player's id."""
    in_season = select(Session.id).where(*dates.session_conditions(), *house.session_conditions())
    rows = db.session.execute(
        select(SessionPlayer.player_id, func.count(func.distinct(SessionPlayer.session_id)))
        .where(SessionPlayer.session_id.in_(in_season))
        .group_by(SessionPlayer.player_id)
    )
    return {player_id: sessions for player_id, sessions in rows}


def _places(ordered: Sequence[Standing], key: Callable[[Standing], Any]) -> list[int]:
    """The place of each of `ordered` (best first): equals by `key` share one (1, 2, 2, 4)."""
    places: list[int] = []
    for index, standing in enumerate(ordered):
        tied = index and key(ordered[index - 1]) == key(standing)
        places.append(places[-1] if tied else index + 1)
    return places


def _best_first(players: Sequence[Standing], key: Callable[[Standing], Any]) -> list[Standing]:
    ordered = sorted(players, key=lambda s: s.name.casefold())
    ordered.sort(key=key, reverse=True)
    return ordered


def standings(season: Season) -> Standings:
    dates, house = dates_of(season), house_of(season)
    sessions = _sessions_played(dates, house)
    players = [
        Standing(totals, sessions.get(totals.player_id, 0))
        for totals in stats.player_totals(dates, house)
    ]

    def by_total(s: Standing) -> tuple[int, int]:
        return (s.total, s.hands_won)

    def by_average(s: Standing) -> tuple[bool, Fraction]:
        return (s.average is not None, s.average or Fraction(0))

    totals = _best_first(players, by_total)
    place = dict(zip((s.player_id for s in totals), _places(totals, by_total), strict=True))
    fewest = max(season.min_hands, 1)
    ranked = _best_first([s for s in players if s.hands >= fewest], by_average)
    average_place = dict(
        zip((s.player_id for s in ranked), _places(ranked, by_average), strict=True)
    )
    others = _best_first([s for s in players if s.hands < fewest], by_average)

    def placed(s: Standing) -> Standing:
        return Standing(s.totals, s.sessions, place[s.player_id], average_place.get(s.player_id))

    return Standings(
        season=season,
        by_total=tuple(placed(s) for s in totals),
        by_average=tuple(placed(s) for s in (*ranked, *others)),
        attendance=tuple(placed(s) for s in _best_first(players, lambda s: s.sessions)),
        nights=stats.nights_in(dates, house) if any(s.nights for s in players) else 0,
    )


def standing_json(standing: Standing) -> dict[str, Any]:
    return {
        "player": standing.name,
        "player_id": standing.player_id,
        "place": standing.place,
        "average_place": standing.average_place,
        "total": standing.total,
        "hands": standing.hands,
        "hands_won": standing.hands_won,
        "average": None if standing.average_shown is None else float(standing.average_shown),
        "sessions": standing.sessions,
        "money": standing.money,
        "nights": standing.nights,
    }


def standings_json(read: Standings) -> dict[str, Any]:
    """The season as the API answers it, with its standings by total and its settle-up."""
    return season_json(read.season) | {
        "standings": [standing_json(standing) for standing in read.by_total],
        "staked": read.staked,
        "settle_up": settle_up_json(read.settle_up()),
    }


CSV_HEADER = (
    "place", "player", "total", "hands", "hands_won", "average", "sessions", "money",
    "average_place", "nights",
)  # fmt: skip


def standings_rows(read: Standings) -> list[list[Any]]:
    """The standings as the CSV's rows, by total: the average to two decimals, money in dollars
    with cents (empty when nobody won or lost any), and the place by average (empty under the
    season's fewest hands)."""
    return [
        [
            s.place, s.name, s.total, s.hands, s.hands_won, s.average_shown, s.sessions,
            Decimal(s.money).scaleb(-2) if read.staked else None, s.average_place, s.nights,
        ]
        for s in read.by_total
    ]  # fmt: skip
