"""Tables of 3 to 8 seated against RULES.md: worked examples 6-11, who sits out, the alone rule,
leaster tricks by the number playing, what a sitting-out player can't do, the dealer rotation
after players arrive and leave, seat changes and their refusals, and who the totals name. No
app, no database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.rules import (
    TRICKS_PER_HAND,
    Hand,
    HandInput,
    HandsPlayed,
    NoBid,
    Options,
    PartnerMode,
    RuleError,
    SessionComplete,
    SittingOut,
    Standing,
    Table,
    change_seats,
    check_table,
    default_partner,
    new_table,
    options_from,
    score_sheet,
    validate_hand,
)

from ..helpers.rules import leaster, pick, rule_error

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def seated(count: int, **options: Any) -> Table:
    """The first `count` of NAMES seated; the partner rule, unless given, their size's default."""
    options.setdefault("partner", default_partner(count))
    return Table(seats=NAMES[:count], options=Options(**options))


# Worked examples 6-11 of RULES.md


def test_example_6_three_seated_the_picker_plays_alone() -> None:
    at = new_table(["Ann", "Bob", "Cat"], rounds=0)
    assert at.options.partner is PartnerMode.ALONE
    sheet = score_sheet(at, [validate_hand(at, "Cat", pick("Ann", None, 75))])
    (result,) = sheet.results
    assert result.scores == {"Ann": 2, "Bob": -1, "Cat": -1}
    assert result.players == ("Ann", "Bob", "Cat")
    assert result.sitting_out == ()
    assert sheet.totals == {"Ann": 2, "Bob": -1, "Cat": -1}


def test_example_7_four_seated_alone() -> None:
    at = new_table(["Ann", "Bob", "Cat", "Dan"], rounds=0)
    assert at.options.partner is PartnerMode.ALONE
    sheet = score_sheet(at, [validate_hand(at, "Dan", pick("Ann", None, 95))])
    assert sheet.results[0].scores == {"Ann": 6, "Bob": -2, "Cat": -2, "Dan": -2}
    assert sheet.results[0].players == ("Ann", "Bob", "Cat", "Dan")


def test_example_8_six_seated_the_dealer_sits_out() -> None:
    at = seated(6)
    sheet = score_sheet(at, [validate_hand(at, "Fay", pick("Ann", "Bob", 70))])
    (result,) = sheet.results
    assert result.scores == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0}
    assert result.players == ("Ann", "Bob", "Cat", "Dan", "Eve")
    assert result.sitting_out == ("Fay",)
    assert result.winners == {"Ann", "Bob"}
    assert sheet.totals == result.scores


def test_example_9_seven_seated_the_dealer_and_the_player_before_sit_out() -> None:
    at = seated(7)
    assert at.sitting_out("Cat") == ("Bob", "Cat")
    assert at.bidding_order("Cat") == ("Dan", "Eve", "Fay", "Gus", "Ann")
    assert at.players_of_hand("Cat") == ("Ann", "Dan", "Eve", "Fay", "Gus")
    sheet = score_sheet(at, [validate_hand(at, "Cat", pick("Dan", "Ann", 75))])
    (result,) = sheet.results
    assert result.players == ("Dan", "Eve", "Fay", "Gus", "Ann")
    assert result.sitting_out == ("Bob", "Cat")
    assert result.scores == {
        "Ann": 1, "Bob": 0, "Cat": 0, "Dan": 2, "Eve": -1, "Fay": -1, "Gus": -1,
    }  # fmt: skip


