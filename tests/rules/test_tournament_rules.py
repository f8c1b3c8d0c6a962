"""Tournament tables against RULES.md "Tournament tables": who confirms each kind of hand and
the sentence that refuses anyone else, a substitute seated between hands and its refusals, and
how what a substitute scores counts for the player replaced in the event's standings, prizes
and round tops; an unconfirmed hand makes the results provisional. No app, no database."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    HandInput,
    NoBid,
    RoundTable,
    RuleError,
    SittingOut,
    TableResult,
    check_confirmer,
    check_note,
    confirmers,
    confirms_words,
    event_results,
    or_names,
    substitute,
)

from ..helpers.rules import SEATS, assert_sentence, leaster, pick, score, table

SIX = (*SEATS, "Fay")


def refusal(field: str) -> pytest.RaisesExc[RuleError]:
    return pytest.raises(RuleError, check=lambda error: error.field == field)


# Who confirms


def test_the_side_that_did_not_pick_confirms_a_pick() -> None:
    result = score(table(), pick("Ann", "Cat", 75))
    assert confirmers(result) == ("Bob", "Dan", "Eve")
    assert confirms_words(result) == "Bob, Dan or Eve confirms"
    assert confirmers(score(table(), pick("Bob", None, 40))) == ("Ann", "Cat", "Dan", "Eve")


def test_any_player_of_a_leaster_or_a_pass_confirms_it() -> None:
    at = table(no_bid=NoBid.LEASTER)
    assert confirmers(score(at, leaster("Cat"))) == SEATS
    assert confirmers(score(table(no_bid=NoBid.REDEAL), HandInput(kind="pass"))) == SEATS


def test_anyone_but_the_penalised_player_confirms_a_penalty() -> None:
    result = score(table(penalties=True), HandInput(kind="penalty", penalized="Dan"))
    assert confirmers(result) == ("Ann", "Bob", "Cat", "Eve")


def test_a_player_sitting_out_does_not_confirm() -> None:
    at = table(SIX, sitting_out=SittingOut.DEALER)
    result = score(at, pick("Ann", "Bob", 70), dealer="Fay")
    assert confirmers(result) == ("Cat", "Dan", "Eve")
    assert confirms_words(result) == "Cat, Dan or Eve confirms"


def test_a_confirmer_is_named_as_stored_whatever_the_case() -> None:
    result = score(table(), pick("Ann", "Cat", 75))
    assert check_confirmer(result, 3, "  dan ") == "Dan"


@pytest.mark.parametrize(
    ("entry", "options", "by", "sentence"),
    [
        (
            pick("Ann", "Cat", 75),
            {},
            "Ann",
            "Ann can't confirm hand 4: the side that did not pick confirms it, Bob, Dan or Eve.",
        ),
        (
            pick("Ann", "Cat", 75),
            {},
            "Zed",
            "Zed can't confirm hand 4: the side that did not pick confirms it, Bob, Dan or Eve.",
        ),
        (
            HandInput(kind="penalty", penalized="Dan"),
            {"penalties": True},
            "Dan",
            "Dan can't confirm hand 4: a player of the hand but Dan, who was penalised, "
            "confirms it, Ann, Bob, Cat or Eve.",
        ),
        (
            leaster("Cat"),
            {"no_bid": NoBid.LEASTER},
            "Zed",
            "Zed can't confirm hand 4: any player of the hand confirms it, "
            "Ann, Bob, Cat, Dan or Eve.",
        ),
        (
            leaster("Cat"),
            {"no_bid": NoBid.LEASTER},
            " ",
            "Say who confirms hand 4: Ann, Bob, Cat, Dan or Eve.",
        ),
    ],
)
def test_anyone_else_is_refused_at_by_saying_who_confirms(
    entry: HandInput, options: dict[str, object], by: str, sentence: str
) -> None:
    result = score(table(**options), entry)
    with refusal("by") as caught:
        check_confirmer(result, 4, by)
    assert caught.value.message == sentence
    assert_sentence(caught.value.message)


def test_names_joined_with_or() -> None:
    assert [or_names(n) for n in ([], ["Cat"], ["Cat", "Dan"], ["Cat", "Dan", "Eve"])] == [
        "",
        "Cat",
        "Cat or Dan",
        "Cat, Dan or Eve",
    ]


def test_a_note_for_the_director_is_trimmed_and_at_most_200_characters() -> None:
    assert check_note("  misdeal   at seat 3 ") == "misdeal at seat 3"
    assert check_note("x" * 200) == "x" * 200
    with refusal("note") as caught:
        check_note("x" * 201)
    assert_sentence(caught.value.message)


# Substitutes


ROUND = [
    RoundTable(("Ann", "Bob", "Cat", "Dan", "Eve"), played=frozenset(SEATS)),
    RoundTable(("Fay", "Gus", "Hal", "Ida"), played=frozenset({"Fay", "Gus", "Hal", "Ida"})),
]


def test_a_substitute_takes_the_seat_and_counts_for_the_player_replaced() -> None:
    made = substitute(ROUND, 2, "cat", "Zed")
    assert (made.table, made.out, made.player, made.stands_for) == (0, "Cat", "Zed", "Cat")
    assert made.seats == ("Ann", "Bob", "Zed", "Dan", "Eve")


def test_the_replaced_player_comes_back_the_same_way_and_counts_for_themselves() -> None:
    after = [
        RoundTable(("Ann", "Bob", "Zed", "Dan", "Eve"), {"Zed": "Cat"}, frozenset(SEATS)),
        ROUND[1],
    ]
    back = substitute(after, 2, "Zed", "Cat")
    assert (back.seats, back.out, back.stands_for) == (SEATS, "Zed", None)
    # And the substitute again, who played here for Cat, sits in for her again.
    again = [RoundTable(SEATS, {"Zed": "Cat"}, frozenset({*SEATS, "Zed"})), ROUND[1]]
    assert substitute(again, 2, "Cat", "Zed").stands_for == "Cat"
    # A second substitute for the first counts for Cat too.
    assert substitute(after, 2, "Zed", "Yul").stands_for == "Cat"


@pytest.mark.parametrize(
    ("tables", "out", "player", "field", "sentence"),
    [
        (ROUND, "Zed", "Yul", "out", "Zed has no seat in round 2."),
        (ROUND, "Cat", "gus", "in", "Gus has a seat in round 2 already, at table 2."),
        (ROUND, "Cat", "Cat", "in", "Cat has a seat in round 2 already, at table 1."),
        (
            [ROUND[0], RoundTable(("Fay", "Gus", "Hal", "Yul"), played=frozenset({"Ida"}))],
            "Cat",
            "Ida",
            "in",
            "Ida played at table 2 in round 2: a player sits at one table a round.",
        ),
        (
            [RoundTable(("Ann", "Bob", "Zed", "Dan", "Eve"), {"Zed": "Cat"}, frozenset(SEATS))],
            "Ann",
            "Cat",
            "in",
            "Cat played at table 1 in round 2 for themselves, so they can't sit in for Ann.",
        ),
        (ROUND, " ", "Zed", "out", "Say who leaves their seat: a player's name."),
        (ROUND, "Cat", "", "in", "Say who takes the seat: a player's name."),
    ],
)
def test_a_substitution_is_refused_when_the_seat_or_the_substitute_does_not_fit(
    tables: list[RoundTable], out: str, player: str, field: str, sentence: str
) -> None:
    with refusal(field) as caught:
        substitute(tables, 2, out, player)
    assert caught.value.message == sentence
    assert_sentence(caught.value.message)


def test_what_a_substitute_scores_counts_for_the_player_replaced() -> None:
    # Round 1: Cat plays 2, then Zed sits in for her and scores 5 more and wins a hand.
    table1 = TableResult(
        totals={"Ann": -3, "Bob": 1, "Cat": 2, "Dan": -4, "Eve": -1, "Zed": 5},
        hands_won={"Ann": 1, "Cat": 1, "Zed": 1},
        played=frozenset({*SEATS, "Zed"}),
        stand_ins={"Zed": "Cat"},
    )
    table2 = TableResult(
        totals={"Fay": 4, "Gus": -4, "Hal": 0},
        hands_won={"Fay": 2},
        played=frozenset({"Fay", "Gus", "Hal"}),
    )
    results = event_results(
        [[table1, table2]], checked_in=[*SEATS, "Fay", "Gus", "Hal"], entry=1000, places=[50]
    )
    by_player = {s.player: s for s in results.standings}
    assert "Zed" not in by_player
    assert (by_player["Cat"].total, by_player["Cat"].hands_won) == (7, 2)
    assert by_player["Cat"].substitutes == ("Zed",)
    assert by_player["Cat"].place == 1 and by_player["Cat"].prize == 4000
    assert by_player["Fay"].substitutes == ()
    # Zed pays no entry and takes no round top of his own.
    assert (results.played, results.entrants, results.pot) == (8, 8, 8000)
    assert results.round_leaders[0].players == ("Cat",)
    assert not results.provisional


def test_an_unconfirmed_hand_makes_the_results_provisional() -> None:
    waiting = TableResult({"Ann": 1, "Bob": -1, "Cat": 0}, to_confirm=2)
    done = TableResult({"Dan": 0, "Eve": 0, "Fay": 0})
    assert event_results([[waiting, done]]).provisional
    assert not event_results([[done]]).provisional
