"""The scores of one hand: the scoring table, alone play, multipliers and leasters."""

from __future__ import annotations

from dataclasses import dataclass

from .hands import Hand, Kind
from .table import Table

WINNING_POINTS = 61
LEASTER_LOSS = -1


@dataclass(frozen=True)
class HandResult:
    """What a hand scored: every player seated for it has a score, 0 when they had none or
    sat out."""

    hand: Hand
    multiplier: int
    doubled: bool
    scores: dict[str, int]
    winners: frozenset[str]
    schneidered: frozenset[str] = frozenset()
    # Who played the hand, in bidding order, and who sat out, in seat order.
    players: tuple[str, ...] = ()
    sitting_out: tuple[str, ...] = ()


def opponent_value(picking_points: int) -> int:
    """What each opponent scores at M = 1; the picker's side scores the opposite."""
    if picking_points == 120:
        return -3
    if picking_points >= 91:
        return -2
    if picking_points >= WINNING_POINTS:
        return -1
    if picking_points >= 31:
        return 1
    if picking_points >= 1:
        return 2
    return 3


def schneidered_side(picking_points: int) -> str | None:
    """Which side lost by a schneider (or worse): the side paying the doubled or tripled row
    of the scoring table. 'picking', 'opponents', or None."""
    value = opponent_value(picking_points)
    if value >= 2:
        return "picking"
    if value <= -2:
        return "opponents"
    return None


def multiplier(hand: Hand, doubled: bool) -> int:
    """Each crack, re-crack, blitz and doubler taken from the queue doubles the hand."""
    if hand.kind is not Kind.PICK:
        return 1
    doublings = (hand.cracked_by is not None) + hand.recracked + len(hand.blitzes) + doubled
    return 1 << doublings


def score_hand(table: Table, hand: Hand, doubled: bool = False) -> HandResult:
    """Each opponent scores the table's value times M, a partner its opposite, and the picker
    balances the hand to zero; a leaster's winner takes 1 from every other player."""
    seated = table.seated_as(hand.seats)
    scores = dict.fromkeys(seated.seats, 0)
    players = seated.players_of_hand(hand.dealer)
    winners: frozenset[str] = frozenset()
    schneidered: frozenset[str] = frozenset()
    factor = multiplier(hand, doubled)

    if hand.kind is Kind.PICK:
        assert hand.picker is not None and hand.picking_points is not None
        team = {hand.picker} | ({hand.partner} if hand.partner else set())
        opponents = [p for p in players if p not in team]
        value = opponent_value(hand.picking_points) * factor
        for player in opponents:
            scores[player] = value
        if hand.partner:
            scores[hand.partner] = -value
        scores[hand.picker] = -sum(scores[p] for p in players if p != hand.picker)
        won = hand.picking_points >= WINNING_POINTS
        winners = frozenset(team if won else opponents)
        side = schneidered_side(hand.picking_points)
        if side is not None:
            schneidered = frozenset(team if side == "picking" else opponents)
    elif hand.kind is Kind.LEASTER:
        assert hand.winner is not None
        for player in players:
            scores[player] = LEASTER_LOSS
        scores[hand.winner] = -LEASTER_LOSS * (len(players) - 1)
        winners = frozenset({hand.winner})

    return HandResult(
        hand=hand,
        multiplier=factor,
        doubled=doubled and hand.kind is Kind.PICK,
        scores=scores,
        winners=winners,
        schneidered=schneidered,
        players=seated.bidding_order(hand.dealer),
        sitting_out=seated.sitting_out(hand.dealer),
    )