def test_example_10_six_seated_everyone_plays() -> None:
    at = seated(6, sitting_out=SittingOut.NONE)
    sheet = score_sheet(at, [validate_hand(at, "Fay", pick("Ann", "Bob", 70))])
    (result,) = sheet.results
    assert result.scores == {"Ann": 3, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": -1}
    assert result.players == ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    assert result.sitting_out == ()


def test_example_11_leaster_with_three_playing() -> None:
    at = seated(3, no_bid=NoBid.LEASTER)
    sheet = score_sheet(at, [validate_hand(at, "Ann", leaster("Bob"))])
    assert sheet.results[0].scores == {"Ann": -1, "Bob": 2, "Cat": -1}
    assert sheet.results[0].winners == {"Bob"}
    assert sheet.hands_won == {"Ann": 0, "Bob": 1, "Cat": 0}


# Who sits out


@pytest.mark.parametrize(
    ("count", "dealer", "out", "order"),
    [
        (6, "Ann", ("Ann",), ("Bob", "Cat", "Dan", "Eve", "Fay")),
        (6, "Cat", ("Cat",), ("Dan", "Eve", "Fay", "Ann", "Bob")),
        (6, "Fay", ("Fay",), ("Ann", "Bob", "Cat", "Dan", "Eve")),
        (7, "Ann", ("Ann", "Gus"), ("Bob", "Cat", "Dan", "Eve", "Fay")),
        (7, "Bob", ("Ann", "Bob"), ("Cat", "Dan", "Eve", "Fay", "Gus")),
        (7, "Gus", ("Fay", "Gus"), ("Ann", "Bob", "Cat", "Dan", "Eve")),
        (8, "Ann", ("Ann", "Gus", "Hal"), ("Bob", "Cat", "Dan", "Eve", "Fay")),
        (8, "Bob", ("Ann", "Bob", "Hal"), ("Cat", "Dan", "Eve", "Fay", "Gus")),
        (8, "Cat", ("Ann", "Bob", "Cat"), ("Dan", "Eve", "Fay", "Gus", "Hal")),
        (8, "Hal", ("Fay", "Gus", "Hal"), ("Ann", "Bob", "Cat", "Dan", "Eve")),
    ],
)
def test_with_more_than_five_the_dealers_side_sits_out(
    count: int, dealer: str, out: tuple[str, ...], order: tuple[str, ...]
) -> None:
    at = seated(count)
    assert at.options.sitting_out is SittingOut.DEALER
    assert at.sitting_out(dealer) == out
    assert at.bidding_order(dealer) == order
    assert at.players_of_hand(dealer) == tuple(p for p in at.seats if p not in out)
    result = score_sheet(at, [validate_hand(at, dealer, pick(order[0], None, 75))]).results[0]
    assert (result.players, result.sitting_out) == (order, out)
    assert [result.scores[p] for p in out] == [0] * len(out)
    assert result.scores[order[0]] == 4


@pytest.mark.parametrize("count", [3, 4, 5])
@pytest.mark.parametrize("sitting_out", list(SittingOut))
def test_five_or_fewer_all_play(count: int, sitting_out: SittingOut) -> None:
    at = seated(count, sitting_out=sitting_out)
    for dealer in at.seats:
        assert at.sitting_out(dealer) == ()
        order = at.bidding_order(dealer)
        assert order[-1] == dealer
        assert sorted(order) == sorted(at.seats)


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7])
def test_with_sitting_out_none_everyone_plays_and_the_dealer_bids_last(count: int) -> None:
    at = seated(count, sitting_out=SittingOut.NONE)
    check_table(at.seats, at.options)
    dealer = at.seats[1]
    assert at.sitting_out(dealer) == ()
    assert at.bidding_order(dealer) == (*at.seats[2:], at.seats[0], dealer)
    result = score_sheet(at, [validate_hand(at, dealer, pick(at.seats[2], None, 120))]).results[0]
    assert result.scores[at.seats[2]] == 3 * (count - 1)
    assert {result.scores[p] for p in at.seats if p != at.seats[2]} == {-3}


def test_eight_seated_with_sitting_out_none_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        check_table(NAMES, Options(sitting_out=SittingOut.NONE))
    assert caught.value.field == "players"
    assert "not enough cards" in caught.value.message
    check_table(NAMES, Options(sitting_out=SittingOut.DEALER))


@pytest.mark.parametrize("count", [2, 9])
def test_tables_of_two_or_nine_are_refused(count: int) -> None:
    seats = [*NAMES, "Ida"][:count]
    with pytest.raises(RuleError) as caught:
        check_table(seats, Options(partner=PartnerMode.ALONE))
    assert caught.value.field == "players"
    assert caught.value.message == f"A table seats 3 to 8 players, not {count}."


# The alone rule


@pytest.mark.parametrize(
    ("count", "partner"),
    [
        (3, PartnerMode.ALONE),
        (4, PartnerMode.ALONE),
        (5, PartnerMode.JACK_OF_DIAMONDS),
        (6, PartnerMode.JACK_OF_DIAMONDS),
        (7, PartnerMode.JACK_OF_DIAMONDS),
        (8, PartnerMode.JACK_OF_DIAMONDS),
    ],
)
def test_default_partner_rule_by_size(count: int, partner: PartnerMode) -> None:
    assert options_from(seated=count).partner is partner
    assert new_table(list(NAMES[:count]), rounds=0).options.partner is partner
    assert options_from(partner="called_ace", seated=count).partner is PartnerMode.CALLED_ACE


