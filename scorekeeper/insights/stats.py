"""Every player's totals, the leaderboard and each year's champion, added up by the database
(one player's own numbers are `player_numbers`).

Every number comes from the scores, wins and schneiders the rules engine stored on each
`HandPlayer` row, as each session's summary (`SessionPlayer`, kept by every write) adds them
up; nothing here knows a scoring rule. Each answer is a fixed number of queries over a few rows
a session, however many hands there are.

A hand is every recorded deal, passes and penalty hands included, as on the scoresheet. A
player's hands are the ones they played: never one they sat out, nor one dealt after they left
the table. Every rate is per hand played. Whether a hand was won is the engine's: a pick by its
result (given, or following from its points), a penalty hand by nobody. Card points count only
the picks recorded with points; a pick recorded by its result alone is left out of them, and
counted as such.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import partial
from operator import add
from typing import Any, NamedTuple

from sqlalchemy import (
    Label,
    func,
    select,
)

from .. import rules
from ..sessions import summary
from ..sessions.extensions import db
from ..sessions.models import Player, PlayerRating, Session, SessionPlayer
from . import memo, years
from .dates import DateRange
from .scope import RuleFilter, in_scope

DEFAULT_MIN_PICKS = 10


@dataclass(frozen=True)
class Rate:
    """How many of some hands (or picks, cracks...) went the player's way."""

    count: int
    of: int

    @property
    def percent(self) -> int | None:
        """Rounded half up, in whole numbers."""
        return None if not self.of else (200 * self.count + self.of) // (2 * self.of)

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.count, self.of) if self.of else Fraction(0)

    def __str__(self) -> str:
        if not self.of:
            return "0 of 0"
        return f"{self.count} of {self.of}, {self.percent}%"


@dataclass(frozen=True)
class Played:
    """Hands played and won, the total, and picks made and won; the total counts the nights
    kept without hands (`nights` of them, `night_total` their nets), where hands don't."""

    hands: Rate
    total: int
    picks: Rate
    nights: int = field(default=0, kw_only=True)
    night_total: int = field(default=0, kw_only=True)

    @property
    def hands_played(self) -> int:
        return self.hands.of

    @property
    def average(self) -> Fraction | None:
        """The average per hand, of the hands recorded: a night kept without hands adds
        nothing to it."""
        if not self.hands_played:
            return None
        return Fraction(self.total - self.night_total, self.hands_played)

    @property
    def average_shown(self) -> Decimal | None:
        """The average per hand to two decimals."""
        if self.average is None:
            return None
        exact = Decimal(self.average.numerator) / Decimal(self.average.denominator)
        return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Totals(Played):
    """The numbers the leaderboard ranks a player by, and the money won or lost in sessions
    played for a stake (total x stake, in cents); and their rating, over the whole history
    whatever the range (None before their first rated hand)."""

    player_id: int
    name: str
    money: int
    rating: rules.rating.Rating | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Ranked:
    """A player's place in a ranking; None for a provisional rating, listed after the rest."""

    place: int | None
    player: Totals


@dataclass(frozen=True)
class Leaderboard:
    by_total: tuple[Ranked, ...]
    # Those who played a hand.
    by_average: tuple[Ranked, ...]
    by_picking: tuple[Ranked, ...]
    min_picks: int
    # The nights kept without hands in the totals, and in no average.
    nights: int = 0
    # Players with a rating: those rated first, then the provisional, each by rating.
    by_rating: tuple[Ranked, ...] = ()

    @property
    def staked(self) -> bool:
        """Whether anyone won or lost money: the money is shown only then."""
        return any(ranked.player.money for ranked in self.by_total)


SP = SessionPlayer


def _summed(*names: str) -> list[Label[int]]:
    return [func.coalesce(func.sum(getattr(SP, name)), 0).label(name) for name in names]


# Every number of a player's summary rows, added up: made once, as they are the same every time.
ALL_SUMMED = _summed(*summary.NUMBERS)


def player_totals(dates: DateRange, house: RuleFilter | None = None) -> list[Totals]:
    """Every player who played hands in the range (of sessions played by the rules `house`
    asks for), by name, from the sessions' summaries."""
    summed = memo.kept(("player totals", dates, house), lambda: _summed_by_player(dates, house))
    r = PlayerRating
    rows = db.session.execute(
        select(Player.id, Player.name, r.mu, r.sigma, r.hands)
        .outerjoin(r, r.player_id == Player.id)
        .order_by(Player.name_key)
    )
    return [
        Totals(
            hands=Rate(row.hands_won, row.hands),
            total=row.total,
            picks=Rate(row.picks_won, row.picks),
            player_id=player_id,
            name=name,
            money=row.money,
            nights=row.nights,
            night_total=row.night_total,
            rating=rating_of(mu, sigma, rated),
        )
        for player_id, name, mu, sigma, rated in rows
        if (row := summed.get(player_id)) is not None
    ]


class _Summed(NamedTuple):
    hands_won: int
    hands: int
    total: int
    picks_won: int
    picks: int
    money: int
    nights: int
    night_total: int


def _summed_by_player(dates: DateRange, house: RuleFilter | None) -> dict[int, _Summed]:
    """Each player's numbers added up over the sessions in scope, by the player's id: from
    each year's (`years`)."""
    of_years = years.each_year(
        ("player totals each year", dates, house), dates, house, partial(_summed_in, house=house)
    )
    summed: dict[int, _Summed] = {}
    for of_year in of_years.values():
        for player_id, numbers in of_year.items():
            held = summed.get(player_id)
            summed[player_id] = numbers if held is None else _Summed(*map(add, held, numbers))
    return summed


