"""Player statistics, the leaderboard and their pages, checked against numbers worked out by hand.

The season below has every kind of hand. Each hand's scores are written next to it, so every
expected number further down can be added up from these comments.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update
from werkzeug.http import parse_options_header

from scorekeeper import rules
from scorekeeper.insights import company, player_numbers, roster, scope, stats
from scorekeeper.insights.dates import DateRange, local
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, PlayerRating, Session

from ..helpers.api import Api, pick
from ..helpers.database import player_ids, statements_for
from ..helpers.pages import Page, page
from ..helpers.tables import (
    HOUSE_RULES,
    PLAYED,
    TOTALS,
    WON,
    house_rules_night,
    play_the_night,
)

SEASON: list[dict[str, Any]] = [
    {
        # Session A, 2025-03-01, one round, the default rules. Dealers Ann, Bob, Cat, Dan, Eve.
        "started": datetime(2025, 3, 1, 19, tzinfo=UTC),
        "session": {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 1},
        "hands": [
            # Bob & Cat 75: Bob +2, Cat +1, Ann Dan Eve -1. Won by Bob, Cat.
            pick("Bob", "Cat", 75),
            # Cat alone 45, cracked by Eve (x2): Cat -8, the others +2. Won by the others.
            pick("Cat", None, 45, cracked_by="Eve"),
            # Dan & Ann 95, cracked by Bob, re-cracked (x4): Dan +16, Ann +8, Bob Cat Eve -8.
            # Won by Dan, Ann; Bob, Cat, Eve schneidered.
            pick("Dan", "Ann", 95, cracked_by="Bob", recracked=True),
            # Dan forced, with Eve, 20, red blitz (x2): Dan -8, Eve -4, Ann Bob Cat +4.
            # Won by Ann, Bob, Cat; Dan, Eve schneidered.
            pick("Dan", "Eve", 20, forced=True, blitzes=["red"]),
            # Ann alone 120: Ann +12, the others -3. Won by Ann; the others schneidered.
            pick("Ann", None, 120),
        ],
        # Ann -1+2+8+4+12 = 25, Bob 2+2-8+4-3 = -3, Cat 1-8-8+4-3 = -14, Dan -1+2+16-8-3 = 6,
        # Eve -1+2-8-4-3 = -14. Hands won: Ann 4, Bob 3, Cat 2, Dan 2, Eve 1. Ann wins.
        "totals": {"Ann": 25, "Bob": -3, "Cat": -14, "Dan": 6, "Eve": -14},
    },
    {
        # Session B, 2025-03-08, one round, doublers. Dealers Ann, Bob, Cat, Dan, Fay.
        "started": datetime(2025, 3, 8, 19, tzinfo=UTC),
        "session": {
            "players": ["Ann", "Bob", "Cat", "Dan", "Fay"],
            "rounds": 1,
            "rules": {"no_bid": "doubler"},
        },
        "hands": [
            # Everyone passed: no scores, one doubler waits.
            {"kind": "pass"},
            # Cat & Dan 61, doubled (x2): Cat +4, Dan +2, Ann Bob Fay -2. Won by Cat, Dan.
            pick("Cat", "Dan", 61),
            # Ann & Fay 30: Ann -4, Fay -2, Bob Cat Dan +2. Won by Bob, Cat, Dan; Ann, Fay
            # schneidered.
            pick("Ann", "Fay", 30),
            # Fay & Bob 75: Fay +2, Bob +1, Ann Cat Dan -1. Won by Fay, Bob.
            pick("Fay", "Bob", 75),
            # Bob & Dan 61: Bob +2, Dan +1, Ann Cat Fay -1. Won by Bob, Dan.
            pick("Bob", "Dan", 61),
        ],
        # Ann -2-4-1-1 = -8, Bob -2+2+1+2 = 3, Cat 4+2-1-1 = 4, Dan 2+2-1+1 = 4,
        # Fay -2-2+2-1 = -3. Hands won: Ann 0, Bob 3, Cat 2, Dan 3, Fay 1.
        # Cat and Dan both +4: Dan won more hands, so Dan wins.
        "totals": {"Ann": -8, "Bob": 3, "Cat": 4, "Dan": 4, "Fay": -3},
    },
    {
        # Session C, late on 2025-03-15 (UTC), one round, leasters. Seats Eve, Dan, Cat, Bob,
        # Ann, so the dealers are Eve, Dan, Cat, Bob, Ann.
        "started": datetime(2025, 3, 15, 23, 30, tzinfo=UTC),
        "session": {
            "players": ["Eve", "Dan", "Cat", "Bob", "Ann"],
            "rounds": 1,
            "rules": {"no_bid": "leaster"},
        },
        "hands": [
            # Leaster won by Ann: Ann +4, the others -1.
            {"kind": "leaster", "winner": "Ann"},
            # Leaster won by Bob: Bob +4, the others -1.
            {"kind": "leaster", "winner": "Bob"},
            # Cat & Dan 50: Cat -2, Dan -1, Ann Bob Eve +1. Won by Ann, Bob, Eve.
            pick("Cat", "Dan", 50),
            # Eve alone 0: Eve -12, the others +3. Won by the others; Eve schneidered.
            pick("Eve", None, 0),
            # Leaster won by Dan: Dan +4, the others -1.
            {"kind": "leaster", "winner": "Dan"},
        ],
        # Ann 4-1+1+3-1 = 6, Bob -1+4+1+3-1 = 6, Cat -1-1-2+3-1 = -2, Dan -1-1-1+3+4 = 4,
        # Eve -1-1+1-12-1 = -14. Hands won: Ann 3, Bob 3, Cat 1, Dan 2, Eve 1.
        # Ann and Bob are equal on both, so both win.
        "totals": {"Ann": 6, "Bob": 6, "Cat": -2, "Dan": 4, "Eve": -14},
    },
    {
        # Session D, 2025-04-01, two rounds of which three hands are played: still in progress.
        "started": datetime(2025, 4, 1, 19, tzinfo=UTC),
        "session": {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 2},
        "hands": [
            # Bob & Eve 100: Bob +4, Eve +2, Ann Cat Dan -2. Won by Bob, Eve; Ann, Cat, Dan
            # schneidered.
            pick("Bob", "Eve", 100),
            # Ann & Cat 40, cracked by Bob (x2): Ann -4, Cat -2, Bob Dan Eve +2.
            # Won by Bob, Dan, Eve.
            pick("Ann", "Cat", 40, cracked_by="Bob"),
            # Eve alone 61: Eve +4, the others -1. Won by Eve.
            pick("Eve", None, 61),
        ],
        # Ann -2-4-1 = -7, Bob 4+2-1 = 5, Cat -2-2-1 = -5, Dan -2+2-1 = -1, Eve 2+2+4 = 8.
        # Eve leads, but nobody has won an unfinished session.
        "totals": {"Ann": -7, "Bob": 5, "Cat": -5, "Dan": -1, "Eve": 8},
    },
]

# (sessions played, sessions won, (hands won, hands played), total, (picks won, picks),
#  (alone won, alone), (won as partner, partner), (cracks won, cracks), re-cracked,
#  crack points, (leasters won, leasters), schneidered) over the whole season.
EVERYTHING = {
    # A, B, C, D; won A and C (shared). Hands 5+5+5+3 = 18, won 4+0+3+0 = 7.
    # Total 25-8+6-7 = 16. Picks: A5 alone won, B3 lost, D2 lost. Partner: A3 won.
    # Leasters: won C1, lost C2, C5. Schneidered: B3, D1.
    "Ann": (4, 2, (7, 18), 16, (1, 3), (1, 1), (1, 1), (0, 0), 0, 0, (1, 3), 2),
    # A, B, C, D; won C (shared). Hands 18, won 3+3+3+2 = 11. Total -3+3+6+5 = 11.
    # Picks A1, B5, D1 all won. Partner: B4 won. Cracks: A3 lost and re-cracked (-8),
    # D2 won (+2): -6. Leasters: won C2. Schneidered: A3, A5.
    "Bob": (4, 1, (11, 18), 11, (3, 3), (0, 0), (1, 1), (1, 2), 1, -6, (1, 3), 2),
    # A, B, C, D; won none. Hands 18, won 2+2+1+0 = 5. Total -14+4-2-5 = -17.
    # Picks: A2 alone lost, B2 won, C3 lost. Partner: A1 won, D2 lost. Schneidered: A3, A5, D1.
    "Cat": (4, 0, (5, 18), -17, (1, 3), (0, 1), (1, 2), (0, 0), 0, 0, (0, 3), 3),
    # A, B, C, D; won B. Hands 18, won 2+3+2+1 = 8. Total 6+4+4-1 = 13.
    # Picks: A3 won, A4 lost. Partner: B2, B5 won, C3 lost. Leasters: won C5.
    # Schneidered: A4, A5, D1.
    "Dan": (4, 1, (8, 18), 13, (1, 2), (0, 0), (2, 3), (0, 0), 0, 0, (1, 3), 3),
    # A, C, D; won none (D is unfinished). Hands 5+5+3 = 13, won 1+1+3 = 5.
    # Total -14-14+8 = -20. Picks: C4 alone lost, D3 alone won. Partner: A4 lost, D1 won.
    # Cracks: A2 won (+2). Schneidered: A3, A4, A5, C4.
    "Eve": (3, 0, (5, 13), -20, (1, 2), (1, 2), (1, 2), (1, 1), 0, 2, (0, 3), 4),
    # B only. Hands 5, won 1 (B4). Total -3. Picks: B4 won. Partner: B3 lost.
    # Schneidered: B3.
    "Fay": (1, 0, (1, 5), -3, (1, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 1),
}


def record_season(app: Flask, api: Api, season: list[dict[str, Any]] = SEASON) -> list[int]:
    ids = []
    for entry in season:
        session_id = api.new_session(**entry["session"])["id"]
        for hand in entry["hands"]:
            api.record(session_id, **hand)
        assert api.session(session_id)["totals"] == entry["totals"]
        ids.append(session_id)
        with app.app_context():
            db.session.execute(
                update(Session).where(Session.id == session_id).values(created_at=entry["started"])
            )
            db.session.commit()
    return ids


@pytest.fixture
def season(app: Flask, api: Api) -> list[int]:
    return record_season(app, api)


def summary(numbers: player_numbers.PlayerStats) -> tuple[Any, ...]:
    def pair(rate: stats.Rate) -> tuple[int, int]:
        return (rate.count, rate.of)

    return (
        numbers.sessions_played,
        numbers.sessions_won,
        pair(numbers.hands),
        numbers.total,
        pair(numbers.picks),
        pair(numbers.alone),
        pair(numbers.partner),
        pair(numbers.cracks),
        numbers.recracked,
        numbers.crack_points,
        pair(numbers.leasters),
        numbers.schneidered,
    )


def stats_of(
    app: Flask, name: str, dates: DateRange, house: scope.RuleFilter | None = None
) -> player_numbers.PlayerStats:
    with app.app_context():
        player = db.session.scalars(select(Player).where(Player.name == name)).one()
        return player_numbers.player_stats(player, dates, house)


def board(
    app: Flask, dates: DateRange, min_picks: int = 10, house: scope.RuleFilter | None = None
) -> stats.Leaderboard:
    with app.app_context():
        return stats.leaderboard(dates, min_picks, house)


def ranking(rows: tuple[stats.Ranked, ...]) -> list[tuple[int, str]]:
    return [(r.place, r.player.name) for r in rows]


# --- the numbers


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


# --- the leaderboard


def test_leaderboard_rankings(app: Flask, season: list[int]) -> None:
    everything = board(app, DateRange())
    # Totals 16, 13, 11, -3, -17, -20; averages 16/18, 13/18, 11/18, -3/5, -17/18, -20/13.
    expected = [(1, "Ann"), (2, "Dan"), (3, "Bob"), (4, "Fay"), (5, "Cat"), (6, "Eve")]
    assert ranking(everything.by_total) == expected
    assert ranking(everything.by_average) == expected
    assert everything.by_picking == ()  # nobody has 10 picks


def test_picking_ranking_with_a_minimum_of_picks(app: Flask, season: list[int]) -> None:
    # Bob 3 of 3; Dan, Eve 1 of 2; Ann, Cat 1 of 3. Fay's 1 of 1 is under the minimum.
    assert ranking(board(app, DateRange(), min_picks=2).by_picking) == [
        (1, "Bob"), (2, "Dan"), (2, "Eve"), (4, "Ann"), (4, "Cat"),
    ]  # fmt: skip
    # Fay's 1 of 1 equals Bob's rate, and Bob picked more.
    assert ranking(board(app, DateRange(), min_picks=1).by_picking)[:2] == [
        (1, "Bob"), (2, "Fay"),
    ]  # fmt: skip
    assert len(board(app, DateRange(), min_picks=0).by_picking) == 6
    assert ranking(board(app, DateRange(), min_picks=3).by_picking) == [
        (1, "Bob"), (2, "Ann"), (2, "Cat"),
    ]  # fmt: skip


def test_ties_share_a_place(app: Flask, season: list[int]) -> None:
    session_c = DateRange(date(2025, 3, 15), date(2025, 3, 15))
    # Ann and Bob both +6 with 3 hands won each; then Dan 4, Cat -2, Eve -14.
    only_c = board(app, session_c)
    assert ranking(only_c.by_total) == [(1, "Ann"), (1, "Bob"), (3, "Dan"), (4, "Cat"), (5, "Eve")]
    assert ranking(only_c.by_average) == ranking(only_c.by_total)
    session_b = DateRange(date(2025, 3, 8), date(2025, 3, 8))
    only_b = board(app, session_b)
    # Cat and Dan both +4: Dan won 3 hands to Cat's 2. Per hand they are equal, 4/5 each.
    assert ranking(only_b.by_total)[:2] == [(1, "Dan"), (2, "Cat")]
    assert ranking(only_b.by_average)[:3] == [(1, "Cat"), (1, "Dan"), (3, "Bob")]


def test_leaderboard_in_a_date_range(app: Flask, season: list[int]) -> None:
    march = board(app, DateRange(date(2025, 3, 8), date(2025, 3, 15)))
    # B + C: Bob 3+6, Dan 4+4, Cat 4-2, Ann -8+6, Fay -3, Eve -14.
    assert [(r.player.name, r.player.total) for r in march.by_total] == [
        ("Bob", 9), ("Dan", 8), ("Cat", 2), ("Ann", -2), ("Fay", -3), ("Eve", -14),
    ]  # fmt: skip
    assert board(app, DateRange(date(2026, 1, 1))).by_total == ()


# --- the pages


def test_player_page_shows_the_numbers(app: Flask, client: FlaskClient, season: list[int]) -> None:
    bob = page(client, f"/players/{player_ids(app)['Bob']}")
    rows = dict((label, value) for label, value in bob.rows("player-stats"))
    assert rows == {
        "Sessions played": "4",
        "Sessions won": "1",
        "Hands played": "18",
        "Hands won": "11 of 18, 61%",
        "Total score": "+11",
        "Average per hand": "+0.61",
        "Picks won": "3 of 3, 100%",
        "Alone picks won": "0 of 0",
        "Won as partner": "1 of 1, 100%",
        "Cracks won": "1 of 2, 50% 1 lost · 1 re-cracked · -6 points",
        "Leasters won": "1 of 3, 33%",
        "Schneidered": "2 hands",
        "Penalties": "0 hands",
        # A1 75, B5 61, D1 100: 236 in 3 picks.
        "Card points per pick": "78.7 3 picks with points",
    }
    assert "All sessions" in bob.text


def test_player_page_lists_sessions_newest_first(
    app: Flask, client: FlaskClient, season: list[int]
) -> None:
    response = client.get(f"/players/{player_ids(app)['Ann']}")
    ann = Page(response.text)
    header, *lines = ann.rows("player-sessions")
    assert header == ["Session", "Place", "Total"]
    assert [line[1:] for line in lines] == [
        ["playing", "-7"],
        ["1", "+6"],
        ["5", "-8"],
        ["1", "+25"],
    ]
    assert lines[1][0] == "Sat 15 Mar 2025 3 of 5 hands won"
    (listed,) = re.findall(r'<table class="player-sessions">.*?</table>', response.text, re.S)
    links = re.findall(r'href="/sessions/(\d+)"', listed)
    assert [int(link) for link in links] == list(reversed(season))


def season_chart(html: str) -> str:
    """The player page's season chart (its rating has a chart too)."""
    (svg,) = [
        svg for svg in re.findall(r'<svg class="chart".*?</svg>', html) if "season total" in svg
    ]
    return svg


