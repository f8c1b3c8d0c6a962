"""One player's numbers, as their page shows them: every number of their summary rows added
up, by table size and in all, their sessions and days (their season, `_season`), their best
and worst nights and their rating's history; over the sessions in a range played by some house
rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Row,
    Select,
    case,
    cast,
    distinct,
    extract,
    func,
    null,
    select,
    union_all,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from .. import rules
from ..sessions import summary
from ..sessions.extensions import db
from ..sessions.models import Player, PlayerRating, Session
from . import memo, years
from .dates import QUARTER, DateRange, days_of, days_of_quarters
from .scope import RuleFilter, in_scope
from .stats import ALL_SUMMED, SP, Played, Rate, Totals, rating_of

# The most sessions a player's page lists; the rest come with "More".
SESSIONS_SHOWN = 50


@dataclass(frozen=True)
class SessionLine:
    """One session of a player: their total and hands won, and their place once it is
    complete (None while it is still being played)."""

    session_id: int
    name: str
    created_at: datetime
    hands: int
    hands_won: int
    total: int
    place: int | None
    # The session's stake in cents a point, 0 when it is played for points only.
    stake: int = 0
    # A night kept without hands.
    totals_only: bool = False


@dataclass(frozen=True)
class TableSize(Played):
    """A player's hands played at tables of one size: `seated` for the hand, sitting out
    included."""

    seated: int


@dataclass(frozen=True)
class CardPoints:
    """The picking team's card points of a player's picks: `total` over the `picks` recorded
    with points, and how many picks were recorded by their result alone (`left_out`)."""

    total: int
    picks: int
    left_out: int

    @property
    def average_shown(self) -> Decimal | None:
        """The average per pick to one decimal."""
        if not self.picks:
            return None
        exact = Decimal(self.total) / Decimal(self.picks)
        return exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class PlayerStats(Totals):
    alone: Rate
    partner: Rate
    cracks: Rate
    recracked: int
    crack_points: int
    leasters: Rate
    schneidered: int
    # Penalty hands in which the player was the penalized one.
    penalties: int
    card_points: CardPoints
    sessions_played: int
    sessions_won: int
    # Whether any session was played for a stake.
    staked: bool
    # The last sessions played (SESSIONS_SHOWN, or as many as asked for), oldest first.
    recent: tuple[SessionLine, ...]
    # The total of each day played on, in the server's time zone, in the order played.
    days: tuple[tuple[date, int], ...]
    # Smallest table first, only the sizes the player played at.
    by_size: tuple[TableSize, ...]
    # Their rating after sessions they played, over the whole history: (the session's count
    # among theirs, when it started, the rating), at most about a hundred (`rules.rating`).
    rating_history: tuple[tuple[int, datetime, float], ...] = field(default=(), kw_only=True)
    # How many sessions apart the points of `rating_history` are, but its last.
    rating_stride: int = field(default=1, kw_only=True)

    @property
    def sessions(self) -> tuple[SessionLine, ...]:
        """The last sessions played, oldest first: a page lists these."""
        return self.recent[-SESSIONS_SHOWN:]

    @property
    def more_sessions(self) -> int:
        """How many sessions played are not among `sessions`."""
        return self.sessions_played - len(self.sessions)

    @property
    def cracks_lost(self) -> int:
        return self.cracks.of - self.cracks.count


def player_stats(
    player: Player, dates: DateRange, house: RuleFilter | None = None, recent: int = 0
) -> PlayerStats:
    """All of one player's numbers, by table size and in all, their days and their last
    sessions (SESSIONS_SHOWN, or `recent` when more), over the sessions in the range played by
    the rules `house` asks for. The numbers are added up per table size by the database; the
    sizes (at most six) are then added together. The sessions and days are read in one query
    (`_season`)."""
    mine = [SP.player_id == player.id, *in_scope(dates, house)]
    rows = db.session.execute(
        select(SP.seated, *ALL_SUMMED, func.count().label("rows"))
        .where(*mine)
        .group_by(SP.seated)
        .order_by(SP.seated)
    ).all()
    by_size = tuple(
        TableSize(
            hands=Rate(row.hands_won, row.hands),
            total=row.total,
            picks=Rate(row.picks_won, row.picks),
            seated=row.seated,
        )
        for row in rows
        if row.seated != summary.NIGHT
    )
    nights = next((row for row in rows if row.seated == summary.NIGHT), None)

    def n(field: str) -> int:
        return sum(getattr(row, field) for row in rows)

    season = _season(player.id, dates, house, max(recent, SESSIONS_SHOWN))
    return PlayerStats(
        player_id=player.id,
        name=player.name,
        hands=Rate(n("hands_won"), n("hands")),
        total=n("total"),
        picks=Rate(n("picks_won"), n("picks")),
        alone=Rate(n("alone_won"), n("alone")),
        partner=Rate(n("partner_won"), n("partner")),
        cracks=Rate(n("cracks_won"), n("cracks")),
        recracked=n("recracked"),
        crack_points=n("crack_points"),
        leasters=Rate(n("leasters_won"), n("leasters")),
        schneidered=n("schneidered"),
        penalties=n("penalties"),
        card_points=CardPoints(
            n("card_points"), n("picks_with_points"), n("picks") - n("picks_with_points")
        ),
        sessions_played=season.played,
        sessions_won=season.won,
        staked=season.staked,
        recent=season.recent,
        days=season.days,
        by_size=by_size,
        money=season.money,
        nights=0 if nights is None else nights.rows,
        night_total=0 if nights is None else nights.total,
        **_rating(player.rating),
    )


def _rating(kept: PlayerRating | None) -> dict[str, Any]:
    """A player's rating and its history, as `PlayerStats` holds them: the history's last point
    is their rating now."""
    if kept is None:
        return {}
    history = rules.rating.History.from_json(kept.history)
    points = history.json(rules.rating.ordinal(kept.mu, kept.sigma))["points"]
    return {
        "rating": rating_of(kept.mu, kept.sigma, kept.hands),
        "rating_history": tuple(
            (count, datetime.fromtimestamp(at, UTC), value) for count, at, value in points
        ),
        "rating_stride": history.stride,
    }


class _Quarter(NamedTuple):
    """The sessions of a player started in one quarter hour: played and won, their total and
    money, the rows with a stake, and the first and last second they started in."""

    played: int
    won: int
    total: int
    money: int
    staked: int
    first: int
    last: int


@dataclass(frozen=True)
class _Season:
    played: int
    won: int
    money: int
    staked: bool
    recent: tuple[SessionLine, ...]
    days: tuple[tuple[date, int], ...]


class WholeSeconds(FunctionElement[int]):
    """A moment in whole seconds from 1970 in UTC, rounded down, as SQLite's are."""

    type = BigInteger()
    name = "whole_seconds"
    inherit_cache = True


