"""What the dealer of a hand settles, as the engine answers every caller: who deals next, who
is forced to pick, who may crack, which choices another dealer rules out; and a pick's partner,
said or not. No app, no database."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import (
    PARTNER_REQUIRED,
    Cleared,
    Hand,
    HandInput,
    Kind,
    NoBid,
    Options,
    PartnerMode,
    RuleError,
    Ruling,
    SittingOut,
    Table,
    check_partner_said,
    default_partner,
    next_dealer_after,
    next_hand,
    ruled_out,
    score_sheet,
    validate_hand,
)

FIVE = ("Ann", "Bob", "Cat", "Dan", "Eve")
SEVEN = (*FIVE, "Fay", "Gus")


def pick(picker: str, partner: str | None = None, **fields: Any) -> HandInput:
    return HandInput(kind="pick", picker=picker, partner=partner, picking_points=75, **fields)


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


# Who is forced to pick


@pytest.mark.parametrize(
    ("seats", "sitting_out", "dealer", "forced"),
    [
        (FIVE, SittingOut.DEALER, "Cat", "Cat"),
        (FIVE, SittingOut.DEALER, "Eve", "Eve"),
        # The dealer sits out: the last to bid is the last before those sitting out.
        (SEVEN, SittingOut.DEALER, "Cat", "Ann"),
        (SEVEN, SittingOut.DEALER, "Ann", "Fay"),
        (SEVEN, SittingOut.NONE, "Cat", "Cat"),
    ],
)
def test_the_last_to_bid_is_forced_to_pick(
    seats: tuple[str, ...], sitting_out: SittingOut, dealer: str, forced: str
) -> None:
    at = Table(seats=seats, options=Options(no_bid=NoBid.FORCED_PICK, sitting_out=sitting_out))
    assert at.forced_picker(dealer) == forced == at.bidding_order(dealer)[-1]
    assert validate_hand(at, dealer, pick(forced, forced=True)).forced
    others = [p for p in at.players_of_hand(dealer) if p != forced]
    with pytest.raises(RuleError) as refused:
        validate_hand(at, dealer, pick(others[0], forced=True))
    assert (refused.value.field, forced in refused.value.message) == ("forced", True)


# Who may crack


def test_only_a_later_bidder_may_crack() -> None:
    at = Table(seats=FIVE, options=Options(cracking=True))
    # Cat deals: Dan, Eve, Ann, Bob, then Cat bid.
    assert at.bidding_order("Cat") == ("Dan", "Eve", "Ann", "Bob", "Cat")
    assert at.bids_before("Cat", "Dan", "Ann") and not at.bids_before("Cat", "Bob", "Ann")
    assert not at.bids_before("Cat", "Ann", "Ann")
    for cracker in at.players_of_hand("Cat"):
        entry = pick("Ann", "Bob", cracked_by=cracker)
        if cracker != "Ann" and not at.bids_before("Cat", cracker, "Ann"):
            assert validate_hand(at, "Cat", entry).cracked_by == cracker
            continue
        with pytest.raises(RuleError) as refused:
            validate_hand(at, "Cat", entry)
        assert refused.value.field == "cracked_by"


# The choices another dealer rules out


def chosen(**players: str | None) -> dict[str, str | None]:
    return {field: players.get(field) for field in ("picker", "partner", "cracked_by")} | players


def test_a_player_who_sits_the_hand_out_is_cleared() -> None:
    at = Table(seats=SEVEN)
    # Cat deals: Bob and Cat sit out.
    assert at.sitting_out("Cat") == ("Bob", "Cat")
    choices = chosen(picker="Bob", partner="Dan", winner="Cat", penalized="Eve")
    assert ruled_out(at, "Cat", choices, False) == (
        Cleared("picker", "Bob", Ruling.SITS_OUT, "Bob sits out when Cat deals."),
        Cleared("winner", "Cat", Ruling.SITS_OUT, "Cat sits out when Cat deals."),
    )
    assert ruled_out(at, "Fay", choices, False) == (
        Cleared("penalized", "Eve", Ruling.SITS_OUT, "Eve sits out when Fay deals."),
    )


def test_a_crack_by_an_earlier_bidder_is_cleared() -> None:
    at = Table(seats=FIVE, options=Options(cracking=True))
    # Eve dealt, so Bob bid after Ann; with Ann dealing, Bob bids first.
    choices = chosen(picker="Ann", partner="Cat", cracked_by="Bob")
    assert ruled_out(at, "Eve", choices, False) == ()
    assert ruled_out(at, "Ann", choices, False) == (
        Cleared(
            "cracked_by",
            "Bob",
            Ruling.BIDS_BEFORE_PICKER,
            "with Ann dealing, Bob bids before Ann, and only a later bidder can crack.",
        ),
    )
    # A cracker who sits out is cleared for that alone.
    at = Table(seats=SEVEN, options=Options(cracking=True))
    assert [
        c.ruling for c in ruled_out(at, "Fay", chosen(picker="Ann", cracked_by="Fay"), False)
    ] == [Ruling.SITS_OUT]


@pytest.mark.parametrize("no_bid", list(NoBid))
def test_a_forced_picker_is_not_their_own_partner(no_bid: NoBid) -> None:
    at = Table(seats=FIVE, options=Options(no_bid=no_bid, cracking=True))
    # Everyone passed with Eve dealing: Eve had to pick (when the rules force a pick).
    cleared = ruled_out(at, "Eve", chosen(picker="Ann", partner="Eve"), True)
    if no_bid is not NoBid.FORCED_PICK:
        assert cleared == ()
        return
    assert cleared == (
        Cleared("partner", "Eve", Ruling.OWN_PARTNER, "Eve picked, so can't be their own partner."),
    )
    # Nobody bids after the dealer, so a crack is ruled out with the forced picker.
    assert [c.ruling for c in ruled_out(at, "Eve", chosen(cracked_by="Bob"), True)] == [
        Ruling.BIDS_BEFORE_PICKER
    ]


def test_nothing_chosen_is_nothing_cleared() -> None:
    at = Table(seats=SEVEN, options=Options(no_bid=NoBid.FORCED_PICK))
    assert ruled_out(at, "Cat", {"picker": None, "partner": "", "cracked_by": ""}, True) == ()


# A pick's partner, said or not


@pytest.mark.parametrize("kind", list(Kind))
def test_a_pick_needs_its_partner_said(kind: Kind) -> None:
    check_partner_said(kind, said=True)
    if kind is not Kind.PICK:
        check_partner_said(kind, said=False)
        return
    with pytest.raises(RuleError) as refused:
        check_partner_said(kind, said=False)
    assert (refused.value.field, refused.value.message) == ("partner", PARTNER_REQUIRED)
    assert PARTNER_REQUIRED == "Say who the partner was, or that the picker went alone."
