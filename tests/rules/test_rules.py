"""The rules engine against RULES.md: worked examples, the scoring table, multipliers, doublers,
leasters, hands won, standings, the dealer rotation and every refusal. No app, no database."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.rules import (
    MAX_ROUNDS,
    Blitz,
    Hand,
    HandInput,
    Kind,
    NoBid,
    Options,
    PartnerMode,
    RuleError,
    SessionComplete,
    Table,
    new_table,
    opponent_value,
    score_sheet,
    standings,
    validate_hand,
)

from ..helpers.rules import (
    PASS,
    assert_sentence,
    by_seat,
    leaster,
    pick,
    play,
    refusal,
    score,
    table,
)

SEATS = ("Ann", "Bob", "Cat", "Dan", "Eve")
DEFAULT = Table(seats=SEATS)
LEASTERS = Table(seats=SEATS, options=Options(no_bid=NoBid.LEASTER))
REDEALS = Table(seats=SEATS, options=Options(no_bid=NoBid.REDEAL))
DOUBLERS = Table(seats=SEATS, options=Options(no_bid=NoBid.DOUBLER))


# Worked examples of RULES.md


def test_example_1_pick_with_partner() -> None:
    result = score(DEFAULT, pick("Ann", "Bob", 75))
    assert result.scores == by_seat(2, 1, -1, -1, -1)
    assert result.multiplier == 1


def test_example_2_sixty_is_a_loss() -> None:
    result = score(DEFAULT, pick("Ann", "Bob", 60))
    assert result.scores == by_seat(-2, -1, 1, 1, 1)
    assert result.multiplier == 1
    assert result.winners == {"Cat", "Dan", "Eve"}


def test_example_3_alone_cracked_and_recracked() -> None:
    result = score(DEFAULT, pick("Ann", None, 95, cracked_by="Dan", recracked=True), dealer="Eve")
    assert result.multiplier == 4
    assert result.scores == by_seat(32, -8, -8, -8, -8)


def test_example_4_leaster() -> None:
    result = score(LEASTERS, leaster("Cat"))
    assert result.scores == by_seat(-1, -1, 4, -1, -1)
    assert result.multiplier == 1


def test_example_5_doubler_and_black_blitz() -> None:
    sheet = play(DOUBLERS, PASS, pick("Bob", "Cat", 0, blitzes=("black",)))
    result = sheet.results[1]
    assert result.multiplier == 4
    assert result.scores == by_seat(12, -24, -12, 12, 12)
    assert sheet.totals == by_seat(12, -24, -12, 12, 12)


# The scoring table

# Picking team points at each row boundary, and what each opponent scores at M = 1.
SCORING_TABLE = [
    (0, 3),
    (2, 2),
    (30, 2),
    (31, 1),
    (60, 1),
    (61, -1),
    (90, -1),
    (91, -2),
    (118, -2),
    (120, -3),
]
SIDES = ["picking_points", "opponent_points"]


def entered(side: str, points: int, **fields: Any) -> HandInput:
    """Ann's pick with the picking team's points entered as either side's count."""
    value = points if side == "picking_points" else 120 - points
    return HandInput(kind="pick", picker="Ann", **{side: value}, **fields)


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize(("points", "opponent"), SCORING_TABLE)
def test_scoring_table_with_partner(side: str, points: int, opponent: int) -> None:
    result = score(DEFAULT, entered(side, points, partner="Bob"))
    assert opponent_value(points) == opponent
    assert result.hand.picking_points == points
    assert result.scores == by_seat(-2 * opponent, -opponent, opponent, opponent, opponent)


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize(("points", "opponent"), SCORING_TABLE)
def test_scoring_table_alone(side: str, points: int, opponent: int) -> None:
    result = score(DEFAULT, entered(side, points))
    assert result.hand.picking_points == points
    assert result.scores == by_seat(-4 * opponent, opponent, opponent, opponent, opponent)


# Multipliers


@pytest.mark.parametrize(
    ("fields", "factor"),
    [
        pytest.param({}, 1, id="none"),
        pytest.param({"cracked_by": "Dan"}, 2, id="crack"),
        pytest.param({"cracked_by": "Dan", "recracked": True}, 4, id="crack-recrack"),
        pytest.param({"blitzes": ("black",)}, 2, id="black-blitz"),
        pytest.param({"blitzes": ("red",)}, 2, id="red-blitz"),
        pytest.param({"blitzes": ("black", "red")}, 4, id="both-blitzes"),
        pytest.param({"cracked_by": "Cat", "blitzes": ("red",)}, 4, id="crack-red-blitz"),
        pytest.param(
            {"cracked_by": "Dan", "recracked": True, "blitzes": ("black", "red")},
            16,
            id="crack-recrack-both-blitzes",
        ),
    ],
)
def test_multiplier(fields: dict[str, Any], factor: int) -> None:
    result = score(DEFAULT, pick("Ann", "Bob", 75, **fields), dealer="Eve")
    assert result.multiplier == factor
    assert not result.doubled
    assert result.scores == by_seat(2 * factor, factor, -factor, -factor, -factor)