@pytest.mark.parametrize("count", [4, 5, 6])
def test_alone_refuses_a_partner_and_a_called_card(count: int) -> None:
    at = seated(count, partner=PartnerMode.ALONE)
    error = rule_error(at, pick("Ann", "Bob", 75), "Dan")
    assert error.field == "partner"
    assert error.message == (
        "In this session the picker always plays alone, so there is no partner."
    )
    error = rule_error(at, pick("Ann", None, 75, called_card="JD"), "Dan")
    assert (error.field, error.message) == (
        "called_card",
        "A picker who plays alone calls no card.",
    )
    hand = validate_hand(at, "Dan", pick("Ann", None, 75))
    assert (hand.partner, hand.called_card) == (None, None)


@pytest.mark.parametrize("partner", [PartnerMode.JACK_OF_DIAMONDS, PartnerMode.CALLED_ACE])
def test_three_seated_with_a_partner_rule_is_refused(partner: PartnerMode) -> None:
    with pytest.raises(RuleError) as caught:
        check_table(NAMES[:3], Options(partner=partner))
    assert caught.value.field == "players"
    assert "alone" in caught.value.message
    with pytest.raises(RuleError):
        new_table(list(NAMES[:3]), rounds=0, options=Options(partner=partner))
    check_table(NAMES[:4], Options(partner=partner))


# Leasters by the number playing


@pytest.mark.parametrize(
    ("count", "sitting_out", "playing", "tricks"),
    [
        (3, SittingOut.DEALER, 3, 10),
        (4, SittingOut.DEALER, 4, 7),
        (5, SittingOut.DEALER, 5, 6),
        (6, SittingOut.NONE, 6, 5),
        (7, SittingOut.NONE, 7, 4),
        (6, SittingOut.DEALER, 5, 6),
        (8, SittingOut.DEALER, 5, 6),
    ],
)
def test_leaster_tricks_follow_the_number_playing(
    count: int, sitting_out: SittingOut, playing: int, tricks: int
) -> None:
    assert TRICKS_PER_HAND[playing] == tricks
    at = seated(count, no_bid=NoBid.LEASTER, sitting_out=sitting_out)
    dealer = at.seats[-1]
    players = at.players_of_hand(dealer)
    assert len(players) == playing
    winner = players[0]
    # The winner takes one trick and no points; the next player takes the rest.
    given = {p: 0 for p in players} | {winner: 1, players[1]: tricks - 1}
    points = {p: 0 for p in players} | {players[1]: 120}
    hand = validate_hand(at, dealer, leaster(winner, tricks=given, points=points))
    result = score_sheet(at, [hand]).results[0]
    assert result.scores[winner] == playing - 1
    assert sorted(result.scores[p] for p in players if p != winner) == [-1] * (playing - 1)
    assert [result.scores[p] for p in at.sitting_out(dealer)] == [0] * (count - playing)

    for wrong in (tricks - 1, tricks + 1):
        off = given | {players[1]: wrong - 1}
        error = rule_error(at, leaster(winner, tricks=off), dealer)
        assert error.field == "tricks"
        assert error.message == f"The tricks add up to {wrong}; a hand has {tricks}."


def test_leaster_points_and_tricks_name_only_the_hands_players() -> None:
    at = seated(6, no_bid=NoBid.LEASTER)
    with_fay = dict.fromkeys(NAMES[:6], 1)
    error = rule_error(at, leaster("Ann", tricks=with_fay), "Fay")
    assert (error.field, error.message) == ("tricks", "Fay is not playing in this hand.")
    error = rule_error(at, leaster("Ann", tricks=dict.fromkeys(NAMES[:4], 1)), "Fay")
    assert (error.field, error.message) == (
        "tricks",
        "Give tricks for every player; Eve is missing.",
    )


# A player sitting out can't take part


