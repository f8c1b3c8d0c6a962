"""Player statistics and the leaderboard, added up by the database.

Every number comes from the scores, wins and schneiders the rules engine stored on each
`HandPlayer` row; nothing here knows a scoring rule. Each answer is a fixed number of queries,
however many players, sessions and hands there are.

A hand is every recorded deal, passes and penalty hands included, as on the scoresheet. A
player's hands are the ones they played: never one they sat out, nor one dealt after they left
the table. Every rate is per hand played. Whether a hand was won is the engine's: a pick by its
result (given, or following from its points), a penalty hand by nobody. Card points count only
the picks recorded with points; a pick recorded by its result alone is left out of them, and
counted as such.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from sqlalchemy import (
    ColumnElement,
    ColumnExpressionArgument,
    Integer,
    Label,
    case,
    func,
    literal,
    not_,
    or_,
    select,
    union_all,
)

from .. import rules
from ..sessions.extensions import db
from ..sessions.models import Hand, HandPlayer, Player, Seat, Session
from .dates import DateRange

DEFAULT_MIN_PICKS = 10


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


def _session_ids(dates: DateRange, house: RuleFilter) -> list[ColumnElement[bool]]:
    """What keeps only the hands of the sessions in the range and played by the rules."""
    conditions = [*dates.session_conditions(), *house.session_conditions()]
    if not conditions:
        return []
    return [Hand.session_id.in_(select(Session.id).where(*conditions))]


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


@dataclass(frozen=True)
class Played:
    """Hands played and won, the total they scored, and picks made and won."""

    hands: Rate
    total: int
    picks: Rate

    @property
    def hands_played(self) -> int:
        return self.hands.of

    @property
    def average(self) -> Fraction | None:
        return Fraction(self.total, self.hands_played) if self.hands_played else None

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
    played for a stake (total x stake, in cents)."""

    player_id: int
    name: str
    money: int


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
    sessions: tuple[SessionLine, ...]
    # Smallest table first, only the sizes the player played at.
    by_size: tuple[TableSize, ...]

    @property
    def sessions_played(self) -> int:
        return len(self.sessions)

    @property
    def staked(self) -> bool:
        return any(line.stake for line in self.sessions)

    @property
    def sessions_won(self) -> int:
        return sum(1 for line in self.sessions if line.place == 1)

    @property
    def cracks_lost(self) -> int:
        return self.cracks.of - self.cracks.count


@dataclass(frozen=True)
class Ranked:
    place: int
    player: Totals


@dataclass(frozen=True)
class Leaderboard:
    by_total: tuple[Ranked, ...]
    by_average: tuple[Ranked, ...]
    by_picking: tuple[Ranked, ...]
    min_picks: int

    @property
    def staked(self) -> bool:
        """Whether anyone won or lost money: the money is shown only then."""
        return any(ranked.player.money for ranked in self.by_total)


def _count(condition: ColumnExpressionArgument[bool]) -> ColumnElement[int]:
    return func.count().filter(condition)


PICKER = Hand.picker_id == HandPlayer.player_id
PARTNER = Hand.partner_id == HandPlayer.player_id
CRACKER = Hand.cracked_by_id == HandPlayer.player_id
ALONE = PICKER & Hand.partner_id.is_(None)
PENALIZED = Hand.penalized_id == HandPlayer.player_id
WITH_POINTS = PICKER & Hand.picking_points.is_not(None)
LEASTER = Hand.kind == rules.Kind.LEASTER.value
WON = HandPlayer.won


def _hand_counts() -> list[Label[int]]:
    """Hands won and played, total, picks won and made: the leaderboard's numbers."""
    return [
        _count(WON).label("hands_won"),
        func.count().label("hands"),
        func.coalesce(func.sum(HandPlayer.score), 0).label("total"),
        _count(PICKER & WON).label("picks_won"),
        _count(PICKER).label("picks"),
    ]


def player_totals(dates: DateRange, house: RuleFilter | None = None) -> list[Totals]:
    """Every player who played hands in the range (of sessions played by the rules `house`
    asks for), by name, in one pass over their hands."""
    counts = _hand_counts()
    # Grouped by the hand players' column alone, so SQLite reads ix_hand_player_player_totals
    # in its order instead of sorting every hand player.
    money = func.coalesce(func.sum(HandPlayer.score * Session.stake), 0).label("money")
    per_player = (
        select(HandPlayer.player_id, *counts, money)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Session, Session.id == Hand.session_id)
        .where(HandPlayer.played, *_session_ids(dates, house or RuleFilter()))
        .group_by(HandPlayer.player_id)
        .subquery()
    )
    c = per_player.c
    rows = db.session.execute(
        select(Player.id, Player.name, c.hands_won, c.hands, c.total, c.picks_won, c.picks, c.money)
        .join(per_player, c.player_id == Player.id)
        .order_by(Player.name_key)
    )
    return [
        Totals(
            hands=Rate(hands_won, hands),
            total=total,
            picks=Rate(picks_won, picks),
            player_id=player_id,
            name=name,
            money=money,
        )
        for player_id, name, hands_won, hands, total, picks_won, picks, money in rows
    ]