def test_season_chart_has_a_point_per_session_in_date_order(
    app: Flask, client: FlaskClient, season: list[int]
) -> None:
    response = client.get(f"/players/{player_ids(app)['Ann']}")
    svg = season_chart(response.text)
    (points,) = re.findall(r'<polyline points="([^"]+)"', svg)
    xy = [tuple(float(n) for n in point.split(",")) for point in points.split()]
    # From 0, the season total after A, B, C, D: 25, 25-8 = 17, 17+6 = 23, 23-7 = 16.
    assert len(xy) == 5
    xs, ys = [x for x, _ in xy], [y for _, y in xy]
    assert xs == sorted(xs) and len(set(xs)) == 5
    assert ys[1] < ys[3] < ys[2] < ys[4] < ys[0]  # higher totals are drawn higher up
    assert "Ann +16" in svg
    assert "2025-03-01 to 2025-04-01" in svg


def test_season_chart_of_one_session_is_a_line_from_0(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    page_of_ann = client.get(f"/players/{player_ids(app)['Ann']}").text
    svg = season_chart(page_of_ann)
    assert "Ann +2" in svg
    (points,) = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(points.split()) == 2


def test_player_page_with_a_date_range(app: Flask, client: FlaskClient, season: list[int]) -> None:
    eve = page(client, f"/players/{player_ids(app)['Eve']}?from=2025-03-08&to=2025-03-15")
    rows = dict((label, value) for label, value in eve.rows("player-stats"))
    assert (rows["Sessions played"], rows["Total score"], rows["Hands won"]) == (
        "1", "-14", "1 of 5, 20%",
    )  # fmt: skip
    assert "Sessions from 2025-03-08 to 2025-03-15" in eve.text
    fay = page(client, f"/players/{player_ids(app)['Fay']}?from=2025-03-09")
    assert "Fay has no hands in these dates." in fay.text
    assert "player-stats" not in fay.tables


def test_player_without_hands(api: Api, app: Flask, client: FlaskClient) -> None:
    api.new_session()
    ann = page(client, f"/players/{player_ids(app)['Ann']}")
    assert "Ann has no hands yet." in ann.text
    assert 'class="chart"' not in client.get(f"/players/{player_ids(app)['Ann']}").text


def test_leaderboard_page(app: Flask, client: FlaskClient, season: list[int]) -> None:
    response = client.get("/leaderboard?min_picks=2")
    assert response.status_code == 200
    leaderboard = Page(response.text)
    # The three tables share their class: each is a header row, then its players.
    tables: list[list[list[str]]] = []
    for row in leaderboard.rows("ranking"):
        if row[0] == "#":
            tables.append([])
        else:
            tables[-1].append(row)
    by_total, by_average, by_picking, by_rating = tables
    assert by_total[0] == ["1", "Ann", "+16 18 hands"]
    assert [row[1] for row in by_total] == ["Ann", "Dan", "Bob", "Fay", "Cat", "Eve"]
    assert by_average[-1] == ["6", "Eve", "-1.54 13 hands"]
    assert by_picking == [
        ["1", "Bob", "3 of 3, 100%"],
        ["2", "Dan", "1 of 2, 50%"],
        ["2", "Eve", "1 of 2, 50%"],
        ["4", "Ann", "1 of 3, 33%"],
        ["4", "Cat", "1 of 3, 33%"],
    ]
    assert "Players with at least 2 picks." in leaderboard.text
    # Nobody has played 100 rated hands: every rating is provisional, without a place.
    assert [row[0] for row in by_rating] == [""] * 6
    assert all("provisional" in row[2] for row in by_rating)
    ids = player_ids(app)
    assert f'href="/players/{ids["Ann"]}"' in response.text
    assert 'href="/leaderboard.csv?min_picks=2"' in response.text


def test_leaderboard_links_keep_the_dates(
    app: Flask, client: FlaskClient, season: list[int]
) -> None:
    response = client.get("/leaderboard?from=2025-03-08&to=2025-03-15")
    ann = player_ids(app)["Ann"]
    assert f'href="/players/{ann}?from=2025-03-08&amp;to=2025-03-15"' in response.text
    assert 'href="/leaderboard.csv?from=2025-03-08&amp;to=2025-03-15"' in response.text
    assert "Sessions from 2025-03-08 to 2025-03-15" in Page(response.text).text


def test_empty_leaderboard(client: FlaskClient) -> None:
    assert "No hands recorded yet." in page(client, "/leaderboard").text
    assert "No hands in these dates." in page(client, "/leaderboard?from=2030-01-01").text


# --- the leaderboard CSV


def leaderboard_rows(client: FlaskClient, query: str = "") -> list[list[str]]:
    response = client.get(f"/leaderboard.csv{query}")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.text)))


