"""Counted budgets of a session whose players come and go: the scoresheet, the session's JSON
and the writes send the database a fixed number of statements, whatever the session's length
and however often its seats changed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from harness.sessions import COMERS, SIX, session_of

from ..helpers.database import (
    BACKENDS,
    NewApp,
    app_of,
    copied_database,
    database_beside,
    database_url,
    statements,
    statements_for,
)

MAX_STATEMENTS = 8


def four_sessions() -> list[int]:
    """Sessions of six seated with 10 and 200 hands whose seats never changed, then with 10
    and 200 hands whose seats changed (3 and 22 times)."""
    return [session_of(10), session_of(200), session_of(10, 3), session_of(200, 9)]


def same_at_any_length(counts: list[int]) -> None:
    """A session's statements at 10 hands are its statements at 200, whether or not its seats
    changed."""
    assert counts[0] == counts[1]
    assert counts[2] == counts[3]


# The database of `four_sessions()` on each backend, built once a process: each test has a
# copy of its own.
BUILT: dict[str, tuple[dict[str, Any], list[int]]] = {}


@pytest.fixture(params=BACKENDS)
def four_sessions_copy(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, new_app: NewApp
) -> Iterator[tuple[Flask, list[int]]]:
    """An app on a copy of a database with `four_sessions()`."""
    backend = request.param
    if backend not in BUILT:
        built = database_beside(database_url(backend, tmp_path_factory.mktemp("db")), "seats")
        with new_app(built) as app, app.app_context():
            BUILT[backend] = dict(app.config), four_sessions()
    config, sessions = BUILT[backend]
    copy = copied_database(config["SQLALCHEMY_DATABASE_URI"], "copy")
    with app_of({**config, "SQLALCHEMY_DATABASE_URI": copy}) as app:
        yield app, sessions


def test_the_long_changing_session_had_every_table_size(
    four_sessions_copy: tuple[Flask, list[int]],
) -> None:
    app, sessions = four_sessions_copy
    changed = app.test_client().get(f"/api/sessions/{sessions[3]}").json
    assert changed is not None and len(changed["hands"]) == 200
    assert len({tuple(hand["seats"]) for hand in changed["hands"]}) == 23
    assert {len(hand["seats"]) for hand in changed["hands"]} == {4, 5, 6, 7, 8}
    assert [s["player"] for s in changed["standings"] if not s["seated"]] != []


# The scoresheet's HTML at 200 hands, its stylesheets inside: the last 8 hands' rows, and
# the totals and the chart of all of them.
MAX_SCORESHEET_BYTES = 60_000


def test_a_long_scoresheet_shows_its_last_hands_and_the_rest_on_demand(
    four_sessions_copy: tuple[Flask, list[int]],
) -> None:
    app, sessions = four_sessions_copy
    client = app.test_client()
    for session_id in sessions[1::2]:
        page = client.get(f"/sessions/{session_id}").text
        assert len(page.encode()) <= MAX_SCORESHEET_BYTES
        rows = re.findall(r'<tr id="hand-(\d+)"', page)
        assert rows == [str(n) for n in range(193, 201)]
        assert f'href="/sessions/{session_id}?hands=all#hand-1">Show hands 1 to 192</a>' in page
        every = client.get(f"/sessions/{session_id}?hands=all").text
        assert re.findall(r'<tr id="hand-(\d+)"', every) == [str(n) for n in range(1, 201)]
        # A hand just saved further back is shown, with every hand after it.
        saved = client.get(f"/sessions/{session_id}?saved=150").text
        assert re.findall(r'<tr id="hand-(\d+)"', saved)[0] == "150"
        assert "Show hands 1 to 149" in saved
    short = client.get(f"/sessions/{sessions[0]}").text
    assert re.findall(r'<tr id="hand-(\d+)"', short) == [str(n) for n in range(3, 11)]
    assert "Show hands 1 to 2" in short


@pytest.mark.parametrize("path", ["/sessions/{}", "/api/sessions/{}"])
def test_the_scoresheet_takes_the_same_statements_at_any_length_and_seats(
    four_sessions_copy: tuple[Flask, list[int]], path: str
) -> None:
    app, sessions = four_sessions_copy
    client = app.test_client()
    counts = [statements_for(app, client, path.format(session_id)) for session_id in sessions]
    assert counts == [counts[0]] * 4
    assert 0 < counts[0] <= MAX_STATEMENTS


def test_the_record_page_takes_the_same_statements_at_any_length(
    four_sessions_copy: tuple[Flask, list[int]],
) -> None:
    app, sessions = four_sessions_copy
    client = app.test_client()
    counts = [
        statements_for(app, client, f"/sessions/{session_id}/hands/new") for session_id in sessions
    ]
    same_at_any_length(counts)
    assert 0 < max(counts) <= 2 * MAX_STATEMENTS


def test_recording_a_hand_takes_the_same_statements_at_any_length(
    four_sessions_copy: tuple[Flask, list[int]],
) -> None:
    app, sessions = four_sessions_copy
    client = app.test_client()
    # A hand recorded into a session older than its players' later ones makes the ratings
    # stale, in as many statements as it takes to update them; the recompute that follows runs
    # in a process of its own, outside the request.
    app.config["RATING_RECOMPUTE"] = "off"

    def record(session_id: int) -> int:
        session = client.get(f"/api/sessions/{session_id}").json
        assert session is not None
        playing = [p for p in session["players"] if p not in session["sitting_out_next"]]
        hand = {"kind": "pick", "picker": playing[0], "partner": playing[1], "picking_points": 75}
        return statements(
            app,
            lambda: client.post(f"/api/sessions/{session_id}/hands", json=hand).status_code,
            201,
        )

    counts = [record(session_id) for session_id in sessions]
    same_at_any_length(counts)
    # Two of them keep the ratings: the hand's players' ratings read and locked, and written.
    assert 0 < max(counts) <= 12 + 2


def test_a_seat_change_takes_the_same_statements_at_any_length(
    four_sessions_copy: tuple[Flask, list[int]],
) -> None:
    app, sessions = four_sessions_copy
    client = app.test_client()
    arriving = [*SIX, *COMERS[:2]]

    def change(session_id: int) -> int:
        return statements(
            app,
            lambda: (
                client.patch(f"/api/sessions/{session_id}", json={"players": arriving}).status_code
            ),
            200,
        )

    counts = [change(session_id) for session_id in sessions]
    same_at_any_length(counts)
    assert 0 < max(counts) <= 16