@pytest.mark.parametrize(
    ("options", "entry", "field", "who"),
    [
        ({}, pick("Fay", None, 75), "picker", "Fay"),
        ({}, pick("gus", None, 75), "picker", "gus"),
        ({}, pick("Ann", "Fay", 75), "partner", "Fay"),
        ({}, pick("Ann", "Gus", 75), "partner", "Gus"),
        ({}, pick("Ann", "Bob", 75, cracked_by="Fay"), "cracked_by", "Fay"),
        ({}, pick("Ann", None, 75, cracked_by="GUS"), "cracked_by", "GUS"),
        ({"no_bid": NoBid.LEASTER}, leaster("Fay"), "winner", "Fay"),
        ({"no_bid": NoBid.LEASTER}, leaster(" gus "), "winner", "gus"),
    ],
)
def test_a_player_sitting_out_is_refused(
    options: dict[str, Any], entry: HandInput, field: str, who: str
) -> None:
    # Seven seated, Gus deals: Fay and Gus sit out.
    at = seated(7, **options)
    assert at.sitting_out("Gus") == ("Fay", "Gus")
    error = rule_error(at, entry, "Gus")
    assert (error.field, error.message) == (field, f"{who} is not playing in this hand.")


def test_a_dealer_not_seated_for_the_hand_is_refused() -> None:
    error = rule_error(seated(5), pick("Ann", None, 75), "Fay")
    assert (error.field, error.message) == ("dealer", "Fay is not playing in this session.")


# Forced picks and cracks when the dealer sits out


def test_when_the_dealer_sits_out_the_last_bidder_is_forced() -> None:
    at = seated(6)
    hand = validate_hand(at, "Fay", pick("Eve", "Ann", 45, forced=True))
    assert (hand.picker, hand.forced) == ("Eve", True)
    error = rule_error(at, pick("Ann", None, 45, forced=True), "Fay")
    assert error.field == "forced"
    assert error.message == (
        "Only the last to bid is forced to pick: Fay dealt and sat out, so Eve was forced, not Ann."
    )
    # The dealer sat out, so can't be the forced picker either.
    error = rule_error(at, pick("Fay", None, 45, forced=True), "Fay")
    assert (error.field, error.message) == ("picker", "Fay is not playing in this hand.")


def test_seven_seated_the_last_bidder_before_the_sitting_out_pair_is_forced() -> None:
    at = seated(7)
    assert validate_hand(at, "Cat", pick("Ann", None, 45, forced=True)).forced
    error = rule_error(at, pick("Gus", None, 45, forced=True), "Cat")
    assert error.field == "forced"
    assert "so Ann was forced, not Gus" in error.message


def test_when_the_dealer_plays_only_the_dealer_is_forced() -> None:
    at = seated(6, sitting_out=SittingOut.NONE)
    assert validate_hand(at, "Fay", pick("Fay", None, 45, forced=True)).forced
    error = rule_error(at, pick("Eve", None, 45, forced=True), "Fay")
    assert (error.field, error.message) == (
        "forced",
        "Only the dealer is forced to pick, and Fay dealt, not Eve.",
    )


@pytest.mark.parametrize(
    ("count", "dealer", "picker", "cracker", "allowed"),
    [
        # Six seated, Fay deals and sits out: Ann bids first, Eve last.
        (6, "Fay", "Cat", "Eve", True),
        (6, "Fay", "Cat", "Dan", True),
        (6, "Fay", "Cat", "Bob", False),
        (6, "Fay", "Eve", "Ann", False),
        (6, "Fay", "Ann", "Eve", True),
        # Seven seated, Cat deals: Dan bids first, Ann last (seat 1 bids after seat 7).
        (7, "Cat", "Gus", "Ann", True),
        (7, "Cat", "Ann", "Dan", False),
        (7, "Cat", "Dan", "Ann", True),
    ],
)
def test_crack_order_when_the_dealer_sits_out(
    count: int, dealer: str, picker: str, cracker: str, allowed: bool
) -> None:
    at = seated(count)
    entry = pick(picker, None, 75, cracked_by=cracker)
    if allowed:
        hand = validate_hand(at, dealer, entry)
        assert score_sheet(at, [hand]).results[0].multiplier == 2
    else:
        error = rule_error(at, entry, dealer)
        assert (error.field, error.message) == (
            "cracked_by",
            f"{cracker} bid before {picker}, so {cracker} can't crack.",
        )


# The dealer after players arrive and leave


FIVE = ("Ann", "Bob", "Cat", "Dan", "Eve")


