"""Club events' standings: the tables' totals ranked over the whole event, each round's leaders,
and the prizes paid from the entry fees (RULES.md "Club events")."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .errors import RuleError

PERCENT = 100


class Ties(StrEnum):
    """How players with equal event totals are placed."""

    SHARE = "share"
    HANDS_WON = "hands_won"
    LOT = "lot"


@dataclass(frozen=True)
class TableResult:
    """One table's session in one round: each seated player's total and hands won, and who
    took part in at least one hand (a pass counts; sitting out doesn't); who stands in there
    for whom (RULES.md "Tournament tables"), and how many of its hands wait to be confirmed."""

    totals: Mapping[str, int]
    hands_won: Mapping[str, int] = field(default_factory=dict)
    played: frozenset[str] = frozenset()
    stand_ins: Mapping[str, str] = field(default_factory=dict)
    to_confirm: int = 0

    def counted(self) -> TableResult:
        """The table as the event counts it: what a substitute scored, won and played counts
        for the player they stand in for."""
        if not self.stand_ins:
            return self
        totals: dict[str, int] = {}
        won: dict[str, int] = {}
        for player, total in self.totals.items():
            owner = self.stand_ins.get(player, player)
            totals[owner] = totals.get(owner, 0) + total
            won[owner] = won.get(owner, 0) + self.hands_won.get(player, 0)
        played = frozenset(self.stand_ins.get(player, player) for player in self.played)
        return TableResult(totals, won, played, to_confirm=self.to_confirm)


@dataclass(frozen=True)
class EventStanding:
    """A player's place over the event, their total, their total each round (None for a round
    they didn't sit), their hands won, and in cents (None with no entry fee) their place prize,
    what their round tops won, and what they are paid, the two together. `by_lot` marks a place
    the lot decided among equal totals."""

    player: str
    place: int
    total: int
    rounds: tuple[int | None, ...]
    hands_won: int
    prize: int | None = None
    by_lot: bool = False
    round_prizes: int | None = None
    paid: int | None = None
    # Who sat in for the player at some table, each once, in the order of the rounds.
    substitutes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundLeader:
    """The highest total of a round over all its tables and who made it (several share it), and
    each one's share of the round's prize in cents (None with no entry fee or no one playing)."""

    round: int
    players: tuple[str, ...]
    total: int
    prize: int | None = None


@dataclass(frozen=True)
class EventResults:
    """The standings and round leaders with their prizes; `played` counts the players who took
    part in a hand, `entrants` those who pay the entry (checked in, or played a hand). `pot`,
    `paid` and `house` are in cents, all None with no entry fee. `provisional`: some hand waits
    to be confirmed, so nothing is final yet."""

    standings: tuple[EventStanding, ...]
    round_leaders: tuple[RoundLeader, ...]
    played: int
    entrants: int = 0
    pot: int | None = None
    paid: int | None = None
    house: int | None = None
    provisional: bool = False


def round_totals(results: Sequence[Sequence[TableResult]]) -> list[dict[str, int]]:
    """Each round's totals by player over all its tables."""
    by_round: list[dict[str, int]] = []
    for tables in results:
        totals: dict[str, int] = {}
        for table in tables:
            for player, total in table.totals.items():
                totals[player] = totals.get(player, 0) + total
        by_round.append(totals)
    return by_round


def event_standings(
    results: Sequence[Sequence[TableResult]], ties: Ties = Ties.SHARE, seed: int = 0
) -> tuple[EventStanding, ...]:
    """Everyone who sat at a table, highest event total first. Equal totals share the place
    (1, 2, 2, 4); with `hands_won`, more hands won first and then share; with `lot`, a draw from
    the seed orders them, each place their own."""
    by_round = round_totals(results)
    won: dict[str, int] = {}
    for tables in results:
        for table in tables:
            for player in table.totals:
                won[player] = won.get(player, 0) + table.hands_won.get(player, 0)
    totals = {player: sum(r.get(player, 0) for r in by_round) for player in sorted(won)}
    rounds = {player: tuple(r.get(player) for r in by_round) for player in totals}
    if ties is Ties.LOT:
        lot = {p: random.Random(f"event {seed} lot {p}").random() for p in totals}
        ordered = sorted(totals, key=lambda p: (-totals[p], lot[p], p))
        return tuple(
            EventStanding(
                player=p,
                place=place,
                total=totals[p],
                rounds=rounds[p],
                hands_won=won[p],
                by_lot=sum(1 for q in totals if totals[q] == totals[p]) > 1,
            )
            for place, p in enumerate(ordered, start=1)
        )
    rank = {p: (totals[p], won[p]) if ties is Ties.HANDS_WON else (totals[p], 0) for p in totals}
    ordered = sorted(totals, key=lambda p: (-totals[p], -won[p], p))
    # Equal ranks are next to each other in that order: each shares the place of the first.
    places: list[int] = []
    for at, p in enumerate(ordered):
        shares = at and rank[ordered[at - 1]] == rank[p]
        places.append(places[-1] if shares else at + 1)
    return tuple(
        EventStanding(player=p, place=place, total=totals[p], rounds=rounds[p], hands_won=won[p])
        for p, place in zip(ordered, places, strict=True)
    )


def round_leaders(results: Sequence[Sequence[TableResult]]) -> tuple[RoundLeader, ...]:
    """Each round's highest total over all its tables among those who played a hand in it, and
    everyone who made it; no one while no hand of the round is played."""
    leaders = []
    for number, (tables, totals) in enumerate(
        zip(results, round_totals(results), strict=True), start=1
    ):
        played = {p for table in tables for p in table.played}
        if not played:
            leaders.append(RoundLeader(number, (), 0))
            continue
        top = max(totals.get(p, 0) for p in played)
        leaders.append(
            RoundLeader(number, tuple(sorted(p for p in played if totals.get(p, 0) == top)), top)
        )
    return tuple(leaders)


def check_prizes(places: Sequence[int], round_top: int, rounds: int) -> None:
    """Refuse prize percents that aren't whole numbers from 0 to 100, or that give away more than
    the pot: `places` plus `round_top` once for each of `rounds` rounds."""
    for number, percent in enumerate(places, start=1):
        if not 0 <= percent <= PERCENT:
            raise RuleError(
                f"A place's prize is a percent of the pot from 0 to {PERCENT}; "
                f"place {number} has {percent}.",
                "places",
            )
    if not 0 <= round_top <= PERCENT:
        raise RuleError(
            f"A round's top prize is a percent of the pot from 0 to {PERCENT}, not {round_top}.",
            "round_top",
        )
    given = sum(places) + round_top * rounds
    if given > PERCENT:
        each = f" and {round_top} for each of {rounds} rounds" if round_top and rounds else ""
        raise RuleError(
            f"The prizes give {given} percent of the pot ({sum(places)} for places{each}); "
            f"they can give at most {PERCENT}.",
            "places",
        )


def event_results(
    results: Sequence[Sequence[TableResult]],
    *,
    checked_in: Collection[str] = (),
    ties: Ties = Ties.SHARE,
    seed: int = 0,
    entry: int | None = 0,
    places: Sequence[int] = (),
    round_top: int = 0,
    rounds: int = 0,
) -> EventResults:
    """The event's standings and round leaders as they stand, with their prizes in cents when
    there is an entry fee: a pot of `entry` for each player checked in (`checked_in`, those
    checked in now) or who played a hand, since a player pays on checking in and is refunded
    only when they check out before playing; `places` percents of it to places 1, 2, ...
    (players sharing places split those places' prizes equally), and `round_top` percent to
    each round's top (split by those who share it); each prize rounded down to the cent, the
    rest to the house. Each standing is paid its place prize and its round tops. `rounds` is
    how many the event plays (0: as many as are drawn). What a substitute scored counts for
    the player they stand in for, who is said to have had them (`substitutes`); while a hand
    waits to be confirmed the results are `provisional`."""
    provisional = any(table.to_confirm for tables in results for table in tables)
    sat_in = _substitutes(results)
    results = [[table.counted() for table in tables] for tables in results]
    standings = tuple(
        replace(s, substitutes=sat_in[s.player]) if s.player in sat_in else s
        for s in event_standings(results, ties, seed)
    )
    leaders = round_leaders(results)
    played = {p for tables in results for table in tables for p in table.played}
    entrants = len(played | set(checked_in))
    if not entry:
        return EventResults(standings, leaders, len(played), entrants, provisional=provisional)
    if entry < 0:
        raise RuleError("The entry fee is a whole number of cents, 0 or more.", "entry")
    check_prizes(places, round_top, rounds or len(results))
    pot = entry * entrants
    paid_leaders = tuple(
        replace(leader, prize=pot * round_top // (PERCENT * len(leader.players)))
        if leader.players
        else leader
        for leader in leaders
    )
    topped: dict[str, int] = {}
    for leader in paid_leaders:
        for player in leader.players:
            topped[player] = topped.get(player, 0) + (leader.prize or 0)
    by_place: dict[int, list[EventStanding]] = {}
    for standing in standings:
        by_place.setdefault(standing.place, []).append(standing)
    paid_standings: list[EventStanding] = []
    for place, sharing in by_place.items():
        percent = sum(places[place - 1 : place - 1 + len(sharing)])
        prize = pot * percent // (PERCENT * len(sharing))
        paid_standings += [
            replace(
                standing,
                prize=prize,
                round_prizes=topped.get(standing.player, 0),
                paid=prize + topped.get(standing.player, 0),
            )
            for standing in sharing
        ]
    paid = sum(s.paid or 0 for s in paid_standings)
    return EventResults(
        tuple(paid_standings),
        paid_leaders,
        len(played),
        entrants,
        pot,
        paid,
        pot - paid,
        provisional,
    )


def _substitutes(results: Sequence[Sequence[TableResult]]) -> dict[str, tuple[str, ...]]:
    """Who sat in for each player replaced at some table, each once, round by round."""
    sat_in: dict[str, list[str]] = {}
    for tables in results:
        for table in tables:
            for player, owner in table.stand_ins.items():
                if player in table.totals and player not in sat_in.get(owner, []):
                    sat_in.setdefault(owner, []).append(player)
    return {owner: tuple(players) for owner, players in sat_in.items()}
