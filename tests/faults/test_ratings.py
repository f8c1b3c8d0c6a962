"""The ratings on a live server: a change to the history has them recomputed by a process of
their own while the server goes on answering, and a server starting with stale ratings (a
database just upgraded) recomputes them."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import create_engine, text

from harness.hands import pick_bodies
from harness.live_server import LiveServer

from ..helpers.live import assert_check_clean

# A recompute of a few hands takes a process's start and a second; this is only a deadline.
WAIT_SECONDS = 60


def rating_state(server: LiveServer) -> tuple[int, int]:
    engine = create_engine(server.database)
    try:
        with engine.connect() as connection:
            row = connection.execute(text("SELECT generation, computed FROM rating_state")).first()
    finally:
        engine.dispose()
    return (0, 0) if row is None else (row[0], row[1])


def recomputed(server: LiveServer, generation: int) -> tuple[int, int]:
    """The ratings' state once the recompute of `generation` is written (or the deadline)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (now := rating_state(server))[1] < generation and time.monotonic() < deadline:
        time.sleep(0.2)
    return now


def players(server: LiveServer) -> dict[str, Any]:
    answer = server.call("GET", "/api/players")
    assert answer.status == 200
    return {p["name"]: p["rating"] for p in answer.json()["players"]}


def test_an_edit_has_the_ratings_recomputed_in_the_background(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    for body in pick_bodies(6):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    assert rating_state(server) == (0, 0)
    before = players(server)
    edit = {"kind": "pick", "picker": "Cat", "partner": None, "picking_points": 15}
    assert server.call("PUT", f"/api/sessions/{session_id}/hands/1", edit).status == 200
    assert recomputed(server, 1) == (1, 1)
    after = players(server)
    assert after != before
    assert_check_clean(server)
    # A hand recorded after it is added to the ratings as they now are.
    seventh = pick_bodies(7)[6]
    assert server.call("POST", f"/api/sessions/{session_id}/hands", seventh).status == 201
    assert rating_state(server) == (1, 1)
    assert players(server) != after
    assert_check_clean(server)


def test_a_server_starting_with_stale_ratings_recomputes_them(server: LiveServer) -> None:
    session_id = server.new_session()["id"]
    for body in pick_bodies(5):
        assert server.call("POST", f"/api/sessions/{session_id}/hands", body).status == 201
    rated = players(server)
    engine = create_engine(server.database)
    try:
        with engine.begin() as connection:
            # As a database just upgraded to keep ratings leaves them.
            connection.execute(
                text(
                    "UPDATE player_rating SET mu = 25.0, sigma = 25.0 / 3, hands = 0, "
                    "last_at = NULL, last_session_id = NULL, history = NULL"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO rating_state (id, generation, computed) VALUES (1, 1, 0) "
                    "ON CONFLICT (id) DO UPDATE SET generation = 1, computed = 0"
                )
            )
    finally:
        engine.dispose()
    assert set(players(server).values()) == {None}
    server.restart()
    assert recomputed(server, 1) == (1, 1)
    assert players(server) == rated
    assert_check_clean(server)
