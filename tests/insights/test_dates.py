"""One meaning of a date everywhere: a day in the server's time zone. Each test runs with the
server in UTC and in America/Chicago, where a session begun on a Wisconsin evening is past
midnight in UTC."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.insights import player_numbers, stats
from scorekeeper.insights.dates import DateRange, day_of, days_of, days_of_quarters
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, Session

from ..helpers.api import SEATS, Api, pick

# 8 pm on 25 November in Chicago; already the 26th in UTC.
EVENING = datetime(2026, 11, 26, 2, 0, tzinfo=UTC)
# 6 am on the 26th in Chicago, noon in UTC.
MORNING = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
# The day each falls on, by the server's time zone.
DAYS = {
    "UTC": {"Evening": "2026-11-26", "Morning": "2026-11-26"},
    "America/Chicago": {"Evening": "2026-11-25", "Morning": "2026-11-26"},
}


@pytest.fixture(params=list(DAYS))
def zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def two_sessions(app: Flask, api: Api, zone: str) -> dict[str, int]:
    """Evening (Ann +2 as picker) and Morning (Bob +2), one hand each."""
    ids = {}
    for name, started, picker in (("Evening", EVENING, "Ann"), ("Morning", MORNING, "Bob")):
        session_id = api.new_session(name=name)["id"]
        api.record(session_id, **pick(picker, "Cat" if picker == "Bob" else "Bob", 70))
        with app.app_context():
            session = db.session.get(Session, session_id)
            assert session is not None
            session.created_at = started
            db.session.commit()
        ids[name] = session_id
    return ids


def listed(client: FlaskClient, day: str) -> list[str]:
    html = client.get(f"/sessions?from={day}&to={day}").text
    return re.findall(r'<li>\s*<a href="/sessions/\d+">([^<]*)</a>', html)


def test_a_session_is_shown_and_found_on_the_day_it_started_there(
    client: FlaskClient, two_sessions: dict[str, int], zone: str
) -> None:
    days = DAYS[zone]
    home = client.get("/sessions").text
    for name, day in days.items():
        assert re.search(rf">{name}</a>\s*<span class=\"muted\">{day} ", home), name
        assert name in listed(client, day)
    evening = days["Evening"]
    assert listed(client, evening) == (["Morning", "Evening"] if zone == "UTC" else ["Evening"])
    standings = client.get(f"/sessions/{two_sessions['Evening']}/standings.csv")
    assert f"sheepshead-{evening}-session-" in standings.headers["Content-Disposition"]


def test_the_leaderboard_and_the_settle_up_read_a_range_as_the_sessions_list_does(
    app: Flask, client: FlaskClient, two_sessions: dict[str, int], zone: str
) -> None:
    evening = date.fromisoformat(DAYS[zone]["Evening"])
    ranged = client.get(f"/api/settle-up?from={evening}&to={evening}").json
    assert ranged is not None
    with app.app_context():
        board = stats.player_totals(DateRange(evening, evening))
    totals = {line.name: line.total for line in board}
    if zone == "UTC":
        # Both sessions: Ann picked with Bob, then Bob with Cat.
        assert ranged["balances"]["Bob"] == totals["Bob"] != 0
        assert set(totals) == set(SEATS)
    else:
        # The evening's session alone: Ann picked with Bob.
        assert totals == ranged["balances"]
        assert totals["Ann"] > 0 and totals["Bob"] > 0
        listed_names = listed(client, str(evening))
        assert listed_names == ["Evening"]
    leaderboard = client.get(f"/leaderboard?from={evening}&to={evening}").text
    for name, total in totals.items():
        if total:
            assert f">{name}</a>" in leaderboard


def test_a_moment_falls_on_its_local_day(zone: str) -> None:
    assert day_of(EVENING) == DAYS[zone]["Evening"]
    assert day_of(EVENING.replace(tzinfo=None)) == DAYS[zone]["Evening"]  # as SQLite gives it
    assert day_of(EVENING.isoformat()) == DAYS[zone]["Evening"]  # as a backup writes it


def test_many_moments_fall_on_the_days_one_at_a_time_gives(zone: str) -> None:
    """Every 7 minutes over the nights clocks go back and forward, and a night with neither."""
    starts = [datetime(2026, 11, 1, 0, tzinfo=UTC), datetime(2026, 3, 8, 0, tzinfo=UTC)]
    moments = [start + timedelta(minutes=7 * n) for start in starts for n in range(400)]
    moments.append(EVENING.replace(tzinfo=None))
    assert [day.isoformat() for day in days_of(moments)] == [day_of(m) for m in moments]


# Before 18 November 1883 Chicago kept local mean time, 5:50:36 behind UTC: these two moments
# of one quarter hour of UTC fall there on the last day of 1849 and the first of 1850.
MEAN_TIME_MIDNIGHT = [
    datetime(1850, 1, 1, 5, 50, tzinfo=UTC),
    datetime(1850, 1, 1, 5, 51, tzinfo=UTC),
]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def seconds(moment: datetime) -> int:
    return int((moment - EPOCH).total_seconds())


def test_the_moments_of_a_quarter_hour_fall_on_the_day_each_does(zone: str) -> None:
    starts = [datetime(2026, 11, 1, 0, tzinfo=UTC), datetime(2026, 3, 8, 0, tzinfo=UTC)]
    moments = [start + timedelta(minutes=7 * n) for start in starts for n in range(400)]
    spans = [(seconds(moment), seconds(moment)) for moment in moments]
    assert days_of_quarters(spans) == days_of(moments)
    quarters = [(second - second % 900, second - second % 900 + 899) for second, _ in spans]
    assert days_of_quarters(quarters) == days_of(moments)
    first, last = MEAN_TIME_MIDNIGHT
    on_two_days = days_of_quarters([(seconds(first), seconds(last))])
    assert on_two_days == ([None] if zone == "America/Chicago" else [date(1850, 1, 1)])


def test_a_players_days_are_the_days_of_their_sessions(app: Flask, api: Api, zone: str) -> None:
    """Sessions on the nights clocks go back and forward, a few in one quarter hour, and two
    either side of a midnight of local mean time."""
    started = [
        datetime(2026, 11, 1, 6, 50, tzinfo=UTC),
        datetime(2026, 11, 1, 7, 5, tzinfo=UTC),
        datetime(2026, 3, 8, 5, 59, tzinfo=UTC),
        datetime(2026, 3, 8, 6, 0, tzinfo=UTC),
        datetime(2026, 3, 8, 6, 1, tzinfo=UTC),
        EVENING,
        MORNING,
        *MEAN_TIME_MIDNIGHT,
    ]
    for number, moment in enumerate(started):
        session_id = api.new_session(name=f"S{number}")["id"]
        for _ in range(number % 3 + 1):
            api.record(session_id, **pick("Ann", "Bob", 40 + 10 * number))
        with app.app_context():
            session = db.session.get(Session, session_id)
            assert session is not None
            session.created_at = moment
            db.session.commit()
    with app.app_context():
        ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
        numbers = player_numbers.player_stats(ann, DateRange())
        lines = player_numbers.sessions_of(ann.id, DateRange())
    expected: dict[date, int] = {}
    for day, line in zip(days_of(line.created_at for line in lines), lines, strict=True):
        expected[day] = expected.get(day, 0) + line.total
    assert numbers.days == tuple(expected.items())
    assert numbers.sessions_played == len(started)
    assert [line.session_id for line in numbers.recent] == [line.session_id for line in lines]


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_a_day_too_far_off_is_refused_alike_by_the_pages_and_the_api(
    client: FlaskClient, day: str
) -> None:
    said = "The from date must be a day from 0001-01-02 to 9999-12-30."
    assert client.get(f"/api/settle-up?from={day}").json == {"error": said, "field": "from"}
    for page in ("/sessions", "/leaderboard", "/settle-up"):
        response = client.get(f"{page}?from={day}")
        assert response.status_code == 400, page
        assert said in response.text, page
