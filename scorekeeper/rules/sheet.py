"""A session's scoresheet: every hand replayed in order into scores, totals and standings."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .hands import Hand, Kind, next_dealer_after
from .options import Doublers, NoBid
from .scoring import HandResult, score_hand
from .table import Table


@dataclass(frozen=True)
class Standing:
    player: str
    total: int
    hands_won: int
    place: int
    seated: bool = True


@dataclass(frozen=True)
class Sheet:
    """`named` is everyone the totals name: the players of the first hand's seats, then those
    who sat down later in the order they did, each seated now or having played a hand."""

    table: Table
    named: tuple[str, ...]
    results: tuple[HandResult, ...]
    running_totals: tuple[dict[str, int], ...]
    totals: dict[str, int]
    hands_won: dict[str, int]
    standings: tuple[Standing, ...]
    pending_doublers: int
    next_dealer: str | None
    sitting_out_next: tuple[str, ...]
    complete: bool


def named_players(
    hands: Iterable[tuple[Sequence[str], Collection[str]]], seated: Sequence[str]
) -> tuple[str, ...]:
    """Everyone a session's totals name, in order, from each hand's seats and players (in hand
    order) and the seats now: by the first hand each sat at, then seat; those seated now and not
    yet at any hand last. A player who only ever sat out and has left is not named."""
    order: list[str] = []
    played: set[str] = set()
    for seats, players in hands:
        order.extend(p for p in seats if p not in order)
        played.update(players)
    order.extend(p for p in seated if p not in order)
    return tuple(p for p in order if p in played or p in seated)


def take_doubler(table: Table, pending: int, kind: Kind) -> tuple[int, int]:
    """The doublers pending after a hand of this kind, and how many the hand takes. Each pass
    adds one; a pick takes one (a queue) or all of them (stacked)."""
    if table.options.no_bid is not NoBid.DOUBLER:
        return pending, 0
    if kind is Kind.PASS:
        return pending + 1, 0
    if kind is Kind.PICK and pending:
        taken = pending if table.options.doublers is Doublers.STACK else 1
        return pending - taken, taken
    return pending, 0


def pending_doublers(table: Table, kinds: Sequence[Kind]) -> int:
    """The doublers pending after hands of these kinds, in order."""
    pending = 0
    for kind in kinds:
        pending, _taken = take_doubler(table, pending, kind)
    return pending


def score_sheet(table: Table, hands: Sequence[Hand]) -> Sheet:
    """Replay the hands in order. `table` has the seats now; each hand its own."""
    pending = 0
    named = named_players(
        ((hand.seats, table.seated_as(hand.seats).players_of_hand(hand.dealer)) for hand in hands),
        table.seats,
    )
    totals = dict.fromkeys(named, 0)
    hands_won = dict.fromkeys(named, 0)
    results: list[HandResult] = []
    running: list[dict[str, int]] = []
    for hand in hands:
        pending, taken = take_doubler(table, pending, hand.kind)
        result = score_hand(table, hand, taken)
        for player, score in result.scores.items():
            if player in totals:
                totals[player] += score
        for player in result.winners:
            hands_won[player] += 1
        results.append(result)
        running.append(dict(totals))

    complete = table.is_complete(len(hands))
    next_dealer = None
    if not complete:
        next_dealer = next_dealer_after(table, hands[-1] if hands else None)
    return Sheet(
        table=table,
        named=named,
        results=tuple(results),
        running_totals=tuple(running),
        totals=totals,
        hands_won=hands_won,
        standings=standings(named, totals, hands_won, table.seats),
        pending_doublers=pending,
        next_dealer=next_dealer,
        sitting_out_next=() if next_dealer is None else table.sitting_out(next_dealer),
        complete=complete,
    )


def standings(
    players: Sequence[str],
    totals: dict[str, int],
    hands_won: dict[str, int],
    seated: Collection[str] | None = None,
) -> tuple[Standing, ...]:
    """Highest total first, then more hands won; players still equal share a place (1, 2, 2, 4).
    Those not in `seated` (when given) have left the table."""
    rank = {p: (totals[p], hands_won[p]) for p in players}
    ordered = sorted(players, key=lambda p: rank[p], reverse=True)
    return tuple(
        Standing(
            player=p,
            total=totals[p],
            hands_won=hands_won[p],
            place=1 + sum(1 for q in players if rank[q] > rank[p]),
            seated=seated is None or p in seated,
        )
        for p in ordered
    )
