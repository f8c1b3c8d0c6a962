"""Properties of club events over random events: table sizes follow RULES.md for every number of
players, every checked-in player sits exactly once a round at a table of the drawn size, a draw
depends only on its seed, round, players and earlier tables, the prizes and the house sum to the
pot exactly, and players who share a place or a round's top get equal prizes."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    TableResult,
    Ties,
    draw,
    event_results,
    met_pairs,
    table_sizes,
)

# No example database: the tests leave no files behind in the checkout.
quick = settings(max_examples=40, database=None, deadline=None)

SEEDS = st.integers(min_value=-(2**63), max_value=2**63)


def names(count: int) -> list[str]:
    return [f"Player {number:03d}" for number in range(1, count + 1)]


def test_table_sizes_follow_the_rule_for_every_number_of_players_from_3_to_200() -> None:
    for n in range(3, 201):
        sizes = table_sizes(n)
        assert all(3 <= size <= 8 for size in sizes), n
        assert sum(sizes) == n
        assert len(sizes) == math.ceil(n / 6)
        assert max(sizes) - min(sizes) <= 1
        assert list(sizes) == sorted(sizes, reverse=True)


@quick
@given(st.lists(st.integers(3, 8), min_size=1, max_size=30))
def test_any_sizes_of_three_to_eight_seating_everyone_are_taken_as_given(sizes: list[int]) -> None:
    assert table_sizes(sum(sizes), sizes) == tuple(sizes)


Round = tuple[list[str], tuple[int, ...]]


@st.composite
def events(draw_from: st.DrawFn) -> tuple[list[Round], int]:
    """A few rounds, each the players checked in for it (some leave, some arrive) and its table
    sizes (by the rule or given), and a seed."""
    pool = names(draw_from(st.integers(3, 60)))
    rounds = []
    for _ in range(draw_from(st.integers(1, 4))):
        given = draw_from(st.lists(st.integers(3, 8), min_size=1, max_size=10))
        sizes = tuple(given) if sum(given) <= len(pool) else None
        count = sum(given) if sizes else draw_from(st.integers(3, len(pool)))
        checked_in = draw_from(st.permutations(pool))[:count]
        rounds.append((checked_in, sizes or table_sizes(count)))
    return rounds, draw_from(SEEDS)


@quick
@given(events())
def test_every_checked_in_player_sits_exactly_once_a_round(
    event: tuple[list[Round], int],
) -> None:
    rounds, seed = event
    earlier: list[tuple[tuple[str, ...], ...]] = []
    for number, (checked_in, sizes) in enumerate(rounds, start=1):
        drawn = draw(checked_in, sizes, seed, number, met_pairs(earlier))
        assert tuple(len(seats) for seats in drawn.tables) == sizes
        seated = [p for seats in drawn.tables for p in seats]
        assert sorted(seated) == sorted(checked_in)
        earlier.append(drawn.tables)


@quick
@given(events())
def test_the_same_seed_round_players_and_earlier_tables_make_the_same_draw(
    event: tuple[list[Round], int],
) -> None:
    rounds, seed = event
    earlier: list[tuple[tuple[str, ...], ...]] = []
    for number, (checked_in, sizes) in enumerate(rounds, start=1):
        met = met_pairs(earlier)
        drawn = draw(checked_in, sizes, seed, number, met)
        assert draw(list(reversed(checked_in)), sizes, seed, number, set(met)) == drawn
        earlier.append(drawn.tables)


@dataclass(frozen=True)
class Prized:
    results: list[list[TableResult]]
    checked_in: list[str]
    entry: int
    places: list[int]
    round_top: int
    rounds: int
    ties: Ties
    seed: int


@st.composite
def prized_events(draw_from: st.DrawFn) -> Prized:
    """Random standings over a few rounds and tables, with few distinct totals so that ties are
    common, and prize percents that give at most the whole pot."""
    pool = names(draw_from(st.integers(3, 30)))
    results = []
    for _ in range(draw_from(st.integers(1, 4))):
        seated = draw_from(st.lists(st.sampled_from(pool), min_size=3, unique=True))
        tables = []
        for at in range(0, len(seated), 5):
            group = seated[at : at + 5]
            tables.append(
                TableResult(
                    totals={p: draw_from(st.integers(-3, 3)) for p in group},
                    hands_won={p: draw_from(st.integers(0, 2)) for p in group},
                    played=frozenset(draw_from(st.sets(st.sampled_from(group)))),
                )
            )
        results.append(tables)
    rounds = draw_from(st.sampled_from([0, len(results)]))
    round_top = draw_from(st.integers(0, 100 // len(results)))
    left = 100 - round_top * len(results)
    places: list[int] = []
    for _ in range(draw_from(st.integers(0, 8))):
        places.append(draw_from(st.integers(0, left - sum(places))))
    return Prized(
        results=results,
        checked_in=draw_from(st.lists(st.sampled_from(pool), unique=True)),
        entry=draw_from(st.integers(1, 10_000)),
        places=places,
        round_top=round_top,
        rounds=rounds,
        ties=draw_from(st.sampled_from(Ties)),
        seed=draw_from(SEEDS),
    )


@quick
@given(prized_events())
def test_prizes_and_the_house_sum_to_the_pot_and_never_exceed_it(event: Prized) -> None:
    results = event_results(
        event.results,
        checked_in=event.checked_in,
        ties=event.ties,
        seed=event.seed,
        entry=event.entry,
        places=event.places,
        round_top=event.round_top,
        rounds=event.rounds,
    )
    played = {p for tables in event.results for table in tables for p in table.played}
    assert results.entrants == len(played | set(event.checked_in))
    assert results.pot == event.entry * results.entrants
    assert results.paid is not None and results.house is not None
    standings = sum(s.prize or 0 for s in results.standings)
    leaders = sum((r.prize or 0) * len(r.players) for r in results.round_leaders)
    assert results.paid == standings + leaders
    for standing in results.standings:
        topped = [r for r in results.round_leaders if standing.player in r.players]
        assert standing.round_prizes == sum(r.prize or 0 for r in topped)
        assert standing.paid == (standing.prize or 0) + standing.round_prizes
    assert sum(s.paid or 0 for s in results.standings) == results.paid
    assert 0 <= results.paid <= results.pot
    assert results.paid + results.house == results.pot
    assert all(s.prize is not None and s.prize >= 0 for s in results.standings)


@quick
@given(prized_events())
def test_players_who_share_a_place_or_a_rounds_top_get_equal_prizes(event: Prized) -> None:
    results = event_results(
        event.results,
        ties=event.ties,
        seed=event.seed,
        entry=event.entry,
        places=event.places,
        round_top=event.round_top,
        rounds=event.rounds,
    )
    by_place: dict[int, set[int | None]] = {}
    for standing in results.standings:
        by_place.setdefault(standing.place, set()).add(standing.prize)
    assert all(len(prizes) == 1 for prizes in by_place.values())
    # A higher place never pays less than a lower one when the percents fall with the place.
    if event.places == sorted(event.places, reverse=True):
        prizes = [s.prize or 0 for s in results.standings]
        assert prizes == sorted(prizes, reverse=True)
    if event.ties is Ties.LOT:
        assert len(by_place) == len(results.standings)


@quick
@given(prized_events())
def test_an_event_without_an_entry_fee_has_no_money(event: Prized) -> None:
    results = event_results(event.results, ties=event.ties, seed=event.seed, entry=0)
    assert (results.pot, results.paid, results.house) == (None, None, None)
    assert all((s.prize, s.round_prizes, s.paid) == (None,) * 3 for s in results.standings)
    assert all(r.prize is None for r in results.round_leaders)