@compiles(WholeSeconds)
def _whole_seconds(element: WholeSeconds, compiler: SQLCompiler, **kw: Any) -> str:
    (moment,) = element.clauses
    return compiler.process(cast(func.floor(extract("epoch", moment)), BigInteger), **kw)


@compiles(WholeSeconds, "sqlite")
def _whole_seconds_sqlite(element: WholeSeconds, compiler: SQLCompiler, **kw: Any) -> str:
    (moment,) = element.clauses
    return compiler.process(extract("epoch", moment), **kw)


# The seconds from the first moment of the year 1 to 1970's, a whole number of quarter hours:
# added to a moment's seconds from 1970 they make a number never below 0, which a query
# divides as it should (rounding towards 0).
SECONDS_BEFORE_1970 = 62_135_596_800
# Each quarter hour of UTC, which the sessions started in it are added up by.
_QUARTER_STARTED = (WholeSeconds(Session.created_at) + SECONDS_BEFORE_1970) // QUARTER
_ADDED_BY_QUARTER = (
    func.count(distinct(SP.session_id)),
    func.count(distinct(case((SP.place == 1, SP.session_id)))),
    func.sum(SP.total),
    func.sum(SP.total * SP.stake),
    func.count(case((SP.stake != 0, 1))),
    WholeSeconds(func.min(Session.created_at)),
    WholeSeconds(func.max(Session.created_at)),
)


def _season(player_id: int, dates: DateRange, house: RuleFilter | None, recent: int) -> _Season:
    """The player's last `recent` sessions in scope, and all of them added up a quarter hour of
    UTC at a time (`_Quarter`), in one query: the sessions of a quarter hour fall on one day
    where the server is (`days_of_quarters`), so the days are added up from them."""
    key = ("season", player_id, dates, house, recent)
    return memo.kept(key, lambda: _season_of_years(player_id, dates, house, recent))


def _season_of_years(
    player_id: int, dates: DateRange, house: RuleFilter | None, recent: int
) -> _Season:
    """The season added up from each year's (`years`): the years' days are apart, and the
    last sessions of all are among the last of each."""
    of_years = years.each_year(
        ("season each year", player_id, dates, house, recent),
        dates,
        house,
        partial(_read_season, player_id, house=house, recent=recent),
    )
    parts = [of_years[year] for year in sorted(of_years)]
    lines = [line for part in parts for line in part.recent]
    return _Season(
        played=sum(part.played for part in parts),
        won=sum(part.won for part in parts),
        money=sum(part.money for part in parts),
        staked=any(part.staked for part in parts),
        recent=tuple(lines[len(lines) - min(recent, len(lines)) :]),
        days=tuple(day for part in parts for day in part.days),
    )