def test_leaderboard_csv(app: Flask, client: FlaskClient, season: list[int]) -> None:
    header, *rows = leaderboard_rows(client, "?min_picks=2")
    assert header == [
        "place_by_total", "place_by_average", "place_by_picking", "player", "total",
        "hands_played", "hands_won", "average_per_hand", "picks", "picks_won",
        "picking_win_rate", "place_by_rating", "rating", "rated_hands", "nights",
    ]  # fmt: skip
    # Every rating is provisional: no place; the rating and rated hands are those kept.
    with app.app_context():
        kept = {
            name: stats.rating_of(*rating)
            for name, *rating in db.session.execute(
                select(Player.name, PlayerRating.mu, PlayerRating.sigma, PlayerRating.hands).join(
                    PlayerRating
                )
            )
        }
    assert [row[11:14] for row in rows] == [
        ["", str(r.shown), str(r.hands)] for row in rows if (r := kept[row[3]]) is not None
    ]
    assert len(rows) == 6
    assert [row[14] for row in rows] == ["0"] * 6
    assert [row[:11] for row in rows] == [
        ["1", "1", "4", "Ann", "16", "18", "7", "0.89", "3", "1", "33"],
        ["2", "2", "2", "Dan", "13", "18", "8", "0.72", "2", "1", "50"],
        ["3", "3", "1", "Bob", "11", "18", "11", "0.61", "3", "3", "100"],
        ["4", "4", "", "Fay", "-3", "5", "1", "-0.60", "1", "1", ""],
        ["5", "5", "4", "Cat", "-17", "18", "5", "-0.94", "3", "1", "33"],
        ["6", "6", "2", "Eve", "-20", "13", "5", "-1.54", "2", "1", "50"],
    ]


