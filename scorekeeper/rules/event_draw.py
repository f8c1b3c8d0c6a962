"""Club events' tables: several tables at once, re-drawn between rounds. Each table of each
round is an ordinary session; this module says how many tables of what sizes, how many hands
each plays and by which options, and who sits where (`event_standings` ranks the event)."""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from .errors import RuleError
from .names import name_key, player_name
from .options import Options, PartnerMode
from .table import MAX_ROUNDS, MAX_SEATS, MIN_SEATS, Table, check_table

# A draw makes one table for every six players or part of six.
PLAYERS_PER_TABLE = 6
DEFAULT_HANDS = 20
# A table's session plays at most MAX_ROUNDS rounds, and at least three play each hand.
MAX_HANDS = MAX_ROUNDS * MIN_SEATS
# The draw's search: at most this many fresh starts, each ending after this many moves a
# player that lower nothing; and at most this many swaps weighed in all, which keeps a draw of
# 200 players whose repeats can't reach 0 to about a fifth of a second.
DRAW_STARTS = 6
STALE_MOVES_PER_PLAYER = 3
DRAW_BUDGET = 200_000
# Pairs an event may keep apart: every couple and pair of friends of a big night.
MAX_APART = 200
# The search that seats the pairs kept apart tries at most this many tables for a player:
# enough for every seating of a small night, and ends at once when none need sit together.
APART_NODES = 50_000


def check_hands(hands: int) -> None:
    """Refuse a number of hands a round that a table's session can't play."""
    if not 1 <= hands <= MAX_HANDS:
        raise RuleError(
            f"Hands a round must be a whole number from 1 to {MAX_HANDS}, not {hands}.", "hands"
        )


def table_sizes(
    n: int, given: Sequence[int] | None = None, options: Options | None = None
) -> tuple[int, ...]:
    """The sizes of a draw's tables for `n` players: ceil(n / 6) tables as equal as can be, the
    larger first; or the sizes `given`, each 3 to 8 and summing to `n` (and each playable by
    `options`, when given)."""
    if n < MIN_SEATS:
        raise RuleError(
            f"A draw needs at least {MIN_SEATS} players checked in, not {n}.", "players"
        )
    if given is None:
        count = math.ceil(n / PLAYERS_PER_TABLE)
        size, larger = divmod(n, count)
        return (size + 1,) * larger + (size,) * (count - larger)
    sizes = tuple(given)
    for number, size in enumerate(sizes, start=1):
        if not MIN_SEATS <= size <= MAX_SEATS:
            raise RuleError(
                f"A table seats {MIN_SEATS} to {MAX_SEATS} players; table {number} has {size}.",
                "tables",
            )
    if sum(sizes) != n:
        raise RuleError(f"The tables seat {sum(sizes)} players, but {n} are checked in.", "tables")
    if options is not None:
        for size in sizes:
            table_options(options, size)
    return sizes


def table_options(rules: Options, seated: int) -> Options:
    """The options a table of `seated` plays by the event's `rules`: the same, except that a
    table of three plays alone. Refuses a size the rules can't play."""
    options = replace(rules, partner=PartnerMode.ALONE) if seated == MIN_SEATS else rules
    check_table(_seats(seated), options, "tables")
    return options


@dataclass(frozen=True)
class TablePlan:
    """What a table of `seated` plays in a round: `playing` play each hand, so its session has
    `rounds` rounds of deals, `hands` hands in all, by `options`."""

    seated: int
    playing: int
    rounds: int
    hands: int
    options: Options


def hands_to_play(hands: int, seated: int, options: Options) -> TablePlan:
    """A table's session for a round in which each player plays `hands` hands: whole rounds of
    deals, ceil(hands / playing) of them, by the event's `options` fitted to the table."""
    check_hands(hands)
    fitted = table_options(options, seated)
    seats = _seats(seated)
    playing = len(Table(seats=seats, options=fitted).players_of_hand(seats[0]))
    rounds = math.ceil(hands / playing)
    return TablePlan(seated, playing, rounds, seated * rounds, fitted)


