"""A session's "complete" in SQL (`Session.complete`, `complete_when`) held to the engine's
`rules.Table.is_complete`: on a range of tables, and on sessions as they are played, ended and
reopened."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, literal, select

from scorekeeper import rules
from scorekeeper.insights import sessions_list
from scorekeeper.sessions import loading
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, Session, complete_when

from .helpers.api import Api, pick


@pytest.mark.parametrize("ended", [False, True])
@pytest.mark.parametrize("rounds", [0, 1, 2, 3])
def test_the_sql_agrees_with_the_engine_on_a_range_of_tables(
    app: Flask, ended: bool, rounds: int
) -> None:
    with app.app_context():
        for seated in range(rules.MIN_SEATS, rules.MAX_SEATS + 1):
            seats = tuple(f"P{seat}" for seat in range(seated))
            table = rules.Table(seats=seats, rounds=rounds, ended=ended)
            counts = range(rounds * seated + 2 if rounds else 12)
            sql = [
                complete_when(literal(ended), literal(rounds), literal(seated), literal(count))
                for count in counts
            ]
            found = db.session.execute(select(*sql)).one()
            assert [bool(value) for value in found] == [table.is_complete(n) for n in counts], (
                ended,
                rounds,
                seated,
            )


def complete_in_sql(session_id: int) -> bool:
    hands = select(func.count(Hand.id)).where(Hand.session_id == Session.id).scalar_subquery()
    found = db.session.scalar(select(Session.complete(hands)).where(Session.id == session_id))
    return bool(found)


def test_a_session_is_complete_alike_in_sql_and_in_the_engine(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    players = ["Ann", "Bob", "Cat"]
    session_id = api.new_session(players=players, rounds=1, rules={"partner": "alone"})["id"]

    def agree() -> bool:
        with app.app_context():
            session = loading.session_or_404(session_id)
            engine = loading.table_of(session).is_complete(len(session.hands))
            assert complete_in_sql(session_id) is engine
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