def _read_season(
    player_id: int, dates: DateRange, house: RuleFilter | None, recent: int
) -> _Season:
    lines = _lines(player_id, dates, house).limit(recent).subquery()
    width = len(lines.c)
    newest = select(*lines.c, *(null().label(name) for name in _Quarter._fields))
    added = (
        select(*(null() for _ in range(width)), *_ADDED_BY_QUARTER)
        .join(Session, Session.id == SP.session_id)
        .where(SP.player_id == player_id, *in_scope(dates, house))
        .group_by(_QUARTER_STARTED)
    )
    last: list[SessionLine] = []
    quarters: list[_Quarter] = []
    rows: Sequence[Row[*tuple[Any, ...]]] = db.session.execute(union_all(newest, added)).all()
    for row in rows:
        if row[0] is None:
            quarters.append(_Quarter(*row[width:]))
        else:
            last.append(SessionLine(*row[:width]))
    last.sort(key=lambda line: (line.created_at, line.session_id))
    quarters.sort(key=lambda quarter: quarter.first)
    days: dict[date, int] = {}
    spans = ((quarter.first, quarter.last) for quarter in quarters)
    for day, quarter in zip(days_of_quarters(spans), quarters, strict=True):
        if day is None:
            days = _days_one_by_one(player_id, dates, house)
            break
        days[day] = days.get(day, 0) + quarter.total
    return _Season(
        played=sum(quarter.played for quarter in quarters),
        won=sum(quarter.won for quarter in quarters),
        money=sum(quarter.money for quarter in quarters),
        staked=any(quarter.staked for quarter in quarters),
        recent=tuple(last),
        days=tuple(days.items()),
    )


def _days_one_by_one(player_id: int, dates: DateRange, house: RuleFilter | None) -> dict[date, int]:
    """Each day's total from the time of every session: when the sessions of a quarter hour
    can fall on two days."""
    rows = db.session.execute(
        select(Session.created_at, SP.total)
        .join(Session, Session.id == SP.session_id)
        .where(SP.player_id == player_id, *in_scope(dates, house))
        .order_by(Session.created_at, SP.session_id)
    ).all()
    days: dict[date, int] = {}
    for day, (_, total) in zip(days_of(row.created_at for row in rows), rows, strict=True):
        days[day] = days.get(day, 0) + total
    return days


def _lines(player_id: int, dates: DateRange, house: RuleFilter | None) -> Select[*tuple[Any, ...]]:
    """The sessions in scope where the player played a hand, newest first, each with their
    hands played and won, total and place (None while the session is still being played)."""
    return (
        select(
            SP.session_id,
            Session.name,
            Session.created_at,
            func.sum(SP.hands),
            func.sum(SP.hands_won),
            func.sum(SP.total),
            func.max(SP.place),
            SP.stake,
            Session.totals_only,
        )
        .join(Session, Session.id == SP.session_id)
        .where(SP.player_id == player_id, *in_scope(dates, house))
        .group_by(SP.session_id, Session.name, Session.created_at, SP.stake, Session.totals_only)
        .order_by(Session.created_at.desc(), SP.session_id.desc())
    )


def best_and_worst(
    player_id: int, dates: DateRange, house: RuleFilter | None = None
) -> tuple[SessionLine, SessionLine] | None:
    """The player's best night and worst, by their total (the earlier of equals); None while
    they have played no complete session in scope."""
    key = ("best and worst", player_id, dates, house)
    return memo.kept(key, lambda: _best_and_worst(player_id, dates, house))


def _best_and_worst(
    player_id: int, dates: DateRange, house: RuleFilter | None
) -> tuple[SessionLine, SessionLine] | None:
    of_years = years.each_year(
        ("best and worst each year", player_id, dates, house),
        dates,
        house,
        partial(_best_and_worst_in, player_id, house=house),
    )
    found = [line for pair in of_years.values() if pair is not None for line in pair]
    if not found:
        return None
    best = min(found, key=lambda line: (-line.total, line.created_at))
    worst = min(found, key=lambda line: (line.total, line.created_at))
    return best, worst


def _best_and_worst_in(
    player_id: int, dates: DateRange, house: RuleFilter | None
) -> tuple[SessionLine, SessionLine] | None:
    lines = _lines(player_id, dates, house).having(func.max(SP.place).is_not(None)).order_by(None)
    total = func.sum(SP.total)
    best = lines.order_by(total.desc(), Session.created_at).limit(1).subquery()
    worst = lines.order_by(total, Session.created_at).limit(1).subquery()
    found = db.session.execute(union_all(select(best), select(worst))).all()
    if not found:
        return None
    return SessionLine(*found[0]), SessionLine(*found[-1])


def sessions_of(
    player_id: int,
    dates: DateRange,
    house: RuleFilter | None = None,
    shown: int | None = None,
    before: int = 0,
) -> tuple[SessionLine, ...]:
    """The player's sessions in scope, oldest first: the last `shown` of them (all when None),
    skipping the newest `before`."""
    query = _lines(player_id, dates, house).offset(before)
    if shown is not None:
        query = query.limit(shown)
    return tuple(SessionLine(*line) for line in reversed(db.session.execute(query).all()))