def _summed_in(dates: DateRange, house: RuleFilter | None) -> dict[int, _Summed]:
    rows = db.session.execute(
        select(
            SP.player_id,
            *_summed("hands_won", "hands", "total", "picks_won", "picks"),
            func.coalesce(func.sum(SP.total * SP.stake), 0).label("money"),
            func.count().filter(SP.seated == summary.NIGHT).label("nights"),
            func.coalesce(func.sum(SP.total).filter(SP.seated == summary.NIGHT), 0).label(
                "night_total"
            ),
        )
        .where(*in_scope(dates, house))
        .group_by(SP.player_id)
    )
    return {player_id: _Summed(*numbers) for player_id, *numbers in rows}


def rating_of(
    mu: float | None, sigma: float | None, hands: int | None
) -> rules.rating.Rating | None:
    """A rating kept, or None before a player's first rated hand."""
    if mu is None or sigma is None or not hands:
        return None
    return rules.rating.Rating(mu, sigma, hands)


def _ranking(players: Sequence[Totals], key: Callable[[Totals], Any]) -> tuple[Ranked, ...]:
    """Best first; players with an equal key share a place (1, 2, 2, 4), listed by name."""
    ordered = sorted(players, key=lambda p: p.name.casefold())
    ordered.sort(key=key, reverse=True)
    ranked: list[Ranked] = []
    for index, player in enumerate(ordered):
        tied = ranked and key(ranked[-1].player) == key(player)
        ranked.append(Ranked(ranked[-1].place if tied else index + 1, player))
    return tuple(ranked)


def leaderboard(
    dates: DateRange, min_picks: int = DEFAULT_MIN_PICKS, house: RuleFilter | None = None
) -> Leaderboard:
    """Ranked by total (then hands won, as in a session's standings), by average per hand, and
    by picking win rate (then more picks) among players with at least `min_picks` picks."""
    players = player_totals(dates, house)
    pickers = [p for p in players if p.picks.of >= max(min_picks, 1)]
    return Leaderboard(
        by_total=_ranking(players, lambda p: (p.total, p.hands.count)),
        by_average=_ranking([p for p in players if p.hands_played], lambda p: p.average),
        by_picking=_ranking(pickers, lambda p: (p.picks.fraction, p.picks.of)),
        min_picks=min_picks,
        nights=nights_in(dates, house) if any(p.nights for p in players) else 0,
        by_rating=_by_rating(players),
    )


@dataclass(frozen=True)
class Champion:
    """Who scored the highest total over a year's sessions (`year`), or over all of them
    (`year` None); several when they share it."""

    year: int | None
    names: tuple[str, ...]
    total: int


def champions(house: RuleFilter | None = None) -> tuple[Champion, ...]:
    """The champion of all time, then each year's, newest first: the highest totals over the
    sessions played by the rules `house` asks for, a year being its days in the server's time
    zone. Nobody while no session is played."""
    return memo.kept(("champions", house), lambda: _champions(house))


def _champions(house: RuleFilter | None) -> tuple[Champion, ...]:
    of_years = years.each_year(
        ("each year's totals", house), DateRange(), house, partial(_totals_of, house=house)
    )
    by_year: dict[int | None, dict[int, int]] = {year: of_years[year] for year in of_years}
    everyone: dict[int, int] = {}
    for of_year in by_year.values():
        for player_id, total in of_year.items():
            everyone[player_id] = everyone.get(player_id, 0) + total
    by_year[None] = everyone
    names = {
        player_id: name
        for player_id, name in db.session.execute(
            select(Player.id, Player.name).where(Player.id.in_(everyone))
        )
    }
    found = []
    for key in (None, *sorted((y for y in by_year if y is not None), reverse=True)):
        totals = by_year.get(key)
        if totals:
            best = max(totals.values())
            top = sorted((names[p] for p, t in totals.items() if t == best), key=str.casefold)
            found.append(Champion(key, tuple(top), best))
    return tuple(found)


def _totals_of(dates: DateRange, house: RuleFilter | None) -> dict[int, int]:
    """Each player's total over the sessions in the range."""
    rows = db.session.execute(
        select(SP.player_id, func.sum(SP.total))
        .where(*in_scope(dates, house))
        .group_by(SP.player_id)
    )
    return {player_id: total for player_id, total in rows}


def nights_in(dates: DateRange, house: RuleFilter | None = None) -> int:
    """How many nights kept without hands are among the sessions in scope."""
    conditions = [*dates.session_conditions(), *(house or RuleFilter()).session_conditions()]
    return (
        db.session.scalar(
            select(func.count()).select_from(Session).where(Session.totals_only, *conditions)
        )
        or 0
    )


def _by_rating(players: Sequence[Totals]) -> tuple[Ranked, ...]:
    """The players with a rating by the rating shown (equal ones share a place); the
    provisional after them, without a place."""
    rated = [p for p in players if p.rating is not None and not p.rating.provisional]
    provisional = [p for p in players if p.rating is not None and p.rating.provisional]

    def shown(player: Totals) -> Decimal:
        assert player.rating is not None
        return player.rating.shown

    unplaced = [Ranked(None, r.player) for r in _ranking(provisional, shown)]
    return (*_ranking(rated, shown), *unplaced)
