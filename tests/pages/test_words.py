"""Hands, scores and standings told in words: summaries, score previews, tiebreak sentences."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import rules
from scorekeeper.pages.words import (
    amount_words,
    hand_differences,
    hand_summary,
    money,
    names,
    ordinal,
    rules_words,
    score_preview,
    short_names,
    signed,
    sitting_out_words,
    summary_of,
    tiebreaks,
)
from scorekeeper.sessions.records import hand_json

SEATS = ("Ann", "Bob", "Cat", "Dan", "Eve")
TABLE = rules.Table(seats=SEATS)
BLACK, RED = rules.Blitz.BLACK, rules.Blitz.RED


def pick(picker: str, partner: str | None, points: int | None, **more: Any) -> rules.Hand:
    """A pick dealt by Eve, so everyone from Ann on bids after the dealer."""
    return rules.Hand(
        dealer="Eve",
        kind=rules.Kind.PICK,
        picker=picker,
        partner=partner,
        picking_points=points,
        seats=SEATS,
        **more,
    )


PENALTY = rules.Hand(dealer="Ann", kind=rules.Kind.PENALTY, penalized="Dan", seats=SEATS)
WON_SCHNEIDER = rules.Result.WON_SCHNEIDER
PASS = rules.Hand(dealer="Ann", kind=rules.Kind.PASS, seats=SEATS)
LEASTER = rules.Hand(dealer="Ann", kind=rules.Kind.LEASTER, winner="Cat", seats=SEATS)


def scored(hand: rules.Hand, doubled: bool = False) -> rules.HandResult:
    return rules.score_hand(TABLE, hand, doubled)


@pytest.mark.parametrize(
    ("hand", "doubled", "expected"),
    [
        (PASS, False, "Everyone passed"),
        (LEASTER, False, "Leaster won by Cat"),
        (pick("Ann", "Bob", 75), False, "Ann & Bob, 75"),
        (pick("Ann", None, 95), False, "Ann alone, 95"),
        (pick("Bob", "Cat", 0), False, "Bob & Cat, 0"),
        (pick("Eve", "Cat", 30, forced=True), False, "Eve & Cat, 30, forced"),
        (pick("Ann", None, 95, cracked_by="Dan"), False, "Ann alone, 95, cracked by Dan (x2)"),
        (
            pick("Ann", None, 95, cracked_by="Dan", recracked=True, blitzes=(BLACK,)),
            False,
            "Ann alone, 95, cracked by Dan, re-cracked, black blitz (x8)",
        ),
        (
            pick("Cat", "Ann", 120, blitzes=(BLACK, RED)),
            False,
            "Cat & Ann, 120, black blitz, red blitz (x4)",
        ),
        (pick("Bob", "Cat", 75), True, "Bob & Cat, 75, doubler (x2)"),
        (pick("Bob", "Cat", 0, blitzes=(BLACK,)), True, "Bob & Cat, 0, black blitz, doubler (x4)"),
        (PENALTY, False, "Dan penalized"),
        (pick("Ann", "Bob", None, result=WON_SCHNEIDER), False, "Ann & Bob, won schneider"),
        (pick("Ann", "Bob", 120, result=WON_SCHNEIDER), False, "Ann & Bob, 120, won schneider"),
        (pick("Ann", "Bob", 95, result=WON_SCHNEIDER), False, "Ann & Bob, 95"),
    ],
)
def test_hand_summary(hand: rules.Hand, doubled: bool, expected: str) -> None:
    assert hand_summary(scored(hand, doubled)) == expected


@pytest.mark.parametrize(
    ("hand", "doubled", "expected"),
    [
        (pick("Ann", "Bob", 75), False, "Ann +2, Bob +1, Cat, Dan, Eve -1"),
        (pick("Ann", "Bob", 60), False, "Ann -2, Bob -1, Cat, Dan, Eve +1"),
        (pick("Ann", "Bob", 120), False, "Ann +6, Bob +3, Cat, Dan, Eve -3"),
        (pick("Ann", "Bob", 0), False, "Ann -6, Bob -3, Cat, Dan, Eve +3"),
        (pick("Ann", None, 75), False, "Ann +4, 4 others -1"),
        (pick("Ann", None, 75, cracked_by="Dan"), False, "Ann +8, 4 others -2, x2 for the crack"),
        (
            pick("Ann", None, 75, cracked_by="Dan", recracked=True),
            False,
            "Ann +16, 4 others -4, x4 for the crack and the re-crack",
        ),
        (
            pick("Ann", None, 95, cracked_by="Dan", recracked=True, blitzes=(BLACK,)),
            False,
            "Ann +64, 4 others -16, x8 for the crack, the re-crack and the black blitz",
        ),
        (
            pick("Ann", "Bob", 95, blitzes=(BLACK, RED)),
            False,
            "Ann +16, Bob +8, Cat, Dan, Eve -8, x4 for the black blitz and the red blitz",
        ),
        (pick("Bob", "Cat", 95), True, "Bob +8, Cat +4, Ann, Dan, Eve -4, x2 for the doubler"),
        (
            pick("Bob", "Cat", 0, blitzes=(BLACK,)),
            True,
            "Bob -24, Cat -12, Ann, Dan, Eve +12, x4 for the black blitz and the doubler",
        ),
        (LEASTER, False, "Cat +4, 4 others -1"),
        (PASS, False, "No scores: the deal moves on."),
    ],
)
def test_score_preview(hand: rules.Hand, doubled: bool, expected: str) -> None:
    assert score_preview(scored(hand, doubled)) == expected


SIX = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def six_seated(dealer: str, seats: tuple[str, ...] = SIX, **hand: Any) -> str:
    """The preview of a hand at a table of `seats`, dealt by `dealer`."""
    table = rules.Table(seats=seats, options=rules.Options(no_bid=rules.NoBid.LEASTER))
    return score_preview(rules.score_hand(table, rules.Hand(dealer=dealer, seats=seats, **hand)))


PICKED = rules.Kind.PICK


@pytest.mark.parametrize(
    ("dealer", "seats", "hand", "expected"),
    [
        # Ann deals and sits out: the three opponents who played are named, not Ann's 0.
        (
            "Ann", SIX, {"kind": PICKED, "picker": "Bob", "partner": "Cat", "picking_points": 70},
            "Bob +2, Cat +1, Dan, Eve, Fay -1 · Ann sits out",
        ),
        # Four opponents are counted.
        (
            "Ann", SIX, {"kind": PICKED, "picker": "Bob", "partner": None, "picking_points": 70},
            "Bob +4, 4 others -1 · Ann sits out",
        ),
        (
            "Fay", SIX, {"kind": rules.Kind.LEASTER, "winner": "Cat"},
            "Cat +4, 4 others -1 · Fay sits out",
        ),
        (
            "Cat", (*SIX, "Gus"),
            {"kind": PICKED, "picker": "Eve", "partner": "Ann", "picking_points": 30},
            "Eve -4, Ann -2, Dan, Fay, Gus +2 · Cat and Bob sit out",
        ),
        ("Ann", SIX, {"kind": rules.Kind.PASS}, "No scores: the deal moves on."),
    ],
)  # fmt: skip
def test_a_preview_names_or_counts_the_others_and_says_who_sits_out(
    dealer: str, seats: tuple[str, ...], hand: dict[str, Any], expected: str
) -> None:
    assert six_seated(dealer, seats, **hand) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Eve picked and called Cat, who sits before her: the picker comes first all the same.
        (pick("Eve", "Cat", 75), "Eve +2, Cat +1, Ann, Bob, Dan -1"),
        (pick("Dan", "Ann", 45), "Dan -2, Ann -1, Bob, Cat, Eve +1"),
        # A leaster's winner first, a penalty's penalized player first.
        (rules.Hand(dealer="Ann", kind=rules.Kind.LEASTER, winner="Eve", seats=SEATS),
         "Eve +4, 4 others -1"),
        (rules.Hand(dealer="Ann", kind=rules.Kind.PENALTY, penalized="Eve", seats=SEATS),
         "Eve -4, 4 others +1"),
    ],
)  # fmt: skip
def test_a_preview_says_the_picker_then_the_partner_then_the_others(
    hand: rules.Hand, expected: str
) -> None:
    assert score_preview(scored(hand)) == expected


BUMP = rules.Table(seats=SEATS, options=rules.Options(bump=True))


@pytest.mark.parametrize(
    ("hand", "preview", "summary"),
    [
        # RULES.md example 12: Ann -4, Bob -2, the others +2.
        (
            pick("Ann", "Bob", 45),
            "Ann -4, Bob -2, Cat, Dan, Eve +2, lost, doubled on the bump",
            "Ann & Bob, 45, doubled on the bump",
        ),
        (
            pick("Ann", "Bob", 25, cracked_by="Dan"),
            "Ann -16, Bob -8, Cat, Dan, Eve +8, lost schneider, doubled on the bump, "
            "x2 for the crack",
            "Ann & Bob, 25, cracked by Dan (x2), doubled on the bump",
        ),
        # A won pick is not bumped.
        (pick("Ann", "Bob", 75), "Ann +2, Bob +1, Cat, Dan, Eve -1", "Ann & Bob, 75"),
    ],
)
def test_the_bump_is_named_where_it_doubled_a_loss(
    hand: rules.Hand, preview: str, summary: str
) -> None:
    result = rules.score_hand(BUMP, hand)
    assert (score_preview(result), hand_summary(result)) == (preview, summary)


def test_the_bump_is_named_from_a_hand_as_the_api_gives_it() -> None:
    result = rules.score_hand(BUMP, pick("Ann", None, 0))
    assert summary_of(hand_json(1, result, SEATS)) == "Ann alone, 0, doubled on the bump"


@pytest.mark.parametrize(
    ("seats", "dealer", "out", "expected"),
    [
        (SIX, "Fay", ("Fay",), "Fay sits out"),
        ((*SIX, "Gus"), "Cat", ("Bob", "Cat"), "Cat and Bob sit out"),
        ((*SIX, "Gus", "Hal"), "Bob", ("Ann", "Bob", "Hal"), "Bob, Ann and Hal sit out"),
        (SEATS, "Ann", (), ""),
    ],
)
def test_sitting_out_words(
    seats: tuple[str, ...], dealer: str, out: tuple[str, ...], expected: str
) -> None:
    assert sitting_out_words(seats, dealer, out) == expected


def test_short_names_are_three_letters_unless_two_would_read_the_same() -> None:
    players = ["Ann", "Bob", "Christopher", "Chris", "Dana", "Dan", "Eve"]
    assert short_names(players) == {
        "Ann": "Ann",
        "Bob": "Bob",
        "Christopher": "Christ",
        "Chris": "Chris",
        "Dana": "Dana",
        "Dan": "Dan",
        "Eve": "Eve",
    }


def standings_of(totals: list[int], hands_won: list[int]) -> tuple[rules.Standing, ...]:
    return rules.standings(
        SEATS, dict(zip(SEATS, totals, strict=True)), dict(zip(SEATS, hands_won, strict=True))
    )


@pytest.mark.parametrize(
    ("totals", "hands_won", "places", "expected"),
    [
        pytest.param([4, 2, 0, -2, -4], [2, 1, 1, 1, 0], [1, 2, 3, 4, 5], [], id="no tie"),
        pytest.param(
            [5, -2, 3, -4, -2],
            [3, 3, 2, 0, 2],
            [1, 2, 3, 4, 5],
            ["Bob and Eve both -2; Bob won more hands, 3 to 2."],
            id="two, decided",
        ),
        pytest.param(
            [5, -2, 3, -4, -2],
            [3, 2, 2, 0, 2],
            [1, 2, 3, 3, 5],
            ["Bob and Eve both -2 with 2 hands won each, so they share 3rd place."],
            id="two, shared",
        ),
        pytest.param(
            [2, 2, 0, -2, -2],
            [1, 1, 0, 0, 0],
            [1, 1, 3, 4, 4],
            [
                "Ann and Bob both +2 with 1 hand won each, so they share 1st place.",
                "Dan and Eve both -2 with 0 hands won each, so they share 4th place.",
            ],
            id="two pairs, shared",
        ),
        pytest.param(
            [1, 1, 1, -1, -2],
            [1, 1, 1, 0, 0],
            [1, 1, 1, 4, 5],
            ["Ann, Bob and Cat all +1 with 1 hand won each, so they share 1st place."],
            id="three, shared",
        ),
        pytest.param(
            [5, -1, -1, -1, -2],
            [3, 1, 3, 2, 0],
            [1, 2, 3, 4, 5],
            ["Cat, Dan and Bob all -1; hands won decide: Cat 3, Dan 2, Bob 1."],
            id="three, decided",
        ),
        pytest.param(
            [3, 0, 0, -1, -2],
            [2, 2, 1, 1, 0],
            [1, 2, 3, 4, 5],
            ["Bob and Cat both 0; Bob won more hands, 2 to 1."],
            id="two at zero",
        ),
    ],
)
def test_tiebreaks(
    totals: list[int], hands_won: list[int], places: list[int], expected: list[str]
) -> None:
    standings = standings_of(totals, hands_won)
    assert sorted(s.place for s in standings) == places
    assert tiebreaks(standings) == expected


@pytest.mark.parametrize(
    ("n", "expected"), [(7, "+7"), (1, "+1"), (0, "0"), (-1, "-1"), (-24, "-24")]
)
def test_signed(n: int, expected: str) -> None:
    assert signed(n) == expected


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"),
        (13, "13th"), (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"),
        (111, "111th"), (112, "112th"), (113, "113th"), (122, "122nd"),
    ],
)  # fmt: skip
def test_ordinal(n: int, expected: str) -> None:
    assert ordinal(n) == expected


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ([], ""),
        (["Ann"], "Ann"),
        (["Ann", "Bob"], "Ann and Bob"),
        (["Ann", "Bob", "Cat"], "Ann, Bob and Cat"),
        (["Ann", "Bob", "Cat", "Dan"], "Ann, Bob, Cat and Dan"),
    ],
)
def test_names(players: list[str], expected: str) -> None:
    assert names(players) == expected


def test_score_preview_of_a_penalty_hand() -> None:
    assert score_preview(scored(PENALTY)) == "Dan -4, 4 others +1"


@pytest.mark.parametrize(
    ("cents", "expected"),
    [(0, "$0.00"), (5, "$0.05"), (150, "$1.50"), (-25, "-$0.25"), (123456, "$1,234.56")],
)
def test_money(cents: int, expected: str) -> None:
    assert money(cents) == expected


def test_amount_words() -> None:
    assert [amount_words(150, "cents"), amount_words(1, "points"), amount_words(7, "points")] == [
        "$1.50",
        "1 point",
        "7 points",
    ]


@pytest.mark.parametrize(
    ("options", "seated", "expected"),
    [
        (
            rules.Options(),
            5,
            ["Jack of diamonds partner", "all pass: the dealer picks", "no stake"],
        ),
        (
            rules.Options(
                partner=rules.PartnerMode.ALONE,
                no_bid=rules.NoBid.DOUBLER,
                cracking=False,
                blitzing=False,
                doublers=rules.Doublers.STACK,
                bump=True,
                max_multiplier=8,
                schwarz=rules.Schwarz.TRICKS,
                penalties=True,
                stake=25,
            ),
            4,
            [
                "Picker always alone",
                "all pass: re-deal and double",
                "no cracking",
                "no blitzing",
                "Doublers stack",
                "bump doubles a loss",
                "cap x8",
                "schwarz by tricks",
                "penalty hands",
                "$0.25 a point",
            ],
        ),
        (
            rules.Options(no_bid=rules.NoBid.LEASTER, doublers=rules.Doublers.STACK),
            7,
            [
                "Jack of diamonds partner",
                "all pass: leaster",
                "five play: the dealer and the player just before sit out",
                "no stake",
            ],
        ),
        (
            rules.Options(sitting_out=rules.SittingOut.NONE, stake=100),
            6,
            [
                "Jack of diamonds partner",
                "all pass: the dealer picks",
                "everyone plays",
                "$1.00 a point",
            ],
        ),
    ],
)
def test_rules_words(options: rules.Options, seated: int, expected: list[str]) -> None:
    assert rules_words(options, seated) == expected


def test_hand_differences_tell_a_result_only_where_the_points_do_not_give_it() -> None:
    before = {"kind": "pick", "picking_points": 75, "result": "won"}
    assert hand_differences(before, {**before, "picking_points": 45, "result": "lost"}) == (
        "picking points 75 → 45"
    )
    assert hand_differences(before, {**before, "picking_points": None, "result": "lost"}) == (
        "picking points 75 → none, result none → lost"
    )
    assert hand_differences(
        {"kind": "penalty", "penalized": "Dan"}, {"kind": "penalty", "penalized": "Eve"}
    ) == ("penalized Dan → Eve")