@pytest.mark.parametrize(
    ("now", "last_dealer", "dealer"),
    [
        # The last dealer is still seated: the next seat in the new order.
        (("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), "Bob", "Cat"),
        (("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), "Eve", "Fay"),
        (("Eve", "Dan", "Cat", "Bob", "Ann"), "Bob", "Ann"),
        (("Ann", "Bob", "Cat", "Dan"), "Cat", "Dan"),
        (("Ann", "Bob", "Cat", "Eve"), "Cat", "Eve"),
        # A newcomer who sat down right after the dealer deals next...
        (("Ann", "Bob", "Gus", "Cat", "Dan", "Eve"), "Bob", "Gus"),
        (("Gus", "Ann", "Bob", "Cat", "Dan", "Eve"), "Eve", "Gus"),
        # ...a newcomer elsewhere when the rotation reaches them.
        (("Ann", "Bob", "Gus", "Cat", "Dan", "Eve"), "Cat", "Dan"),
        (("Ann", "Bob", "Gus", "Cat", "Dan", "Eve"), "Ann", "Bob"),
        # The last dealer left: the first later player of the old seats still seated.
        (("Ann", "Bob", "Dan", "Eve"), "Cat", "Dan"),
        (("Ann", "Bob", "Eve", "Fay"), "Cat", "Eve"),
        (("Bob", "Cat", "Dan", "Fay"), "Eve", "Bob"),
        (("Eve", "Dan", "Bob", "Ann"), "Cat", "Dan"),
        (("Fay", "Gus", "Ann", "Hal"), "Dan", "Ann"),
        # Everyone left: the first seat of the new order.
        (("Fay", "Gus", "Hal"), "Cat", "Fay"),
    ],
)
def test_next_dealer_after_a_seat_change(
    now: tuple[str, ...], last_dealer: str, dealer: str
) -> None:
    at = Table(seats=now, options=Options(partner=default_partner(len(now))))
    assert at.next_dealer(last_dealer, FIVE) == dealer
    # The sheet finds the same from the last hand, played with the old seats.
    old = Table(seats=FIVE)
    last = validate_hand(old, last_dealer, pick("Ann", None, 75))
    assert last.seats == FIVE
    assert score_sheet(at, [last]).next_dealer == dealer


def test_next_dealer_follows_each_hands_own_seats_through_several_changes() -> None:
    first = seated(5)
    hands = [validate_hand(first, "Eve", pick("Ann", None, 75))]
    second = change_seats(first, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], len(hands))
    assert score_sheet(second, hands).next_dealer == "Fay"
    assert score_sheet(second, hands).sitting_out_next == ("Fay",)
    hands.append(validate_hand(second, "Fay", pick("Ann", None, 75)))
    third = change_seats(second, ["Bob", "Cat", "Dan", "Eve"], len(hands))
    # Fay (the dealer) and Ann (next after Fay) left: Bob deals.
    assert score_sheet(third, hands).next_dealer == "Bob"
    assert score_sheet(third, hands).sitting_out_next == ()


# Seat changes


def test_change_seats_replaces_the_seats_and_keeps_the_rest() -> None:
    at = Table(seats=FIVE, options=Options(no_bid=NoBid.DOUBLER), rounds=2, first_dealer="Bob")
    changed = change_seats(at, [" Ann", "Bob", "Gus ", "Cat", "Dan", "Eve"], 3)
    assert changed == Table(
        seats=("Ann", "Bob", "Gus", "Cat", "Dan", "Eve"),
        options=Options(no_bid=NoBid.DOUBLER),
        rounds=2,
        first_dealer="Bob",
    )


@pytest.mark.parametrize("count", [0, 1, 7])
def test_change_seats_keeps_the_first_dealer_typed_in_another_case(count: int) -> None:
    at = Table(seats=FIVE, first_dealer="Cat")
    changed = change_seats(at, ["ann", "bob", "CAT", "dan", "eve", "Fay"], count)
    assert changed.first_dealer == "CAT"


@pytest.mark.parametrize(
    ("players", "first_dealer"),
    [
        (("Ann", "Bob", "Dan", "Eve"), "Dan"),
        (("eve", "Ann", "Bob"), "eve"),
        (("bob", "Fay", "Gus"), "bob"),
        (("Fay", "Gus", "Hal"), "Fay"),
    ],
)
def test_a_first_dealer_who_leaves_is_followed_by_the_next_still_seated(
    players: tuple[str, ...], first_dealer: str
) -> None:
    at = Table(seats=FIVE, options=Options(partner=PartnerMode.ALONE), first_dealer="Cat")
    assert change_seats(at, list(players), 0).first_dealer == first_dealer


@pytest.mark.parametrize(
    ("table", "players", "message"),
    [
        (seated(5), NAMES[:2], "A table seats 3 to 8 players, not 2."),
        (seated(5), (*NAMES, "Ida"), "A table seats 3 to 8 players, not 9."),
        (seated(5), ("Ann", "Bob", "Cat", "ANN"), "ANN is seated twice."),
        (seated(5), ("Ann", "Bob", " ", "Dan"), "Every seat needs a player; seat 3 is empty."),
        (
            seated(5),
            NAMES[:3],
            "With three seated the picker always plays alone: choose the partner rule alone.",
        ),
        (
            seated(5, partner=PartnerMode.CALLED_ACE),
            NAMES[:3],
            "With three seated the picker always plays alone: choose the partner rule alone.",
        ),
        (
            seated(6, sitting_out=SittingOut.NONE),
            NAMES,
            "Eight can't all play a hand (there are not enough cards): "
            "with eight seated, the dealer and the two players just before the dealer sit out.",
        ),
    ],
)
def test_change_seats_refusals(table: Table, players: Sequence[str], message: str) -> None:
    with pytest.raises(RuleError) as caught:
        change_seats(table, list(players), 0)
    assert (caught.value.field, caught.value.message) == ("players", message)
    assert not isinstance(caught.value, HandsPlayed)


def test_change_seats_refuses_a_table_whose_rounds_are_already_exceeded() -> None:
    at = Table(seats=NAMES[:6], rounds=2)
    assert change_seats(at, list(NAMES[:5]), 10).hands_per_session == 10
    with pytest.raises(HandsPlayed) as caught:
        change_seats(at, list(NAMES[:5]), 11)
    assert caught.value.field == "players"
    assert caught.value.message == (
        "11 hands are already played, more than 2 rounds of 5 hands: raise the rounds first."
    )
    # An open-ended session never is.
    assert change_seats(seated(6), list(NAMES[:4]), 1000).seats == NAMES[:4]


def test_change_seats_with_one_round() -> None:
    at = Table(seats=NAMES[:6], rounds=1)
    with pytest.raises(HandsPlayed) as caught:
        change_seats(at, list(NAMES[:4]), 5)
    assert caught.value.message == (
        "5 hands are already played, more than 1 round of 4 hands: raise the rounds first."
    )


@pytest.mark.parametrize(
    ("first_dealer", "players", "moved_to"),
    [
        ("Cat", ("Ann", "Bob", "Dan", "Eve", "Fay"), "Dan"),
        ("Cat", ("Ann", "Bob", "Eve", "Fay"), "Eve"),
        ("Eve", ("Bob", "Cat", "Dan", "Ann"), "Ann"),
        ("Cat", ("Fay", "Gus", "Hal"), "Fay"),
        ("Cat", ("Cat", "Fay", "Gus", "Hal"), "Cat"),
        ("Cat", ("Ann", "Bob", "Gus", "Cat"), "Cat"),
    ],
)
def test_the_first_dealer_moves_on_when_they_leave_before_any_hand(
    first_dealer: str, players: tuple[str, ...], moved_to: str
) -> None:
    at = Table(seats=FIVE, options=Options(partner=PartnerMode.ALONE), first_dealer=first_dealer)
    changed = change_seats(at, list(players), 0)
    assert changed.first_dealer == moved_to
    sheet = score_sheet(changed, [])
    assert sheet.next_dealer == moved_to
    assert sheet.named == players


def test_rounds_count_the_seats_now() -> None:
    at = Table(seats=FIVE, rounds=2)
    assert at.hands_per_session == 10
    bigger = change_seats(at, list(NAMES[:7]), 4)
    assert bigger.hands_per_session == 14
    assert not bigger.is_complete(13)
    assert bigger.is_complete(14)
    bigger.check_room_for_hand(13)
    with pytest.raises(SessionComplete):
        bigger.check_room_for_hand(14)
    # The sheet of 10 hands played at five is not complete once seven are seated.
    hands = [validate_hand(at, FIVE[i % 5], pick("Ann", None, 75)) for i in range(10)]
    assert score_sheet(at, hands).complete
    assert score_sheet(at, hands).next_dealer is None
    sheet = score_sheet(bigger, hands)
    assert not sheet.complete
    assert sheet.next_dealer == "Fay"
    assert sheet.sitting_out_next == ("Eve", "Fay")


# Who the totals name


def six_then_gus_for_fay() -> tuple[Table, list[Hand]]:
    """Six seated, Fay deals first; after two hands Fay leaves and Gus sits down after Bob."""
    six = Table(seats=NAMES[:6], first_dealer="Fay")
    hands = [
        validate_hand(six, "Fay", pick("Ann", "Bob", 70)),
        validate_hand(six, "Ann", pick("Fay", "Eve", 95)),
    ]
    now = change_seats(six, ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve"], len(hands))
    sheet = score_sheet(now, hands)
    assert sheet.next_dealer == "Bob"
    assert sheet.sitting_out_next == ("Bob",)
    hands.append(validate_hand(now, sheet.next_dealer, pick("Gus", None, 61)))
    return now, hands


def test_players_who_left_keep_their_totals_and_are_marked() -> None:
    now, hands = six_then_gus_for_fay()
    sheet = score_sheet(now, hands)
    assert sheet.named == ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    assert [r.scores_naming(sheet.named) for r in sheet.results] == [
        {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0, "Gus": 0},
        {"Ann": 0, "Bob": -2, "Cat": -2, "Dan": -2, "Eve": 2, "Fay": 4, "Gus": 0},
        {"Ann": -1, "Bob": 0, "Cat": -1, "Dan": -1, "Eve": -1, "Fay": 0, "Gus": 4},
    ]
    assert [r.sitting_out for r in sheet.results] == [("Fay",), ("Ann",), ("Bob",)]
    assert sheet.results[2].players == ("Gus", "Cat", "Dan", "Eve", "Ann")
    assert sheet.totals == {
        "Ann": 1, "Bob": -1, "Cat": -4, "Dan": -4, "Eve": 0, "Fay": 4, "Gus": 4,
    }  # fmt: skip
    assert sheet.hands_won == {
        "Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0, "Eve": 1, "Fay": 1, "Gus": 1,
    }  # fmt: skip
    assert sheet.standings == (
        Standing("Fay", 4, 1, 1, seated=False),
        Standing("Gus", 4, 1, 1),
        Standing("Ann", 1, 1, 3),
        Standing("Eve", 0, 1, 4),
        Standing("Bob", -1, 1, 5),
        Standing("Cat", -4, 0, 6),
        Standing("Dan", -4, 0, 6),
    )
    assert sheet.next_dealer == "Gus"
    assert sheet.sitting_out_next == ("Gus",)


def test_a_newcomer_is_named_before_playing_and_one_who_only_sat_out_is_not() -> None:
    six = Table(seats=NAMES[:6], first_dealer="Fay")
    hands = [validate_hand(six, "Fay", pick("Ann", "Bob", 70))]
    # Fay only sat out, then left; Hal arrives last.
    now = change_seats(six, ["Ann", "Bob", "Cat", "Dan", "Eve", "Hal"], 1)
    sheet = score_sheet(now, hands)
    assert sheet.named == ("Ann", "Bob", "Cat", "Dan", "Eve", "Hal")
    assert sheet.totals == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1, "Hal": 0}
    assert sheet.results[0].scores_naming(sheet.named)["Hal"] == 0
    assert "Fay" not in sheet.results[0].scores_naming(sheet.named)
    assert [s.seated for s in sheet.standings] == [True] * 6
    # Fay dealt and left: Ann, after Fay in the seats of that hand, deals.
    assert sheet.next_dealer == "Ann"
    assert sheet.sitting_out_next == ("Ann",)


def test_named_order_is_the_first_hands_seats_then_later_arrivals_in_order() -> None:
    five = seated(5)
    hands = [validate_hand(five, "Ann", pick("Bob", "Cat", 75))]
    with_gus = change_seats(five, ["Gus", "Ann", "Bob", "Cat", "Dan", "Eve"], 1)
    hands.append(validate_hand(with_gus, "Bob", pick("Gus", "Eve", 75)))
    with_fay = change_seats(with_gus, ["Gus", "Fay", "Ann", "Bob", "Cat", "Dan", "Eve"], 2)
    sheet = score_sheet(with_fay, hands)
    assert sheet.named == ("Ann", "Bob", "Cat", "Dan", "Eve", "Gus", "Fay")
    assert list(sheet.totals) == list(sheet.named)
    assert sheet.next_dealer == "Cat"
    assert sheet.sitting_out_next == ("Bob", "Cat")
