"""Nights kept without hands through the API (API.md "Nights kept without hands"): made, read,
changed with history and undo, refused, and counted wherever totals count but never where
hands do: the players list, the leaderboard, a season mixing nights and hands, the settle-up."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask.testing import FlaskClient

from ..helpers.api import Api, pick, session_with

NIGHT = {"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5}


def night(client: FlaskClient, status: int = 201, **given: Any) -> dict[str, Any]:
    body = {"played_on": "2010-12-29", "totals": NIGHT, **given}
    answer = client.post("/api/sessions", json=body)
    assert answer.status_code == status, answer.json
    return answer.json  # type: ignore[no-any-return]


def test_a_night_is_a_complete_session_with_no_hands(client: FlaskClient) -> None:
    made = night(client, name="Bowling alley")
    assert made["totals_only"] is True
    assert (made["hands"], made["hand_count"], made["complete"]) == ([], 0, True)
    assert made["totals"] == NIGHT
    assert made["name"] == "Bowling alley"
    assert [(s["player"], s["total"], s["place"]) for s in made["standings"]] == [
        ("Mark", 5, 1), ("Greg", 0, 2), ("Dave", -2, 3), ("Jacob", -3, 4),
    ]  # fmt: skip
    assert made["next_dealer"] is None
    # It started that day at midnight where the server is.
    assert (
        datetime.fromisoformat(made["created_at"])
        .astimezone()
        .isoformat()
        .startswith("2010-12-29T00:00:00")
    )
    assert client.get(f"/api/sessions/{made['id']}").json == made
    listed = client.get("/api/sessions").json["sessions"]
    assert [(s["id"], s["totals_only"], s["hand_count"]) for s in listed] == [(made["id"], True, 0)]


def test_a_night_without_a_date_is_played_today(client: FlaskClient) -> None:
    made = night(client, played_on=None)
    started = datetime.fromisoformat(made["created_at"]).astimezone()
    assert started.date() == datetime.now().astimezone().date()


def test_a_night_takes_no_hand(client: FlaskClient, api: Api) -> None:
    made = night(client)
    answer = client.post(f"/api/sessions/{made['id']}/hands", json={"kind": "pass"})
    assert answer.status_code == 409
    assert "kept without hands" in answer.json["error"]
    assert api.session(made["id"]) == made


@pytest.mark.parametrize(
    ("body", "field", "sentence"),
    [
        ({"totals": {"Ann": 2, "Bob": 1}}, "totals", "The nets add up to 3, not 0."),
        ({"totals": {"Ann": 0}}, "totals", "A night has 2 to 40 players, not 1."),
        ({"totals": {"Ann": 1, "Bob": -1}, "played_on": "29/12/2010"}, "played_on", None),
        ({"totals": {"Ann": 1, "Bob": -1}, "rounds": 0}, "rounds", None),
    ],
)
def test_a_night_that_cant_be_is_refused_and_nothing_is_kept(
    client: FlaskClient, body: dict[str, Any], field: str | None, sentence: str | None
) -> None:
    answer = client.post("/api/sessions", json=body)
    assert answer.status_code == 400, answer.json
    assert answer.json.get("field") == field
    if sentence:
        assert answer.json["error"] == sentence
    assert client.get("/api/sessions").json["sessions"] == []
    assert client.get("/api/players").json["players"] == []


def test_a_nights_totals_change_with_history_and_undo(client: FlaskClient, api: Api) -> None:
    made = night(client)
    path = f"/api/sessions/{made['id']}"
    changed = client.patch(
        path, json={"totals": {"Dave": -2, "Greg": 1, "Jacob": -4, "Mark": 5}, "name": "Redo"}
    )
    assert changed.status_code == 200, changed.json
    assert changed.json["totals"] == {"Dave": -2, "Greg": 1, "Jacob": -4, "Mark": 5}
    assert changed.json["name"] == "Redo"
    assert changed.json["version"] == made["version"] + 1
    moved = client.patch(path, json={"played_on": "2011-01-05"})
    assert datetime.fromisoformat(moved.json["created_at"]).astimezone().date().isoformat() == (
        "2011-01-05"
    )
    history = client.get(f"{path}/history").json["changes"]
    assert [c["action"] for c in history] == ["night", "night"]
    assert history[1]["before"]["totals"] == NIGHT
    assert client.post(f"{path}/history/0/restore").status_code == 200
    assert client.post(f"{path}/history/2/restore").status_code == 200
    back = api.session(made["id"])
    assert (back["totals"], back["name"], back["created_at"]) == (NIGHT, "", made["created_at"])
    ranked = client.get("/api/players").json["players"]
    assert {p["name"]: p["total"] for p in ranked} == NIGHT


@pytest.mark.parametrize(
    "body", [{"rounds": 2}, {"players": ["Dave", "Greg", "Mark"]}, {"ended": True}]
)
def test_a_night_has_no_rounds_seats_or_end(client: FlaskClient, body: dict[str, Any]) -> None:
    made = night(client)
    answer = client.patch(f"/api/sessions/{made['id']}", json=body)
    assert answer.status_code == 409, answer.json
    assert client.get(f"/api/sessions/{made['id']}").json == made


def test_a_session_with_hands_has_no_totals_to_change(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    before = api.session(session_id)
    answer = client.patch(f"/api/sessions/{session_id}", json={"totals": {"Ann": 1, "Bob": -1}})
    assert answer.status_code == 409, answer.json
    assert api.session(session_id) == before


def test_a_night_is_deleted_and_restored_from_the_trash(client: FlaskClient, api: Api) -> None:
    made = night(client)
    assert client.delete(f"/api/sessions/{made['id']}").status_code == 204
    assert client.get("/api/players").json["players"][0]["sessions"] == 0
    restored = client.post(f"/api/trash/{made['id']}/restore")
    assert restored.status_code == 200, restored.json
    assert api.session(made["id"])["totals"] == NIGHT
    assert {
        p["name"]: p["sessions"] for p in client.get("/api/players").json["players"]
    } == dict.fromkeys(NIGHT, 1)


def test_nights_count_where_totals_count_and_not_where_hands_do(
    client: FlaskClient, api: Api
) -> None:
    """A night and a session of hands in one season: totals, sessions and places take both;
    hands and the average per hand only the hands recorded."""
    # Hands: Ann picks with Bob and wins (Ann +2, Bob +1, Cat Dan Eve -1), then Cat picks
    # alone and loses (Cat -8, the others +2).
    session_with(api, [pick("Ann", "Bob", 75), pick("Cat", None, 30)])
    night(client, played_on=datetime.now().astimezone().date().isoformat(),
          totals={"Ann": -6, "Cat": 10, "Zoe": -4})  # fmt: skip
    totals = {"Ann": 4 - 6, "Bob": 3, "Cat": -9 + 10, "Dan": 1, "Eve": 1, "Zoe": -4}
    players = {p["name"]: p for p in client.get("/api/players").json["players"]}
    assert {name: p["total"] for name, p in players.items()} == totals
    assert {name: (p["sessions"], p["hands"], p["nights"]) for name, p in players.items()} == {
        "Ann": (2, 2, 1), "Bob": (1, 2, 0), "Cat": (2, 2, 1), "Dan": (1, 2, 0),
        "Eve": (1, 2, 0), "Zoe": (1, 0, 1),
    }  # fmt: skip
    season = client.post(
        "/api/seasons",
        json={"name": "This year", "first_day": "2000-01-01", "last_day": "2099-12-31",
              "min_hands": 1},
    ).json  # fmt: skip
    standings = client.get(f"/api/seasons/{season['id']}").json["standings"]
    by_name = {
        s["player"]: (s["place"], s["total"], s["hands"], s["average"], s["sessions"], s["nights"])
        for s in standings
    }
    assert by_name == {
        "Bob": (1, 3, 2, 1.5, 1, 0),
        "Dan": (2, 1, 2, 0.5, 1, 0),
        "Eve": (2, 1, 2, 0.5, 1, 0),
        "Cat": (4, 1, 2, -4.5, 2, 1),
        "Ann": (5, -2, 2, 2.0, 2, 1),
        "Zoe": (6, -4, 0, None, 1, 1),
    }
    # Cat, Dan and Eve are equal in total, Dan and Eve won a hand more; the average counts the
    # hands alone (Ann +4 in 2 hands); Zoe has no hand, so no average place.
    assert {s["player"]: s["average_place"] for s in standings} == {
        "Ann": 1, "Bob": 2, "Dan": 3, "Eve": 3, "Cat": 5, "Zoe": None,
    }  # fmt: skip
    settle = client.get("/api/settle-up").json
    assert settle["unit"] == "points"
    assert settle["balances"] == totals
    assert sum(p["amount"] for p in settle["payments"]) == 6


def test_the_pages_say_what_a_night_is_and_leave_it_out_of_averages(
    client: FlaskClient, api: Api
) -> None:
    session_with(api, [pick("Ann", "Bob", 75)])
    made = night(client, played_on=datetime.now().astimezone().date().isoformat(),
                 totals={"Ann": -6, "Cat": 10, "Zoe": -4})  # fmt: skip
    leaderboard = client.get("/leaderboard").get_data(as_text=True)
    assert "1 night without hands not in these averages." in leaderboard
    zoe = next(p for p in client.get("/api/players").json["players"] if p["name"] == "Zoe")
    page = client.get(f"/players/{zoe['id']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "kept without hands" in text
    assert "1 night without hands not in these averages." in text
    assert client.get(f"/sessions/{made['id']}").status_code == 200
