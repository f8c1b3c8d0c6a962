"""A session's scoresheet: every hand replayed in order into scores, totals and standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .hands import Hand, Kind
from .scoring import HandResult, score_hand
from .table import NoBid, Table


@dataclass(frozen=True)
class Standing:
    player: str
    total: int
    hands_won: int
    place: int


@dataclass(frozen=True)
class Sheet:
    table: Table
    results: tuple[HandResult, ...]
    running_totals: tuple[dict[str, int], ...]
    totals: dict[str, int]
    hands_won: dict[str, int]
    standings: tuple[Standing, ...]
    pending_doublers: int
    next_dealer: str | None
    complete: bool


def take_doubler(table: Table, pending: int, kind: Kind) -> tuple[int, bool]:
    """The doublers pending after a hand of this kind, and whether the hand is doubled.
    Doublers queue: each pass adds one, each pick takes one."""
    if table.options.no_bid is not NoBid.DOUBLER:
        return pending, False
    if kind is Kind.PASS:
        return pending + 1, False
    if kind is Kind.PICK and pending:
        return pending - 1, True
    return pending, False


def pending_doublers(table: Table, kinds: Sequence[Kind]) -> int:
    """The doublers pending after hands of these kinds, in order."""
    pending = 0
    for kind in kinds:
        pending, _doubled = take_doubler(table, pending, kind)
    return pending


def score_sheet(table: Table, hands: Sequence[Hand]) -> Sheet:
    """Replay the hands in order."""
    pending = 0
    totals = dict.fromkeys(table.seats, 0)
    hands_won = dict.fromkeys(table.seats, 0)
    results: list[HandResult] = []
    running: list[dict[str, int]] = []
    for hand in hands:
        pending, doubled = take_doubler(table, pending, hand.kind)
        result = score_hand(table, hand, doubled)
        for player, score in result.scores.items():
            totals[player] += score
        for player in result.winners:
            hands_won[player] += 1
        results.append(result)
        running.append(dict(totals))

    complete = table.is_complete(len(hands))
    next_dealer = None if complete else table.next_dealer(hands[-1].dealer if hands else None)
    return Sheet(
        table=table,
        results=tuple(results),
        running_totals=tuple(running),
        totals=totals,
        hands_won=hands_won,
        standings=standings(table.seats, totals, hands_won),
        pending_doublers=pending,
        next_dealer=next_dealer,
        complete=complete,
    )


def standings(
    seats: Sequence[str], totals: dict[str, int], hands_won: dict[str, int]
) -> tuple[Standing, ...]:
    """Highest total first, then more hands won; players still equal share a place (1, 2, 2, 4)."""
    rank = {p: (totals[p], hands_won[p]) for p in seats}
    ordered = sorted(seats, key=lambda p: rank[p], reverse=True)
    return tuple(
        Standing(
            player=p,
            total=totals[p],
            hands_won=hands_won[p],
            place=1 + sum(1 for q in seats if rank[q] > rank[p]),
        )
        for p in ordered
    )
