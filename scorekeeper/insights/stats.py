"""Player statistics and the leaderboard, added up by the database.

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
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Label,
    Row,
    Select,
    case,
    cast,
    distinct,
    extract,
    func,
    not_,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from .. import rules
from ..sessions import summary
from ..sessions.extensions import db
from ..sessions.models import Player, PlayerRating, Session, SessionPlayer
from . import memo, years
from .dates import QUARTER, DateRange, days_of, days_of_quarters

DEFAULT_MIN_PICKS = 10
# The most sessions a player's page lists; the rest come with "More".
SESSIONS_SHOWN = 50


@dataclass(frozen=True)
class HouseRule:
    """A house rule sessions can be found by: its label, what keeps the sessions played with
    it, and whether a session's options play it."""

    label: str
    kept: ColumnElement[bool]
    played: Callable[[rules.Options], bool]


def _house_rule(option: rules.Option) -> HouseRule:
    column = getattr(Session, option.name)
    kept = column.is_(not option.default) if option.kind is bool else column != option.default
    return HouseRule(option.about.filter_label, kept, option.played)


# By the key the filters call each.
HOUSE_RULES: dict[str, HouseRule] = {
    option.about.filter_key: _house_rule(option)
    for option in rules.OPTIONS
    if option.about.filter_key
}
NO_HOUSE_RULE = "plain"
NO_HOUSE_RULE_LABEL = "No house rule"


@dataclass(frozen=True)
class RuleFilter:
    """Sessions played with every one of some house rules (keys of HOUSE_RULES), or, when
    `plain`, with none of them; the stake changes no score, so it is not a house rule here."""

    wanted: frozenset[str] = frozenset()
    plain: bool = False

    @property
    def words(self) -> str:
        """Which sessions, in words ("played with bump and schwarz by tricks"); empty for all."""
        if self.plain:
            return f"played with {NO_HOUSE_RULE_LABEL.lower()}"
        labels = [rule.label.lower() for key, rule in HOUSE_RULES.items() if key in self.wanted]
        if not labels:
            return ""
        listed = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
        return f"played with {listed}"

    def session_conditions(self) -> list[ColumnElement[bool]]:
        if self.plain:
            return [not_(or_(*(rule.kept for rule in HOUSE_RULES.values())))]
        return [HOUSE_RULES[key].kept for key in sorted(self.wanted)]


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
_ALL_SUMMED = _summed(*summary.NUMBERS)


def in_scope(
    dates: DateRange, house: RuleFilter | None, column: Any = SP.session_id
) -> list[ColumnElement[bool]]:
    """What keeps only the rows (the summaries, unless `column` names another session id) of
    the sessions in the range and played by the rules: the sessions picked first, so that no
    row looks its session up."""
    conditions = [*dates.session_conditions(), *(house or RuleFilter()).session_conditions()]
    if not conditions:
        return []
    return [column.in_(select(Session.id).where(*conditions))]


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
    """Each player's numbers added up over the sessions in scope, by the player's id."""
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
        select(SP.seated, *_ALL_SUMMED, func.count().label("rows"))
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