def _seats(seated: int) -> tuple[str, ...]:
    return tuple(f"Seat {number}" for number in range(1, seated + 1))


# The draw


Pair = frozenset[str]


@dataclass(frozen=True)
class Draw:
    """A round's tables, each its seats in order (the first seat deals first), how many pairs
    of players it seats together who already shared a table in the event, and how many pairs
    the organizer keeps apart it seats together (0 whenever some draw can avoid it)."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    repeats: int
    apart: int = 0


def check_apart(pairs: Iterable[Sequence[str]]) -> tuple[tuple[str, str], ...]:
    """The pairs an event keeps apart, each two players' names as they are kept: refused when a
    pair doesn't name two different players, or names the same two as another pair."""
    given = list(pairs)
    if len(given) > MAX_APART:
        raise RuleError(f"At most {MAX_APART} pairs can be kept apart, not {len(given)}.", "apart")
    checked: list[tuple[str, str]] = []
    seen: dict[Pair, tuple[str, str]] = {}
    for number, pair in enumerate(given, start=1):
        names = tuple(player_name(name, "apart") for name in pair)
        if len(names) != 2:
            raise RuleError(
                f"Pair {number} to keep apart names {len(names)} players; a pair names two.",
                "apart",
            )
        first, second = names
        if name_key(first) == name_key(second):
            raise RuleError(
                f"{first} can't be kept apart from {first}: a pair names two players.", "apart"
            )
        key = frozenset((name_key(first), name_key(second)))
        if key in seen:
            named = " and ".join(seen[key])
            raise RuleError(f"{named} are kept apart twice: name each pair once.", "apart")
        seen[key] = (first, second)
        checked.append((first, second))
    return tuple(checked)


def met_pairs(draws: Iterable[Iterable[Sequence[str]]]) -> frozenset[Pair]:
    """Every pair of players who shared a table in the given draws (each a round's tables)."""
    return frozenset(
        frozenset((a, b))
        for tables in draws
        for seats in tables
        for at, a in enumerate(seats)
        for b in seats[at + 1 :]
    )


def repeats_of(tables: Iterable[Sequence[str]], met: Collection[Pair]) -> int:
    """How many pairs seated together in `tables` are in `met`."""
    return sum(
        frozenset((a, b)) in met
        for seats in tables
        for at, a in enumerate(seats)
        for b in seats[at + 1 :]
    )


def apart_of(tables: Iterable[Sequence[str]], apart: Iterable[Sequence[str]]) -> int:
    """How many of the `apart` pairs `tables` seat together (names compared as keys)."""
    table_of = {name_key(p): at for at, seats in enumerate(tables) for p in seats}
    keys = {frozenset((name_key(a), name_key(b))) for a, b in apart}
    together = 0
    for key in keys:
        a, b = sorted(key)
        if a in table_of and b in table_of and table_of[a] == table_of[b]:
            together += 1
    return together