def test_leaderboard_csv_is_a_dated_download(client: FlaskClient, season: list[int]) -> None:
    response = client.get("/leaderboard.csv?from=2025-03-08&to=2025-03-15")
    disposition, options = parse_options_header(response.headers["Content-Disposition"])
    assert disposition == "attachment"
    assert options["filename"] == "sheepshead-leaderboard-from-2025-03-08-to-2025-03-15.csv"
    rows = leaderboard_rows(client, "?from=2025-03-08&to=2025-03-15")
    assert [row[3:5] for row in rows[1:]] == [
        ["Bob", "9"], ["Dan", "8"], ["Cat", "2"], ["Ann", "-2"], ["Fay", "-3"], ["Eve", "-14"],
    ]  # fmt: skip


def test_leaderboard_csv_defuses_formulas(api: Api, client: FlaskClient) -> None:
    session = api.new_session(players=["=cmd", "+sum", "Bob", "Cat", "@x"])
    api.record(session["id"], **pick("Bob", "Cat", 75))
    rows = leaderboard_rows(client)
    names = [row[3] for row in rows[1:]]
    assert sorted(names) == sorted(["'=cmd", "'+sum", "Bob", "Cat", "'@x"])
    # Numbers stay numbers: -1 is not defused.
    (cmd,) = (row for row in rows[1:] if row[3] == "'=cmd")
    assert cmd[4] == "-1" and cmd[7] == "-1.00"


# --- bad filters and unknown players


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?from=2025-13-01", "From: “2025-13-01” is not a date. A date is written like 2026-1"),
        ("?to=yesterday", "To: “yesterday” is not a date."),
        ("?from=20250301", "From: “20250301” is not a date."),
        ("?from=2025-03-10&to=2025-03-01", "The first date comes after the last one."),
        ("?min_picks=-1", "The minimum number of picks, “-1”, must be a whole number from 0 to"),
        ("?min_picks=2.5", "must be a whole number"),
        ("?min_picks=" + "9" * 5000, "must be a whole number"),
    ],
)  # fmt: skip
def test_bad_leaderboard_filters_are_explained(
    client: FlaskClient, season: list[int], query: str, message: str
) -> None:
    response = client.get(f"/leaderboard{query}")
    assert response.status_code == 400
    assert message in Page(response.text).text
    assert "ranking" not in Page(response.text).tables
    csv_response = client.get(f"/leaderboard.csv{query}")
    assert csv_response.status_code == 400
    assert message in Page(csv_response.text).text


