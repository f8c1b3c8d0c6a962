"""Club events against RULES.md "Club events": table sizes and their refusals, the hands each
table plays and by which options, the seeded draw and how few pairs it seats together again,
the standings under each way of breaking ties, the round leaders, and the prizes of the worked
example to the cent. No app, no database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from scorekeeper.rules import (
    DEFAULT_HANDS,
    EventResults,
    Options,
    PartnerMode,
    RuleError,
    SittingOut,
    TableResult,
    Ties,
    apart_of,
    check_apart,
    check_hands,
    check_prizes,
    draw,
    event_results,
    event_standings,
    hands_to_play,
    met_pairs,
    repeats_of,
    round_leaders,
    table_options,
    table_sizes,
)

from ..helpers.rules import assert_sentence


def players(count: int) -> list[str]:
    return [f"Player {number:02d}" for number in range(1, count + 1)]


def refused(field: str) -> pytest.RaisesExc[RuleError]:
    return pytest.raises(RuleError, check=lambda error: error.field == field)


def one_table(
    totals: Mapping[str, int],
    hands_won: Mapping[str, int] | None = None,
    played: Sequence[str] | None = None,
) -> TableResult:
    """A table whose players all played a hand, unless told who did."""
    return TableResult(
        totals=dict(totals),
        hands_won=dict(hands_won or {}),
        played=frozenset(totals if played is None else played),
    )


# Table sizes


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (17, (6, 6, 5)),
        (19, (5, 5, 5, 4)),
        (20, (5, 5, 5, 5)),
        (7, (4, 3)),
        (3, (3,)),
        (6, (6,)),
        (13, (5, 4, 4)),
        (25, (5, 5, 5, 5, 5)),
    ],
)
def test_tables_are_one_for_every_six_as_equal_as_can_be_the_larger_first(
    n: int, sizes: tuple[int, ...]
) -> None:
    assert table_sizes(n) == sizes


@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_than_three_players_make_no_draw(n: int) -> None:
    with refused("players") as caught:
        table_sizes(n)
    assert_sentence(caught.value.message)


def test_the_organizer_may_give_other_sizes_each_three_to_eight_summing_to_the_players() -> None:
    assert table_sizes(20, [8, 4, 4, 4]) == (8, 4, 4, 4)
    assert table_sizes(17, (3, 6, 8)) == (3, 6, 8)
    for given in ([2, 6, 6, 6], [9, 6, 5], [5, 5, 5], [6, 6, 6, 3]):
        with refused("tables") as caught:
            table_sizes(20, given)
        assert_sentence(caught.value.message)


def test_given_sizes_are_refused_when_the_rules_cant_play_them() -> None:
    everyone_plays = Options(sitting_out=SittingOut.NONE)
    assert table_sizes(20, [7, 7, 6], everyone_plays) == (7, 7, 6)
    with refused("tables") as caught:
        table_sizes(20, [8, 6, 6], everyone_plays)
    assert_sentence(caught.value.message)


# Hands and options of each table


@pytest.mark.parametrize(
    ("seated", "playing", "rounds", "hands"),
    [(5, 5, 4, 20), (6, 5, 4, 24), (4, 4, 5, 20), (3, 3, 7, 21), (7, 5, 4, 28), (8, 5, 4, 32)],
)
def test_each_player_plays_the_events_hands_in_whole_rounds_of_deals(
    seated: int, playing: int, rounds: int, hands: int
) -> None:
    plan = hands_to_play(DEFAULT_HANDS, seated, Options())
    assert (plan.seated, plan.playing, plan.rounds, plan.hands) == (seated, playing, rounds, hands)


def test_with_everyone_playing_six_play_each_hand() -> None:
    plan = hands_to_play(20, 6, Options(sitting_out=SittingOut.NONE))
    assert (plan.playing, plan.rounds, plan.hands) == (6, 4, 24)


def test_a_table_of_three_plays_alone_and_the_others_the_events_rules() -> None:
    rules = Options(partner=PartnerMode.CALLED_ACE, bump=True)
    assert hands_to_play(20, 3, rules).options == Options(partner=PartnerMode.ALONE, bump=True)
    for seated in range(4, 9):
        assert hands_to_play(20, seated, rules).options == rules
        assert table_options(rules, seated) == rules


def test_eight_at_a_table_where_everyone_plays_is_refused() -> None:
    with refused("tables"):
        hands_to_play(20, 8, Options(sitting_out=SittingOut.NONE))


@pytest.mark.parametrize("hands", [0, -1, 301])
def test_hands_a_round_out_of_range_are_refused(hands: int) -> None:
    with refused("hands") as caught:
        check_hands(hands)
    assert_sentence(caught.value.message)
    check_hands(300)
    assert hands_to_play(300, 3, Options()).rounds == 100


# The draw


def test_every_player_sits_once_at_a_table_of_its_size() -> None:
    names = players(17)
    drawn = draw(names, (6, 6, 5), seed=41, round_number=1)
    assert [len(seats) for seats in drawn.tables] == [6, 6, 5]
    assert sorted(p for seats in drawn.tables for p in seats) == sorted(names)
    assert drawn.round == 1
    assert drawn.repeats == 0


def test_the_same_seed_and_round_make_the_same_draw_whatever_the_order_checked_in() -> None:
    names = players(23)
    first = draw(names, table_sizes(23), seed=41, round_number=2)
    assert draw(list(reversed(names)), table_sizes(23), seed=41, round_number=2) == first
    assert draw(names, table_sizes(23), seed=42, round_number=2) != first
    assert draw(names, table_sizes(23), seed=41, round_number=3) != first


def test_the_draw_picks_the_seats_and_so_who_deals_first() -> None:
    names = players(5)
    seatings = {draw(names, (5,), seed, 1).tables[0] for seed in range(20)}
    assert len(seatings) > 1
    assert {seats[0] for seats in seatings} != {names[0]}


@pytest.mark.parametrize("seed", range(10))
def test_twenty_five_players_at_five_tables_meet_no_one_twice_in_rounds_two_and_three(
    seed: int,
) -> None:
    names = players(25)
    draws: list[tuple[tuple[str, ...], ...]] = []
    for number in (1, 2, 3):
        drawn = draw(names, (5, 5, 5, 5, 5), seed, number, met_pairs(draws))
        assert drawn.repeats == 0
        assert repeats_of(drawn.tables, met_pairs(draws)) == 0
        draws.append(drawn.tables)
    assert len(met_pairs(draws)) == 3 * 5 * 10


@pytest.mark.parametrize("seed", range(10))
def test_twenty_players_at_four_tables_repeat_four_pairs_in_round_two(seed: int) -> None:
    names = players(20)
    first = draw(names, (5, 5, 5, 5), seed, 1)
    second = draw(names, (5, 5, 5, 5), seed, 2, met_pairs([first.tables]))
    assert second.repeats == 4
    # One a table: five players of a first-round table are split over four tables.
    assert [repeats_of([seats], met_pairs([first.tables])) for seats in second.tables] == [1] * 4


def test_a_late_arrival_joins_the_next_draw_and_a_player_who_left_is_left_out() -> None:
    names = players(10)
    first = draw(names, (5, 5), seed=7, round_number=1)
    later = [*names[1:], "Late Lou"]
    second = draw(later, (5, 5), seed=7, round_number=2, met=met_pairs([first.tables]))
    seated = {p for seats in second.tables for p in seats}
    assert "Late Lou" in seated
    assert names[0] not in seated


def test_a_draw_that_doesnt_seat_everyone_once_is_refused() -> None:
    with refused("tables"):
        draw(players(10), (5, 4), seed=1, round_number=1)
    with refused("players"):
        draw([*players(9), "Player 01"], (5, 5), seed=1, round_number=1)


def test_pairs_of_players_not_in_the_draw_change_nothing() -> None:
    names = players(10)
    drawn = draw(names, (5, 5), seed=3, round_number=2)
    gone = {frozenset(("Player 01", "Gone Gus")), frozenset(("Gone Gus", "Gone Guy"))}
    assert draw(names, (5, 5), seed=3, round_number=2, met=gone) == drawn


# Keeping apart


def test_ten_players_in_two_tables_of_five_never_seat_two_apart_pairs_together() -> None:
    names = players(10)
    apart = [("Player 01", "Player 02"), ("Player 03", "Player 04")]
    for seed in range(50):
        draws: list[tuple[tuple[str, ...], ...]] = []
        for number in range(1, 6):
            drawn = draw(names, (5, 5), seed, number, met_pairs(draws), apart)
            assert drawn.apart == 0
            for a, b in apart:
                assert not any(a in seats and b in seats for seats in drawn.tables)
            draws.append(drawn.tables)


def test_apart_pairs_come_before_repeats() -> None:
    # Round 1 seats Ann, Bob, Cat and Dan at one table and Eve, Fay, Gus, Hal at the other; in
    # round 2 Ann and Eve are kept apart. Any draw keeping them apart repeats some pairs.
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    first = (("Ann", "Bob", "Cat", "Dan"), ("Eve", "Fay", "Gus", "Hal"))
    met = met_pairs([first])
    free = draw(names, (4, 4), 5, 2, met)
    kept = draw(names, (4, 4), 5, 2, met, [("Ann", "Eve")])
    assert free.repeats == 4
    assert kept.apart == 0
    assert not any("Ann" in seats and "Eve" in seats for seats in kept.tables)
    assert kept.repeats >= free.repeats


def test_the_fewest_apart_pairs_sit_together_when_none_is_impossible() -> None:
    # Four players kept apart from each other at two tables: two pairs at least share a table.
    names = players(8)
    four = names[:4]
    apart = [(a, b) for at, a in enumerate(four) for b in four[at + 1 :]]
    for seed in range(20):
        assert draw(names, (4, 4), seed, 1, apart=apart).apart == 2


def test_apart_names_are_compared_as_names_case_ignored() -> None:
    names = players(10)
    drawn = draw(names, (5, 5), 1, 1, apart=[("player 01", "PLAYER 02")])
    assert drawn.apart == 0
    assert apart_of(drawn.tables, [("player 01", "PLAYER 02")]) == 0


def test_apart_pairs_with_a_player_not_checked_in_change_nothing() -> None:
    names = players(10)
    drawn = draw(names, (5, 5), seed=3, round_number=2)
    assert draw(names, (5, 5), 3, 2, apart=[("Player 01", "Gone Gus")]) == drawn


def test_a_draw_without_apart_pairs_is_the_draw_it_always_was() -> None:
    # The seeded draws of events made before pairs could be kept apart come out the same.
    drawn = draw(players(7), (4, 3), seed=41, round_number=1)
    assert drawn.tables == (
        ("Player 06", "Player 02", "Player 03", "Player 04"),
        ("Player 05", "Player 07", "Player 01"),
    )


def test_apart_pairs_are_checked() -> None:
    assert check_apart([[" Ann ", "Bob"], ["Cat", "Dan"]]) == (("Ann", "Bob"), ("Cat", "Dan"))
    assert check_apart([]) == ()
    for pairs, sentence in [
        ([["Ann"]], "Pair 1 to keep apart names 1 players; a pair names two."),
        ([["Ann", "Bob", "Cat"]], "Pair 1 to keep apart names 3 players; a pair names two."),
        ([["Ann", "ann"]], "Ann can't be kept apart from Ann: a pair names two players."),
        (
            [["Ann", "Bob"], ["bob", "ANN"]],
            "Ann and Bob are kept apart twice: name each pair once.",
        ),
        ([["Ann", ""]], "A player's name must be 1 to 40 characters long."),
        ([["Ann", "Bob"]] * 201, "At most 200 pairs can be kept apart, not 201."),
    ]:
        with refused("apart") as caught:
            check_apart(pairs)
        assert caught.value.message == sentence
        assert_sentence(sentence)


# Standings and round leaders


def three_rounds() -> list[list[TableResult]]:
    """Four players over three rounds at one table each: Ann and Bob equal on 10, Bob with more
    hands won; Cat and Dan equal on -10 and on hands won."""
    return [
        [one_table({"Ann": 6, "Bob": 2, "Cat": -4, "Dan": -4}, {"Ann": 3, "Bob": 4})],
        [one_table({"Ann": 1, "Bob": 5, "Cat": -3, "Dan": -3}, {"Bob": 2, "Cat": 2})],
        [one_table({"Ann": 3, "Bob": 3, "Cat": -3, "Dan": -3}, {"Ann": 1, "Dan": 2})],
    ]


def test_the_event_total_sums_every_round_and_equal_totals_share_the_place() -> None:
    standings = event_standings(three_rounds())
    assert [(s.player, s.place, s.total) for s in standings] == [
        ("Bob", 1, 10),
        ("Ann", 1, 10),
        ("Cat", 3, -10),
        ("Dan", 3, -10),
    ]
    assert standings[0].rounds == (2, 5, 3)
    assert standings[0].hands_won == 6
    assert not any(s.by_lot for s in standings)


def test_places_one_two_two_four() -> None:
    results = [[one_table({"Ann": 9, "Bob": 3, "Cat": 3, "Dan": -15})]]
    assert [s.place for s in event_standings(results)] == [1, 2, 2, 4]


def test_hands_won_order_equal_totals_then_they_share() -> None:
    standings = event_standings(three_rounds(), Ties.HANDS_WON)
    assert [(s.player, s.place) for s in standings] == [
        ("Bob", 1),
        ("Ann", 2),
        ("Cat", 3),
        ("Dan", 3),
    ]


def test_a_lot_from_the_seed_orders_equal_totals_and_says_so() -> None:
    standings = event_standings(three_rounds(), Ties.LOT, seed=41)
    assert [s.place for s in standings] == [1, 2, 3, 4]
    assert all(s.by_lot for s in standings)
    assert {s.player for s in standings[:2]} == {"Ann", "Bob"}
    assert event_standings(three_rounds(), Ties.LOT, seed=41) == standings
    orders = {
        tuple(s.player for s in event_standings(three_rounds(), Ties.LOT, seed))
        for seed in range(20)
    }
    assert len(orders) > 1


def test_the_lot_marks_only_the_places_it_decided() -> None:
    results = [[one_table({"Ann": 9, "Bob": 3, "Cat": 3, "Dan": -15})]]
    standings = event_standings(results, Ties.LOT, seed=3)
    assert [(s.place, s.by_lot) for s in standings] == [
        (1, False),
        (2, True),
        (3, True),
        (4, False),
    ]


def test_a_player_who_left_keeps_their_points_and_a_late_one_has_no_first_round() -> None:
    results = [
        [one_table({"Ann": 5, "Bob": -5, "Cat": 0})],
        [one_table({"Bob": 2, "Cat": 2, "Dan": -4})],
    ]
    by_player = {s.player: s for s in event_standings(results)}
    assert (by_player["Ann"].total, by_player["Ann"].rounds) == (5, (5, None))
    assert (by_player["Dan"].total, by_player["Dan"].rounds) == (-4, (None, -4))


def test_a_rounds_leader_is_the_highest_total_over_all_its_tables() -> None:
    results = [
        [one_table({"Ann": 4, "Bob": -4, "Cat": 0}), one_table({"Dan": 7, "Eve": -7, "Fay": 0})],
        [one_table({"Ann": 3, "Dan": -6, "Eve": 3}), one_table({"Bob": 0, "Cat": 0, "Fay": 0})],
        [one_table({"Ann": 0, "Bob": 0, "Cat": 0}, played=[])],
    ]
    leaders = round_leaders(results)
    assert [(r.round, r.players, r.total) for r in leaders] == [
        (1, ("Dan",), 7),
        (2, ("Ann", "Eve"), 3),
        (3, (), 0),
    ]


def test_a_points_only_event_has_no_money_anywhere() -> None:
    results = event_results(three_rounds(), entry=0, places=[50, 30], round_top=5, rounds=3)
    assert (results.pot, results.paid, results.house) == (None, None, None)
    assert all(s.prize is None for s in results.standings)
    assert all((s.round_prizes, s.paid) == (None, None) for s in results.standings)
    assert all(r.prize is None for r in results.round_leaders)
    assert results.played == 4


# Prizes: the worked example of RULES.md


def twenty_players(second_tied: bool = False) -> list[list[TableResult]]:
    """Twenty players over three rounds with distinct totals, Player 01 first, and each round's
    top alone; or the second and third equal."""
    names = players(20)
    totals = {p: 100 - 3 * at for at, p in enumerate(names)}
    if second_tied:
        totals[names[2]] = totals[names[1]]
    return [
        [one_table(totals)],
        [one_table({p: 2 if p == names[5] else 0 for p in names})],
        [one_table({p: 2 if p == names[9] else 0 for p in names})],
    ]


def oktoberfest(results: list[list[TableResult]]) -> EventResults:
    return event_results(
        results, entry=2500, places=[30, 15, 10, 10, 10], round_top=5, rounds=3, seed=41
    )


def test_the_worked_example_pays_places_round_tops_and_the_house_to_the_cent() -> None:
    paid = oktoberfest(twenty_players())
    assert paid.played == 20
    assert paid.pot == 50000
    assert [s.prize for s in paid.standings[:6]] == [15000, 7500, 5000, 5000, 5000, 0]
    assert all(s.prize == 0 for s in paid.standings[5:])
    assert [(r.players, r.prize) for r in paid.round_leaders] == [
        (("Player 01",), 2500),
        (("Player 06",), 2500),
        (("Player 10",), 2500),
    ]
    assert (paid.paid, paid.house) == (45000, 5000)


def test_two_tied_second_share_the_second_and_third_prizes() -> None:
    paid = oktoberfest(twenty_players(second_tied=True))
    assert [(s.player, s.place, s.prize) for s in paid.standings[:4]] == [
        ("Player 01", 1, 15000),
        ("Player 02", 2, 6250),
        ("Player 03", 2, 6250),
        ("Player 04", 4, 5000),
    ]
    assert (paid.paid, paid.house) == (45000, 5000)


def test_a_shared_round_top_is_split_and_odd_cents_stay_with_the_house() -> None:
    results = [[one_table({"Ann": 4, "Bob": 4, "Cat": 4, "Dan": -12})]]
    paid = event_results(results, entry=1000, places=[50], round_top=10, rounds=1)
    assert paid.pot == 4000
    # 50% of 4000 over three sharing first place: 666.66... each, rounded down.
    assert [s.prize for s in paid.standings] == [666, 666, 666, 0]
    assert paid.round_leaders[0].prize == 133
    assert paid.paid == 3 * 666 + 3 * 133
    assert paid.house == 4000 - paid.paid


def test_the_pot_counts_every_player_checked_in_before_a_hand_is_played() -> None:
    checked_in = players(10)
    paid = event_results([], checked_in=checked_in, entry=1000, places=[40, 25, 15])
    assert (paid.played, paid.entrants, paid.pot) == (0, 10, 10000)
    drawn = [[one_table(dict.fromkeys(checked_in[:5], 0), played=[]),
              one_table(dict.fromkeys(checked_in[5:], 0), played=[])]]  # fmt: skip
    paid = event_results(drawn, checked_in=checked_in, entry=1000, places=[40, 25, 15])
    assert (paid.played, paid.entrants, paid.pot) == (0, 10, 10000)


def test_the_pot_counts_those_checked_in_and_those_who_played_not_those_refunded() -> None:
    """Dan sat out the only hand but is checked in; Eve played and checked out; Fay checked out
    before playing and is refunded, so she is in neither."""
    results = [
        [
            one_table(
                {"Ann": 2, "Bob": -1, "Cat": -1, "Dan": 0, "Eve": 0},
                played=["Ann", "Bob", "Cat", "Eve"],
            )
        ]
    ]
    paid = event_results(results, checked_in=["Ann", "Bob", "Cat", "Dan"], entry=2500, places=[100])
    assert (paid.played, paid.entrants, paid.pot) == (4, 5, 12500)
    assert paid.standings[0].prize == 12500
    assert paid.house == 0


def test_each_standing_is_paid_its_place_prize_and_its_round_tops() -> None:
    """Ten players at $10 over two rounds, places 40, 25, 15 and round_top 10: Cat is 1st and
    round 1's top, paid $40.00 + $10.00; Hal 2nd and round 2's top; the standings' paid add up
    to the whole pot."""
    results = [
        [
            one_table({"Cat": 8, "Ann": -2, "Bob": -2, "Dan": -2, "Eve": -2}),
            one_table({"Fay": 2, "Gus": 1, "Hal": -1, "Ivy": -1, "Jon": -1}),
        ],
        [
            one_table({"Hal": 4, "Ann": -1, "Bob": -1, "Cat": -1, "Dan": -1}),
            one_table({"Eve": 0, "Fay": 0, "Gus": 0, "Ivy": 0, "Jon": 0}),
        ],
    ]
    paid = event_results(results, entry=1000, places=[40, 25, 15], round_top=10, rounds=2)
    assert paid.pot == 10000
    assert [(s.player, s.prize, s.round_prizes, s.paid) for s in paid.standings[:3]] == [
        ("Cat", 4000, 1000, 5000),
        ("Hal", 2500, 1000, 3500),
        ("Fay", 1500, 0, 1500),
    ]
    assert {(s.prize, s.round_prizes, s.paid) for s in paid.standings[3:]} == {(0, 0, 0)}
    assert sum(s.paid or 0 for s in paid.standings) == paid.paid == 10000
    assert paid.house == 0


def test_a_player_topping_rounds_is_paid_each_and_a_shared_top_splits() -> None:
    """Over three rounds Player 01 tops round 1, Player 06 round 2 and Player 10 round 3 at
    $25.00 each; with a shared top the sharers are paid their half each."""
    paid = oktoberfest(twenty_players())
    by_player = {s.player: (s.prize, s.round_prizes, s.paid) for s in paid.standings}
    assert by_player["Player 01"] == (15000, 2500, 17500)
    assert by_player["Player 06"] == (0, 2500, 2500)
    assert by_player["Player 10"] == (0, 2500, 2500)
    assert by_player["Player 02"] == (7500, 0, 7500)
    assert sum(s.paid or 0 for s in paid.standings) == paid.paid == 45000
    results = [[one_table({"Ann": 4, "Bob": 4, "Cat": -8})], [one_table({"Ann": 3, "Bob": -3})]]
    paid = event_results(results, entry=1000, places=[50], round_top=10, rounds=2)
    by_player = {s.player: (s.prize, s.round_prizes, s.paid) for s in paid.standings}
    # 3000 pot: Ann 1st alone (1500); round 1's 300 split by Ann and Bob, round 2's to Ann.
    assert by_player == {"Ann": (1500, 450, 1950), "Bob": (0, 150, 150), "Cat": (0, 0, 0)}
    assert paid.paid == 2100 and paid.house == 900


def test_more_places_than_players_leave_their_prizes_with_the_house() -> None:
    results = [[one_table({"Ann": 3, "Bob": -1, "Cat": -2})]]
    paid = event_results(results, entry=1000, places=[50, 30, 10, 10])
    assert [s.prize for s in paid.standings] == [1500, 900, 300]
    assert paid.house == 300


def test_prize_percents_over_one_hundred_are_refused() -> None:
    check_prizes([30, 15, 10, 10, 10], 5, 3)
    check_prizes([60, 40], 0, 0)
    for places, round_top, rounds in (
        ([30, 15, 10, 10, 10], 10, 3),
        ([60, 41], 0, 3),
        ([], 26, 4),
        ([101], 0, 1),
        ([-5, 50], 0, 1),
    ):
        with pytest.raises(RuleError) as caught:
            check_prizes(places, round_top, rounds)
        assert caught.value.field in ("places", "round_top")
        assert_sentence(caught.value.message)
    with refused("round_top"):
        check_prizes([], 101, 0)


def test_a_negative_entry_fee_is_refused() -> None:
    with refused("entry") as caught:
        event_results(three_rounds(), entry=-1)
    assert_sentence(caught.value.message)


def test_an_open_ended_event_counts_a_round_top_for_each_round_drawn() -> None:
    results = twenty_players()
    places = [30, 15, 10, 10, 10]
    assert event_results(results[:2], entry=100, places=places, round_top=12).house == 20
    with refused("places"):
        event_results(results, entry=100, places=places, round_top=12)
    with refused("places"):
        event_results(results[:1], entry=100, places=places, round_top=9, rounds=3)
