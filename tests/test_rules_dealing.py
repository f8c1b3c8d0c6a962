"""What the dealer of a hand settles, as the engine answers every caller: who deals next. No
app, no database."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    Hand,
    HandInput,
    Options,
    PartnerMode,
    Table,
    default_partner,
    next_dealer_after,
    next_hand,
    score_sheet,
    validate_hand,
)

FIVE = ("Ann", "Bob", "Cat", "Dan", "Eve")


def pick(picker: str, partner: str | None = None) -> HandInput:
    return HandInput(kind="pick", picker=picker, partner=partner, picking_points=75)


def seated(seats: tuple[str, ...]) -> Table:
    return Table(seats=seats, options=Options(partner=default_partner(len(seats))))


def test_the_first_hand_is_dealt_by_the_first_dealer() -> None:
    at = Table(seats=FIVE, first_dealer="Cat")
    assert next_dealer_after(at, None) == at.next_dealer(None) == "Cat"
    assert score_sheet(at, []).next_dealer == "Cat"
    assert next_hand(at, 0, None, pick("Ann"), None).dealer == "Cat"


@pytest.mark.parametrize(
    ("now", "last_dealer", "dealer"),
    [
        (FIVE, "Ann", "Bob"),
        (FIVE, "Eve", "Ann"),
        # A newcomer who sat down right after the dealer deals next.
        (("Ann", "Bob", "Gus", "Cat", "Dan", "Eve"), "Bob", "Gus"),
        # The last dealer left: the first later player of the hand's seats still seated.
        (("Ann", "Bob", "Dan", "Eve"), "Cat", "Dan"),
        # Everyone left: the first seat now.
        (("Fay", "Gus", "Hal"), "Cat", "Fay"),
    ],
)
def test_the_next_dealer_follows_the_last_hand(
    now: tuple[str, ...], last_dealer: str, dealer: str
) -> None:
    last = validate_hand(Table(seats=FIVE), last_dealer, pick("Ann"))
    at = seated(now)
    assert next_dealer_after(at, last) == at.next_dealer(last.dealer, last.seats) == dealer


def test_the_sheet_and_the_next_hand_ask_the_same_rule() -> None:
    at = Table(seats=FIVE, first_dealer="Dan")
    hands: list[Hand] = []
    for count in range(7):
        last = hands[-1] if hands else None
        dealer = next_dealer_after(at, last)
        assert score_sheet(at, hands).next_dealer == dealer
        hand = next_hand(at, count, last, pick("Ann", "Bob"), None)
        assert hand.dealer == dealer
        hands.append(hand)
    assert [hand.dealer for hand in hands] == ["Dan", "Eve", "Ann", "Bob", "Cat", "Dan", "Eve"]


def test_a_complete_session_has_no_next_dealer_on_its_sheet() -> None:
    at = Table(seats=("Ann", "Bob", "Cat"), options=Options(partner=PartnerMode.ALONE), rounds=1)
    hands = [validate_hand(at, dealer, pick("Ann")) for dealer in ("Ann", "Bob", "Cat")]
    assert score_sheet(at, hands).next_dealer is None
    # The rotation itself still answers, as a seat change asks before the rounds are raised.
    assert next_dealer_after(at, hands[-1]) == "Ann"
