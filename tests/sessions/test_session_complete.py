"""A session's stored "complete" (`Session.completed`, kept by every write) and hand count held
to the engine's `rules.Table.is_complete` as a session is played, ended, reopened and given a
round more."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.insights import sessions_list
from scorekeeper.sessions import loading
from scorekeeper.sessions.extensions import db

from ..helpers.api import Api, pick


def test_a_session_is_complete_alike_in_the_database_and_in_the_engine(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    players = ["Ann", "Bob", "Cat"]
    session_id = api.new_session(players=players, rounds=1, rules={"partner": "alone"})["id"]

    def agree() -> bool:
        with app.app_context():
            session = loading.session_or_404(session_id)
            engine = loading.table_of(session).is_complete(len(session.hands))
            assert (session.completed, session.hand_count) == (engine, len(session.hands))
            in_progress = sessions_list.in_progress()
            assert (in_progress is None) is engine
            db.session.rollback()
            return engine

    assert not agree()
    for picker in players[:2]:
        api.record(session_id, **pick(picker, None, 75))
        assert not agree()
    assert client.patch(f"/api/sessions/{session_id}", json={"ended": True}).status_code == 200
    assert agree()
    assert client.patch(f"/api/sessions/{session_id}", json={"ended": False}).status_code == 200
    assert not agree()
    api.record(session_id, **pick("Cat", None, 75))
    assert agree()
    # A round more: hands to play again.
    assert client.patch(f"/api/sessions/{session_id}", json={"rounds": 2}).status_code == 200
    assert not agree()