def draw(
    players: Collection[str],
    sizes: Sequence[int],
    seed: int,
    round_number: int,
    met: Collection[Pair] = frozenset(),
    apart: Iterable[Sequence[str]] = (),
) -> Draw:
    """A round's draw of `players` into tables of `sizes`, the same for the same seed, round,
    players (in any order), `met` and `apart`: random in round 1, and seating together first as
    few of the `apart` pairs (names compared as keys) and then as few pairs from `met` as it
    finds. An apart pair weighs more than every pair from `met` together, so no number of
    repeats is ever traded for one apart pair more."""
    names = sorted(players)
    if len(set(names)) != len(names):
        raise RuleError("A player can sit at only one table a round.", "players")
    if sum(sizes) != len(names):
        raise RuleError(
            f"The tables seat {sum(sizes)} players, but {len(names)} are checked in.", "tables"
        )
    rng = random.Random(f"event {seed} round {round_number}")
    index = {name: at for at, name in enumerate(names)}
    partners: list[set[int]] = [set() for _ in names]
    for pair in met:
        if len(pair) != 2:
            continue
        a, b = sorted(pair)
        if a in index and b in index:
            partners[index[a]].add(index[b])
            partners[index[b]].add(index[a])
    by_key = {name_key(name): at for at, name in enumerate(names)}
    kept_apart: set[tuple[int, int]] = set()
    for first, second in apart:
        one, other = by_key.get(name_key(first)), by_key.get(name_key(second))
        if one is not None and other is not None and one != other:
            kept_apart.add((min(one, other), max(one, other)))
    apart_from: list[list[int]] = [[] for _ in names]
    for one, other in sorted(kept_apart):
        apart_from[one].append(other)
        apart_from[other].append(one)
    table_of = _search(len(names), tuple(sizes), [sorted(p) for p in partners], apart_from, rng)
    tables: list[list[str]] = [[] for _ in sizes]
    for player, table in enumerate(table_of):
        tables[table].append(names[player])
    for seats in tables:
        rng.shuffle(seats)
    seated = tuple(tuple(seats) for seats in tables)
    together = sum(table_of[one] == table_of[other] for one, other in kept_apart)
    return Draw(round_number, seated, repeats_of(seated, met), together)


def _search(
    n: int,
    sizes: tuple[int, ...],
    partners: list[list[int]],
    apart: list[list[int]],
    rng: random.Random,
) -> list[int]:
    """Each player's table: the best of a few starts, each improved by swapping a player who
    sits with a partner (one kept apart first, when any does) with the player elsewhere whose
    swap lowers the cost most (or, when none lowers it, leaves it equal), until the cost is 0 or
    the moves that lower nothing run out. The cost adds up the weight of every pair seated
    together: 1 for each of `partners` (a repeat), more than all of them together for each of
    `apart` (a pair kept apart). With pairs kept apart, the first start seats them as few
    together as can be (`_seat_apart`), which no later swap makes worse; the other starts are
    random."""
    best: list[int] = []
    best_cost = -1
    budget = DRAW_BUDGET
    heavy = 1 + sum(len(theirs) for theirs in partners) // 2 if any(apart) else 0
    starts = DRAW_STARTS if any(partners) or heavy else 1
    for start_number in range(starts):
        if heavy and start_number == 0:
            table_of = _seat_apart(n, sizes, apart, rng)
        else:
            order = list(range(n))
            rng.shuffle(order)
            table_of = [0] * n
            start = 0
            for table, size in enumerate(sizes):
                for player in order[start : start + size]:
                    table_of[player] = table
                start += size
        cost, weighed = _improve(table_of, len(sizes), partners, apart, heavy, rng, budget)
        budget -= weighed
        if best_cost < 0 or cost < best_cost:
            best, best_cost = table_of, cost
        if best_cost == 0 or budget <= 0:
            break
    return best


def _seat_apart(
    n: int, sizes: tuple[int, ...], apart: list[list[int]], rng: random.Random
) -> list[int]:
    """Every player's table, those kept apart from someone seated first with as few of their
    pairs together as a bounded search finds (the fewest there can be whenever it ends within
    `APART_NODES` tables tried: it tries every seating that could do better), the others at
    random in the seats left."""
    tables = list(range(len(sizes)))
    rng.shuffle(tables)
    kept = [p for p in range(n) if apart[p]]
    rng.shuffle(kept)
    kept.sort(key=lambda p: -len(apart[p]))
    table_of = [-1] * n
    used = [0] * len(sizes)
    best: list[int] = []
    best_cost = [-1]
    nodes = [0]

    def seat(at: int, cost: int) -> None:
        if (best_cost[0] >= 0 and cost >= best_cost[0]) or nodes[0] >= APART_NODES:
            return
        if at == len(kept):
            best[:] = [table_of[p] for p in kept]
            best_cost[0] = cost
            return
        player = kept[at]
        together = [0] * len(sizes)
        for other in apart[player]:
            if table_of[other] >= 0:
                together[table_of[other]] += 1
        tried_empty: set[int] = set()
        for table in sorted(tables, key=lambda t: together[t]):
            if used[table] == sizes[table]:
                continue
            # Empty tables of one size are alike: trying one of them is trying them all.
            if used[table] == 0:
                if sizes[table] in tried_empty:
                    continue
                tried_empty.add(sizes[table])
            nodes[0] += 1
            table_of[player] = table
            used[table] += 1
            seat(at + 1, cost + together[table])
            used[table] -= 1
            table_of[player] = -1

    seat(0, 0)
    for player, table in zip(kept, best, strict=True):
        table_of[player] = table
        used[table] += 1
    others = [p for p in range(n) if table_of[p] < 0]
    rng.shuffle(others)
    free = [table for table in range(len(sizes)) for _ in range(sizes[table] - used[table])]
    for player, table in zip(others, free, strict=True):
        table_of[player] = table
    return table_of


