"""Pages of a long history show a bounded part of it: a player's last 50 sessions with "More",
the leaderboard's top 100 with "Show everyone", and a season chart of at most one point a day,
or a week."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.insights.player_numbers import SessionLine
from scorekeeper.pages.players import season_chart

from ..helpers.api import Api, pick
from ..helpers.pages import page

SESSIONS = 55


def test_a_player_page_lists_the_last_50_sessions_and_more_on_demand(
    api: Api, client: FlaskClient
) -> None:
    ids = []
    for n in range(SESSIONS):
        players = ["Ann", f"Bob {n:03}", f"Cat {n:03}"]
        session_id = api.new_session(players=players, rounds=0, name=f"Night {n}")["id"]
        api.record(session_id, **pick("Ann", None, 75))
        ids.append(session_id)
    ann = next(p["id"] for p in client.get("/api/players").json["players"] if p["name"] == "Ann")

    shown = page(client, f"/players/{ann}")
    rows = shown.tables["player-sessions"][1:]
    assert [row[0].split(" ")[:2] for row in rows] == [
        ["Night", str(n)] for n in reversed(range(SESSIONS - 50, SESSIONS))
    ]
    assert "Sessions played 55" in " ".join(" ".join(r) for r in shown.tables["player-stats"])
    more = client.get(f"/players/{ann}").text
    assert f'href="/players/{ann}/sessions?before=50">More sessions (5 older)</a>' in more

    older = page(client, f"/players/{ann}/sessions?before=50")
    assert [row[0].split(" ")[:2] for row in older.tables["player-sessions"][1:]] == [
        ["Night", str(n)] for n in reversed(range(SESSIONS - 50))
    ]
    newer = client.get(f"/players/{ann}/sessions?before=50").text
    assert f'href="/players/{ann}/sessions?before=0">Newer</a>' in newer
    assert ">Older</a>" not in newer
    assert client.get(f"/players/{ann}/sessions?from=someday").status_code == 400


def test_the_leaderboard_and_a_season_rank_the_top_100_and_everyone_on_demand(
    api: Api, client: FlaskClient
) -> None:
    for n in range(34):
        players = [f"P{3 * n:03}", f"P{3 * n + 1:03}", f"P{3 * n + 2:03}"]
        session_id = api.new_session(players=players, rounds=0)["id"]
        api.record(session_id, **pick(players[0], None, 75))
    html = client.get("/leaderboard").text
    # By total, by average and by rating; nobody has picked often enough to rank by picking.
    assert html.count('<tr><td class="place">') == 3 * 100
    assert "The top 100 of 102 players in each ranking." in html
    assert 'href="/leaderboard?everyone=1">Show everyone (102 players)</a>' in html
    everyone = client.get("/leaderboard?everyone=1").text
    assert everyone.count('<tr><td class="place">') == 3 * 102
    assert "Show everyone" not in everyone

    # A season's lists are as long, and its settle-up of everyone comes with them.
    season = {"name": "All", "first_day": "2000-01-01", "last_day": "2100-12-31", "min_hands": 1}
    season_id = api.client.post("/api/seasons", json=season).json["id"]
    first = client.get(f"/seasons/{season_id}").text
    assert first.count('<tr><td class="num place">') == 2 * 100
    assert "Who pays whom among all 102 players is shown with everyone." in first
    assert "Who pays whom</h2>" not in first
    whole = client.get(f"/seasons/{season_id}?everyone=1").text
    assert whole.count('<tr><td class="num place">') == 2 * 102
    assert "Who pays whom</h2>" in whole


def _lines(days: list[int]) -> list[SessionLine]:
    start = datetime(2026, 1, 5, 19, tzinfo=UTC)
    return [
        SessionLine(n, "", start + timedelta(days=day), 10, 5, 1, 1)
        for n, day in enumerate(days, start=1)
    ]


def test_a_season_chart_has_at_most_a_point_a_day_or_a_week(app: Flask) -> None:
    with app.app_context():
        few = season_chart("Ann", _lines([0, 0, 1]))
        by_day = season_chart("Ann", _lines([day // 20 for day in range(61)]))
        by_week = season_chart("Ann", _lines(list(range(0, 122, 2))))
    assert "sessions, 2026-01-05 to 2026-01-06" in few
    assert "days, 2026-01-05 to 2026-01-08" in by_day
    assert "weeks, 2026-01-05 to 2026-05-04" in by_week
    # The line's points: 0 before the first, then one a session, day or week.
    assert [points(chart) for chart in (few, by_day, by_week)] == [4, 5, 1 + 18]


def points(chart: str) -> int:
    (line,) = re.findall(r'<polyline points="([^"]+)"', chart)
    return len(line.split())
