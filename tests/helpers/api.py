"""The JSON API as a script speaks it: a session and its hands sent, a write refused, and hand
bodies."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.sessions.records import options_json

SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
# Every rule option at its default, as API.md documents them; the tests' rules come from
# `default_rules()`, and one test holds the two the same.
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


def default_rules() -> dict[str, Any]:
    """Every rule option at its default, as the API gives them."""
    return options_json(rules.Options())


def every_rule_set(**chosen: Any) -> dict[str, Any]:
    """Every rule option at a value other than its default, as the API gives them: a choice's
    last value, a flag flipped, a whole number's highest; `chosen` instead where given."""
    changed: dict[str, Any] = {}
    for option in rules.OPTIONS:
        if issubclass(option.kind, StrEnum):
            changed[option.name] = [v for v in option.kind if v != option.default][-1].value
        elif option.kind is bool:
            changed[option.name] = not option.default
        else:
            about = option.about
            changed[option.name] = about.values[-1] if about.values else about.high
    unknown = set(chosen) - set(changed)
    assert not unknown, unknown
    return {**changed, **chosen}


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


def session_with(api: Api, hands: Sequence[dict[str, Any]] = (), **given: Any) -> int:
    """A new session (`given` as in its POST) with `hands` recorded; its id."""
    session_id: int = api.new_session(**given)["id"]
    for hand in hands:
        api.record(session_id, **hand)
    return session_id


def refused(
    client: FlaskClient, path: str, body: dict[str, Any], status: int, field: str | None
) -> str:
    """A write refused with `status` naming `field`, changing nothing; its sentence."""
    session_path = "/".join(path.split("/")[:4])
    before = client.get(session_path).json
    method = client.patch if path == session_path else client.post
    response = method(path, json=body)
    assert response.status_code == status, response.json
    assert response.json is not None
    assert response.json.get("field") == field, response.json
    assert client.get(session_path).json == before
    return str(response.json["error"])


def without_time(answer: Any) -> dict[str, Any]:
    """An answer without the time it was made at: a session's created_at, a backup's
    exported_at."""
    return {key: value for key, value in answer.items() if key not in ("created_at", "exported_at")}
