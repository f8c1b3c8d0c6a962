"""Who a player plays with and against: each partner of their picks (the hands they picked
together, how many they won, the picking team's card points), and the regulars they sat with
(the sessions together, who finished ahead, and each one's total in them).

Partners come from the hands' picker and partner, read by their indexes; opponents from the
sessions' summaries, so neither reads every hand a player played. Both are added up from each
year's part, each kept by its own year's stamp (`years`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import partial

from sqlalchemy import Select, func, literal, select, union_all
from sqlalchemy.orm import InstrumentedAttribute

from ..rules import Kind, Result
from ..sessions.extensions import db
from ..sessions.models import Hand, Player, Session, SessionPlayer
from . import memo, years
from .dates import DateRange
from .scope import RuleFilter, in_scope

# The opponents a page lists: those the player sat with most.
REGULARS = 10
WON = (Result.WON.value, Result.WON_SCHNEIDER.value, Result.WON_SCHWARZ.value)


@dataclass(frozen=True)
class Partner:
    """Hands picked together (either picking, the other called or chosen as partner), won, and
    the team's card points over those recorded with points."""

    player_id: int
    name: str
    hands: int
    won: int
    card_points: int
    with_points: int

    @property
    def card_points_shown(self) -> Decimal | None:
        """Per hand recorded with points, to one decimal."""
        if not self.with_points:
            return None
        exact = Decimal(self.card_points) / Decimal(self.with_points)
        return exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Opponent:
    """Sessions sat in together, those complete where the player finished ahead of them or
    behind, and each one's total over the sessions together."""

    player_id: int
    name: str
    sessions: int
    ahead: int
    behind: int
    total: int
    their_total: int


def partners(
    player_id: int, dates: DateRange, house: RuleFilter | None = None
) -> tuple[Partner, ...]:
    """Each player the player picked with, most hands together first."""
    return memo.kept(
        ("partners", player_id, dates, house), lambda: _partners(player_id, dates, house)
    )


def _partners(player_id: int, dates: DateRange, house: RuleFilter | None) -> tuple[Partner, ...]:
    together = _each_other("partners each year", _partners_in, player_id, dates, house)
    return tuple(Partner(other, name, *numbers) for other, name, numbers in together)


def _partners_in(
    player_id: int, dates: DateRange, house: RuleFilter | None
) -> dict[int, tuple[int, ...]]:
    """Each partner's hands together, won, card points and hands with points, in the range."""
    # A practice table keeps no summary, but its hands are read here: left out by their session.
    practice = select(Session.id).where(Session.practice)
    picks = (
        Hand.kind == Kind.PICK.value,
        Hand.session_id.not_in(practice),
        *in_scope(dates, house, Hand.session_id),
    )
    won = Hand.result.in_(WON)

    def side(
        me: InstrumentedAttribute[int | None], other: InstrumentedAttribute[int | None]
    ) -> Select[int | None, bool, int | None]:
        return select(
            other.label("other"), won.label("won"), Hand.picking_points.label("points")
        ).where(me == player_id, other.is_not(None), *picks)

    together = union_all(
        side(Hand.picker_id, Hand.partner_id), side(Hand.partner_id, Hand.picker_id)
    ).subquery()
    rows = db.session.execute(
        select(
            together.c.other,
            func.count(),
            func.count().filter(together.c.won),
            func.coalesce(func.sum(together.c.points), 0),
            func.count(together.c.points),
        ).group_by(together.c.other)
    )
    return {other: tuple(numbers) for other, *numbers in rows}


def opponents(
    player_id: int, dates: DateRange, house: RuleFilter | None = None, regulars: int = REGULARS
) -> tuple[Opponent, ...]:
    """The players the player sat with in most sessions (`regulars` of them), most first."""
    key = ("opponents", player_id, dates, house, regulars)
    return memo.kept(key, lambda: _opponents(player_id, dates, house, regulars))


def _opponents(
    player_id: int, dates: DateRange, house: RuleFilter | None, regulars: int
) -> tuple[Opponent, ...]:
    against = _each_other("opponents each year", _opponents_in, player_id, dates, house)
    return tuple(Opponent(other, name, *numbers) for other, name, numbers in against[:regulars])


def _opponents_in(
    player_id: int, dates: DateRange, house: RuleFilter | None
) -> dict[int, tuple[int, ...]]:
    """Each player the player sat with in the range: the sessions together, those where the
    player finished ahead and behind, the player's total and theirs."""
    SP = SessionPlayer
    by_session = (
        select(
            SP.session_id,
            SP.player_id,
            func.sum(SP.total).label("total"),
            func.max(SP.place).label("place"),
        )
        .where(*in_scope(dates, house))
        .group_by(SP.session_id, SP.player_id)
    )
    mine = by_session.where(SP.player_id == player_id).subquery()
    theirs = (
        by_session.where(
            SP.session_id.in_(select(SP.session_id).where(SP.player_id == player_id)),
            SP.player_id != player_id,
        )
    ).subquery()
    rows = db.session.execute(
        select(
            theirs.c.player_id,
            func.count(),
            func.count().filter(mine.c.place < theirs.c.place),
            func.count().filter(mine.c.place > theirs.c.place),
            func.coalesce(func.sum(mine.c.total), literal(0)),
            func.coalesce(func.sum(theirs.c.total), literal(0)),
        )
        .join(mine, mine.c.session_id == theirs.c.session_id)
        .group_by(theirs.c.player_id)
    )
    return {other: tuple(numbers) for other, *numbers in rows}


def _each_other(
    part: str,
    read: Callable[..., dict[int, tuple[int, ...]]],
    player_id: int,
    dates: DateRange,
    house: RuleFilter | None,
) -> list[tuple[int, str, list[int]]]:
    """Each other player's numbers that `read` finds in each year's part, added up, with their
    name: the most by the first number first, then by name."""
    of_years = years.each_year(
        (part, player_id, dates, house), dates, house, partial(read, player_id, house=house)
    )
    summed: dict[int, list[int]] = {}
    for of_year in of_years.values():
        for other, numbers in of_year.items():
            held = summed.setdefault(other, [0] * len(numbers))
            for index, number in enumerate(numbers):
                held[index] += number
    rows = db.session.execute(
        select(Player.id, Player.name, Player.name_key).where(Player.id.in_(list(summed)))
    )
    names = {other: (name, key) for other, name, key in rows}
    ordered = sorted(summed, key=lambda other: (-summed[other][0], names[other][1]))
    return [(other, names[other][0], summed[other]) for other in ordered]
