"""The rating (RULES.md "Rating"): the games hands and nights are, the worked example, and the
engine's own update held to OpenSkill's `PlackettLuce().rate`, the library it stands in for."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.rules import HandInput, NoBid, Options, Table, rating
from scorekeeper.rules.rating import (
    HISTORY_POINTS,
    RATED_HANDS,
    Game,
    History,
    Ratings,
    hand_game,
    night_game,
    pick_game,
    ranking_game,
    shown,
)

from ..helpers.rules import SEATS, leaster, pick, play, score

LEASTERS = Table(seats=SEATS, options=Options(no_bid=NoBid.LEASTER))
SESSION = (0, 1)


# --- the games


def test_a_pick_is_the_picking_side_against_the_others_ranked_by_who_won() -> None:
    won = hand_game(score(LEASTERS, pick("Ann", "Bob", 75)))
    assert won == Game((("Ann", "Bob"), ("Cat", "Dan", "Eve")), (0, 1))
    lost = hand_game(score(LEASTERS, pick("Cat", None, 45)))
    assert lost == Game((("Ann", "Bob", "Dan", "Eve"), ("Cat",)), (0, 1))


def test_a_leaster_ranks_everyone_by_score_and_equal_scores_tie() -> None:
    game = hand_game(score(LEASTERS, leaster("Bob")))
    assert game == Game((("Bob",), ("Ann",), ("Cat",), ("Dan",), ("Eve",)), (0, 1, 1, 1, 1))


def test_players_sitting_out_are_not_rated() -> None:
    six = Table(seats=(*SEATS, "Fay"))
    game = hand_game(score(six, pick("Ann", "Bob", 75), dealer="Fay"))
    assert game is not None
    assert "Fay" not in game.players
    assert sorted(game.players) == sorted(SEATS)


def test_a_pass_and_a_penalty_hand_are_not_rated() -> None:
    redeals = Table(seats=SEATS, options=Options(no_bid=NoBid.REDEAL))
    assert hand_game(score(redeals, HandInput(kind="pass"))) is None
    penalties = Table(seats=SEATS, options=Options(penalties=True))
    assert hand_game(score(penalties, HandInput(kind="penalty", penalized="Cat"))) is None


def test_a_night_is_one_ranking_by_net_with_equal_nets_tied() -> None:
    game = night_game({"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5, "Tom": 0})
    assert game == Game((("Mark",), ("Greg",), ("Tom",), ("Dave",), ("Jacob",)), (0, 1, 1, 3, 4))
    assert night_game({"Dave": 0}) is None
    assert ranking_game({}) is None


def test_a_game_is_played_the_same_however_it_was_made() -> None:
    assert pick_game(["Bob", "Ann"], ["Eve", "Cat"], True) == pick_game(
        ["Ann", "Bob"], ["Cat", "Eve"], True
    )
    assert Game.of([(["Eve"], 1), (["Cat"], 1), (["Ann"], 0)]) == Game(
        (("Ann",), ("Cat",), ("Eve",)), (0, 1, 1)
    )
    by_name = night_game({"Ann": 2, "Bob": -2})
    assert by_name is not None
    assert by_name.renamed({"Ann": 7, "Bob": 3}) == Game(((7,), (3,)), (0, 1))


# --- the worked example of RULES.md

WORKED = [
    # Each player's mu, sigma and rating shown after each hand, as the library gives them.
    {"Ann": "27.8 8.3 3.0", "Bob": "27.8 8.3 3.0", "Cat": "22.2 8.2 -2.5",
     "Dan": "22.2 8.2 -2.5", "Eve": "22.2 8.2 -2.5"},
    {"Ann": "27.8 8.2 3.1", "Bob": "27.8 8.2 3.1", "Cat": "22.2 8.2 -2.5",
     "Dan": "22.3 8.2 -2.4", "Eve": "22.3 8.2 -2.4"},
    {"Ann": "24.9 8.2 0.3", "Bob": "24.9 8.2 0.3", "Cat": "19.2 8.2 -5.3",
     "Dan": "25.3 8.2 0.7", "Eve": "25.3 8.2 0.7"},
    {"Ann": "24.1 8.1 -0.1", "Bob": "27.4 8.1 3.0", "Cat": "18.8 8.1 -5.4",
     "Dan": "24.5 8.1 0.3", "Eve": "24.5 8.1 0.3"},
    {"Ann": "23.3 8.0 -0.7", "Bob": "28.3 8.0 4.2", "Cat": "19.7 8.0 -4.3",
     "Dan": "25.3 8.0 1.4", "Eve": "23.7 8.0 -0.3"},
]  # fmt: skip


def test_worked_example() -> None:
    sheet = play(
        LEASTERS,
        pick("Ann", "Bob", 75),
        pick("Cat", None, 45),
        pick("Dan", "Eve", 91),
        leaster("Bob"),
        pick("Eve", "Ann", 30),
    )
    model = PlackettLuce()
    library = {player: model.rating() for player in SEATS}
    ratings: Ratings[str] = Ratings()
    for result, expected in zip(sheet.results, WORKED, strict=True):
        game = hand_game(result)
        assert game is not None
        ratings.play(game, SESSION)
        rated = model.rate([[library[p] for p in team] for team in game.teams], list(game.ranks))
        for team, after in zip(game.teams, rated, strict=True):
            library.update(zip(team, after, strict=True))
        mine = {
            player: f"{r.mu:.1f} {r.sigma:.1f} {r.shown}"
            for player in SEATS
            if (r := ratings[player].rating)
        }
        theirs = {
            player: f"{r.mu:.1f} {r.sigma:.1f} {r.ordinal():.1f}" for player, r in library.items()
        }
        assert mine == theirs == expected
    assert [ratings[p].rating.hands for p in SEATS] == [5, 5, 5, 5, 5]
    assert all(ratings[p].rating.provisional for p in SEATS)


# --- the engine held to the library


@st.composite
def games(draw: st.DrawFn, players: int = 9) -> list[tuple[list[list[int]], list[int]]]:
    """Games among `players` players: 2 to 6 teams of 1 to 3 players, any ranks (ties too)."""
    made = []
    for _ in range(draw(st.integers(1, 25))):
        count = draw(st.integers(2, min(6, players)))
        sizes = draw(st.lists(st.integers(1, 3), min_size=count, max_size=count))
        chosen = draw(st.permutations(range(players)))
        if sum(sizes) > players:
            sizes = [1] * count
        teams, start = [], 0
        for size in sizes:
            teams.append(list(chosen[start : start + size]))
            start += size
        ranks = draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
        made.append((teams, ranks))
    return made


@given(games())
def test_ratings_are_the_librarys(played: list[tuple[list[list[int]], list[int]]]) -> None:
    model = PlackettLuce()
    library: dict[int, PlackettLuceRating] = {}
    ratings: Ratings[int] = Ratings()
    for teams, ranks in played:
        game = Game.of(zip(teams, ranks, strict=True))
        ratings.play(game, SESSION)
        rated = model.rate(
            [[library.setdefault(p, model.rating()) for p in team] for team in game.teams],
            list(game.ranks),
        )
        for team, after in zip(game.teams, rated, strict=True):
            library.update(zip(team, after, strict=True))
    for player, theirs in library.items():
        mine = ratings[player].rating
        assert mine.mu == pytest.approx(theirs.mu, abs=1e-9, rel=0)
        assert mine.sigma == pytest.approx(theirs.sigma, abs=1e-9, rel=0)


def test_the_librarys_defaults_are_the_engines() -> None:
    first = PlackettLuce().rating()
    assert (rating.MU, rating.SIGMA) == (first.mu, first.sigma) == (25.0, 25 / 3)
    assert rating.Rating().ordinal == first.ordinal() == 0.0


# --- the order of the history


@given(st.randoms(use_true_random=False), games(players=5), games(players=5))
def test_unrelated_sessions_replayed_in_any_order_rate_alike(
    rng: random.Random,
    first: list[tuple[list[list[int]], list[int]]],
    second: list[tuple[list[list[int]], list[int]]],
) -> None:
    """Two sessions with no player in common: their games interleaved any way give every
    player the same standing, history included."""
    sessions = {
        (100, 1): [Game.of(zip(teams, ranks, strict=True)) for teams, ranks in first],
        (200, 2): [
            Game.of(zip([[p + 10 for p in team] for team in teams], ranks, strict=True))
            for teams, ranks in second
        ],
    }

    def replayed(order: list[rating.Session]) -> Ratings[int]:
        ratings: Ratings[int] = Ratings()
        left = {key: list(games) for key, games in sessions.items()}
        for key in order:
            ratings.play(left[key].pop(0), key)
        return ratings

    in_turn = [key for key, games in sessions.items() for _ in games]
    shuffled = list(in_turn)
    rng.shuffle(shuffled)
    one, other = replayed(in_turn), replayed(shuffled)
    assert one.standings.keys() == other.standings.keys()
    for player, standing in one.standings.items():
        assert standing == other.standings[player]


def test_a_game_in_order_comes_after_every_game_its_players_played() -> None:
    ratings: Ratings[str] = Ratings()
    game = pick_game(["Ann"], ["Bob", "Cat"], True)
    ratings.play(game, (200, 5))
    assert ratings.in_order(game, (200, 5))
    assert ratings.in_order(game, (300, 1))
    assert not ratings.in_order(game, (200, 4))
    assert not ratings.in_order(game, (100, 9))
    assert ratings.in_order(pick_game(["Dan"], ["Eve"], False), (100, 9))


# --- provisional, shown, history


def test_a_rating_is_provisional_below_100_rated_hands_and_a_night_is_no_hand() -> None:
    ratings: Ratings[str] = Ratings()
    game = pick_game(["Ann"], ["Bob", "Cat"], True)
    for _ in range(RATED_HANDS - 1):
        ratings.play(game, SESSION)
    night = night_game({"Ann": 3, "Bob": -3})
    assert night is not None
    ratings.play(night, (1, 2), hand=False)
    assert ratings["Ann"].rating.hands == RATED_HANDS - 1
    assert ratings["Ann"].rating.provisional
    ratings.play(game, (1, 2))
    assert ratings["Ann"].rating.hands == RATED_HANDS
    assert not ratings["Ann"].rating.provisional
    assert ratings["Bob"].rating.hands == RATED_HANDS


@pytest.mark.parametrize(
    ("mu", "sigma", "expected"),
    [
        (25.0, 25 / 3, "0.0"),
        (0.05, 0.0, "0.1"),
        (-0.05, 0.0, "-0.1"),
        (-0.04, 0.0, "0.0"),
        (30.25, 1.0, "27.3"),
        (12.0, 4.0, "0.0"),
    ],
)
def test_the_rating_shown_is_the_ordinal_to_one_decimal(
    mu: float, sigma: float, expected: str
) -> None:
    assert str(shown(mu, sigma)) == expected
    assert shown(mu, sigma) == Decimal(expected)


def test_a_regulars_history_stays_bounded_and_spans_their_sessions() -> None:
    history = History()
    for session in range(1, 11_801):
        history.next_session(session * 60, session / 100)
    stored = history.json(118.0)
    points = stored["points"]
    assert len(points) <= HISTORY_POINTS + 1
    assert history.stride == 128
    assert [p[0] for p in points[:3]] == [128, 256, 384]
    assert points[-1] == [11_800, 708_000, 118.0]
    # The rating after each kept session is the one the next session started from.
    assert points[0] == [128, 128 * 60, 1.3]
    assert History.from_json(stored).json(118.0) == stored


def test_a_short_history_keeps_every_session() -> None:
    ratings: Ratings[str] = Ratings()
    game = pick_game(["Ann"], ["Bob", "Cat"], True)
    for session in range(1, 4):
        ratings.play(game, (session * 1_000_000, session))
        ratings.play(game, (session * 1_000_000, session))
    history = ratings["Ann"].history_json()
    assert [p[:2] for p in history["points"]] == [[1, 1], [2, 2], [3, 3]]
    assert history["points"][-1][2] == float(ratings["Ann"].rating.shown)
