"""The rules engine against RULES.md "House rules": double on the bump (example 12), the
multiplier cap, stacked doublers, results instead of points under both schwarz rules, penalty
hands, the options' refusals and which rules can change once hands are played. No app, no
database."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from scorekeeper.rules import (
    MULTIPLIER_CAPS,
    Doublers,
    Hand,
    HandInput,
    HandsPlayed,
    Kind,
    NoBid,
    Options,
    PartnerMode,
    Result,
    RuleError,
    Schwarz,
    SittingOut,
    Table,
    change_rules,
    options_from,
    score_hand,
    take_doubler,
    validate_hand,
)

from ..helpers.rules import PASS, SEATS, by_seat, pick, play, refusal, score, table

# Card points a picking team can take.
POSSIBLE = [p for p in range(121) if p not in (1, 119)]


def penalty(penalized: str | None, **fields: Any) -> HandInput:
    return HandInput(kind="penalty", penalized=penalized, **fields)


# Double on the bump


@pytest.mark.parametrize(
    "entry",
    [
        pick("Ann", "Bob", result="lost"),
        pick("Ann", "Bob", 45),
        pick("Ann", "Bob", 45, result="lost"),
        HandInput(kind="pick", picker="Ann", partner="Bob", opponent_points=75),
    ],
    ids=["result", "points", "both", "opponent-points"],
)
def test_example_12_bump_doubles_a_lost_pick(entry: HandInput) -> None:
    result = score(table(bump=True), entry)
    assert result.scores == by_seat(-4, -2, 2, 2, 2)
    assert result.multiplier == 1
    assert result.hand.result is Result.LOST
    assert result.winners == {"Cat", "Dan", "Eve"}


# What each opponent scores at M = 1, by result, without and with the bump.
ROWS = [
    (Result.WON_SCHWARZ, -3, -3),
    (Result.WON_SCHNEIDER, -2, -2),
    (Result.WON, -1, -1),
    (Result.LOST, 1, 2),
    (Result.LOST_SCHNEIDER, 2, 4),
    (Result.LOST_SCHWARZ, 3, 6),
]


@pytest.mark.parametrize(("result", "plain", "bumped"), ROWS)
def test_the_bump_doubles_only_losses_with_a_partner(
    result: Result, plain: int, bumped: int
) -> None:
    entry = pick("Ann", "Bob", result=result.value)
    assert score(table(), entry).scores == by_seat(-2 * plain, -plain, plain, plain, plain)
    assert score(table(bump=True), entry).scores == by_seat(
        -2 * bumped, -bumped, bumped, bumped, bumped
    )


@pytest.mark.parametrize(("result", "plain", "bumped"), ROWS)
def test_the_bump_doubles_only_losses_alone(result: Result, plain: int, bumped: int) -> None:
    entry = pick("Ann", result=result.value)
    assert score(table(), entry).scores == by_seat(-4 * plain, plain, plain, plain, plain)
    assert score(table(bump=True), entry).scores == by_seat(
        -4 * bumped, bumped, bumped, bumped, bumped
    )


def test_the_bump_is_not_part_of_m_and_the_cap_does_not_cap_it() -> None:
    # Dealer Eve: Ann bids first, Dan may crack. Crack and re-crack make M 4, capped to 2; the
    # bump then doubles the base of the loss: 1 x 2 x 2 for each opponent.
    entry = pick("Ann", "Bob", 45, cracked_by="Dan", recracked=True)
    result = score(table(bump=True, max_multiplier=2), entry)
    assert result.multiplier == 2
    assert result.scores == by_seat(-8, -4, 4, 4, 4)
    # Lost schwarz, alone, cap x2: 3 x 2 (bump) x 2 (capped M) from each of four.
    alone = pick("Ann", None, 0, cracked_by="Dan", recracked=True, blitzes=("black",))
    capped = score(table(bump=True, max_multiplier=2), alone)
    assert capped.multiplier == 2
    assert capped.scores == by_seat(-48, 12, 12, 12, 12)


def test_the_bump_does_not_touch_a_leaster_or_a_penalty() -> None:
    leaster = HandInput(kind="leaster", winner="Cat")
    at = table(bump=True, no_bid=NoBid.LEASTER, penalties=True)
    assert score(at, leaster).scores == by_seat(-1, -1, 4, -1, -1)
    assert score(at, penalty("Dan")).scores == by_seat(1, 1, 1, -4, 1)


# The cap


CRACKED_RECRACKED_BLACK = {"cracked_by": "Dan", "recracked": True, "blitzes": ("black",)}


def test_the_cap_example_x8_stays_x8() -> None:
    result = score(table(max_multiplier=8), pick("Ann", "Bob", 75, **CRACKED_RECRACKED_BLACK))
    assert result.multiplier == 8
    assert result.scores == by_seat(16, 8, -8, -8, -8)


def test_the_cap_example_with_a_doubler_scores_x8_not_x16() -> None:
    capped = table(max_multiplier=8, no_bid=NoBid.DOUBLER)
    # Ann deals the pass, Bob the pick: Cat bids first, Eve bids after her.
    entry = pick("Cat", "Dan", 75, cracked_by="Eve", recracked=True, blitzes=("black",))
    sheet = play(capped, PASS, entry)
    result = sheet.results[1]
    assert result.doubled
    assert result.multiplier == 8
    assert result.scores == by_seat(-8, -8, 16, 8, -8)
    assert sheet.pending_doublers == 0
    uncapped = play(table(no_bid=NoBid.DOUBLER), PASS, entry).results[1]
    assert uncapped.multiplier == 16
    assert uncapped.scores == by_seat(-16, -16, 32, 16, -16)


@pytest.mark.parametrize("cap", MULTIPLIER_CAPS)
def test_m_is_two_to_the_doublings_up_to_the_cap(cap: int) -> None:
    every = {"cracked_by": "Dan", "recracked": True, "blitzes": ("black", "red")}
    result = score(table(max_multiplier=cap), pick("Ann", "Bob", 75, **every))
    expected = min(16, cap) if cap else 16
    assert result.multiplier == expected
    assert result.scores == by_seat(2 * expected, expected, -expected, -expected, -expected)


# Stacked doublers


def test_stacked_doublers_pass_pass_then_one_pick_x4() -> None:
    stack = table(no_bid=NoBid.DOUBLER, doublers=Doublers.STACK)
    entries = [PASS, PASS, pick("Bob", "Cat", 75), pick("Dan", "Eve", 75)]
    sheet = play(stack, *entries)
    assert [r.multiplier for r in sheet.results] == [1, 1, 4, 1]
    assert [r.doubled for r in sheet.results] == [False, False, True, False]
    assert sheet.results[2].scores == by_seat(-4, 8, 4, -4, -4)
    pending = [play(stack, *entries[:n]).pending_doublers for n in range(len(entries) + 1)]
    assert pending == [0, 1, 2, 0, 0]


def test_stacked_doublers_a_pass_with_doublers_pending_adds_one() -> None:
    stack = table(no_bid=NoBid.DOUBLER, doublers=Doublers.STACK)
    sheet = play(stack, PASS, PASS, PASS, pick("Dan", "Eve", 75), PASS, pick("Ann", "Bob", 75))
    assert [r.multiplier for r in sheet.results] == [1, 1, 1, 8, 1, 2]
    assert sheet.pending_doublers == 0


def test_the_queue_and_the_stack_differ_only_in_how_many_a_pick_takes() -> None:
    queue = table(no_bid=NoBid.DOUBLER)
    stack = table(no_bid=NoBid.DOUBLER, doublers=Doublers.STACK)
    assert [take_doubler(queue, 3, kind) for kind in (Kind.PICK, Kind.PASS)] == [(2, 1), (4, 0)]
    assert [take_doubler(stack, 3, kind) for kind in (Kind.PICK, Kind.PASS)] == [(0, 3), (4, 0)]
    assert take_doubler(stack, 0, Kind.PICK) == (0, 0)
    # Without doublers as the no-bid rule, the stack option changes nothing.
    assert take_doubler(table(doublers=Doublers.STACK), 0, Kind.PASS) == (0, 0)


def test_stacked_doublers_combine_with_the_cap() -> None:
    at = table(no_bid=NoBid.DOUBLER, doublers=Doublers.STACK, max_multiplier=4)
    sheet = play(at, PASS, PASS, PASS, pick("Dan", "Eve", 75))
    assert sheet.results[3].multiplier == 4
    assert sheet.pending_doublers == 0


# Results instead of points

# The picking team's points each result allows, as RULES.md's table says.
ALLOWED = {
    Schwarz.POINTS: {
        Result.WON_SCHWARZ: {120},
        Result.WON_SCHNEIDER: set(range(91, 120)),
        Result.WON: set(range(61, 91)),
        Result.LOST: set(range(31, 61)),
        Result.LOST_SCHNEIDER: set(range(1, 31)),
        Result.LOST_SCHWARZ: {0},
    },
    Schwarz.TRICKS: {
        Result.WON_SCHWARZ: {120},
        Result.WON_SCHNEIDER: set(range(91, 121)),
        Result.WON: set(range(61, 91)),
        Result.LOST: set(range(31, 61)),
        Result.LOST_SCHNEIDER: set(range(0, 31)),
        Result.LOST_SCHWARZ: set(range(0, 23)),
    },
}
OPPONENT_VALUE = {row[0]: row[1] for row in ROWS}


@pytest.mark.parametrize("schwarz", Schwarz)
@pytest.mark.parametrize("result", Result)
def test_which_points_each_result_allows(schwarz: Schwarz, result: Result) -> None:
    at = table(schwarz=schwarz)
    for points in POSSIBLE:
        entry = pick("Ann", "Bob", points, result=result.value)
        if points in ALLOWED[schwarz][result]:
            hand = validate_hand(at, "Eve", entry)
            assert (hand.result, hand.picking_points) == (result, points)
            value = OPPONENT_VALUE[result]
            assert score_hand(at, hand).scores == by_seat(-2 * value, -value, value, value, value)
        else:
            refused = refusal(at, entry)
            assert refused.field == "result", points


@pytest.mark.parametrize("schwarz", Schwarz)
def test_points_alone_give_the_result_0_and_120_are_schwarz(schwarz: Schwarz) -> None:
    at = table(schwarz=schwarz)
    for points in POSSIBLE:
        hand = validate_hand(at, "Eve", pick("Ann", "Bob", points))
        expected = next(r for r, allowed in ALLOWED[Schwarz.POINTS].items() if points in allowed)
        assert hand.result is expected, points
    assert validate_hand(at, "Eve", pick("Ann", None, 0)).result is Result.LOST_SCHWARZ
    assert validate_hand(at, "Eve", pick("Ann", None, 120)).result is Result.WON_SCHWARZ
    assert score(at, pick("Ann", "Bob", 120)).scores == by_seat(6, 3, -3, -3, -3)
    assert score(at, pick("Ann", "Bob", 0)).scores == by_seat(-6, -3, 3, 3, 3)


def test_a_trick_worth_nothing_is_recorded_with_the_result_under_tricks() -> None:
    tricks = table(schwarz=Schwarz.TRICKS)
    # The opponents took a trick worth nothing: 120 points, yet a schneider, not a schwarz.
    won = score(tricks, pick("Ann", "Bob", 120, result="won_schneider"))
    assert won.scores == by_seat(4, 2, -2, -2, -2)
    assert won.hand.picking_points == 120
    # The picking team took a trick worth nothing: 0 points, a schneider, not a schwarz.
    lost = score(tricks, pick("Ann", "Bob", 0, result="lost_schneider"))
    assert lost.scores == by_seat(-4, -2, 2, 2, 2)
    assert lost.schneidered == {"Ann", "Bob"}
    # The picking team took no trick but buried 22 points: schwarz by tricks.
    buried = score(tricks, pick("Ann", None, 22, result="lost_schwarz"))
    assert buried.scores == by_seat(-12, 3, 3, 3, 3)


@pytest.mark.parametrize(
    ("schwarz", "points", "result", "sentence"),
    [
        (
            Schwarz.POINTS,
            120,
            "won_schneider",
            "The picking team's 120 points mean won schwarz, not won schneider (91 to 119 points).",
        ),
        (
            Schwarz.POINTS,
            0,
            "lost_schneider",
            "The picking team's 0 points mean lost schwarz, not lost schneider (1 to 30 points).",
        ),
        (
            Schwarz.POINTS,
            75,
            "lost",
            "The picking team's 75 points mean won, not lost (31 to 60 points).",
        ),
        (
            Schwarz.POINTS,
            10,
            "lost_schwarz",
            "The picking team's 10 points mean lost schneider, not lost schwarz (0 points).",
        ),
        (
            Schwarz.TRICKS,
            23,
            "lost_schwarz",
            "The picking team's 23 points mean lost schneider, not lost schwarz "
            "(0 to 22 points when schwarz is counted by tricks).",
        ),
        (
            Schwarz.TRICKS,
            100,
            "won_schwarz",
            "The picking team's 100 points mean won schneider, not won schwarz "
            "(120 points when schwarz is counted by tricks).",
        ),
    ],
)
def test_points_and_a_result_that_disagree_are_refused_saying_why(
    schwarz: Schwarz, points: int, result: str, sentence: str
) -> None:
    refused = refusal(table(schwarz=schwarz), pick("Ann", "Bob", points, result=result))
    assert (refused.field, refused.message) == ("result", sentence)


def test_the_opponents_points_are_checked_against_the_result_as_the_picking_teams() -> None:
    entry = HandInput(kind="pick", picker="Ann", partner="Bob", opponent_points=45, result="lost")
    refused = refusal(table(), entry)
    assert refused.message == "The picking team's 75 points mean won, not lost (31 to 60 points)."
    entry = HandInput(kind="pick", picker="Ann", partner="Bob", opponent_points=45, result="won")
    assert validate_hand(table(), "Eve", entry).picking_points == 75


@pytest.mark.parametrize("schwarz", Schwarz)
@pytest.mark.parametrize(("result", "plain", "_bumped"), ROWS)
def test_a_result_only_pick_has_no_points_and_scores_its_row(
    schwarz: Schwarz, result: Result, plain: int, _bumped: int
) -> None:
    at = table(schwarz=schwarz)
    hand = validate_hand(at, "Eve", pick("Ann", "Bob", result=result.value))
    assert (hand.picking_points, hand.result) == (None, result)
    scored = score_hand(at, hand)
    assert scored.scores == by_seat(-2 * plain, -plain, plain, plain, plain)
    assert scored.winners == ({"Ann", "Bob"} if result.won else {"Cat", "Dan", "Eve"})
    alone = score(at, pick("Ann", result=result.value))
    assert alone.scores == by_seat(-4 * plain, plain, plain, plain, plain)


def test_a_result_is_read_in_any_case_with_spaces() -> None:
    assert validate_hand(table(), "Eve", pick("Ann", "Bob", result=" Won ")).result is Result.WON


def test_a_pick_without_points_or_result_is_refused() -> None:
    refused = refusal(table(), pick("Ann", "Bob"))
    assert (refused.field, refused.message) == (
        "picking_points",
        "Give the picking team's points (or the opponents'), or how the hand went.",
    )


def test_an_unknown_result_is_refused() -> None:
    refused = refusal(table(), pick("Ann", "Bob", result="won_big"))
    assert (refused.field, refused.message) == (
        "result",
        "The result is one of won_schwarz, won_schneider, won, lost, lost_schneider, lost_schwarz.",
    )


def test_only_a_pick_has_a_result() -> None:
    at = table(no_bid=NoBid.LEASTER, penalties=True)
    for entry in (
        HandInput(kind="leaster", winner="Cat", result="won"),
        HandInput(kind="penalty", penalized="Cat", result="won"),
    ):
        refused = refusal(at, entry)
        assert (refused.field, refused.message) == ("result", "Only a pick has a result.")


# Penalty hands

PENALTIES = table(penalties=True)


def test_a_penalty_with_five_playing_is_minus_four_and_plus_one_each() -> None:
    result = score(PENALTIES, penalty("Dan"))
    assert result.scores == by_seat(1, 1, 1, -4, 1)
    assert result.multiplier == 1
    assert not result.doubled
    assert result.winners == frozenset()
    assert result.schneidered == frozenset()
    assert result.hand == Hand(dealer="Eve", kind=Kind.PENALTY, penalized="Dan", seats=SEATS)


@pytest.mark.parametrize(
    ("seated", "sitting_out", "dealer", "scores"),
    [
        (3, SittingOut.DEALER, "Cat", (-2, 1, 1)),
        (4, SittingOut.DEALER, "Dan", (-3, 1, 1, 1)),
        (6, SittingOut.NONE, "Fay", (-5, 1, 1, 1, 1, 1)),
        (7, SittingOut.NONE, "Gus", (-6, 1, 1, 1, 1, 1, 1)),
        # Five play: the dealer (and the players just before) score 0.
        (6, SittingOut.DEALER, "Fay", (-4, 1, 1, 1, 1, 0)),
        (7, SittingOut.DEALER, "Gus", (-4, 1, 1, 1, 1, 0, 0)),
        (8, SittingOut.DEALER, "Hal", (-4, 1, 1, 1, 1, 0, 0, 0)),
    ],
)
def test_a_penalty_with_n_playing_is_minus_n_less_one(
    seated: int, sitting_out: SittingOut, dealer: str, scores: tuple[int, ...]
) -> None:
    seats = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")[:seated]
    partner = PartnerMode.ALONE if seated <= 4 else PartnerMode.JACK_OF_DIAMONDS
    at = table(seats, penalties=True, sitting_out=sitting_out, partner=partner)
    result = score(at, penalty("ann"), dealer=dealer)
    assert result.hand.penalized == "Ann"
    assert result.scores == by_seat(*scores, seats=seats)
    assert sum(result.scores.values()) == 0


def test_the_penalized_player_must_play_the_hand() -> None:
    six = table(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), penalties=True)
    refused = refusal(six, penalty("Fay"), dealer="Fay")
    assert (refused.field, refused.message) == ("penalized", "Fay is not playing in this hand.")
    refused = refusal(PENALTIES, penalty("Zed"))
    assert (refused.field, refused.message) == ("penalized", "Zed is not playing in this hand.")


def test_a_penalty_needs_the_penalized_player() -> None:
    for entry in (penalty(None), penalty("")):
        refused = refusal(PENALTIES, entry)
        assert (refused.field, refused.message) == ("penalized", "Choose who is penalized.")


def test_a_penalty_is_refused_when_the_session_has_no_penalties() -> None:
    refused = refusal(table(), penalty("Dan"))
    assert (refused.field, refused.message) == ("kind", "This session doesn't play penalty hands.")


def test_only_a_penalty_has_a_penalized_player_and_it_has_nothing_of_a_pick() -> None:
    refused = refusal(PENALTIES, pick("Ann", "Bob", 75, penalized="Dan"))
    assert (refused.field, refused.message) == (
        "penalized",
        "Only a penalty hand has a penalized player.",
    )
    for fields, field, words in (
        ({"picker": "Ann"}, "picker", "a picker"),
        ({"cracked_by": "Cat"}, "cracked_by", "a crack"),
        ({"blitzes": ("black",)}, "blitzes", "blitzes"),
        ({"picking_points": 60}, "picking_points", "picking team points"),
    ):
        refused = refusal(PENALTIES, penalty("Dan", **fields))
        assert (refused.field, refused.message) == (field, f"Only a pick has {words}.")
    refused = refusal(PENALTIES, penalty("Dan", winner="Cat"))
    assert (refused.field, refused.message) == ("winner", "Only a leaster has a winner.")


@pytest.mark.parametrize("doublers", Doublers)
def test_a_penalty_neither_adds_nor_takes_a_doubler(doublers: Doublers) -> None:
    at = table(no_bid=NoBid.DOUBLER, doublers=doublers, penalties=True, max_multiplier=8)
    sheet = play(at, PASS, PASS, penalty("Cat"), pick("Eve", "Ann", 75), penalty("Bob"))
    taken = 2 if doublers is Doublers.QUEUE else 4
    assert [r.multiplier for r in sheet.results] == [1, 1, 1, taken, 1]
    assert sheet.results[2].scores == by_seat(1, 1, -4, 1, 1)
    assert sheet.results[4].scores == by_seat(1, -4, 1, 1, 1)
    pending = [play(at, PASS, PASS, penalty("Cat")).pending_doublers, sheet.pending_doublers]
    assert pending == [2, 1 if doublers is Doublers.QUEUE else 0]


def test_a_penalty_is_a_hand_for_the_rotation_and_the_rounds() -> None:
    at = Table(seats=SEATS, options=Options(penalties=True), rounds=1)
    sheet = play(at, penalty("Ann"), penalty("Bob"), pick("Cat", "Dan", 75), penalty("Eve"))
    assert [r.hand.dealer for r in sheet.results] == ["Ann", "Bob", "Cat", "Dan"]
    assert sheet.next_dealer == "Eve"
    assert not sheet.complete
    assert sheet.totals == by_seat(-3, -3, 5, 4, -3)
    # Hands won: only the pick's team.
    assert sheet.hands_won == by_seat(0, 0, 1, 1, 0)
    done = play(at, *[penalty(p) for p in SEATS])
    assert done.complete and done.next_dealer is None
    assert done.totals == by_seat(0, 0, 0, 0, 0)
    assert done.hands_won == by_seat(0, 0, 0, 0, 0)


# Every combination of the house rules plays


@pytest.mark.parametrize(
    ("bump", "cap", "doublers", "schwarz", "penalties"),
    list(product([False, True], MULTIPLIER_CAPS, Doublers, Schwarz, [False, True])),
)
def test_every_combination_of_house_rules_scores_a_night(
    bump: bool, cap: int, doublers: Doublers, schwarz: Schwarz, penalties: bool
) -> None:
    at = table(
        no_bid=NoBid.DOUBLER,
        bump=bump,
        max_multiplier=cap,
        doublers=doublers,
        schwarz=schwarz,
        penalties=penalties,
    )
    # Dealers Ann, Bob, Cat, Dan, Eve: Ann bids after Dan, Eve first after Dan deals.
    entries = [PASS, PASS, pick("Dan", "Eve", 45, cracked_by="Ann"), pick("Eve", None, 95)]
    if penalties:
        entries.append(penalty("Ann"))
    sheet = play(at, *entries)
    # The lost pick: 1 x (2 with the bump) x M, M = crack x doublers taken, at most the cap.
    doubled = 2 * (4 if doublers is Doublers.STACK else 2)
    m = min(doubled, cap) if cap else doubled
    value = (2 if bump else 1) * m
    assert sheet.results[2].multiplier == m
    assert sheet.results[2].scores == by_seat(value, value, value, -2 * value, -value)
    # The won pick alone: with the queue it takes the second doubler.
    second = 2 if doublers is Doublers.QUEUE else 1
    second = min(second, cap) if cap else second
    assert sheet.results[3].scores == by_seat(*[-2 * second] * 4, 8 * second)
    assert sum(sheet.totals.values()) == 0
    assert sheet.pending_doublers == 0


# The options and changing them


def test_options_default_to_the_seeds_game() -> None:
    options = options_from()
    assert options == Options()
    assert (options.bump, options.schwarz, options.doublers) == (
        False,
        Schwarz.POINTS,
        Doublers.QUEUE,
    )
    assert (options.max_multiplier, options.penalties, options.stake) == (0, False, 0)
    assert options_from(seated=4).partner is PartnerMode.ALONE


def test_options_from_names() -> None:
    options = options_from(
        bump=True, schwarz="tricks", doublers="stack", max_multiplier=16, penalties=True, stake=25
    )
    assert options == Options(
        bump=True,
        schwarz=Schwarz.TRICKS,
        doublers=Doublers.STACK,
        max_multiplier=16,
        penalties=True,
        stake=25,
    )
    for cap in MULTIPLIER_CAPS:
        assert options_from(max_multiplier=cap).max_multiplier == cap
    assert options_from(stake=10000).stake == 10000


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"max_multiplier": 3}, "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64."),
        (
            {"max_multiplier": 128},
            "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64.",
        ),
        ({"max_multiplier": 1}, "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64."),
        ({"stake": 10001}, "The stake is a whole number of cents per point from 0 to 10000."),
        ({"stake": -1}, "The stake is a whole number of cents per point from 0 to 10000."),
        ({"schwarz": "cards"}, "What makes schwarz is one of points, tricks."),
        ({"doublers": "heap"}, "How doublers double is one of queue, stack."),
        ({"sitting_out": "all"}, "Who sits out is one of dealer, none."),
    ],
)
def test_options_from_refuses(given: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError) as caught:
        options_from(**given)
    assert (caught.value.field, caught.value.message) == ("rules", message)


HOUSE = Options(
    bump=True,
    schwarz=Schwarz.TRICKS,
    doublers=Doublers.STACK,
    max_multiplier=8,
    penalties=True,
    stake=50,
    no_bid=NoBid.DOUBLER,
    sitting_out=SittingOut.NONE,
    partner=PartnerMode.CALLED_ACE,
    cracking=False,
    blitzing=False,
)


def test_any_rule_changes_while_no_hand_is_played() -> None:
    changed = change_rules(table(), HOUSE, 0)
    assert changed.options == HOUSE
    assert changed.seats == SEATS
    assert change_rules(changed, Options(), 0).options == Options()


@pytest.mark.parametrize(
    "change",
    [
        {"bump": True},
        {"schwarz": Schwarz.TRICKS},
        {"doublers": Doublers.STACK},
        {"max_multiplier": 2},
        {"penalties": True},
        {"no_bid": NoBid.LEASTER},
        {"partner": PartnerMode.CALLED_ACE},
        {"cracking": False},
        {"sitting_out": SittingOut.NONE},
        {"bump": True, "stake": 5},
    ],
)
def test_after_a_hand_only_the_stake_changes(change: dict[str, Any]) -> None:
    at = table(stake=25)
    with pytest.raises(HandsPlayed) as caught:
        change_rules(at, Options(**{"stake": 25, **change}), 1)
    assert (caught.value.field, caught.value.message) == (
        "rules",
        "Hands are already played by these rules, so only the stake can change now.",
    )
    assert change_rules(at, Options(stake=200), 3).options == Options(stake=200)
    assert change_rules(at, Options(stake=0), 3).options == Options()
    assert change_rules(at, Options(stake=25), 3) == at


def test_rules_that_cannot_be_played_at_the_table_are_refused() -> None:
    three = table(("Ann", "Bob", "Cat"), partner=PartnerMode.ALONE)
    with pytest.raises(RuleError) as caught:
        change_rules(three, Options(), 0)
    assert caught.value.field == "rules"
    assert caught.value.message == (
        "With three seated the picker always plays alone: choose the partner rule alone."
    )
