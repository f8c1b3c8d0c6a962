"""One player's numbers (`insights/player_numbers.py`), checked against numbers worked out by
hand: every statistic, by dates, by table size and by house rules, the sessions with their
places, and the best and worst night. The nights are `helpers/stats_season.py`'s."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.insights import player_numbers, scope, stats
from scorekeeper.insights.dates import DateRange, local
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player

from ..helpers.api import Api
from ..helpers.pages import page
from ..helpers.stats_season import (
    EVERYTHING,
    HOUSE_CARD_POINTS,
    HOUSE_NIGHT,
    nights_of_years,
    sizes,
    stats_of,
    summary,
)
from ..helpers.tables import (
    TOTALS,
)

# --- the season


def test_every_statistic_of_every_player(app: Flask, season: list[int]) -> None:
    for name, expected in EVERYTHING.items():
        assert summary(stats_of(app, name, DateRange())) == expected, name


def test_cracks_lost_rates_and_averages(app: Flask, season: list[int]) -> None:
    bob = stats_of(app, "Bob", DateRange())
    assert bob.cracks_lost == 1  # A3
    assert str(bob.picks) == "3 of 3, 100%"
    assert str(bob.cracks) == "1 of 2, 50%"
    assert str(bob.alone) == "0 of 0"  # no division by zero
    assert bob.alone.percent is None
    assert str(stats_of(app, "Ann", DateRange()).picks) == "1 of 3, 33%"
    assert str(stats_of(app, "Dan", DateRange()).partner) == "2 of 3, 67%"
    assert str(stats.Rate(7, 12)) == "7 of 12, 58%"
    assert stats.Rate(1, 8).percent == 13  # 12.5 rounds half up
    averages = {name: stats_of(app, name, DateRange()).average_shown for name in EVERYTHING}
    # 16/18, 11/18, -17/18, 13/18, -20/13, -3/5
    assert {name: str(value) for name, value in averages.items()} == {
        "Ann": "0.89", "Bob": "0.61", "Cat": "-0.94", "Dan": "0.72", "Eve": "-1.54", "Fay": "-0.60",
    }  # fmt: skip


def test_sessions_of_a_player_with_places(app: Flask, season: list[int]) -> None:
    a, b, c, d = season
    lines = stats_of(app, "Ann", DateRange()).sessions
    assert [(s.session_id, s.hands, s.hands_won, s.total, s.place) for s in lines] == [
        (a, 5, 4, 25, 1),
        (b, 5, 0, -8, 5),
        (c, 5, 3, 6, 1),  # shared with Bob
        (d, 3, 0, -7, None),  # unfinished: no place
    ]
    cat = stats_of(app, "Cat", DateRange()).sessions
    # A: -14 with 2 hands won beats Eve's -14 with 1. B: behind Dan on hands won. C: behind
    # Ann and Bob (sharing 1st) and Dan.
    assert [s.place for s in cat] == [4, 2, 4, None]


def test_places_match_the_standings_of_the_api(api: Api, app: Flask, season: list[int]) -> None:
    for session_id in season[:3]:
        standings = api.session(session_id)["standings"]
        for standing in standings:
            lines = stats_of(app, standing["player"], DateRange()).sessions
            (line,) = (line for line in lines if line.session_id == session_id)
            assert (line.place, line.total) == (standing["place"], standing["total"])


def test_a_date_range_takes_the_sessions_started_in_it(app: Flask, season: list[int]) -> None:
    # B and C: C started at 23:30 on the last day, which counts.
    march = DateRange(date(2025, 3, 8), date(2025, 3, 15))
    assert summary(stats_of(app, "Ann", march)) == (
        # Hands 5+5, won 0+3, total -8+6; picks B3; leasters C1 won; schneidered B3.
        2, 1, (3, 10), -2, (0, 1), (0, 0), (0, 0), (0, 0), 0, 0, (1, 3), 1,
    )  # fmt: skip
    assert summary(stats_of(app, "Eve", march)) == (
        1, 0, (1, 5), -14, (0, 1), (0, 1), (0, 0), (0, 0), 0, 0, (0, 3), 1,
    )  # fmt: skip
    assert stats_of(app, "Ann", DateRange(date(2025, 3, 16))).total == -7  # D only
    assert stats_of(app, "Ann", DateRange(end=date(2025, 3, 1))).total == 25  # A only
    nothing = stats_of(app, "Fay", DateRange(date(2025, 3, 9)))
    assert (nothing.hands_played, nothing.sessions, nothing.average) == (0, (), None)


# --- a table that changes


def test_the_whole_record_of_players_who_sat_out_arrived_and_left(app: Flask, night: int) -> None:
    # Ann: partner lost 6 (and schneidered 3, 5, 6), picked and won 4.
    assert summary(stats_of(app, "Ann", DateRange())) == (
        1, 0, (2, 5), -4, (1, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 3
    )  # fmt: skip
    # Dan: partner lost 2, schneidered 3; left after 4, still his session, 7th of 7.
    assert summary(stats_of(app, "Dan", DateRange())) == (
        1, 0, (0, 4), -5, (0, 0), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 1
    )  # fmt: skip
    # Gus: alone and won 3, partner won 5; won the session.
    assert summary(stats_of(app, "Gus", DateRange())) == (
        1, 1, (3, 3), 13, (1, 1), (1, 1), (1, 1), (0, 0), 0, 0, (0, 0), 0
    )  # fmt: skip
    places = {
        name: [(s.session_id, s.hands, s.hands_won, s.total, s.place) for s in numbers.sessions]
        for name in TOTALS
        for numbers in [stats_of(app, name, DateRange())]
    }
    assert places == {
        "Gus": [(night, 3, 3, 13, 1)],
        "Fay": [(night, 5, 2, 3, 2)],
        "Bob": [(night, 4, 2, 0, 3)],
        "Cat": [(night, 4, 2, -2, 4)],
        "Ann": [(night, 5, 2, -4, 5)],
        "Eve": [(night, 5, 2, -5, 6)],
        "Dan": [(night, 4, 0, -5, 7)],  # Eve won more hands
    }


def test_statistics_by_table_size(app: Flask, night: int) -> None:
    # Six seated for hands 1, 2, 5 and 6; seven for 3 and 4.
    assert sizes(stats_of(app, "Ann", DateRange())) == [
        (6, 3, 1, -4, 0, 0),  # 2 +1 won, 5 -3, 6 -2
        (7, 2, 1, 0, 1, 1),  # 3 -2, 4 +2 picked and won
    ]
    assert sizes(stats_of(app, "Dan", DateRange())) == [
        (6, 2, 0, -2, 0, 0),  # 1 -1, 2 -1
        (7, 2, 0, -3, 0, 0),  # 3 -2, 4 -1
    ]
    assert sizes(stats_of(app, "Gus", DateRange())) == [
        (6, 2, 2, 5, 0, 0),  # 5 +3, 6 +2
        (7, 1, 1, 8, 1, 1),  # 3 +8 alone; sat out 4
    ]
    gus = stats_of(app, "Gus", DateRange()).by_size
    assert [str(s.average_shown) for s in gus] == ["2.50", "8.00"]


def test_the_season_is_all_five_seated(app: Flask, season: list[int]) -> None:
    assert sizes(stats_of(app, "Eve", DateRange())) == [(5, 13, 5, -20, 2, 1)]


# --- house rules


def test_results_penalty_hands_and_card_points_of_the_house_rules_night(
    app: Flask, house_season: tuple[int, int]
) -> None:
    both = scope.RuleFilter(frozenset({"bump", "penalties"}))
    for name, expected in HOUSE_NIGHT.items():
        numbers = stats_of(app, name, DateRange(), both)
        assert summary(numbers) == expected, name
        points = numbers.card_points
        assert (numbers.penalties, (points.total, points.picks, points.left_out)) == (
            HOUSE_CARD_POINTS[name]
        ), name
    assert stats_of(app, "Bob", DateRange(), both).card_points.average_shown == Decimal(95)
    assert stats_of(app, "Ann", DateRange(), both).card_points.average_shown is None


def test_card_points_leave_out_picks_recorded_by_result_only(
    app: Flask, house_season: tuple[int, int]
) -> None:
    # Ann's picks: A5 120, B3 30, D2 40, the night's 1 (by result only), Bump only 45.
    ann = stats_of(app, "Ann", DateRange())
    assert (ann.picks.count, ann.picks.of) == (1, 5)
    points = ann.card_points
    assert (points.total, points.picks, points.left_out) == (235, 4, 1)
    assert points.average_shown == Decimal("58.8")


# --- nights of three years


def test_a_players_best_and_worst_night(app: Flask, client: FlaskClient) -> None:
    nights_of_years(client)
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
        assert ann is not None
        best, worst = player_numbers.best_and_worst(ann, DateRange()) or ((), ())
        assert (best.total, local(best.created_at).date()) == (5, date(2010, 3, 1))
        assert (worst.total, local(worst.created_at).date()) == (-7, date(2011, 2, 1))
        assert player_numbers.best_and_worst(ann, DateRange(date(2012, 1, 1))) is None
    text = page(client, f"/players/{ann}").text
    assert "Best and worst night" in text
