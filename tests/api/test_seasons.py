"""Named seasons through the API and their standings (API.md "Seasons"): the numbers checked by
hand on a few sessions, one started before the season and one played with a house rule it
leaves out; the fewest hands to be ranked by average; refusals that change nothing; write keys;
and a backup that carries seasons."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import RuleError

from ..helpers.api import Api
from ..helpers.backups import backup_of, restore
from ..helpers.database import Fresh
from ..helpers.seasons import SPRING, create, made, record_league


@pytest.fixture
def league(app: Flask, api: Api) -> None:
    record_league(app, api)


def by_player(answer: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    keys = ("place", "average_place", "total", "hands", "hands_won", "average", "sessions")
    return {s["player"]: tuple(s[key] for key in (*keys, "money")) for s in answer["standings"]}


@pytest.mark.usefixtures("league")
def test_the_standings_add_up_the_seasons_sessions_by_hand(client: FlaskClient) -> None:
    season = made(client)
    answer = client.get(f"/api/seasons/{season['id']}").json
    assert answer["name"] == "Spring 2026"
    assert answer["house_rules"] == ["plain"]
    # Totals: Ann 4-1 = 3, Bob 1-1 = 0, Cat -4, Dan -3, Eve 2, Gus 2. Eve and Gus share 2 but Eve
    # won more hands. Averages: Ann 3/4, Eve 2/3, Bob 0/4, Dan -3/3, Cat -4/3; Gus played one
    # hand, under the 3 to be ranked by average. Money: the staked night's totals x 10 cents.
    assert by_player(answer) == {
        "Ann": (1, 1, 3, 4, 3, 0.75, 2, 40),
        "Eve": (2, 2, 2, 3, 2, 0.67, 1, 20),
        "Gus": (3, None, 2, 1, 1, 2.0, 1, 0),
        "Bob": (4, 3, 0, 4, 2, 0.0, 2, 10),
        "Dan": (5, 4, -3, 3, 0, -1.0, 1, -30),
        "Cat": (6, 5, -4, 3, 0, -1.33, 1, -40),
    }
    assert [s["player"] for s in answer["standings"]] == ["Ann", "Eve", "Gus", "Bob", "Dan", "Cat"]
    assert answer["staked"] is True
    # Only the staked night is settled, in cents.
    settle = answer["settle_up"]
    assert settle["unit"] == "cents"
    assert settle["balances"] == {"Ann": 40, "Bob": 10, "Cat": -40, "Dan": -30, "Eve": 20}
    paid: dict[str, int] = {}
    for payment in settle["payments"]:
        paid[payment["from"]] = paid.get(payment["from"], 0) - payment["amount"]
        paid[payment["to"]] = paid.get(payment["to"], 0) + payment["amount"]
    assert paid == settle["balances"]


@pytest.mark.usefixtures("league")
def test_the_fewest_hands_decide_who_is_ranked_by_average(client: FlaskClient) -> None:
    season = made(client, min_hands=4)
    answer = client.get(f"/api/seasons/{season['id']}").json
    places = {s["player"]: s["average_place"] for s in answer["standings"]}
    assert places == {"Ann": 1, "Bob": 2, "Cat": None, "Dan": None, "Eve": None, "Gus": None}
    changed = client.patch(f"/api/seasons/{season['id']}", json={"min_hands": 0})
    assert changed.status_code == 200, changed.json
    answer = client.get(f"/api/seasons/{season['id']}").json
    places = {s["player"]: s["average_place"] for s in answer["standings"]}
    assert places == {"Gus": 1, "Ann": 2, "Eve": 3, "Bob": 4, "Dan": 5, "Cat": 6}


@pytest.mark.usefixtures("league")
def test_a_season_of_any_rules_takes_the_bump_night_and_of_bump_only_that(
    client: FlaskClient,
) -> None:
    every = made(client, name="Any rules", house_rules=[])
    bump = made(client, name="Bump", house_rules=["BUMP "])
    assert bump["house_rules"] == ["bump"]
    answer = client.get(f"/api/seasons/{every['id']}").json
    # The bump night: Cat picked with Dan and won twice, +2 +1 each hand.
    assert {s["player"]: s["total"] for s in answer["standings"]}["Cat"] == -4 + 4
    answer = client.get(f"/api/seasons/{bump['id']}").json
    assert {s["player"]: (s["total"], s["sessions"]) for s in answer["standings"]} == {
        "Cat": (4, 1),
        "Dan": (2, 1),
        "Ann": (-2, 1),
        "Bob": (-2, 1),
        "Eve": (-2, 1),
    }
    assert answer["staked"] is False
    assert answer["settle_up"]["unit"] == "points"


def test_seasons_are_made_listed_changed_and_deleted(client: FlaskClient) -> None:
    spring = made(client)
    assert spring == {
        "id": spring["id"],
        "name": "Spring 2026",
        "first_day": "2026-03-01",
        "last_day": "2026-05-31",
        "house_rules": ["plain"],
        "min_hands": 3,
        "created_at": spring["created_at"],
    }
    fall = made(client, name="Fall 2026", first_day="2026-09-01", last_day="2026-11-30")
    default = create(
        client, {"name": "Summer", "first_day": "2026-06-01", "last_day": "2026-08-31"}
    )
    assert default.json["min_hands"] == 30
    assert default.json["house_rules"] == []
    listed = client.get("/api/seasons").json["seasons"]
    assert [s["name"] for s in listed] == ["Fall 2026", "Summer", "Spring 2026"]
    changed = client.patch(f"/api/seasons/{fall['id']}", json={"name": "fall 2026"})
    assert changed.status_code == 200
    assert changed.json["name"] == "fall 2026"
    assert client.delete(f"/api/seasons/{fall['id']}").status_code == 204
    assert client.get(f"/api/seasons/{fall['id']}").status_code == 404
    assert client.delete(f"/api/seasons/{fall['id']}").status_code == 404
    assert client.patch(f"/api/seasons/{fall['id']}", json={"min_hands": 1}).status_code == 404
    assert client.get("/api/seasons/99999999999").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "field", "sentence"),
    [
        (SPRING | {"name": "SPRING 2026"}, 409, "name", "There is a season named Spring 2026"),
        (SPRING | {"last_day": "2026-02-28"}, 400, "last_day", "comes before the first day"),
        (SPRING | {"house_rules": ["bump", "plain"]}, 400, "house_rules", "can't go with Bump"),
        (SPRING | {"house_rules": ["jokers"]}, 400, "house_rules", "“jokers” is none of them"),
        (SPRING | {"house_rules": "bump"}, 400, "house_rules", "House rules are a list"),
        (SPRING | {"min_hands": 10000}, 400, "min_hands", "from 0 to 9999"),
        (SPRING | {"min_hands": "3"}, 400, "min_hands", "from 0 to 9999"),
        (SPRING | {"name": "x" * 61}, 400, "name", "1 to 60 characters"),
        (SPRING | {"first_day": "2026-02-30"}, 400, "first_day", "YYYY-MM-DD"),
        ({"name": "Winter", "last_day": "2026-02-28"}, 400, "first_day", "first day"),
        (SPRING | {"weeks": 3}, 400, "weeks", "no field called weeks"),
    ],
)
def test_a_refused_season_changes_nothing(
    client: FlaskClient, body: dict[str, Any], status: int, field: str, sentence: str
) -> None:
    made(client)
    before = client.get("/api/seasons").json
    response = create(client, body)
    assert response.status_code == status, response.json
    assert response.json["field"] == field
    assert sentence in response.json["error"]
    assert client.get("/api/seasons").json == before


def test_a_change_is_checked_against_the_season_as_it_is(client: FlaskClient) -> None:
    spring = made(client)
    made(client, name="Fall")
    path = f"/api/seasons/{spring['id']}"
    too_early = client.patch(path, json={"last_day": "2026-01-01"})
    assert too_early.status_code == 400
    assert too_early.json == {
        "error": "The last day, 2026-01-01, comes before the first day, 2026-03-01.",
        "field": "last_day",
    }
    taken = client.patch(path, json={"name": "FALL"})
    assert taken.status_code == 409
    assert taken.json["field"] == "name"
    nothing = client.patch(path, json={})
    assert nothing.status_code == 400
    # A season's own answer sent back changes nothing it does not name.
    back = client.patch(path, json=spring | {"min_hands": 5})
    assert back.status_code == 200, back.json
    assert back.json == spring | {"min_hands": 5}


def test_a_repeated_write_key_makes_one_season(client: FlaskClient) -> None:
    first = create(client, SPRING, **{"Idempotency-Key": "spring-1"})
    again = create(client, SPRING, **{"Idempotency-Key": "spring-1"})
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    other = create(client, SPRING | {"name": "Other"}, **{"Idempotency-Key": "spring-1"})
    assert other.status_code == 409
    assert len(client.get("/api/seasons").json["seasons"]) == 1


def test_a_backup_carries_the_seasons(app: Flask, client: FlaskClient, fresh: Fresh) -> None:
    made(client)
    made(client, name="Bump", house_rules=["bump", "tricks"], min_hands=0)
    seasons = client.get("/api/seasons").json["seasons"]
    backup = backup_of(app)
    assert [s["name"] for s in backup["seasons"]] == ["Spring 2026", "Bump"]
    restored = fresh()
    restore(restored, backup)
    back = restored.test_client().get("/api/seasons").json["seasons"]
    assert [{k: v for k, v in s.items() if k != "id"} for s in back] == [
        {k: v for k, v in s.items() if k != "id"} for s in seasons
    ]
    # A season already here by name is not added twice.
    restore(restored, backup, merge=True)
    assert len(restored.test_client().get("/api/seasons").json["seasons"]) == 2


def test_a_backup_without_seasons_restores_none(app: Flask, fresh: Fresh) -> None:
    backup = backup_of(app)
    del backup["seasons"]
    restored = fresh()
    restore(restored, backup)
    assert restored.test_client().get("/api/seasons").json == {"seasons": []}


def test_a_backup_with_a_season_refused_restores_nothing(
    app: Flask, client: FlaskClient, fresh: Fresh
) -> None:
    made(client)
    backup = backup_of(app)
    backup["seasons"][0]["last_day"] = "2026-01-01"
    restored = fresh()
    with pytest.raises(RuleError, match=r"^Season 1 of the backup: The last day"):
        restore(restored, backup)
