"""Counted budgets of a session whose players come and go: the scoresheet, the session's JSON
and the writes send the database a fixed number of statements, whatever the session's length
and however often its seats changed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import rules
from scorekeeper.sessions import loading, rows, writes
from scorekeeper.sessions.extensions import db

from .conftest import BACKENDS, database_url, fresh_app

SIX = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
COMERS = ["Gus", "Hal", "Ida", "Jon"]
MAX_STATEMENTS = 8


def seat_order(rng: random.Random) -> list[str]:
    """Four to eight of everyone, in any order: some of the six leave, newcomers arrive."""
    everyone = SIX + COMERS
    return rng.sample(everyone, rng.randint(4, 8))


def session_of(hand_count: int, change_every: int = 0, seed: int = 6) -> int:
    """A session of six seated, with `hand_count` hands, each dealt in rotation and picked by
    one of its players; every `change_every` hands (0: never) the seats change. One write for
    each hand and each change, as a request would make."""
    rng = random.Random(seed)
    with writes.roster_write():
        session_id: int = rows.new_session("", SIX, 0, None, rules.Options()).id
    for number in range(hand_count):
        if change_every and number and number % change_every == 0:
            with writes.session_write(session_id) as write:
                write.update(None, None, seat_order(rng))
        with writes.session_write(session_id) as write:
            order = loading.table_of(write.session).bidding_order(write.tail().next_dealer)
            picker, partner = rng.sample(order, 2)
            entry = rules.HandInput(
                kind="pick",
                picker=picker,
                partner=rng.choice([partner, None]),
                picking_points=rng.randrange(2, 119),
            )
            write.record_hand(entry, None)
    return session_id


def statements(app: Flask, request: Callable[[], int], expected: int) -> int:
    """Statements sent to the database while `request` runs once (its answer's status is
    `expected`); the BEGIN, COMMIT and ROLLBACK around them are not counted."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert request() == expected
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(sent)


def reading(app: Flask, client: FlaskClient, path: str) -> int:
    assert client.get(path).status_code == 200
    return statements(app, lambda: client.get(path).status_code, 200)


def four_sessions() -> list[int]:
    """Sessions of six seated with 10 and 200 hands whose seats never changed, then with 10
    and 200 hands whose seats changed (3 and 22 times)."""
    return [session_of(10), session_of(200), session_of(10, 3), session_of(200, 9)]


def same_at_any_length(counts: list[int]) -> None:
    """A session's statements at 10 hands are its statements at 200, whether or not its seats
    changed."""
    assert counts[0] == counts[1]
    assert counts[2] == counts[3]


@pytest.fixture(scope="module", params=BACKENDS)
def sessions_to_read(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Flask, list[int]]]:
    """An app with `four_sessions()`, for tests that only read them."""
    with fresh_app(database_url(request.param, tmp_path_factory.mktemp("db"))) as app:
        with app.app_context():
            sessions = four_sessions()
        yield app, sessions


def test_the_long_changing_session_had_every_table_size(
    sessions_to_read: tuple[Flask, list[int]],
) -> None:
    app, sessions = sessions_to_read
    changed = app.test_client().get(f"/api/sessions/{sessions[3]}").json
    assert changed is not None and len(changed["hands"]) == 200
    assert len({tuple(hand["seats"]) for hand in changed["hands"]}) == 23
    assert {len(hand["seats"]) for hand in changed["hands"]} == {4, 5, 6, 7, 8}
    assert [s["player"] for s in changed["standings"] if not s["seated"]] != []


# The scoresheet's HTML at 200 hands, its stylesheets inside: the last 8 hands' rows, and
# the totals and the chart of all of them.
MAX_SCORESHEET_BYTES = 60_000


def test_a_long_scoresheet_shows_its_last_hands_and_the_rest_on_demand(
    sessions_to_read: tuple[Flask, list[int]],
) -> None:
    app, sessions = sessions_to_read
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
    sessions_to_read: tuple[Flask, list[int]], path: str
) -> None:
    app, sessions = sessions_to_read
    client = app.test_client()
    counts = [reading(app, client, path.format(session_id)) for session_id in sessions]
    assert counts == [counts[0]] * 4
    assert 0 < counts[0] <= MAX_STATEMENTS


def test_the_record_page_takes_the_same_statements_at_any_length(
    sessions_to_read: tuple[Flask, list[int]],
) -> None:
    app, sessions = sessions_to_read
    client = app.test_client()
    counts = [reading(app, client, f"/sessions/{session_id}/hands/new") for session_id in sessions]
    same_at_any_length(counts)
    assert 0 < max(counts) <= 2 * MAX_STATEMENTS


def test_recording_a_hand_takes_the_same_statements_at_any_length(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        sessions = four_sessions()

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
    assert 0 < max(counts) <= 12


def test_a_seat_change_takes_the_same_statements_at_any_length(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        sessions = four_sessions()
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
