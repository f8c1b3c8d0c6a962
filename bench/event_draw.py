"""How fast a club event's draw is, and how few pairs it seats together again.

For each case, draws its rounds one after another from a few seeds (each round avoiding the pairs
of the rounds before) and prints the median and max time of all its rounds together, then, round
by round, the median and max time of a draw and the fewest and most pairs it repeated. The
cases: 25 players at five tables of five (rounds 2 and 3 repeat no pair), 20 at four tables of
five (round 2 repeats four, the fewest possible), 200 at 40 tables of five (the budget: well
under a second a draw), and 200 at 25 tables of eight over many rounds, where repeats can't be
avoided and the search spends its whole budget.

    .venv/bin/python bench/event_draw.py [--seeds 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.rules import draw, met_pairs

CASES = (
    ("25 players, 5 tables of 5", 25, (5,) * 5, 3),
    ("20 players, 4 tables of 5", 20, (5,) * 4, 2),
    ("200 players, 40 tables of 5", 200, (5,) * 40, 3),
    ("200 players, 25 tables of 8", 200, (8,) * 25, 24),
)


def run(players: int, sizes: tuple[int, ...], rounds: int, seed: int) -> list[tuple[float, int]]:
    """Each round's draw time in seconds and its repeated pairs."""
    names = [f"Player {number:03d}" for number in range(1, players + 1)]
    earlier: list[tuple[tuple[str, ...], ...]] = []
    each = []
    for number in range(1, rounds + 1):
        met = met_pairs(earlier)
        start = time.perf_counter()
        drawn = draw(names, sizes, seed, number, met)
        each.append((time.perf_counter() - start, drawn.repeats))
        earlier.append(drawn.tables)
    return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    seeds = range(parser.parse_args().seeds)
    for title, players, sizes, rounds in CASES:
        print(title)
        runs = [run(players, sizes, rounds, seed) for seed in seeds]
        totals = [sum(seconds for seconds, _repeats in each) * 1000 for each in runs]
        print(
            f"  all {rounds} rounds: median {statistics.median(totals):7.1f} ms, "
            f"max {max(totals):7.1f} ms"
        )
        for number in range(rounds):
            if rounds > 4 and number + 1 not in (1, 2, 3, 8, 12, 16, 20, 24):
                continue
            times = [each[number][0] * 1000 for each in runs]
            repeats = [each[number][1] for each in runs]
            print(
                f"  round {number + 1:2}: median {statistics.median(times):7.1f} ms, "
                f"max {max(times):7.1f} ms; repeats {min(repeats)}-{max(repeats)}"
            )


if __name__ == "__main__":
    main()