def test_bad_player_filters_are_explained(
    app: Flask, client: FlaskClient, season: list[int]
) -> None:
    ann = player_ids(app)["Ann"]
    response = client.get(f"/players/{ann}?from=2025-02-30")
    assert response.status_code == 400
    text = Page(response.text).text
    assert "From: “2025-02-30” is not a date." in text
    assert "Ann" in text and "player-stats" not in Page(response.text).tables
    # The player page has no minimum of picks, so it ignores one.
    assert client.get(f"/players/{ann}?min_picks=-1").status_code == 200


@pytest.mark.parametrize("player_id", ["999", "0", "99999999999"])
def test_unknown_player_is_a_404(client: FlaskClient, player_id: str) -> None:
    response = client.get(f"/players/{player_id}")
    assert response.status_code == 404
    assert "There is no player" in response.text


def test_names_are_escaped(api: Api, app: Flask, client: FlaskClient) -> None:
    session = api.new_session(players=["<b>Ann</b>", "Bob", "Cat", "Dan", "Eve"])
    api.record(session["id"], **pick("<b>Ann</b>", "Bob", 75))
    for path in ("/leaderboard", f"/players/{player_ids(app)['<b>Ann</b>']}"):
        text = client.get(path).text
        assert "<b>Ann</b>" not in text and "&lt;b&gt;Ann&lt;/b&gt;" in text


# --- a table that changes: hands played are the hands a player played


@pytest.fixture
def night(api: Api) -> int:
    return play_the_night(api)


def sizes(numbers: player_numbers.PlayerStats) -> list[tuple[int, int, int, int, int, int]]:
    """(seated, hands played, hands won, total, picks, picks won) for each table size."""
    return [
        (s.seated, s.hands.of, s.hands.count, s.total, s.picks.of, s.picks.count)
        for s in numbers.by_size
    ]


def test_hands_played_leave_out_hands_sat_out_and_after_leaving(
    app: Flask, client: FlaskClient, night: int
) -> None:
    _header, *whole = leaderboard_rows(client, "?min_picks=1")
    rows = [[*row[:11], row[14]] for row in whole]
    # Averages per hand played: Gus 13/3, Fay 3/5, Bob 0/4, Cat -2/4, Ann -4/5, Eve -5/5,
    # Dan -5/4. Picks: Gus 3, Fay 5, Bob 1, Ann 4 won; Cat 2, Eve 6 lost.
    assert rows == [
        ["1", "1", "1", "Gus", "13", "3", "3", "4.33", "1", "1", "100", "0"],
        ["2", "2", "1", "Fay", "3", "5", "2", "0.60", "1", "1", "100", "0"],
        ["3", "3", "1", "Bob", "0", "4", "2", "0.00", "1", "1", "100", "0"],
        ["4", "4", "5", "Cat", "-2", "4", "2", "-0.50", "1", "0", "0", "0"],
        ["5", "5", "1", "Ann", "-4", "5", "2", "-0.80", "1", "1", "100", "0"],
        ["6", "6", "5", "Eve", "-5", "5", "2", "-1.00", "1", "0", "0", "0"],
        ["7", "7", "", "Dan", "-5", "4", "0", "-1.25", "0", "0", "", "0"],
    ]
    for name in TOTALS:
        numbers = stats_of(app, name, DateRange())
        assert (numbers.hands.count, numbers.hands.of, numbers.total) == (
            WON[name],
            PLAYED[name],
            TOTALS[name],
        ), name
    assert str(stats_of(app, "Gus", DateRange()).hands) == "3 of 3, 100%"
    assert str(stats_of(app, "Ann", DateRange()).hands) == "2 of 5, 40%"


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


def test_player_page_shows_numbers_by_table_size(
    app: Flask, client: FlaskClient, night: int
) -> None:
    ann = page(client, f"/players/{player_ids(app)['Ann']}")
    assert ann.rows("player-sizes") == [
        ["Seated", "Hands", "Won", "Per hand", "Picks won"],
        ["6", "3", "1 33%", "-1.33", "0 of 0"],
        ["7", "2", "1 50%", "0.00", "1 of 1"],
    ]
    rows = dict((label, value) for label, value in ann.rows("player-stats"))
    assert (rows["Hands played"], rows["Hands won"]) == ("5", "2 of 5, 40%")
    assert rows["Average per hand"] == "-0.80"
    dan = page(client, f"/players/{player_ids(app)['Dan']}")
    assert dan.rows("player-sessions")[1][1:] == ["7", "-5"]


# --- a fixed number of queries


def history_of(app: Flask, api: Api, players: int, sessions: int) -> None:
    names = [f"P{i}" for i in range(players)]
    for number in range(sessions):
        seated = [names[(number + i) % players] for i in range(5)]
        session_id = api.new_session(players=seated, rounds=1)["id"]
        for hand in range(5):
            api.record(session_id, **pick(seated[hand], seated[(hand + 1) % 5], 40 + 10 * hand))


def test_queries_do_not_grow_with_players_or_sessions(app: Flask, api: Api) -> None:
    counts = []
    # A session seats five, so the smallest history has five players.
    for players, sessions in ((5, 1), (12, 12)):
        with app.app_context():
            db.drop_all()
            db.create_all()
        history_of(app, api, players, sessions)
        client = app.test_client()
        p0 = player_ids(app)["P0"]
        paths = (
            "/leaderboard",
            "/leaderboard.csv",
            f"/players/{p0}",
            f"/players/{p0}?from=2000-01-01&to=2100-01-01",
        )
        counts.append([statements_for(app, client, path) for path in paths])
    assert counts[0] == counts[1]
    # Each page's queries, and the access check every request makes. What the pages keep
    # (`insights.memo`: the players' totals, the champions, a player's season, best and worst
    # night, partners and opponents) is kept since the warm-up: one read of the history's stamp
    # a page says so. The leaderboard reads the players with their ratings and the seasons of
    # its Season choice; the CSV the players; a player's page the player, their numbers by
    # table size, whom they can be merged into and the merges into them to undo.
    assert counts[0] == [1 + 1 + 1 + 1, 1 + 1 + 1, 1 + 1 + 1 + 2 + 1, 1 + 1 + 1 + 2 + 1]


