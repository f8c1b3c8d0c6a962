"""Shared test helpers: the JSON API as a script speaks it, and hand bodies."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
# Every rule option at its default, as the API gives them.
DEFAULT_RULES = {
    "partner": "jack_of_diamonds",
    "no_bid": "forced_pick",
    "cracking": True,
    "blitzing": True,
    "sitting_out": "dealer",
    "bump": False,
    "schwarz": "points",
    "doublers": "queue",
    "max_multiplier": 0,
    "penalties": False,
    "stake": 0,
}


class Api:
    """The JSON API as a script speaks it, with the assertions every call shares."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def new_session(self, status: int = 201, **given: Any) -> dict[str, Any]:
        body = {"players": SEATS, "rounds": 0, **given}
        response = self.client.post("/api/sessions", json=body)
        assert response.status_code == status, response.json
        return response.json  # type: ignore[no-any-return]

    def session(self, session_id: int) -> dict[str, Any]:
        response = self.client.get(f"/api/sessions/{session_id}")
        assert response.status_code == 200, response.json
        return response.json  # type: ignore[no-any-return]

    def record(self, session_id: int, status: int = 201, **hand: Any) -> dict[str, Any]:
        response = self.client.post(f"/api/sessions/{session_id}/hands", json=hand)
        assert response.status_code == status, response.json
        return response.json  # type: ignore[no-any-return]

    def replace(self, session_id: int, number: int, status: int = 200, **hand: Any) -> Any:
        response = self.client.put(f"/api/sessions/{session_id}/hands/{number}", json=hand)
        assert response.status_code == status, response.json
        return response.json

    def delete(self, session_id: int, number: int, status: int = 204) -> None:
        response = self.client.delete(f"/api/sessions/{session_id}/hands/{number}")
        assert response.status_code == status, response.json


def pick(picker: str, partner: str | None, points: int, **more: Any) -> dict[str, Any]:
    return {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points, **more}
