"""The scores of one hand: the scoring table, alone play, multipliers and leasters."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from .hands import Hand, Kind, Result, result_of_points
from .table import Table

LEASTER_LOSS = -1
PENALTY_GAIN = 1


class Shape(Enum):
    """How a hand's JSON holds a part the engine derived."""

    # A whole number from 1.
    FACTOR = "factor"
    FLAG = "flag"
    NAMES = "names"
    # A score for everyone the session's totals name.
    SCORES = "scores"


@dataclass(frozen=True)
class Derived:
    """What the app says of a part of `HandResult` a hand's JSON shows, declared with it: its
    `shape`, what the API's documentation says of it (`about`), and whether hands kept before
    it was derived may lack it (`later`). A part declared so is shown with every hand, read
    back from a backup and checked there, and documented, with nothing else to write."""

    shape: Shape
    about: str = ""
    later: bool = False


def _shown(derived: Derived) -> dict[str, Derived]:
    return {"derived": derived}


@dataclass(frozen=True)
class HandResult:
    """What a hand scored: every player seated for it has a score, 0 when they had none or
    sat out."""

    hand: Hand
    multiplier: int = field(metadata=_shown(Derived(Shape.FACTOR)))
    doubled: bool = field(metadata=_shown(Derived(Shape.FLAG)))
    scores: dict[str, int] = field(
        metadata=_shown(
            Derived(Shape.SCORES, "Everyone the session's totals name; 0 for who did not play.")
        )
    )
    winners: frozenset[str]
    schneidered: frozenset[str] = frozenset()
    bumped: bool = field(
        default=False,
        metadata=_shown(
            Derived(
                Shape.FLAG,
                "A lost pick doubled on the bump (`bump`), apart from the multiplier.",
                later=True,
            )
        ),
    )
    players: tuple[str, ...] = field(
        default=(),
        metadata=_shown(Derived(Shape.NAMES, "Who played the hand, in bidding order.", later=True)),
    )
    sitting_out: tuple[str, ...] = field(
        default=(),
        metadata=_shown(Derived(Shape.NAMES, "Who sat the hand out, in seat order.", later=True)),
    )

    def scores_naming(self, named: Iterable[str]) -> dict[str, int]:
        """Its scores naming `named` (everyone a session's totals name), 0 for who didn't play
        it."""
        return {player: self.scores.get(player, 0) for player in named}


# Each part of a hand the engine derives and a hand's JSON shows, in order, by its name there.
DERIVED_FIELDS: tuple[tuple[str, Derived], ...] = tuple(
    (part.name, part.metadata["derived"])
    for part in dataclasses.fields(HandResult)
    if "derived" in part.metadata
)


# What each opponent scores at M = 1, by the row of the scoring table the result is; the
# picker's side scores the opposite.
RESULT_VALUE = {
    Result.WON_SCHWARZ: -3,
    Result.WON_SCHNEIDER: -2,
    Result.WON: -1,
    Result.LOST: 1,
    Result.LOST_SCHNEIDER: 2,
    Result.LOST_SCHWARZ: 3,
}


def opponent_value(picking_points: int) -> int:
    """What each opponent scores at M = 1 for the picking team's card points."""
    return RESULT_VALUE[result_of_points(picking_points)]


def schneidered_side(picking_points: int) -> str | None:
    """Which side lost by a schneider (or worse): the side paying the doubled or tripled row
    of the scoring table. 'picking', 'opponents', or None."""
    return _schneidered(RESULT_VALUE[result_of_points(picking_points)])


def _schneidered(value: int) -> str | None:
    if value >= 2:
        return "picking"
    if value <= -2:
        return "opponents"
    return None


def multiplier(table: Table, hand: Hand, doublers: int) -> int:
    """Each crack, re-crack, blitz and doubler taken doubles the hand, up to the session's cap."""
    if hand.kind is not Kind.PICK:
        return 1
    doublings = (hand.cracked_by is not None) + hand.recracked + len(hand.blitzes) + doublers
    return table.options.capped(1 << doublings)


def score_hand(table: Table, hand: Hand, doublers: int = 0) -> HandResult:
    """Each opponent scores the table's value times M (the base doubled first for a lost pick
    on the bump), a partner its opposite, and the picker balances the hand to zero; a leaster's
    winner takes 1 from every other player, a penalized player pays 1 to every other player.
    `doublers` is how many pending doublers the hand takes."""
    seated = table.seated_as(hand.seats)
    scores = dict.fromkeys(seated.seats, 0)
    players = seated.players_of_hand(hand.dealer)
    winners: frozenset[str] = frozenset()
    schneidered: frozenset[str] = frozenset()
    bumped = False
    factor = multiplier(table, hand, doublers)

    if hand.kind is Kind.PICK:
        assert hand.picker is not None and hand.result is not None
        team = {hand.picker} | ({hand.partner} if hand.partner else set())
        opponents = [p for p in players if p not in team]
        base = RESULT_VALUE[hand.result]
        bumped = table.options.bump and not hand.result.won
        value = base * (2 if bumped else 1) * factor
        for player in opponents:
            scores[player] = value
        if hand.partner:
            scores[hand.partner] = -value
        scores[hand.picker] = -sum(scores[p] for p in players if p != hand.picker)
        winners = frozenset(team if hand.result.won else opponents)
        side = _schneidered(base)
        if side is not None:
            schneidered = frozenset(team if side == "picking" else opponents)
    elif hand.kind is Kind.LEASTER:
        assert hand.winner is not None
        for player in players:
            scores[player] = LEASTER_LOSS
        scores[hand.winner] = -LEASTER_LOSS * (len(players) - 1)
        winners = frozenset({hand.winner})
    elif hand.kind is Kind.PENALTY:
        assert hand.penalized is not None
        for player in players:
            scores[player] = PENALTY_GAIN
        scores[hand.penalized] = -PENALTY_GAIN * (len(players) - 1)

    return HandResult(
        hand=hand,
        multiplier=factor,
        doubled=doublers > 0 and hand.kind is Kind.PICK,
        scores=scores,
        winners=winners,
        schneidered=schneidered,
        bumped=bumped,
        players=seated.bidding_order(hand.dealer),
        sitting_out=seated.sitting_out(hand.dealer),
    )
