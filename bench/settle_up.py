"""How fast settle-up answers for 20 players' balances (the budget is 100 ms).

The exact search costs about the same for any balances of its size: a few whole-integer steps
over all subsets for each group it finds. So the hardest cases are 20 non-zero balances with no
two opposite (opposites are paired off first, halving the subsets each time) that split into
as many groups as 20 players can: six (five of 3 and one of 5). Times, for each case, the first
call in this process (which also builds the subset masks the search keeps) and the median and
max of --runs calls; then the median and max over --random random sets of 20 balances of each
kind; then, for scale, the greedy match of 40 players.

    .venv/bin/python bench/settle_up.py [--runs 50] [--random 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.rules import settle_up

BUDGET_MS = 100
PLAYERS = 20
STAKE = 25


def named(amounts: list[int]) -> dict[str, int]:
    return {f"Player {i + 1}": amount for i, amount in enumerate(amounts)}


def no_opposites(amounts: list[int]) -> bool:
    return 0 not in amounts and not {-amount for amount in amounts} & set(amounts)


def six_groups_distinct(rng: random.Random) -> list[int]:
    """Five groups of 3 and one of 5, every amount different and none opposite another."""
    while True:
        amounts = []
        for size in (3, 3, 3, 3, 3, 5):
            part = [rng.randint(1, 60) for _ in range(size - 1)]
            sign = rng.choice((1, -1))
            amounts += [sign * amount for amount in part] + [-sign * sum(part)]
        if no_opposites(amounts) and len(set(amounts)) == PLAYERS:
            rng.shuffle(amounts)
            return [amount * STAKE for amount in amounts]


def six_groups_repeated() -> list[int]:
    """Six groups of small repeated amounts: 1 + 2 - 3 five times, 1 + 1 + 1 + 1 - 4."""
    return [amount * STAKE for amount in [1, 2, -3] * 5 + [1, 1, 1, 1, -4]]


def dense() -> list[int]:
    """Small amounts with very many zero-sum subsets: 14 owed 1 to 6, 6 owing 7 or 8."""
    owed = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 1, 2]
    return [amount * STAKE for amount in [*owed, -7, -7, -7, -8, -8, -8]]


def one_group(rng: random.Random) -> list[int]:
    """Twenty large amounts that settle only all together."""
    amounts = [rng.randint(-(10**6), 10**6) for _ in range(PLAYERS - 1)]
    return [*amounts, -sum(amounts)]


def random_night(rng: random.Random) -> list[int]:
    """Totals of a long night, -60 to 60 points, at 25 cents (opposites likely)."""
    totals = [rng.randint(-60, 60) for _ in range(PLAYERS - 1)]
    return [total * STAKE for total in [*totals, -sum(totals)]]


def random_no_opposites(rng: random.Random) -> list[int]:
    """Totals of -15 to 15 with no two opposite, so nothing pairs off."""
    while True:
        totals = [rng.randint(-15, 15) for _ in range(PLAYERS - 1)]
        totals.append(-sum(totals))
        if no_opposites(totals):
            return [total * STAKE for total in totals]


def millis(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--random", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(20)
    cases = {
        "six groups, distinct amounts": six_groups_distinct(rng),
        "six groups, repeated amounts": six_groups_repeated(),
        "dense small amounts": dense(),
        "one group of 20": one_group(rng),
        "a night, -60..60 points": random_night(rng),
        "no opposites, -15..15 points": random_no_opposites(rng),
    }
    worst = 0.0
    print(f"settle-up of {PLAYERS} players' balances, {args.runs} runs each")
    for title, amounts in cases.items():
        balances = named(amounts)
        first = millis(partial(settle_up, balances))
        times = [millis(partial(settle_up, balances)) for _ in range(args.runs)]
        settlement = settle_up(balances)
        worst = max(worst, first, *times)
        print(
            f"{title:30} {len(settlement.payments):2} payments exact={settlement.exact!s:5}  "
            f"first {first:5.1f} ms  median {statistics.median(times):5.1f} ms  "
            f"max {max(times):5.1f} ms"
        )
    for title, make in (
        ("random nights", random_night),
        ("random, no opposites", random_no_opposites),
        ("random, six groups", six_groups_distinct),
    ):
        sets = [named(make(rng)) for _ in range(args.random)]
        times = [millis(partial(settle_up, balances)) for balances in sets]
        worst = max(worst, *times)
        print(
            f"{title:30} {args.random} sets{'':16}"
            f"median {statistics.median(times):5.1f} ms  max {max(times):5.1f} ms"
        )
    crowd = named(random_night(rng) + random_night(rng))
    settlement = settle_up(crowd)
    print(
        f"greedy match of 40 players     {len(settlement.payments):2} payments "
        f"exact={settlement.exact!s:5}  {millis(partial(settle_up, crowd)):5.1f} ms"
    )
    print(f"slowest of 20 players {worst:.1f} ms; budget {BUDGET_MS} ms: ", end="")
    print("OVER" if worst > BUDGET_MS else "met")
    return 1 if worst > BUDGET_MS else 0


if __name__ == "__main__":
    sys.exit(main())
