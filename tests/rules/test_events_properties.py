"""Properties of club events over random events: table sizes follow RULES.md for every number of
players, every checked-in player sits exactly once a round at a table of the drawn size, a draw
depends only on its seed, round, players and earlier tables, pairs kept apart sit apart whenever
some draw can seat them so (and never more of them together than the fewest any draw seats), the
prizes and the house sum to the pot exactly, and players who share a place or a round's top get
equal prizes."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    TableResult,
    Ties,
    apart_of,
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


TEN = names(10)
PAIRS_OF_TEN = [pair for pair in itertools.combinations(TEN, 2)]


@quick
@given(
    st.lists(st.sampled_from(PAIRS_OF_TEN), min_size=2, max_size=2, unique=True),
    SEEDS,
    st.integers(1, 8),
)
def test_ten_players_at_two_tables_of_five_never_sit_with_the_two_pairs_kept_apart(
    apart: list[tuple[str, str]], seed: int, rounds: int
) -> None:
    earlier: list[tuple[tuple[str, ...], ...]] = []
    for number in range(1, rounds + 1):
        drawn = draw(TEN, (5, 5), seed, number, met_pairs(earlier), apart)
        assert drawn.apart == 0
        assert apart_of(drawn.tables, apart) == 0
        earlier.append(drawn.tables)


def seatings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat the players at tables of the sizes (which players at which table)."""
    if not sizes:
        yield []
        return
    for table in itertools.combinations(players, sizes[0]):
        rest = [p for p in players if p not in table]
        for others in seatings(rest, sizes[1:]):
            yield [table, *others]


@st.composite
def small_nights(
    draw_from: st.DrawFn,
) -> tuple[list[str], tuple[int, ...], list[tuple[str, str]], list[tuple[tuple[str, ...], ...]]]:
    """Up to nine players at tables the rule or the organizer sizes, many pairs of them kept
    apart (often more than any draw can keep apart), and a round or two already drawn."""
    players = names(draw_from(st.integers(3, 9)))
    sizes = draw_from(
        st.sampled_from(
            [table_sizes(len(players))]
            + [sizes for sizes in ((3, 3), (3, 3, 3), (4, 3), (4, 4), (5, 4), (6, 3))
               if sum(sizes) == len(players)]
        )
    )  # fmt: skip
    pairs = list(itertools.combinations(players, 2))
    apart = draw_from(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True))
    earlier = []
    for number in range(1, draw_from(st.integers(1, 3))):
        earlier.append(draw(players, sizes, number, number, met_pairs(earlier)).tables)
    return players, sizes, apart, earlier


@settings(max_examples=150, database=None, deadline=None)
@given(small_nights(), SEEDS)
def test_a_draw_seats_no_more_pairs_kept_apart_together_than_the_fewest_any_draw_can(
    night: tuple[
        list[str], tuple[int, ...], list[tuple[str, str]], list[tuple[tuple[str, ...], ...]]
    ],
    seed: int,
) -> None:
    players, sizes, apart, earlier = night
    drawn = draw(players, sizes, seed, len(earlier) + 1, met_pairs(earlier), apart)
    fewest = min(apart_of(tables, apart) for tables in seatings(players, sizes))
    assert drawn.apart == apart_of(drawn.tables, apart) == fewest


@quick
@given(events(), st.data())
def test_keeping_pairs_apart_never_seats_more_of_them_together_than_the_draw_without(
    event: tuple[list[Round], int], data: st.DataObject
) -> None:
    rounds, seed = event
    earlier: list[tuple[tuple[str, ...], ...]] = []
    for number, (checked_in, sizes) in enumerate(rounds, start=1):
        pairs = list(itertools.combinations(sorted(checked_in), 2))
        apart = data.draw(st.lists(st.sampled_from(pairs), max_size=30, unique=True))
        met = met_pairs(earlier)
        kept = draw(checked_in, sizes, seed, number, met, apart)
        free = draw(checked_in, sizes, seed, number, met)
        assert kept.apart <= apart_of(free.tables, apart)
        if not apart:
            assert kept == free
        earlier.append(kept.tables)


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
