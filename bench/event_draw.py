"""How fast a club event's draw is, and how few pairs it seats together again.

For each case, draws its rounds one after another from a few seeds (each round avoiding the pairs
of the rounds before) and prints the median and max time of all its rounds together, then, round
by round, the median and max time of a draw and the fewest and most pairs it repeated. The
cases: 25 players at five tables of five (rounds 2 and 3 repeat no pair), 20 at four tables of
five (round 2 repeats four, the fewest possible), 200 at 40 tables of five (the budget: well
under a second a draw), 200 at 40 tables of five with 40 couples kept apart and with 200 pairs
kept apart (a few players each kept from several others), and 200 at 25 tables of eight over
many rounds, where repeats can't be avoided and the search spends its whole budget, also with
40 couples kept apart. A round's line then also gives the fewest and most pairs kept apart it
seated together.

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

COUPLES = "couples"
CROWDS = "crowds"
CASES = (
    ("25 players, 5 tables of 5", 25, (5,) * 5, 3, None),
    ("20 players, 4 tables of 5", 20, (5,) * 4, 2, None),
    ("200 players, 40 tables of 5", 200, (5,) * 40, 3, None),
    ("200 players, 40 tables of 5, 40 couples apart", 200, (5,) * 40, 3, COUPLES),
    ("200 players, 40 tables of 5, 200 pairs apart", 200, (5,) * 40, 3, CROWDS),
    ("200 players, 25 tables of 8", 200, (8,) * 25, 24, None),
    ("200 players, 25 tables of 8, 40 couples apart", 200, (8,) * 25, 24, COUPLES),
)


def apart_pairs(names: list[str], kind: str | None) -> list[tuple[str, str]]:
    """40 couples (players 1 and 2, 3 and 4, ...), or 200 pairs: each of the first 50 players
    kept apart from the four after them."""
    if kind == COUPLES:
        return [(names[at], names[at + 1]) for at in range(0, 80, 2)]
    if kind == CROWDS:
        return [(names[at], names[at + step]) for at in range(50) for step in range(1, 5)]
    return []


def run(
    players: int, sizes: tuple[int, ...], rounds: int, seed: int, kind: str | None
) -> list[tuple[float, int, int]]:
    """Each round's draw time in seconds, its repeated pairs and its pairs kept apart that it
    seated together."""
    names = [f"Player {number:03d}" for number in range(1, players + 1)]
    apart = apart_pairs(names, kind)
    earlier: list[tuple[tuple[str, ...], ...]] = []
    each = []
    for number in range(1, rounds + 1):
        met = met_pairs(earlier)
        start = time.perf_counter()
        drawn = draw(names, sizes, seed, number, met, apart)
        each.append((time.perf_counter() - start, drawn.repeats, drawn.apart))
        earlier.append(drawn.tables)
    return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    seeds = range(parser.parse_args().seeds)
    for title, players, sizes, rounds, kind in CASES:
        print(title)
        runs = [run(players, sizes, rounds, seed, kind) for seed in seeds]
        totals = [sum(line[0] for line in each) * 1000 for each in runs]
        print(
            f"  all {rounds} rounds: median {statistics.median(totals):7.1f} ms, "
            f"max {max(totals):7.1f} ms"
        )
        for number in range(rounds):
            if rounds > 4 and number + 1 not in (1, 2, 3, 8, 12, 16, 20, 24):
                continue
            times = [each[number][0] * 1000 for each in runs]
            repeats = [each[number][1] for each in runs]
            together = [each[number][2] for each in runs]
            apart = f"; kept apart but together {min(together)}-{max(together)}" if kind else ""
            print(
                f"  round {number + 1:2}: median {statistics.median(times):7.1f} ms, "
                f"max {max(times):7.1f} ms; repeats {min(repeats)}-{max(repeats)}{apart}"
            )


if __name__ == "__main__":
    main()
