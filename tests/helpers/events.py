"""Club events as a script drives them through the API in the tests of tournament tables,
keeping apart and practice events: an event made with players checked in, its rounds drawn,
hands recorded at its tables; and a phone let in by an invite to one table."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def names(count: int) -> list[str]:
    return [f"Player {n:02d}" for n in range(1, count + 1)]


def make_event(client: FlaskClient, players: int = 0, **given: Any) -> dict[str, Any]:
    """A new event (`given` as in its POST) with `players` of `names` checked in."""
    response = client.post("/api/events", json={"name": "Club night", **given})
    assert response.status_code == 201, response.json
    event: dict[str, Any] = response.json
    for name in names(players):
        event = check_in(client, event["id"], name)
    return event


def check_in(client: FlaskClient, event_id: int, name: str) -> dict[str, Any]:
    response = client.post(f"/api/events/{event_id}/players", json={"name": name})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def drawn(client: FlaskClient, event_id: int, body: Any = None) -> dict[str, Any]:
    response = client.post(f"/api/events/{event_id}/rounds", json=body or {})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def event_of(client: FlaskClient, event_id: int) -> dict[str, Any]:
    response = client.get(f"/api/events/{event_id}")
    assert response.status_code == 200, response.json
    return response.json  # type: ignore[no-any-return]


def record(client: FlaskClient, session_id: int, hand: dict[str, Any]) -> None:
    response = client.post(f"/api/sessions/{session_id}/hands", json=hand)
    assert response.status_code == 201, response.json


def last_tables(event: dict[str, Any]) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = event["draws"][-1]["tables"]
    return tables


def confirm_event(client: FlaskClient, players: int = 5, **given: Any) -> dict[str, Any]:
    """An event whose hands the other side confirms, its first round drawn."""
    return drawn(client, make_event(client, players, confirm=True, **given)["id"])


def end_round(client: FlaskClient, event: dict[str, Any]) -> None:
    """End every table of the last round, so that the next can be drawn."""
    for table in last_tables(event):
        response = client.patch(f"/api/sessions/{table['session']}", json={"ended": True})
        assert response.status_code == 200, response.json


def together(event: dict[str, Any], pair: tuple[str, str] | list[str]) -> list[int]:
    """The rounds whose draw seats both of the pair at one table."""
    return [
        draw["round"]
        for draw in event["draws"]
        if any(pair[0] in t["seats"] and pair[1] in t["seats"] for t in draw["tables"])
    ]
