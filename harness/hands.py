"""Pick hands for the five seats a live server's sessions start with, and what a session it
served must hold whatever happened to its requests."""

from __future__ import annotations

import json
from typing import Any

from harness.live_server import SEATS

# Card points a picking team can take (never 1 or 119); 0 and 120 left out, they need tricks said.
POINTS = [p for p in range(2, 119)]


def pick_bodies(count: int, offset: int = 0) -> list[dict[str, Any]]:
    """`count` different valid pick hands for SEATS: every picker, partner (or alone) and
    points in turn, so each hand read back names the one request it came from."""
    bodies = []
    for i in range(offset, offset + count):
        picker = SEATS[i % 5]
        others = [p for p in SEATS if p != picker]
        partner = [*others, None][(i // 5) % 5]
        points = POINTS[(i // 25 * 7 + i) % len(POINTS)]
        bodies.append(
            {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}
        )
    assert len({json.dumps(b, sort_keys=True) for b in bodies}) == count
    return bodies


def integrity(session: dict[str, Any], acknowledged: int | None = None) -> list[str]:
    """What is wrong with a session as the API serves it: gaps or repeats in hand numbers, a
    hand count other than the saves acknowledged, totals other than the sum of hand scores."""
    problems = []
    numbers = [hand["number"] for hand in session["hands"]]
    if numbers != list(range(1, len(numbers) + 1)):
        missing = sorted(set(range(1, len(numbers) + 1)) - set(numbers))
        repeated = sorted(n for n in set(numbers) if numbers.count(n) > 1)
        problems.append(
            f"hand numbers are not 1..{len(numbers)}: missing {missing}, repeated {repeated}"
        )
    if acknowledged is not None and len(numbers) != acknowledged:
        problems.append(f"{len(numbers)} hands for {acknowledged} acknowledged saves")
    sums = {player: 0 for player in session["totals"]}
    for hand in session["hands"]:
        for player, score in hand["scores"].items():
            sums[player] = sums.get(player, 0) + score
    if sums != session["totals"]:
        problems.append(f"totals {session['totals']} but the hands sum to {sums}")
    return problems
