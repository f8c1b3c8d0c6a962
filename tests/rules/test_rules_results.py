"""The results card points give on their own, as the engine reads them and as it sends them to
the hand form's script: the least points of each result. No app, no database."""

from __future__ import annotations

from scorekeeper.rules import CARD_POINTS_TOTAL, Result, result_floors, result_of_points


def test_the_floors_are_every_result_most_points_first() -> None:
    floors = result_floors()
    assert floors == (
        (120, Result.WON_SCHWARZ),
        (91, Result.WON_SCHNEIDER),
        (61, Result.WON),
        (31, Result.LOST),
        (1, Result.LOST_SCHNEIDER),
        (0, Result.LOST_SCHWARZ),
    )
    assert floors[0][0] == CARD_POINTS_TOTAL


def test_the_first_floor_reached_is_the_result_of_the_points() -> None:
    # As the hand form's script reads them.
    for points in range(CARD_POINTS_TOTAL + 1):
        reached = next(result for low, result in result_floors() if points >= low)
        assert reached is result_of_points(points), points
