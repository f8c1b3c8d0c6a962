"""Every player's totals, the leaderboard, the champions, partners and opponents and their
pages, checked against numbers worked out by hand (`helpers/stats_season.py`)."""

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
from ..helpers.stats_season import (
    EVERYTHING,
    HOUSE,
    HOUSE_NIGHT,
    PLAIN,
    nights_of_years,
    stats_of,
    summary,
)
from ..helpers.tables import (
    HOUSE_RULES,
    PLAYED,
    TOTALS,
    WON,
)


def board(
    app: Flask, dates: DateRange, min_picks: int = 10, house: scope.RuleFilter | None = None
) -> stats.Leaderboard:
    with app.app_context():
        return stats.leaderboard(dates, min_picks, house)


def ranking(rows: tuple[stats.Ranked, ...]) -> list[tuple[int, str]]:
    return [(r.place, r.player.name) for r in rows]


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


# --- house rules


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


# --- nights of three years


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