def player_stats(player: Player, dates: DateRange, house: RuleFilter | None = None) -> PlayerStats:
    """All of one player's numbers, by table size and in all, and their sessions oldest
    first, over the sessions in the range played by the rules `house` asks for. The numbers
    are added up per table size by the database; the sizes (at most six) are then added
    together."""
    of_player = HandPlayer.player_id == player.id
    in_scope = _session_ids(dates, house or RuleFilter())
    rows = db.session.execute(
        select(
            Hand.seated,
            *_hand_counts(),
            _count(ALONE & WON).label("alone_won"),
            _count(ALONE).label("alone"),
            _count(PARTNER & WON).label("partner_won"),
            _count(PARTNER).label("partner"),
            _count(CRACKER & WON).label("cracks_won"),
            _count(CRACKER).label("cracks"),
            _count(CRACKER & Hand.recracked).label("recracked"),
            func.coalesce(func.sum(HandPlayer.score).filter(CRACKER), 0).label("crack_points"),
            _count(LEASTER & WON).label("leasters_won"),
            _count(LEASTER).label("leasters"),
            _count(HandPlayer.schneidered).label("schneidered"),
            _count(PENALIZED).label("penalties"),
            func.coalesce(func.sum(Hand.picking_points).filter(WITH_POINTS), 0).label(
                "card_points"
            ),
            _count(WITH_POINTS).label("picks_with_points"),
        )
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(of_player, HandPlayer.played, *in_scope)
        .group_by(Hand.seated)
        .order_by(Hand.seated)
    ).all()
    by_size = tuple(
        TableSize(
            hands=Rate(row.hands_won, row.hands),
            total=row.total,
            picks=Rate(row.picks_won, row.picks),
            seated=row.seated,
        )
        for row in rows
    )

    def n(field: str) -> int:
        return sum(getattr(row, field) for row in rows)

    sessions = _sessions_of(player.id, in_scope)
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
        sessions=sessions,
        by_size=by_size,
        money=sum(line.total * line.stake for line in sessions),
    )


def _sessions_of(player_id: int, in_scope: list[ColumnElement[bool]]) -> tuple[SessionLine, ...]:
    """The sessions `in_scope` keeps where the player played a hand, oldest first, each with their
    hands played and won, total, and place: every player the session's standings name (who
    played a hand of it or is seated now) added up per session, then ranked as the standings
    rank them (highest total, then more hands won; players still equal share the place)."""
    played_in = (
        select(Hand.session_id)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(HandPlayer.player_id == player_id, HandPlayer.played, *in_scope)
    )
    played = HandPlayer.played.cast(Integer)
    at_hands = (
        select(
            Hand.session_id,
            HandPlayer.player_id,
            played.label("played"),
            HandPlayer.won.cast(Integer).label("won"),
            HandPlayer.score,
            Hand.number,
            played.label("named"),
        )
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(Hand.session_id.in_(played_in))
    )
    seated_now = select(
        Seat.session_id, Seat.player_id, literal(0), literal(0), literal(0), literal(0), literal(1)
    ).where(Seat.session_id.in_(played_in))
    rows = union_all(at_hands, seated_now).subquery()
    per_session = (
        select(
            rows.c.session_id,
            rows.c.player_id,
            func.sum(rows.c.played).label("hands"),
            func.sum(rows.c.won).label("hands_won"),
            func.sum(rows.c.score).label("total"),
            # Hands are numbered 1..n in a session, so the highest number is its hand count.
            func.max(rows.c.number).label("last_hand"),
            func.max(rows.c.named).label("named"),
        )
        .group_by(rows.c.session_id, rows.c.player_id)
        .subquery()
    )
    c = per_session.c
    complete = Session.complete(func.max(c.last_hand).over(partition_by=c.session_id))
    place = func.rank().over(
        partition_by=c.session_id, order_by=(c.total.desc(), c.hands_won.desc())
    )
    ranked = (
        select(
            c.session_id,
            c.player_id,
            c.hands,
            c.hands_won,
            c.total,
            case((complete, place)).label("place"),
            Session.name,
            Session.created_at,
            Session.stake,
        )
        .join(Session, Session.id == c.session_id)
        .where(c.named == 1)
        .subquery()
    )
    r = ranked.c
    lines = db.session.execute(
        select(r.session_id, r.name, r.created_at, r.hands, r.hands_won, r.total, r.place, r.stake)
        .where(r.player_id == player_id)
        .order_by(r.created_at, r.session_id)
    )
    return tuple(SessionLine(*line) for line in lines)


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
        by_average=_ranking(players, lambda p: p.average),
        by_picking=_ranking(pickers, lambda p: (p.picks.fraction, p.picks.of)),
        min_picks=min_picks,
    )
