"""Seasons for the tests: a spring season's settings, made through the API, and a league of a
few sessions to read its standings from."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session

from .api import Api, pick

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]
SPRING = {
    "name": "Spring 2026",
    "first_day": "2026-03-01",
    "last_day": "2026-05-31",
    "house_rules": ["plain"],
    "min_hands": 3,
}


def started(app: Flask, session_id: int, moment: datetime) -> None:
    with app.app_context():
        db.session.execute(
            update(Session).where(Session.id == session_id).values(created_at=moment)
        )
        db.session.commit()


def noon(day: str) -> datetime:
    """Midday UTC: the same day in every time zone the tests run under."""
    return datetime.fromisoformat(f"{day}T12:00:00").replace(tzinfo=UTC)


def play(app: Flask, api: Api, day: str, hands: list[dict[str, Any]], **given: Any) -> int:
    session_id: int = api.new_session(**given)["id"]
    for hand in hands:
        api.record(session_id, **hand)
    started(app, session_id, noon(day))
    return session_id


def record_league(app: Flask, api: Api) -> None:
    """In the season: a night of five at 10 cents a point, whose totals are Ann +4, Bob +1,
    Cat -4, Dan -3, Eve +2 over 3 hands each (hands won 3, 2, 0, 0, 2); and a table of three for
    points only, one hand Gus picked alone and won: Ann -1, Bob -1, Gus +2.
    Left out: a night before the first day, and one in the season played with bump."""
    play(
        app,
        api,
        "2026-03-10",
        [pick("Ann", "Bob", 75), pick("Cat", "Dan", 40), pick("Eve", "Ann", 61)],
        players=FIVE,
        rules={"stake": 10},
    )
    play(app, api, "2026-04-02", [pick("Gus", None, 80)], players=["Ann", "Bob", "Gus"])
    play(app, api, "2026-02-28", [pick("Ann", "Bob", 91)] * 3, players=FIVE)
    play(app, api, "2026-03-15", [pick("Cat", "Dan", 75)] * 2, players=FIVE, rules={"bump": True})


def create(client: FlaskClient, body: dict[str, Any], **headers: str) -> Any:
    return client.post("/api/seasons", json=body, headers=headers)


def made(client: FlaskClient, **given: Any) -> dict[str, Any]:
    response = create(client, SPRING | given)
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]
