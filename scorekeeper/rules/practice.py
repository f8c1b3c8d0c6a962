"""Made-up hands for a practice event: a table's hands as a night might go, each one the rules
allow at that table (its players, partner rule, no-bid rule, cracking, blitzes, penalties), so
that an organizer can try a whole event before it happens."""

from __future__ import annotations

import random
from collections.abc import Iterator

from .hands import HandInput, Kind
from .options import NoBid, PartnerMode
from .table import Table

# Card points of the picking team, as often as tables see them: mostly a plain win or loss.
POINTS = (0, 18, 27, 31, 45, 52, 58, 60, 61, 64, 67, 71, 74, 78, 81, 84, 88, 90, 93, 97, 104, 120)


def made_up_hands(table: Table, first_dealer: str, count: int, seed: str) -> list[HandInput]:
    """`count` made-up hands for `table`, the first dealt by `first_dealer` and the deal passing
    on as it does; the same for the same seed."""
    rng = random.Random(seed)
    hands = []
    for dealer in _dealers(table, first_dealer, count):
        hands.append(made_up_hand(table, dealer, rng))
    return hands


def _dealers(table: Table, first: str, count: int) -> Iterator[str]:
    dealer = first
    for _ in range(count):
        yield dealer
        dealer = table.next_dealer(dealer)


def made_up_hand(table: Table, dealer: str, rng: random.Random) -> HandInput:
    """A hand `dealer` deals at `table`, as the rules allow it: mostly picks, now and then a
    leaster or a pass when everyone passes by the table's rules, a crack, a blitz, or a penalty
    where the table plays them."""
    options = table.options
    players = table.players_of_hand(dealer)
    roll = rng.random()
    if options.penalties and roll < 0.02:
        return HandInput(kind=Kind.PENALTY.value, penalized=rng.choice(players))
    if roll < 0.1 and options.no_bid is NoBid.LEASTER:
        return HandInput(kind=Kind.LEASTER.value, winner=rng.choice(players))
    if roll < 0.1 and options.no_bid in (NoBid.REDEAL, NoBid.DOUBLER):
        return HandInput(kind=Kind.PASS.value)
    forced = roll < 0.1 and options.no_bid is NoBid.FORCED_PICK
    picker = table.forced_picker(dealer) if forced else rng.choice(players)
    partner = None
    if options.partner is not PartnerMode.ALONE and rng.random() < 0.85:
        partner = rng.choice([p for p in players if p != picker])
    order = table.bidding_order(dealer)
    after = order[order.index(picker) + 1 :]
    cracked_by = None
    if options.cracking and after and rng.random() < 0.08:
        cracked_by = rng.choice(after)
    blitzes = ("black",) if options.blitzing and rng.random() < 0.04 else ()
    return HandInput(
        kind=Kind.PICK.value,
        picker=picker,
        partner=partner,
        forced=forced,
        picking_points=rng.choice(POINTS),
        cracked_by=cracked_by,
        recracked=cracked_by is not None and rng.random() < 0.3,
        blitzes=blitzes,
    )
