"""The pages' live streams (`pages/live.py`) on each database: a stream names the state first and
again at each change, made by another server worker; whatever the phones, the process's one
watcher reads the database once a look (SQLite: a look every half second; PostgreSQL: a look
when the database tells of a change), never once a phone; a club event's stream speaks at a hand
at its tables; and a stream of nothing is a 404."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.test import TestResponse

from harness.database import counted_statements
from scorekeeper.sessions import live

from ..helpers.access import set_passcode
from ..helpers.api import Api, pick
from ..helpers.database import second_worker

PHONES = 20
SESSIONS = 4
WAIT_S = 30.0
EVENT_PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class Stream:
    """A phone's open stream, read a message at a time."""

    def __init__(self, answer: TestResponse) -> None:
        assert answer.status_code == 200, answer.status
        assert answer.mimetype == "text/event-stream"
        assert answer.headers["Cache-Control"] == "no-store"
        self.answer = answer
        self.parts = iter(answer.response)
        assert next(self.parts) == b"retry: 2000\n\n"

    def message(self) -> str:
        part = next(self.parts).decode()
        assert part.startswith("data: ") and part.endswith("\n\n"), part
        return part.removeprefix("data: ").strip()

    def until(self, wanted: str) -> None:
        """Messages read until one says `wanted` (the stream speaks every 20 s at least)."""
        deadline = time.monotonic() + WAIT_S
        while self.message() != wanted:
            assert time.monotonic() < deadline


@contextmanager
def streams(client: FlaskClient, paths: list[str]) -> Iterator[list[Stream]]:
    """The streams open for the block; then closed, and the watcher ended with the last."""
    opened = [Stream(client.get(path, buffered=False)) for path in paths]
    try:
        yield opened
    finally:
        for stream in opened:
            stream.answer.close()
        assert client.application
        hub = live.hub(client.application)  # type: ignore[arg-type]
        until(hub, lambda: not hub.running)


def until(hub: live.Hub, ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        assert time.monotonic() < deadline, "the watcher did not look in time"
        time.sleep(0.01)


def test_every_phone_hears_a_change_from_one_look_a_process(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    sessions = [api.new_session()["id"] for _ in range(SESSIONS)]
    paths = [f"/sessions/{sessions[n % SESSIONS]}/live" for n in range(PHONES)]
    hub = live.hub(app)
    with streams(client, paths) as phones:
        assert [phone.message() for phone in phones] == ["1"] * PHONES
        sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
        # The watcher's first look: SQLite's every half second, PostgreSQL's once listening.
        until(hub, lambda: hub.looks >= 1)
        began = hub.looks

        def change_and_hear() -> None:
            # Another worker's write: its statements go to its own database connections.
            with second_worker(app) as other:
                Api(other.test_client()).record(sessions[0], **pick("Ann", "Bob", 75))
            for phone in phones[::SESSIONS]:
                phone.until("2")
            if sqlite:
                until(hub, lambda: hub.looks >= began + 4)

        sent, _ = counted_statements(app, change_and_hear)
        looks = hub.looks - began
        print(f"{PHONES} phones: {looks} looks, {sent} statements")
        # One statement a look, whatever the phones; a look under way at either end of the
        # count is counted on one side of it alone.
        assert looks >= (4 if sqlite else 1)
        assert abs(sent - looks) <= 1
        if not sqlite:
            assert looks <= 2  # the hand's news alone


def test_an_event_s_stream_speaks_at_a_hand_at_its_tables(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    event = api.client.post("/api/events", json={"name": "Live night", "seed": 7}).json
    assert event is not None
    for player in EVENT_PLAYERS:
        api.client.post(f"/api/events/{event['id']}/players", json={"name": player})
    drawn: Any = api.client.post(f"/api/events/{event['id']}/rounds", json={}).json
    table = drawn["draws"][0]["tables"][0]
    with streams(client, [f"/events/{event['id']}/live"]) as (board,):
        before = board.message()
        seats = table["seats"]
        with second_worker(app) as other:
            Api(other.test_client()).record(table["session"], **pick(seats[1], seats[2], 75))
        deadline = time.monotonic() + WAIT_S
        while board.message() == before:
            assert time.monotonic() < deadline


def test_a_stream_of_nothing_is_a_404(client: FlaskClient) -> None:
    for path in ("/sessions/9/live", "/events/9/live", "/sessions/0/live"):
        assert client.get(path).status_code == 404, path


def test_a_watching_page_s_requests_never_send_its_cookie_back_as_it_was(
    api: Api, client: FlaskClient
) -> None:
    """A stream, or the look it sets off, asked before a sign-out and answered after it would
    sign the phone in again with the cookie it was asked with: they send no cookie back, while
    a page refreshes a kept sign-in's as ever."""
    session_id = api.new_session()["id"]
    with client.session_transaction() as kept:
        kept["signed"] = "in"
        kept.permanent = True
    assert "Set-Cookie" in client.get(f"/sessions/{session_id}").headers
    assert "Set-Cookie" not in client.get(f"/api/sessions/{session_id}").headers
    with streams(client, [f"/sessions/{session_id}/live"]) as (stream,):
        assert "Set-Cookie" not in stream.answer.headers


def test_a_stream_asked_without_a_sign_in_is_refused_and_leaves_the_page_its_message(
    api: Api, app: Flask, runner: FlaskCliRunner
) -> None:
    """A stream shows no page: sent to sign in, the EventSource would open the sign-in page and
    take the message meant for the page the phone shows next."""
    session_id = api.new_session()["id"]
    set_passcode(runner, "reader")
    phone = app.test_client()
    stream = {"Accept": "text/event-stream"}
    answer = phone.get(f"/sessions/{session_id}/live", headers=stream)
    assert answer.status_code == 401
    assert "Sign in to follow the scores." in answer.get_data(as_text=True)
    page = phone.get(f"/sessions/{session_id}")
    assert page.status_code == 303 and "/sign-in" in page.headers["Location"]