def test_doubler_from_the_queue_doubles() -> None:
    result = play(DOUBLERS, PASS, pick("Ann", "Bob", 75)).results[1]
    assert result.doubled
    assert result.multiplier == 2
    assert result.scores == by_seat(4, 2, -2, -2, -2)


def test_doubler_combines_with_every_other_multiplier() -> None:
    # Bob deals the second hand, so Cat bids first and Eve may crack her.
    entry = pick("Cat", "Dan", 75, cracked_by="Eve", recracked=True, blitzes=("black", "red"))
    result = play(DOUBLERS, PASS, entry).results[1]
    assert result.multiplier == 32
    assert result.scores == by_seat(-32, -32, 64, 32, -32)


# The doubler queue


def test_doublers_queue_two_passes_double_the_next_two_picks() -> None:
    entries = [PASS, PASS, pick("Ann", None, 75), pick("Bob", None, 75), pick("Cat", None, 75)]
    sheet = play(DOUBLERS, *entries)
    assert [r.multiplier for r in sheet.results] == [1, 1, 2, 2, 1]
    assert [r.doubled for r in sheet.results] == [False, False, True, True, False]
    pending = [play(DOUBLERS, *entries[:n]).pending_doublers for n in range(len(entries) + 1)]
    assert pending == [0, 1, 2, 1, 0, 0]


def test_doublers_queue_across_passes_between_picks() -> None:
    entries = [
        PASS,
        pick("Ann", None, 75),
        PASS,
        PASS,
        pick("Bob", None, 75),
        PASS,
        pick("Cat", None, 75),
        pick("Dan", None, 75),
        pick("Eve", None, 75),
    ]
    sheet = play(DOUBLERS, *entries)
    assert [r.multiplier for r in sheet.results] == [1, 2, 1, 1, 2, 1, 2, 2, 1]
    assert sheet.pending_doublers == 0


def test_a_pass_scores_nothing_and_takes_no_doubler() -> None:
    sheet = play(DOUBLERS, PASS, PASS, PASS)
    assert all(r.scores == by_seat(0, 0, 0, 0, 0) for r in sheet.results)
    assert all(r.multiplier == 1 and not r.doubled for r in sheet.results)
    assert sheet.pending_doublers == 3


def test_a_leaster_takes_no_doubler() -> None:
    """A doubler session can't record a leaster, but the sheet replays whatever it is given."""
    picked = validate_hand(DOUBLERS, "Cat", pick("Dan", None, 75))
    hands = [
        Hand(dealer="Ann", kind=Kind.PASS, seats=SEATS),
        Hand(dealer="Bob", kind=Kind.LEASTER, winner="Cat", seats=SEATS),
        picked,
    ]
    sheet = score_sheet(DOUBLERS, hands)
    assert [(r.multiplier, r.doubled) for r in sheet.results] == [(1, False), (1, False), (2, True)]
    assert sheet.results[1].scores == by_seat(-1, -1, 4, -1, -1)


@pytest.mark.parametrize(
    ("at", "entries"),
    [
        pytest.param(REDEALS, [PASS, PASS], id="redeal"),
        pytest.param(LEASTERS, [leaster("Cat"), leaster("Dan")], id="leaster"),
        pytest.param(
            DEFAULT,
            [pick("Ann", None, 40, forced=True), pick("Bob", None, 40, forced=True)],
            id="forced",
        ),
    ],
)
def test_sessions_without_doublers_never_double(at: Table, entries: list[HandInput]) -> None:
    sheet = play(at, *entries, pick("Cat", None, 75), pick("Dan", None, 75))
    assert [r.multiplier for r in sheet.results] == [1, 1, 1, 1]
    assert not any(r.doubled for r in sheet.results)
    assert sheet.pending_doublers == 0


# Leasters

LEASTER_POINTS = {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15}
LEASTER_TRICKS = {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1}


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({}, id="winner-only"),
        pytest.param({"points": LEASTER_POINTS}, id="points"),
        pytest.param({"tricks": LEASTER_TRICKS}, id="tricks"),
        pytest.param({"points": LEASTER_POINTS, "tricks": LEASTER_TRICKS}, id="both"),
    ],
)
def test_leaster_scores(fields: dict[str, Any]) -> None:
    result = score(LEASTERS, leaster("Cat", **fields))
    assert result.scores == by_seat(-1, -1, 4, -1, -1)
    assert result.multiplier == 1
    assert result.winners == {"Cat"}
    assert result.hand.points == fields.get("points")
    assert result.hand.tricks == fields.get("tricks")