def test_queries_are_as_few_at_a_table_that_changes(app: Flask, api: Api, night: int) -> None:
    client = app.test_client()
    paths = ("/leaderboard", "/leaderboard.csv", f"/players/{player_ids(app)['Gus']}")
    assert [statements_for(app, client, path) for path in paths] == [
        1 + 1 + 1 + 1,
        1 + 1 + 1,
        1 + 1 + 1 + 2 + 1,
    ]


# --- house rules: results, penalty hands, statistics by rule set

# The night of test_csv_export.house_rules_night, every hand played by all five:
# 1 Ann & Bob, result lost, no points (bump): Ann -4, Bob -2, Cat Dan Eve +2. Won by Cat Dan Eve.
# 2, 3 passes: nobody wins.
# 4 penalty, Dan: Dan -4, the others +1. Won by nobody.
# 5 Bob & Cat 95 (won schneider), cracked by Dan, re-cracked, two stacked doublers: x16 capped
#   at x8: Bob +32, Cat +16, Ann Dan Eve -16. Won by Bob, Cat; Ann, Dan, Eve schneidered.
# 6 Cat alone 120, result won schneider (by tricks): Cat +8, the others -2. Won by Cat; the
#   others schneidered.
# 7 Eve & Ann 10, lost schwarz (bump): Ann -6, Eve -12, Bob Cat Dan +6. Won by Bob, Cat, Dan;
#   Eve, Ann schneidered.
HOUSE_NIGHT = {
    # Won none; picked 1 (lost, by result only); partner 1 (lost); schneidered 5, 6, 7.
    "Ann": (1, 0, (0, 7), -27, (0, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 3),
    # Won 5, 7; picked 5 (won); partner 1 (lost); schneidered 6. An open-ended session has no
    # winner.
    "Bob": (1, 0, (2, 7), 35, (1, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 1),
    # Won 1, 5, 6, 7; picked 6 alone (won by its result); partner 5 (won).
    "Cat": (1, 0, (4, 7), 33, (1, 1), (1, 1), (1, 1), (0, 0), 0, 0, (0, 0), 0),
    # Won 1, 7; cracked 5 (lost, re-cracked, -16); schneidered 5, 6.
    "Dan": (1, 0, (2, 7), -14, (0, 0), (0, 0), (0, 0), (0, 1), 1, -16, (0, 0), 2),
    # Won 1; picked 7 (lost); schneidered 5, 6, 7.
    "Eve": (1, 0, (1, 7), -27, (0, 1), (0, 0), (0, 0), (0, 0), 0, 0, (0, 0), 3),
}
# (penalties, (card points, picks with points, picks by result only)) on that night.
HOUSE_CARD_POINTS = {
    "Ann": (0, (0, 0, 1)),
    "Bob": (0, (95, 1, 0)),
    "Cat": (0, (120, 1, 0)),
    "Dan": (1, (0, 0, 0)),
    "Eve": (0, (10, 1, 0)),
}
HOUSE = scope.RuleFilter(frozenset({"bump"}))
PLAIN = scope.RuleFilter(plain=True)


@pytest.fixture
def house_season(app: Flask, api: Api, season: list[int]) -> tuple[int, int]:
    """The season (played with no house rule), the house rules night on 2025-05-01, and on
    2025-05-02 a night of bump alone: Ann & Bob 45, Ann -4, Bob -2, Cat Dan Eve +2."""
    night = house_rules_night(api)
    bump = api.new_session(name="Bump only", rules={"bump": True})["id"]
    api.record(bump, **pick("Ann", "Bob", 45))
    with app.app_context():
        for session_id, day in ((night, 1), (bump, 2)):
            started = datetime(2025, 5, day, 19, tzinfo=UTC)
            db.session.execute(
                update(Session).where(Session.id == session_id).values(created_at=started)
            )
        db.session.commit()
    return night, bump


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


def test_statistics_by_house_rules(app: Flask, house_season: tuple[int, int]) -> None:
    everyone = DateRange()
    for name, expected in EVERYTHING.items():
        assert summary(stats_of(app, name, everyone, PLAIN)) == expected, name
    totals = {r.player.name: r.player.total for r in board(app, everyone, house=PLAIN).by_total}
    assert totals == {name: numbers[3] for name, numbers in EVERYTHING.items()}
    # The bump: the night and Bump only (Ann -4, Bob -2, Cat Dan Eve +2).
    bump = board(app, everyone, min_picks=1, house=HOUSE)
    placed = [
        (r.place, r.player.name, r.player.total, r.player.hands_played) for r in bump.by_total
    ]
    assert placed == [
        (1, "Cat", 35, 8), (2, "Bob", 33, 8), (3, "Dan", -12, 8), (4, "Eve", -25, 8),
        (5, "Ann", -31, 8),
    ]  # fmt: skip
    # Ann lost two picks, Eve one: more picks rank higher at the same rate.
    assert ranking(bump.by_picking) == [(1, "Bob"), (1, "Cat"), (3, "Ann"), (4, "Eve")]
    # Every house rule the night plays at once: the night alone, and Ann's Bump only night is
    # left out.
    night_rules = rules.options_from(**HOUSE_RULES)
    every = scope.RuleFilter(
        frozenset(key for key, rule in scope.HOUSE_RULES.items() if rule.played(night_rules))
    )
    assert {r.player.name: r.player.total for r in board(app, everyone, house=every).by_total} == {
        name: numbers[3] for name, numbers in HOUSE_NIGHT.items()
    }
    assert [line.name for line in stats_of(app, "Ann", everyone, every).sessions] == ["House rules"]
    assert [line.name for line in stats_of(app, "Ann", everyone, HOUSE).sessions] == [
        "House rules", "Bump only"
    ]  # fmt: skip
    # Dates and house rules together.
    may_2 = DateRange(date(2025, 5, 2))
    assert stats_of(app, "Bob", may_2, HOUSE).total == -2
    assert stats_of(app, "Bob", may_2, PLAIN).hands_played == 0
    assert board(app, may_2, house=every).by_total == ()


def test_rule_filters_in_words() -> None:
    assert scope.RuleFilter().words == ""
    assert PLAIN.words == "played with no house rule"
    assert HOUSE.words == "played with bump"
    assert scope.RuleFilter(frozenset({"penalties", "bump", "tricks"})).words == (
        "played with bump, schwarz by tricks and penalty hands"
    )


def test_player_page_shows_penalties_and_card_points_left_out(
    app: Flask, client: FlaskClient, house_season: tuple[int, int]
) -> None:
    ids = player_ids(app)
    ann = page(client, f"/players/{ids['Ann']}?bump=y&penalties=y")
    rows = dict((label, value) for label, value in ann.rows("player-stats"))
    assert rows["Hands played"] == "7"
    assert rows["Picks won"] == "0 of 1, 0%"
    assert rows["Penalties"] == "0 hands"
    assert rows["Card points per pick"] == (
        "\N{EN DASH} 0 picks with points · 1 recorded by result only, left out"
    )
    assert "All sessions, played with bump and penalty hands" in ann.text
    dan = dict(page(client, f"/players/{ids['Dan']}?bump=y").rows("player-stats"))
    assert dan["Penalties"] == "1 hand"
    assert "Card points per pick" not in dan
    eve = dict(page(client, f"/players/{ids['Eve']}?stack=y").rows("player-stats"))
    assert eve["Card points per pick"] == "10.0 1 pick with points"
    all_of_ann = dict(page(client, f"/players/{ids['Ann']}").rows("player-stats"))
    assert all_of_ann["Card points per pick"] == (
        "58.8 4 picks with points · 1 recorded by result only, left out"
    )


def test_leaderboard_page_by_house_rules(
    app: Flask, client: FlaskClient, house_season: tuple[int, int]
) -> None:
    html = client.get("/leaderboard?tricks=y&min_picks=1").text
    board_page = Page(html)
    assert board_page.rows("ranking")[1:6] == [
        # The night was played for 25 cents a point.
        ["1", "Bob", "+35 7 hands +$8.75"], ["2", "Cat", "+33 7 hands +$8.25"],
        ["3", "Dan", "-14 7 hands -$3.50"], ["4", "Eve", "-27 7 hands -$6.75"],
        ["5", "Ann", "-27 7 hands -$6.75"],
    ]  # fmt: skip
    # Ann and Eve are equal on total; Eve won a hand, Ann none.
    assert "All sessions, played with schwarz by tricks" in board_page.text
    assert f'href="/players/{player_ids(app)["Bob"]}?tricks=y"' in html
    assert 'href="/leaderboard.csv?tricks=y&amp;min_picks=1"' in html
    assert re.search(r'<input type="checkbox" name="tricks" value="y" checked>', html)
    assert re.search(r'<input type="checkbox" name="bump" value="y">', html)
    csv_rows = list(csv.reader(io.StringIO(client.get("/leaderboard.csv?tricks=y").text)))
    assert [(row[3], row[4]) for row in csv_rows[1:]] == [
        ("Bob", "35"), ("Cat", "33"), ("Dan", "-14"), ("Eve", "-27"), ("Ann", "-27")
    ]  # fmt: skip
    nothing = page(client, "/leaderboard?from=2025-05-02&stack=y")
    assert "No hands in these dates in sessions played with stacked doublers." in nothing.text


def test_no_house_rule_goes_with_no_house_rule_ticked(
    app: Flask, client: FlaskClient, house_season: tuple[int, int]
) -> None:
    sentence = "“No house rule” can&#39;t go with Bump, Penalty hands: untick one."
    for path in ("/leaderboard", f"/players/{player_ids(app)['Ann']}"):
        response = client.get(f"{path}?plain=y&bump=y&penalties=y")
        assert response.status_code == 400
        assert sentence in response.text


def test_queries_stay_as_few_with_house_rules(
    app: Flask, client: FlaskClient, house_season: tuple[int, int]
) -> None:
    ann = player_ids(app)["Ann"]
    paths = (
        "/leaderboard?bump=y&tricks=y",
        "/leaderboard.csv?plain=y",
        f"/players/{ann}?plain=y",
        f"/players/{ann}?from=2025-01-01&stack=y&cap=y&penalties=y",
    )
    assert [statements_for(app, client, path) for path in paths] == [
        1 + 1 + 1 + 1,
        1 + 1 + 1,
        1 + 1 + 1 + 2 + 1,
        1 + 1 + 1 + 2 + 1,
    ]


# --- money


def test_money_won_or_lost_shows_where_sessions_had_a_stake(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    # At 25 cents a point: Ann & Bob win 75 (Ann +2, Bob +1, the others -1), then Cat alone
    # wins schneider (Cat +8, the others -2). A session for points alone adds Ann alone
    # winning 75 (Ann +4, the others -1) and no money.
    staked = api.new_session(rules={"stake": 25})["id"]
    api.record(staked, **pick("Ann", "Bob", 75))
    api.record(staked, **pick("Cat", None, 95))
    unstaked = api.new_session()["id"]
    api.record(unstaked, **pick("Ann", None, 75))
    money = {"Ann": 0, "Bob": -25, "Cat": 175, "Dan": -75, "Eve": -75}
    assert api.session(staked)["settle_up"]["balances"] == money

    ranked = board(app, DateRange(), min_picks=0)
    assert ranked.staked
    assert {r.player.name: r.player.money for r in ranked.by_total} == money
    assert stats_of(app, "Bob", DateRange()).money == -25
    assert stats_of(app, "Ann", DateRange()).staked

    leaderboard = page(client, "/leaderboard")
    assert ["1", "Cat", "+6 3 hands +$1.75"] in leaderboard.rows("ranking")
    assert ["3", "Bob", "-2 3 hands -$0.25"] in leaderboard.rows("ranking")
    bob = page(client, f"/players/{player_ids(app)['Bob']}")
    assert dict(bob.rows("player-stats"))["Money won or lost"] == "-$0.25"
    assert [row[-1] for row in bob.rows("player-sessions")[1:]] == ["-1", "-1 -$0.25"]


def test_money_is_not_shown_where_no_session_had_a_stake(
    api: Api, app: Flask, client: FlaskClient
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    assert not board(app, DateRange()).staked
    assert "$" not in page(client, "/leaderboard").text
    ann = page(client, f"/players/{player_ids(app)['Ann']}")
    assert "Money won or lost" not in ann.text and "$" not in ann.text


# Nights of three years: Ann wins 2010; Bob and Cat share 2011; Bob has the best total of all.
YEARS = [
    ("2010-03-01", {"Ann": 5, "Bob": -5}),
    ("2010-06-01", {"Bob": 3, "Cat": -3}),
    ("2011-02-01", {"Cat": 7, "Ann": -7}),
    ("2011-02-02", {"Bob": 7, "Ann": -7}),
]


def nights_of_years(client: FlaskClient) -> None:
    for day, totals in YEARS:
        made = client.post("/api/sessions", json={"played_on": day, "totals": totals})
        assert made.status_code == 201, made.json


def test_the_champion_of_all_time_and_of_each_year(app: Flask, client: FlaskClient) -> None:
    nights_of_years(client)
    with app.app_context():
        found = [(c.year, c.names, c.total) for c in stats.champions()]
    assert found == [(None, ("Bob",), 5), (2011, ("Bob", "Cat"), 7), (2010, ("Ann",), 5)]
    leaderboard = page(client, "/leaderboard")
    assert "All time: Bob +5" in leaderboard.text
    assert "2011: Bob and Cat +7" in leaderboard.text
    assert "2010: Ann +5" in leaderboard.text
    with app.app_context():
        assert stats.champions(scope.RuleFilter(frozenset({"bump"}))) == ()


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


def test_a_players_partners_and_regular_opponents(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """Ann picks with Bob twice (75: won, 30: lost) and is Cat's partner once (95: won); a
    pick recorded by its result alone has no card points. In the session (complete once
    ended), Ann finishes ahead of Cat, Dan and Eve and behind Bob."""
    session_id = api.new_session()["id"]
    for hand in (
        pick("Ann", "Bob", 75),
        pick("Bob", "Ann", 30),
        pick("Cat", "Ann", 95),
        {"kind": "pick", "picker": "Dan", "partner": "Eve", "result": "won"},
    ):
        api.record(session_id, **hand)
    assert client.patch(f"/api/sessions/{session_id}", json={"ended": True}).status_code == 200
    totals = api.session(session_id)["totals"]
    ids = player_ids(app)
    with app.app_context():
        found = [
            (p.name, p.hands, p.won, p.card_points, p.with_points, p.card_points_shown)
            for p in company.partners(ids["Ann"], DateRange())
        ]
        assert found == [
            ("Bob", 2, 1, 105, 2, Decimal("52.5")),
            ("Cat", 1, 1, 95, 1, Decimal("95.0")),
        ]
        against = {o.name: o for o in company.opponents(ids["Ann"], DateRange())}
    assert set(against) == {"Bob", "Cat", "Dan", "Eve"}
    places = {s["player"]: s["place"] for s in api.session(session_id)["standings"]}
    for name, opponent in against.items():
        assert (opponent.sessions, opponent.total, opponent.their_total) == (
            1, totals["Ann"], totals[name],
        )  # fmt: skip
        ahead = places["Ann"] < places[name]
        behind = places["Ann"] > places[name]
        assert (opponent.ahead, opponent.behind) == (int(ahead), int(behind))
    text = page(client, f"/players/{ids['Ann']}").text
    assert "Partners" in text and "Against the regulars" in text


def test_partners_and_opponents_add_up_over_the_years(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """The nights of `YEARS`, and a session in 2010 and one in 2011 where Ann picks with Bob
    at 75 (Ann +2, Bob +1, the others -1; neither ended, so no one is ahead or behind); then
    one more such hand this year."""
    nights_of_years(client)
    for year in (2010, 2011):
        session_id = api.new_session()["id"]
        api.record(session_id, **pick("Ann", "Bob", 75))
        with app.app_context():
            db.session.execute(
                update(Session)
                .where(Session.id == session_id)
                .values(
                    created_at=datetime(year, 5, 1, 20, tzinfo=UTC), version=Session.version + 1
                )
            )
            db.session.commit()
    ann = player_ids(app)["Ann"]

    def company_of_ann() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        with app.app_context():
            return (
                [
                    (p.name, p.hands, p.won, p.card_points)
                    for p in company.partners(ann, DateRange())
                ],
                [
                    (o.name, o.sessions, o.ahead, o.behind, o.total, o.their_total)
                    for o in company.opponents(ann, DateRange())
                ],
            )

    partners, opponents = company_of_ann()
    assert partners == [("Bob", 2, 2, 150)]
    assert opponents == [
        ("Bob", 4, 1, 1, 5 - 7 + 2 + 2, -5 + 7 + 1 + 1),
        ("Cat", 3, 0, 1, -7 + 2 + 2, 7 - 1 - 1),
        ("Dan", 2, 0, 0, 4, -2),
        ("Eve", 2, 0, 0, 4, -2),
    ]
    with app.app_context():
        assert company.opponents(ann, DateRange(date(2011, 1, 1)))[0] == company.Opponent(
            player_ids(app)["Bob"], "Bob", 2, 0, 1, -7 + 2, 7 + 1
        )
    api.record(api.new_session()["id"], **pick("Bob", "Ann", 30))
    partners, opponents = company_of_ann()
    assert partners == [("Bob", 3, 2, 180)]
    assert opponents[0][:2] == ("Bob", 5)
    # Bob and Ann lost at 30, schneidered: Ann -2.
    with app.app_context():
        numbers = player_numbers.player_stats(db.session.get_one(Player, ann), DateRange())
        days = [(day.isoformat(), total) for day, total in numbers.days]
        assert days == [
            ("2010-03-01", 5), ("2010-05-01", 2), ("2011-02-01", -7), ("2011-02-02", -7),
            ("2011-05-01", 2), (date.today().isoformat(), -2),
        ]  # fmt: skip
        assert [line.total for line in numbers.recent] == [total for _, total in days]
        assert numbers.sessions_played == 6
        # The players list and the leaderboard add up the years too.
        listed = next(p for p in roster.players() if p.name == "Ann")
        assert (listed.sessions, listed.hands, listed.total, listed.nights) == (6, 3, -7, 3)
        assert listed.last_played is not None and local(listed.last_played).date() == date.today()
        totals = next(t for t in stats.player_totals(DateRange()) if t.name == "Ann")
        assert (totals.total, totals.hands.of, totals.nights, totals.night_total) == (-7, 3, 3, -9)
