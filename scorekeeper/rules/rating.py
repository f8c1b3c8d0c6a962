"""The rating (RULES.md "Rating"): OpenSkill's Plackett-Luce model with its defaults, updated
game by game in the order the history was played.

A game is teams with ranks (0 the best; equal ranks tie): a pick is its picking side against
the other players of the hand, a leaster and a night kept without hands one ranking of every
player by score or net. `Ratings.play` updates the ratings of a game's players as
`openskill.models.PlackettLuce().rate` does, to the last bits of a float, without the copies
of rating objects that cost that method most of its time (`tests/rules/test_rating.py` holds the two
to each other). The rating shown is the conservative ordinal, mu - 3 sigma, to one decimal,
provisional until a player has played `RATED_HANDS` rated hands.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Generic, TypeVar

from openskill.models import PlackettLuce

from .hands import Kind
from .scoring import HandResult

# The model's defaults, read from the model itself.
_MODEL = PlackettLuce()
MU = _MODEL.mu
SIGMA = _MODEL.sigma
_BETA_SQUARED = _MODEL.beta**2
_TAU_SQUARED = _MODEL.tau * _MODEL.tau
_KAPPA = _MODEL.kappa
# The ordinal is mu less this many sigmas (OpenSkill's `ordinal()`).
Z = 3.0
# Below this many rated hands a rating is provisional.
RATED_HANDS = 100
# The most points a player's history keeps (`History`).
HISTORY_POINTS = 100

P = TypeVar("P", int, str)
Q = TypeVar("Q", int, str)
# A session in the order of the history: when it started, in microseconds from 1970, and its
# id (of two started at once, the first made is the first played).
Session = tuple[int, int]
MICROSECONDS = 1_000_000


@dataclass(frozen=True, slots=True)
class Game(Generic[P]):
    """Teams of players, each with its rank: 0 the best, equal ranks a tie. Teams are in the
    order of their ranks, then of their players, and each team's players in order, so that
    one game is always played with the same arithmetic however it was made."""

    teams: tuple[tuple[P, ...], ...]
    ranks: tuple[int, ...]

    @classmethod
    def of(cls, ranked: Iterable[tuple[Iterable[P], int]]) -> Game[P]:
        teams = sorted((rank, tuple(sorted(team))) for team, rank in ranked)
        return cls(tuple(team for _, team in teams), tuple(rank for rank, _ in teams))

    @property
    def players(self) -> tuple[P, ...]:
        return tuple(player for team in self.teams for player in team)

    def renamed(self, names: Mapping[P, Q]) -> Game[Q]:
        """The same game, each player named by `names` (a player's id for their name)."""
        return Game.of(
            ([names[player] for player in team], rank)
            for team, rank in zip(self.teams, self.ranks, strict=True)
        )


def pick_game(picking: Collection[P], others: Collection[P], won: bool) -> Game[P]:
    """A pick: the picking side (picker and partner, or the picker alone) against the other
    players of the hand, ranked by who won."""
    side, rest = tuple(sorted(picking)), tuple(sorted(others))
    return Game((side, rest) if won else (rest, side), (0, 1))


def ranking_game(scores: Mapping[P, int]) -> Game[P] | None:
    """Every player a team of their own, ranked by score, the highest first; equal scores
    tie. None for fewer than two players."""
    if len(scores) < 2:
        return None
    ordered = sorted(scores.values(), reverse=True)
    return Game.of(([player], ordered.index(score)) for player, score in scores.items())


def night_game(nets: Mapping[P, int]) -> Game[P] | None:
    """A night kept without hands: one ranking of its players by their nets (equal nets tie).
    It does not count as a rated hand (`Ratings.play` with `hand=False`)."""
    return ranking_game(nets)


def hand_game(result: HandResult) -> Game[str] | None:
    """The game a scored hand is: a pick or a leaster (by the scores of the players who played
    it); a pass and a penalty hand are not rated (None)."""
    hand = result.hand
    if hand.kind is Kind.PICK:
        assert hand.picker is not None
        picking = {hand.picker} | ({hand.partner} if hand.partner else set())
        others = [player for player in result.players if player not in picking]
        return pick_game(picking, others, hand.picker in result.winners)
    if hand.kind is Kind.LEASTER:
        return ranking_game({player: result.scores[player] for player in result.players})
    return None


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def rounded(value: float) -> Decimal:
    """A rating to one decimal, halves away from zero, never "-0.0"."""
    tenths = Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return tenths if tenths else Decimal("0.0")


def shown(mu: float, sigma: float) -> Decimal:
    """The rating shown: the ordinal to one decimal."""
    return rounded(ordinal(mu, sigma))


@dataclass(slots=True)
class Rating:
    """A player's rating: mu and sigma, and how many rated hands they played."""

    mu: float = MU
    sigma: float = SIGMA
    hands: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def shown(self) -> Decimal:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.hands < RATED_HANDS


def _team(team: Sequence[Rating]) -> tuple[list[float], float, float]:
    """A team's sigmas widened by tau, and its mu and variance, added up best ordinal first as
    the library adds them (in any order for one or two players, whose sums are the same)."""
    if len(team) == 1:
        rating = team[0]
        sigma = math.sqrt(rating.sigma * rating.sigma + _TAU_SQUARED)
        return [sigma], rating.mu + 0.0, sigma**2 + 0.0
    sigmas = [math.sqrt(r.sigma * r.sigma + _TAU_SQUARED) for r in team]
    players: Iterable[tuple[Rating, float]] = zip(team, sigmas, strict=True)
    if len(team) > 2:
        players = sorted(players, key=lambda p: p[0].mu - Z * p[1], reverse=True)
    mu = var = 0.0
    for rating, sigma in players:
        mu += rating.mu
        var += sigma**2
    return sigmas, mu, var


def _move(
    team: Sequence[Rating], sigmas: list[float], var: float, omega: float, delta: float
) -> None:
    for rating, sigma in zip(team, sigmas, strict=True):
        part = sigma**2 / var
        rating.mu += part * omega
        rating.sigma = sigma * math.sqrt(max(1 - part * delta, _KAPPA))


def update(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> None:
    """Update the ratings of a game's teams, in order of their ranks (`Game`), as
    `PlackettLuce().rate(teams, ranks)` does (Weng and Lin's Algorithm 4, with the sigmas first
    widened by tau), operation for operation. Its one departure from the paper is kept too:
    tied teams keep their own mu changes, as the library's averaging of them averages nothing.
    """
    if len(teams) == 2 and ranks[0] != ranks[1]:
        _update_two(teams[0], teams[1])
        return
    count = len(teams)
    widened = [_team(team) for team in teams]
    c = math.sqrt(sum(var + _BETA_SQUARED for _, _, var in widened))
    strength = [math.exp(mu / c) for _, mu, _ in widened]
    # For each team q, the strengths of the teams ranked no better than q, added in order.
    sum_q = [0.0] * count
    started = [False] * count
    for i in range(count):
        for q in range(count):
            if ranks[i] >= ranks[q]:
                sum_q[q] = sum_q[q] + strength[i] if started[q] else strength[i]
                started[q] = True
    tied = [ranks.count(rank) for rank in ranks]
    for i, team in enumerate(teams):
        omega = delta = 0.0
        for q in range(count):
            if ranks[q] <= ranks[i]:
                share = strength[i] / sum_q[q]
                delta += share * (1 - share) / tied[q]
                omega += ((1 - share) if q == i else -share) / tied[q]
        sigmas, _, var = widened[i]
        omega *= var / c
        delta *= var / c**2
        delta *= math.sqrt(var) / c
        _move(team, sigmas, var, omega, delta)


def _update_two(winners: Sequence[Rating], losers: Sequence[Rating]) -> None:
    """`update` of a game of two teams, the first ranked better: the same operations, less
    those that add or divide by nothing."""
    win_sigmas, win_mu, win_var = _team(winners)
    lose_sigmas, lose_mu, lose_var = _team(losers)
    c = math.sqrt((win_var + _BETA_SQUARED) + (lose_var + _BETA_SQUARED))
    win_strength = math.exp(win_mu / c)
    lose_strength = math.exp(lose_mu / c)
    both = win_strength + lose_strength
    share = win_strength / both
    omega = (1 - share) * (win_var / c)
    delta = share * (1 - share) * (win_var / c**2) * (math.sqrt(win_var) / c)
    _move(winners, win_sigmas, win_var, omega, delta)
    share = lose_strength / both
    omega = -share * (lose_var / c)
    delta = share * (1 - share) * (lose_var / c**2) * (math.sqrt(lose_var) / c)
    _move(losers, lose_sigmas, lose_var, omega, delta)


@dataclass(slots=True)
class History:
    """A player's rating after each session they played, bounded: the point of every
    `stride`-th of their sessions, the stride doubling whenever more than `HISTORY_POINTS`
    would be kept, so that a regular of thousands of sessions keeps a hundred or fewer spread
    over their whole history; and always their latest session, whose rating is their rating
    now. A point is (the session's count among the player's, when it started in whole seconds
    from 1970, the rating to one decimal)."""

    stride: int = 1
    points: list[tuple[int, int, float]] = field(default_factory=list)
    # The latest session: its count and when it started.
    latest: tuple[int, int] | None = None

    def next_session(self, at: int, before: float) -> None:
        """The player starts a session that started `at`, their rating after the one before
        being `before`."""
        count = 1
        if self.latest is not None:
            count = self.latest[0] + 1
            if self.latest[0] % self.stride == 0:
                self.points.append((*self.latest, float(rounded(before))))
                if len(self.points) > HISTORY_POINTS:
                    self.stride *= 2
                    self.points = [p for p in self.points if p[0] % self.stride == 0]
        self.latest = (count, at)

    @property
    def sessions(self) -> int:
        """How many sessions the player has played."""
        return self.latest[0] if self.latest else 0

    def json(self, now: float) -> dict[str, Any]:
        """The history, its last point the latest session at the rating `now`."""
        points = [list(p) for p in self.points]
        if self.latest is not None:
            points.append([*self.latest, float(rounded(now))])
        return {"stride": self.stride, "points": points}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> History:
        if not data or not data["points"]:
            return cls()
        points = [(int(n), int(at), float(value)) for n, at, value in data["points"]]
        *before, (count, at, _) = points
        return cls(int(data["stride"]), before, (count, at))


@dataclass(slots=True)
class Standing:
    """A player's rating, their history, and the session they last played (`Session`): a game
    of an earlier session can't be added after it."""

    rating: Rating = field(default_factory=Rating)
    history: History = field(default_factory=History)
    last: Session | None = None

    def history_json(self) -> dict[str, Any]:
        return self.history.json(self.rating.ordinal)


class Ratings(Generic[P]):
    """Every player's standing, updated game by game in the order of the history."""

    def __init__(self, known: Mapping[P, Standing] | None = None) -> None:
        self.standings: dict[P, Standing] = dict(known or {})

    def __getitem__(self, player: P) -> Standing:
        standing = self.standings.get(player)
        if standing is None:
            standing = self.standings[player] = Standing()
        return standing

    def in_order(self, game: Game[P], session: Session) -> bool:
        """Whether a game of the session comes after every game its players have played."""
        return all(
            (last := self[player].last) is None or last <= session for player in game.players
        )

    def play(self, game: Game[P], session: Session, hand: bool = True) -> None:
        """Update the game's players, in a session that comes after every one they played
        before (`in_order`); a hand counts as a rated hand, a night doesn't."""
        standings = self.standings
        at = session[0] // MICROSECONDS
        teams = []
        for team in game.teams:
            ratings = []
            for player in team:
                standing = standings.get(player)
                if standing is None:
                    standing = standings[player] = Standing()
                if standing.last != session:
                    standing.history.next_session(at, standing.rating.ordinal)
                    standing.last = session
                if hand:
                    standing.rating.hands += 1
                ratings.append(standing.rating)
            teams.append(ratings)
        update(teams, game.ranks)