def test_leaster_names_are_case_insensitive() -> None:
    points = {"ann": 30, "BOB": 40, " Cat ": 10, "dan": 25, "eVe": 15}
    tricks = {"EVE": 1, "dan": 1, "cat": 1, "bob": 1, "ann": 2}
    hand = validate_hand(LEASTERS, "eve", leaster("cAT", points=points, tricks=tricks))
    assert (hand.dealer, hand.winner) == ("Eve", "Cat")
    assert hand.points == LEASTER_POINTS
    assert hand.tricks == LEASTER_TRICKS
    assert list(hand.points) == list(SEATS)


@pytest.mark.parametrize("winner", ["Ann", "Cat"])
def test_leaster_tie_for_fewest_points_may_go_to_either(winner: str) -> None:
    points = {"Ann": 15, "Bob": 40, "Cat": 15, "Dan": 25, "Eve": 25}
    assert validate_hand(LEASTERS, "Eve", leaster(winner, points=points)).winner == winner


def test_leaster_fewest_counts_only_players_who_took_a_trick() -> None:
    points = {"Ann": 0, "Bob": 50, "Cat": 10, "Dan": 30, "Eve": 30}
    tricks = {"Ann": 0, "Bob": 2, "Cat": 1, "Dan": 2, "Eve": 1}
    assert validate_hand(LEASTERS, "Eve", leaster("Cat", points=points, tricks=tricks))
    # Without tricks, a player with 0 points may have taken no trick.
    assert validate_hand(LEASTERS, "Eve", leaster("Cat", points=points))


def test_leaster_winner_may_take_a_trick_worth_nothing() -> None:
    points = {"Ann": 30, "Bob": 40, "Cat": 0, "Dan": 25, "Eve": 25}
    hand = validate_hand(LEASTERS, "Eve", leaster("Cat", points=points, tricks=LEASTER_TRICKS))
    assert hand.points == points


def other_points(**changes: int) -> dict[str, int]:
    return LEASTER_POINTS | changes


def other_tricks(**changes: int) -> dict[str, int]:
    return LEASTER_TRICKS | changes