def _improve(
    table_of: list[int],
    tables: int,
    partners: list[list[int]],
    apart: list[list[int]],
    heavy: int,
    rng: random.Random,
    budget: int,
) -> tuple[int, int]:
    """Swaps players in `table_of` while that lowers the cost or keeps it equal, for a bounded
    number of moves that don't lower it and of swaps weighed (`budget`); the cost left and the
    swaps weighed."""
    n = len(table_of)
    # met_at[p][t]: the weight of p's partners and those p is kept apart from at table t.
    met_at = [[0] * tables for _ in range(n)]
    weight_of: list[dict[int, int]] = [dict.fromkeys(theirs, 1) for theirs in partners]
    for player, theirs in enumerate(partners):
        for other in theirs:
            met_at[player][table_of[other]] += 1
    for player, theirs in enumerate(apart):
        for other in theirs:
            met_at[player][table_of[other]] += heavy
            weight_of[player][other] = weight_of[player].get(other, 0) + heavy
    members: list[list[int]] = [[] for _ in range(tables)]
    for player, table in enumerate(table_of):
        members[table].append(player)
    cost = sum(met_at[p][table_of[p]] for p in range(n)) // 2
    stale = weighed = 0
    while cost and stale < STALE_MOVES_PER_PLAYER * n and weighed < budget:
        if heavy and cost >= heavy:
            # While a pair kept apart sits together, one of its players moves first.
            clashing = [p for p in range(n) if met_at[p][table_of[p]] >= heavy]
        else:
            clashing = [p for p in range(n) if met_at[p][table_of[p]]]
        a = clashing[rng.randrange(len(clashing))]
        here = table_of[a]
        weighed += n - len(members[here])
        counts_a = met_at[a]
        known = weight_of[a]
        lowest = 1
        choices: list[int] = []
        for there, seated in enumerate(members):
            if there == here:
                continue
            base = counts_a[there] - counts_a[here]
            for b in seated:
                counts_b = met_at[b]
                change = base + counts_b[here] - counts_b[there]
                if b in known:
                    change -= 2 * known[b]
                if change < lowest:
                    lowest, choices = change, [b]
                elif change == lowest:
                    choices.append(b)
        if lowest > 0:
            stale += 1
            continue
        stale = 0 if lowest < 0 else stale + 1
        b = choices[rng.randrange(len(choices))]
        there = table_of[b]
        for other in partners[a]:
            met_at[other][here] -= 1
            met_at[other][there] += 1
        for other in partners[b]:
            met_at[other][there] -= 1
            met_at[other][here] += 1
        for other in apart[a]:
            met_at[other][here] -= heavy
            met_at[other][there] += heavy
        for other in apart[b]:
            met_at[other][there] -= heavy
            met_at[other][here] += heavy
        table_of[a], table_of[b] = there, here
        members[here][members[here].index(a)] = b
        members[there][members[there].index(b)] = a
        cost += lowest
    return cost, weighed
