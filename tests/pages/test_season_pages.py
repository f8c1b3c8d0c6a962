"""The seasons' pages: the list and New season, a season's page with its standings and
settle-up, Edit and Delete, refusals with the API's sentences, a form sent twice, and the
leaderboard's Season choice."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..helpers.api import Api
from ..helpers.pages import FormPage, get_page, redirected_page
from ..helpers.seasons import SPRING, made, record_league

FORM = {
    "name": "Spring 2026",
    "first_day": "2026-03-01",
    "last_day": "2026-05-31",
    "house_rules": "plain",
    "min_hands": "3",
    "write_key": "spring-season-key-01",
}


@pytest.fixture
def league(app: Flask, api: Api) -> None:
    record_league(app, api)


def test_a_season_is_made_on_its_page_once_however_often_it_is_sent(
    client: FlaskClient,
) -> None:
    empty = get_page(client, "/seasons")
    assert "No seasons yet" in empty.text
    assert empty.fields["min_hands"] == ["30"]
    response = client.post("/seasons", data=FORM)
    page = redirected_page(client, response, "/seasons/1")
    assert page.flashes == ["Spring 2026 is made."]
    again = client.post("/seasons", data=FORM)
    assert again.status_code == 302 and again.location == "/seasons/1"
    assert [s["name"] for s in client.get("/api/seasons").json["seasons"]] == ["Spring 2026"]
    listed = get_page(client, "/seasons")
    assert "Spring 2026 2026-03-01 to 2026-05-31 · sessions played with no house rule" in (
        listed.text
    )


@pytest.mark.parametrize(
    ("sent", "status", "field_error"),
    [
        ({"name": "SPRING 2026"}, 409, "There is a season named Spring 2026 already"),
        ({"last_day": "2026-02-01"}, 400, "comes before the first day"),
        ({"min_hands": "lots"}, 400, "must be a whole number from 0 to 9999"),
        ({"house_rules": ["plain", "bump"]}, 400, "can't go with Bump"),
        ({"name": " "}, 400, "must be 1 to 60 characters long"),
    ],
)
def test_a_refused_form_says_what_the_api_says_and_keeps_what_was_typed(
    client: FlaskClient, sent: dict[str, Any], status: int, field_error: str
) -> None:
    made(client)
    form = FORM | {"write_key": "another-season-key-2"} | sent
    response = client.post("/seasons", data=form)
    assert response.status_code == status
    page = FormPage(response.text)
    assert any(field_error in error for error in page.errors), page.errors
    api = client.post("/api/seasons", json=SPRING | sent)
    assert api.status_code == status
    assert api.json["error"] in page.errors
    assert page.fields["last_day"] == [form["last_day"]]
    assert len(client.get("/api/seasons").json["seasons"]) == 1


@pytest.mark.usefixtures("league")
def test_the_season_page_shows_its_standings_attendance_money_and_settle_up(
    client: FlaskClient,
) -> None:
    season = made(client)
    page = get_page(client, f"/seasons/{season['id']}")
    text = page.text
    assert "Spring 2026" in text
    assert "2026-03-01 to 2026-05-31, sessions played with no house rule." in text
    assert "Ranked by average from 3 hands." in text
    assert "1 Ann +3 4 hands +$0.40" in text
    assert "1 Ann +0.75 4 hands" in text
    assert "Fewer than 3 hands, not ranked: # Player Per hand Gus +2.00 1 hand" in text
    assert "Attendance Player Sessions Hands Ann 2 4 Bob 2 4" in text
    assert "In money, at $0.10 a point." in text
    assert "Who pays whom" in text
    edit = get_page(client, f"/seasons/{season['id']}/edit")
    assert edit.fields["house_rules"] == ["plain"]
    assert edit.fields["min_hands"] == ["3"]


def test_a_season_is_edited_and_deleted(client: FlaskClient) -> None:
    season = made(client)
    path = f"/seasons/{season['id']}"
    form = FORM | {"name": "Spring league", "house_rules": ["bump", "tricks"], "min_hands": "0"}
    form["write_key"] = "edit-season-key-0001"
    page = redirected_page(client, client.post(f"{path}/edit", data=form), path)
    assert page.flashes == ["Spring league is saved."]
    assert "sessions played with bump and schwarz by tricks" in page.text
    assert client.get(f"/api/seasons/{season['id']}").json["min_hands"] == 0
    assert "Delete this season?" in get_page(client, f"{path}/delete").text
    gone = client.post(f"{path}/delete", data={"write_key": "delete-season-key-01"})
    listed = redirected_page(client, gone, "/seasons")
    assert listed.flashes == ["Spring league is deleted; its sessions stay."]
    assert client.get(path).status_code == 404
    again = client.post(f"{path}/delete", data={"write_key": "delete-season-key-02"})
    assert redirected_page(client, again, "/seasons").flashes == [
        "That season was deleted already."
    ]


@pytest.mark.usefixtures("league")
def test_the_leaderboard_takes_a_seasons_days_and_house_rules(client: FlaskClient) -> None:
    season = made(client)
    made(client, name="Bump", house_rules=["bump"])
    board = get_page(client, f"/leaderboard?season={season['id']}")
    assert board.fields["season"] == [str(season["id"])]
    assert board.fields["from"] == ["2026-03-01"] and board.fields["to"] == ["2026-05-31"]
    assert board.fields["plain"] == ["y"]
    by_dates = get_page(client, "/leaderboard?from=2026-03-01&to=2026-05-31&plain=y")
    assert board.text.split("By total")[1] == by_dates.text.split("By total")[1]
    choices = client.get("/leaderboard").text
    assert choices.index(">Bump</option>") < choices.index(">Spring 2026</option>")
    assert client.get("/leaderboard?season=99").status_code == 400


def test_seasons_are_linked_from_the_menu_and_settings(client: FlaskClient) -> None:
    assert 'href="/seasons"' in client.get("/").text
    assert 'href="/seasons"' in client.get("/settings").text


def test_an_unknown_season_is_404(client: FlaskClient) -> None:
    for path in ("/seasons/7", "/seasons/7.csv", "/seasons/7/edit", "/seasons/7/delete"):
        assert client.get(path).status_code == 404


@pytest.mark.usefixtures("league")
def test_the_csv_lists_the_standings_by_total(client: FlaskClient) -> None:
    season = made(client)
    response = client.get(f"/seasons/{season['id']}.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == [
        "place", "player", "total", "hands", "hands_won", "average", "sessions", "money",
        "average_place", "nights",
    ]  # fmt: skip
    assert rows[1:4] == [
        ["1", "Ann", "3", "4", "3", "0.75", "2", "0.40", "1", "0"],
        ["2", "Eve", "2", "3", "2", "0.67", "1", "0.20", "2", "0"],
        ["3", "Gus", "2", "1", "1", "2.00", "1", "0.00", "", "0"],
    ]