LEASTER_REFUSALS = [
    pytest.param(leaster(None), "winner", "Choose who won the leaster.", id="no-winner"),
    pytest.param(leaster("Zed"), "winner", "Zed is not playing in this hand.", id="unknown-winner"),
    pytest.param(
        leaster("Cat", tricks=other_tricks(Ann=3, Cat=0)),
        "winner",
        "Cat took no trick, and a leaster is won by a player who took one.",
        id="winner-without-trick",
    ),
    pytest.param(
        leaster("Bob", points=LEASTER_POINTS, tricks=LEASTER_TRICKS),
        "winner",
        "Ann took a trick with fewer points than Bob (30 to 40), so Bob didn't win the leaster.",
        id="fewer-points-with-tricks",
    ),
    pytest.param(
        leaster("Bob", points=LEASTER_POINTS),
        "winner",
        "Ann took a trick with fewer points than Bob (30 to 40), so Bob didn't win the leaster.",
        id="fewer-points-without-tricks",
    ),
    pytest.param(
        leaster("Cat", points=other_points(Bob=20)),
        "points",
        "The points add up to 100; a hand has 120.",
        id="points-sum",
    ),
    pytest.param(
        leaster("Cat", tricks=other_tricks(Ann=1)),
        "tricks",
        "The tricks add up to 5; a hand has 6.",
        id="tricks-sum",
    ),
    pytest.param(
        leaster("Cat", points=LEASTER_POINTS, tricks=other_tricks(Ann=3, Eve=0)),
        "points",
        "Eve took no trick, so Eve has 0 points, not 15.",
        id="points-without-trick",
    ),
    pytest.param(
        leaster("Cat", points=other_points(Ann=1, Bob=69)),
        "points",
        "Ann's points can't be 1",
        id="one-point",
    ),
    pytest.param(
        leaster("Bob", points={"Ann": 119, "Bob": 1, "Cat": 0, "Dan": 0, "Eve": 0}),
        "points",
        "Ann's points can't be 119",
        id="119-points",
    ),
    pytest.param(
        leaster("Cat", points=other_points(Ann=-10, Bob=80)),
        "points",
        "Ann's points must be a whole number from 0 to 120.",
        id="negative-points",
    ),
    pytest.param(
        leaster("Cat", points={"Ann": 121, "Bob": 0, "Cat": 0, "Dan": 0, "Eve": -1}),
        "points",
        "Ann's points must be a whole number from 0 to 120.",
        id="points-over-120",
    ),
    pytest.param(
        leaster("Cat", tricks=other_tricks(Ann=7, Bob=-2)),
        "tricks",
        "Ann's tricks must be a whole number from 0 to 6.",
        id="tricks-out-of-range",
    ),
    pytest.param(
        leaster("Cat", points={"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 40}),
        "points",
        "Give points for every player; Eve is missing.",
        id="missing-points",
    ),
    pytest.param(
        leaster("Cat", tricks={"Ann": 2, "Bob": 2, "Cat": 1, "Eve": 1}),
        "tricks",
        "Give tricks for every player; Dan is missing.",
        id="missing-tricks",
    ),
    pytest.param(
        leaster("Cat", points=LEASTER_POINTS | {"Zed": 0}),
        "points",
        "Zed is not playing in this hand.",
        id="unknown-player",
    ),
    pytest.param(
        leaster("Cat", points={"Ann": 15, "ann": 15, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15}),
        "points",
        "Ann is named twice in the points.",
        id="duplicated-points",
    ),
    pytest.param(
        leaster("Cat", tricks={"Ann": 1, "ANN ": 1, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1}),
        "tricks",
        "Ann is named twice in the tricks.",
        id="duplicated-tricks",
    ),
]


@pytest.mark.parametrize(("entry", "field", "text"), LEASTER_REFUSALS)
def test_leaster_refusals(entry: HandInput, field: str, text: str) -> None:
    error = refusal(LEASTERS, entry)
    assert error.field == field
    assert text in error.message


# Hands won, totals, standings


@pytest.mark.parametrize(
    ("at", "entry", "winners"),
    [
        pytest.param(DEFAULT, pick("Ann", "Bob", 61), {"Ann", "Bob"}, id="61-partner"),
        pytest.param(DEFAULT, pick("Ann", None, 61), {"Ann"}, id="61-alone"),
        pytest.param(DEFAULT, pick("Ann", "Bob", 60), {"Cat", "Dan", "Eve"}, id="60"),
        pytest.param(DEFAULT, pick("Ann", None, 60), {"Bob", "Cat", "Dan", "Eve"}, id="60-alone"),
        pytest.param(LEASTERS, leaster("Dan"), {"Dan"}, id="leaster"),
        pytest.param(REDEALS, PASS, set(), id="pass"),
    ],
)
def test_who_wins_a_hand(at: Table, entry: HandInput, winners: set[str]) -> None:
    assert score(at, entry).winners == winners


def test_totals_hands_won_and_running_totals() -> None:
    sheet = play(LEASTERS, pick("Ann", "Bob", 61), pick("Cat", None, 60), leaster("Dan"))
    assert sheet.running_totals == (
        by_seat(2, 1, -1, -1, -1),
        by_seat(3, 2, -5, 0, 0),
        by_seat(2, 1, -6, 4, -1),
    )
    assert sheet.totals == by_seat(2, 1, -6, 4, -1)
    assert sum(sheet.totals.values()) == 0
    assert sheet.hands_won == by_seat(2, 2, 0, 2, 1)
    assert [(s.player, s.place) for s in sheet.standings] == [
        ("Dan", 1),
        ("Ann", 2),
        ("Bob", 3),
        ("Eve", 4),
        ("Cat", 5),
    ]


def test_standings_break_ties_by_hands_won_then_share_places() -> None:
    totals = by_seat(-8, 5, -7, 5, 5)
    hands_won = by_seat(0, 2, 1, 2, 3)
    ranked = standings(SEATS, totals, hands_won)
    assert [(s.player, s.total, s.hands_won, s.place) for s in ranked] == [
        ("Eve", 5, 3, 1),
        ("Bob", 5, 2, 2),
        ("Dan", 5, 2, 2),
        ("Cat", -7, 1, 4),
        ("Ann", -8, 0, 5),
    ]


def test_standings_before_any_hand_share_first_place() -> None:
    sheet = score_sheet(DEFAULT, [])
    assert [s.place for s in sheet.standings] == [1, 1, 1, 1, 1]
    assert sheet.totals == by_seat(0, 0, 0, 0, 0)


# Dealer rotation, rounds and completion


def test_bidding_order_starts_left_of_the_dealer() -> None:
    assert DEFAULT.bidding_order("Cat") == ("Dan", "Eve", "Ann", "Bob", "Cat")
    assert DEFAULT.bidding_order("Eve") == SEATS


def test_first_dealer_is_seat_one_by_default() -> None:
    assert DEFAULT.first_dealer == "Ann"
    assert new_table(list(SEATS), rounds=2).first_dealer == "Ann"
    assert score_sheet(DEFAULT, []).next_dealer == "Ann"


def test_deal_moves_left_from_the_chosen_first_dealer() -> None:
    at = new_table(list(SEATS), rounds=0, first_dealer="dan")
    assert at.first_dealer == "Dan"
    assert score_sheet(at, []).next_dealer == "Dan"
    sheet = play(at, pick("Ann", None, 75))
    assert sheet.results[0].hand.dealer == "Dan"
    assert sheet.next_dealer == "Eve"
    assert play(at, pick("Ann", None, 75), pick("Ann", None, 75)).next_dealer == "Ann"


def test_next_dealer_follows_the_last_stored_dealer() -> None:
    """Deleting a hand keeps the dealers of the others, so the deal resumes after the last."""
    hands = [validate_hand(DEFAULT, dealer, pick("Bob", None, 75)) for dealer in ("Ann", "Dan")]
    assert score_sheet(DEFAULT, hands).next_dealer == "Eve"


def test_session_completes_after_rounds_times_players_hands() -> None:
    at = Table(seats=SEATS, rounds=1)
    assert at.hands_per_session == 5
    almost = play(at, *[pick("Bob", None, 75)] * 4)
    assert not almost.complete
    assert almost.next_dealer == "Eve"
    at.check_room_for_hand(4)
    done = play(at, *[pick("Bob", None, 75)] * 5)
    assert done.complete
    assert done.next_dealer is None


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_complete_session_refuses_another_hand(rounds: int) -> None:
    at = Table(seats=SEATS, rounds=rounds)
    with pytest.raises(SessionComplete) as caught:
        at.check_room_for_hand(rounds * 5)
    message = caught.value.message
    assert_sentence(message)
    assert "round are" not in message and "1 rounds" not in message, message
    assert "Add a round" in message


def test_open_ended_session_never_completes() -> None:
    assert DEFAULT.rounds == 0
    assert DEFAULT.hands_per_session is None
    assert not DEFAULT.is_complete(10_000)
    DEFAULT.check_room_for_hand(10_000)
    sheet = play(DEFAULT, *[pick("Bob", None, 75)] * 12)
    assert not sheet.complete
    assert sheet.next_dealer == "Cat"


@pytest.mark.parametrize(("rounds", "played"), [(1, 5), (2, 6), (0, 600), (MAX_ROUNDS, 0)])
def test_check_rounds_accepts(rounds: int, played: int) -> None:
    DEFAULT.check_rounds(rounds, played)


@pytest.mark.parametrize(
    ("rounds", "played", "text"),
    [
        (1, 6, "6 hands are already played, more than 1 round of 5 hands."),
        (2, 11, "11 hands are already played, more than 2 rounds of 5 hands."),
        (-1, 0, "Rounds must be a whole number from 0 to 100"),
        (MAX_ROUNDS + 1, 0, "Rounds must be a whole number from 0 to 100"),
    ],
)
def test_check_rounds_refuses(rounds: int, played: int, text: str) -> None:
    with pytest.raises(RuleError) as caught:
        DEFAULT.check_rounds(rounds, played)
    assert caught.value.field == "rounds"
    assert text in caught.value.message
    assert_sentence(caught.value.message)


# Recording a pick


def test_pick_names_are_resolved_case_insensitively() -> None:
    hand = validate_hand(DEFAULT, " eve", pick("ann", "BOB", 75, cracked_by=" dan "))
    assert (hand.dealer, hand.picker, hand.partner, hand.cracked_by) == ("Eve", "Ann", "Bob", "Dan")


def test_partner_may_be_the_cracker() -> None:
    result = score(DEFAULT, pick("Ann", "Bob", 75, cracked_by="Bob"), dealer="Eve")
    assert result.hand.cracked_by == "Bob"
    assert result.multiplier == 2


def test_forced_pick_by_the_dealer() -> None:
    hand = validate_hand(DEFAULT, "Cat", pick("Cat", None, 40, forced=True))
    assert hand.forced
    assert hand.picker == "Cat"


def test_blitzes_are_stored_black_then_red() -> None:
    hand = validate_hand(DEFAULT, "Eve", pick("Ann", None, 75, blitzes=("red", "black")))
    assert hand.blitzes == (Blitz.BLACK, Blitz.RED)


@pytest.mark.parametrize(
    ("mode", "typed", "stored"),
    [
        *[(PartnerMode.JACK_OF_DIAMONDS, card, card) for card in ("JD", "JC", "JS", "JH")],
        (PartnerMode.JACK_OF_DIAMONDS, "jd", "JD"),
        (PartnerMode.JACK_OF_DIAMONDS, " jh ", "JH"),
        *[(PartnerMode.CALLED_ACE, card, card) for card in ("AC", "AS", "AH", "10C", "10S", "10H")],
        (PartnerMode.CALLED_ACE, "ac", "AC"),
        (PartnerMode.CALLED_ACE, "10h", "10H"),
        (PartnerMode.CALLED_ACE, "", None),
    ],
)
def test_called_card_accepted(mode: PartnerMode, typed: str, stored: str | None) -> None:
    hand = validate_hand(table(partner=mode), "Eve", pick("Ann", None, 75, called_card=typed))
    assert hand.called_card == stored


@pytest.mark.parametrize(
    ("mode", "typed", "text"),
    [
        *[(PartnerMode.JACK_OF_DIAMONDS, card, "JD, JC, JS, JH") for card in ("AC", "10S", "QS")],
        *[
            (PartnerMode.CALLED_ACE, card, "AC, AS, AH, 10C, 10S, 10H")
            for card in ("JD", "AD", "jc")
        ],
    ],
)
def test_called_card_refused(mode: PartnerMode, typed: str, text: str) -> None:
    error = refusal(table(partner=mode), pick("Ann", None, 75, called_card=typed))
    assert error.field == "called_card"
    assert error.message == f"The called card is one of {text}."


# Refusals of a pick, and of a kind of hand the session doesn't play


def refused(
    name: str, entry: HandInput, field: str, text: str, at: Table = DEFAULT, dealer: str = "Eve"
) -> Any:
    """One refused entry: the session and dealer it is entered in, the field and words expected."""
    return pytest.param(at, dealer, entry, field, text, id=name)


OUT_OF_RANGE = "must be a whole number from 0 to 120."
NOT_A_PASS = "This session doesn't re-deal when everyone passes, so a hand can't be a pass."
NO_LEASTER = "This session doesn't play a leaster when everyone passes."
NOT_PLAYING = "Zed is not playing in this hand."

PICK_REFUSALS = [
    refused("picking-1", pick("Ann", None, 1), "picking_points", "Picking team points can't be 1"),
    refused(
        "picking-119", pick("Ann", None, 119), "picking_points", "Picking team points can't be 119"
    ),
    refused(
        "picking-neg",
        pick("Ann", None, -1),
        "picking_points",
        f"Picking team points {OUT_OF_RANGE}",
    ),
    refused(
        "picking-121",
        pick("Ann", None, 121),
        "picking_points",
        f"Picking team points {OUT_OF_RANGE}",
    ),
    *[
        refused(f"opponents-{value}", pick("Ann", opponent_points=value), "opponent_points", text)
        for value, text in [
            (1, "Opponents' points can't be 1"),
            (119, "Opponents' points can't be 119"),
            (-1, f"Opponents' points {OUT_OF_RANGE}"),
            (121, f"Opponents' points {OUT_OF_RANGE}"),
        ]
    ],
    refused(
        "both-points",
        pick("Ann", None, 75, opponent_points=45),
        "opponent_points",
        "Give the picking team's points or the opponents' points, not both.",
    ),
    refused(
        "no-points",
        pick("Ann"),
        "picking_points",
        "Give the picking team's points (or the opponents'), or how the hand went.",
    ),
    *[
        refused(
            f"forced-{at.options.no_bid}",
            pick("Ann", None, 40, forced=True),
            "forced",
            "This session doesn't force the dealer to pick when everyone passes.",
            at=at,
            dealer="Ann",
        )
        for at in (REDEALS, DOUBLERS, LEASTERS)
    ],
    refused(
        "forced-not-dealer",
        pick("Ann", None, 40, forced=True),
        "forced",
        "Only the dealer is forced to pick, and Eve dealt, not Ann.",
    ),
    refused("leaster-forced-pick", leaster("Cat"), "kind", NO_LEASTER),
    refused("leaster-doubler", leaster("Cat"), "kind", NO_LEASTER, at=DOUBLERS),
    refused("pass-forced-pick", PASS, "kind", NOT_A_PASS),
    refused("pass-leaster", PASS, "kind", NOT_A_PASS, at=LEASTERS),
    refused(
        "unknown-kind",
        HandInput(kind="misdeal"),
        "kind",
        "The kind of hand is one of pick, leaster, pass, penalty.",
    ),
    refused(
        "unknown-dealer",
        pick("Ann", None, 75),
        "dealer",
        "Zed is not playing in this session.",
        dealer="Zed",
    ),
    refused("no-picker", pick(None, None, 75), "picker", "Choose who picked."),
    refused("blank-picker", pick(" ", None, 75), "picker", "Give a player's name."),
    refused("unknown-picker", pick("Zed", None, 75), "picker", NOT_PLAYING),
    refused("unknown-partner", pick("Ann", "Zed", 75), "partner", NOT_PLAYING),
    refused("unknown-cracker", pick("Ann", None, 75, cracked_by="Zed"), "cracked_by", NOT_PLAYING),
    refused(
        "partner-is-picker",
        pick("Ann", "ann", 75),
        "partner",
        "Ann picked and can't also be the partner; choose Alone instead.",
    ),
    refused(
        "crack-by-earlier-bidder",
        pick("Ann", None, 75, cracked_by="Dan"),
        "cracked_by",
        "Dan bid before Ann, so Dan can't crack.",
        dealer="Cat",
    ),
    refused(
        "crack-by-picker",
        pick("Ann", None, 75, cracked_by="Ann"),
        "cracked_by",
        "Ann picked, so Ann can't crack.",
    ),
    *[
        refused(
            f"dealer-picks-{cracker}",
            pick("Eve", None, 75, cracked_by=cracker),
            "cracked_by",
            f"{cracker} bid before Eve, so {cracker} can't crack.",
        )
        for cracker in ("Ann", "Bob", "Cat", "Dan")
    ],
    refused(
        "cracking-off",
        pick("Ann", None, 75, cracked_by="Dan"),
        "cracked_by",
        "This session doesn't play cracking.",
        at=table(cracking=False),
    ),
    refused(
        "recrack-without-crack",
        pick("Ann", None, 75, recracked=True),
        "recracked",
        "A re-crack needs a crack first.",
    ),
    refused(
        "blitzing-off",
        pick("Ann", None, 75, blitzes=("black",)),
        "blitzes",
        "This session doesn't play blitzes.",
        at=table(blitzing=False),
    ),
    refused(
        "unknown-blitz",
        pick("Ann", None, 75, blitzes=("green",)),
        "blitzes",
        "A blitz is one of black, red.",
    ),
    refused(
        "repeated-blitz",
        pick("Ann", None, 75, blitzes=("red", "red")),
        "blitzes",
        "The red blitz is given twice.",
    ),
]


@pytest.mark.parametrize(("at", "dealer", "entry", "field", "text"), PICK_REFUSALS)
def test_refusals(at: Table, dealer: str, entry: HandInput, field: str, text: str) -> None:
    error = refusal(at, entry, dealer=dealer)
    assert error.field == field
    assert text in error.message


# Fields that belong to another kind of hand, and the words a refusal should name them by.
PICK_FIELDS = [
    pytest.param("picker", "Ann", "picker", id="picker"),
    pytest.param("partner", "Bob", "partner", id="partner"),
    pytest.param("called_card", "JD", "called card", id="called_card"),
    pytest.param("forced", True, "forced", id="forced"),
    pytest.param("picking_points", 75, "picking team", id="picking_points"),
    pytest.param("opponent_points", 45, "opponents'", id="opponent_points"),
    pytest.param("cracked_by", "Dan", "crack", id="cracked_by"),
    pytest.param("recracked", True, "re-crack", id="recracked"),
    pytest.param("blitzes", ("black",), "blitz(es)?", id="blitzes"),
]


@pytest.mark.parametrize(
    ("at", "kind"),
    [pytest.param(LEASTERS, "leaster", id="leaster"), pytest.param(REDEALS, "pass", id="pass")],
)
@pytest.mark.parametrize(("key", "value", "words"), PICK_FIELDS)
def test_pick_fields_refused_on_other_kinds(
    at: Table, kind: str, key: str, value: Any, words: str
) -> None:
    winner = "Cat" if kind == "leaster" else None
    error = refusal(at, HandInput(kind=kind, winner=winner, **{key: value}))
    assert error.field == key
    assert re.search(rf"(?<!\w){words}(?!\w)", error.message, re.IGNORECASE), error.message
    # No plural or participle right after "a", as in "Only a pick has a forced."
    assert not re.search(r"\ba \w+(ed|es|ts)\.", error.message), error.message


@pytest.mark.parametrize(
    ("key", "value"),
    [("winner", "Cat"), ("points", LEASTER_POINTS), ("tricks", LEASTER_TRICKS)],
)
@pytest.mark.parametrize(
    ("at", "kind"),
    [pytest.param(DEFAULT, "pick", id="pick"), pytest.param(REDEALS, "pass", id="pass")],
)
def test_leaster_fields_refused_on_other_kinds(at: Table, kind: str, key: str, value: Any) -> None:
    picked = {"picker": "Ann", "picking_points": 75} if kind == "pick" else {}
    error = refusal(at, HandInput(kind=kind, **picked, **{key: value}))
    assert error.field == key
    assert key in error.message


@pytest.mark.parametrize(
    ("at", "entry", "hand"),
    [
        pytest.param(
            DEFAULT,
            pick("Ann", None, 75, winner="", points={}, tricks={}),
            Hand(dealer="Eve", kind=Kind.PICK, picker="Ann", picking_points=75, seats=SEATS),
            id="pick",
        ),
        pytest.param(
            LEASTERS,
            leaster("Cat", picker="", called_card="", forced=False, recracked=False, blitzes=()),
            Hand(dealer="Eve", kind=Kind.LEASTER, winner="Cat", seats=SEATS),
            id="leaster",
        ),
        pytest.param(
            REDEALS,
            HandInput(kind="pass", picker="", blitzes=(), winner="", points={}, tricks={}),
            Hand(dealer="Eve", kind=Kind.PASS, seats=SEATS),
            id="pass",
        ),
    ],
)
def test_fields_left_empty_for_another_kind_are_ignored(
    at: Table, entry: HandInput, hand: Hand
) -> None:
    assert validate_hand(at, "Eve", entry) == hand


# Setting up a table


def test_new_table_trims_names_and_keeps_options() -> None:
    options = Options(no_bid=NoBid.DOUBLER, cracking=False)
    at = new_table([" Ann ", "Bob", "Cat", "Dan", "E" * 40], rounds=MAX_ROUNDS, options=options)
    assert at.seats == ("Ann", "Bob", "Cat", "Dan", "E" * 40)
    assert at.options == options
    assert at.rounds == MAX_ROUNDS


@pytest.mark.parametrize(
    ("players", "rounds", "first_dealer", "field", "text"),
    [
        (SEATS[:2], 2, None, "players", "A table seats 3 to 8 players, not 2."),
        ((*SEATS, "Fay", "Gus", "Hal", "Ida"), 2, None, "players", "seats 3 to 8 players, not 9."),
        (("Ann", "Bob", "Cat", "Dan", "ANN"), 2, None, "players", "ANN is seated twice."),
        (("Ann", "Bob", "Cat", "Dan", " ANN "), 2, None, "players", "ANN is seated twice."),
        (("Ann", "Bob", "Cat", "Dan", ""), 2, None, "players", "seat 5 is empty"),
        (("Ann", "Bob", "Cat", "Dan", "   "), 2, None, "players", "seat 5 is empty"),
        (("Ann", "Bob", "Cat", "Dan", "E" * 41), 2, None, "players", "must be 1 to 40 characters"),
        (SEATS, -1, None, "rounds", "Rounds must be a whole number from 0 to 100"),
        (SEATS, MAX_ROUNDS + 1, None, "rounds", "Rounds must be a whole number from 0 to 100"),
        (SEATS, 2, "Zed", "first_dealer", "Zed is not playing in this session."),
    ],
)
def test_new_table_refusals(
    players: tuple[str, ...], rounds: int, first_dealer: str | None, field: str, text: str
) -> None:
    with pytest.raises(RuleError) as caught:
        new_table(list(players), rounds, first_dealer)
    assert caught.value.field == field
    assert text in caught.value.message
    assert_sentence(caught.value.message)


@pytest.mark.parametrize(
    ("points", "partner", "schneidered"),
    [
        (0, "Bob", {"Ann", "Bob"}),
        (20, "Bob", {"Ann", "Bob"}),
        (30, "Bob", {"Ann", "Bob"}),
        (31, "Bob", set()),
        (60, "Bob", set()),
        (90, "Bob", set()),
        (91, "Bob", {"Cat", "Dan", "Eve"}),
        (120, None, {"Bob", "Cat", "Dan", "Eve"}),
        (100, None, {"Bob", "Cat", "Dan", "Eve"}),
        (25, None, {"Ann"}),
    ],
)
def test_schneider_falls_on_the_side_paying_double_or_more(
    points: int, partner: str | None, schneidered: set[str]
) -> None:
    assert score(DEFAULT, pick("Ann", partner, points)).schneidered == schneidered


def test_leasters_and_passes_schneider_nobody() -> None:
    assert score(table(no_bid=NoBid.LEASTER), leaster("Cat")).schneidered == frozenset()
    assert score(table(no_bid=NoBid.REDEAL), HandInput(kind="pass")).schneidered == frozenset()
