"""Practice events (API.md "Club events", README): made as a rehearsal, a round's tables filled
with made-up hands the rules engine makes and checks, through the one write path, every table
complete; left out of every list, total and statistic (players, leaderboard, a player's page,
seasons, the settle-up, the sessions list, the home page, every hand's CSV, partners); deleted
whole while a real event's tables stay; and carried by a backup."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from ..helpers.api import pick
from ..helpers.backups import backup_of, restore
from ..helpers.events import drawn, event_of, last_tables, make_event, names
from ..helpers.pages import FormPage, filled, page


def practice_hands(client: FlaskClient, event_id: int, number: int, **headers: str) -> Any:
    return client.post(
        f"/api/events/{event_id}/rounds/{number}/practice-hands", json={}, headers=headers
    )


def filled_round(client: FlaskClient, event_id: int, number: int) -> dict[str, Any]:
    response = practice_hands(client, event_id, number)
    assert response.status_code == 200, response.json
    return response.json  # type: ignore[no-any-return]


def league(client: FlaskClient) -> None:
    """A real session and a real event's round among the same players, with a hand each."""
    made = client.post(
        "/api/sessions", json={"players": names(5), "rounds": 2, "rules": {"stake": 25}}
    )
    assert made.status_code == 201, made.json
    session = made.json["id"]
    for hand in (pick("Player 01", "Player 02", 75), pick("Player 03", "Player 04", 30)):
        assert client.post(f"/api/sessions/{session}/hands", json=hand).status_code == 201
    real = make_event(client, players=5, seed=2)
    table = last_tables(drawn(client, real["id"]))[0]
    hand = pick(table["seats"][0], table["seats"][1], 90)
    assert client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201


def everywhere(client: FlaskClient) -> dict[str, Any]:
    """What every list, total and statistic shows, by where it shows it."""
    players = client.get("/api/players").json["players"]
    shown: dict[str, Any] = {
        "/api/players": players,
        "/api/sessions": client.get("/api/sessions").json,
        "/api/settle-up": client.get("/api/settle-up").json,
        "/api/seasons/1": client.get("/api/seasons/1").json,
    }
    for path in ["/", "/leaderboard?everyone=1", "/sessions", "/settle-up"]:
        shown[path] = page(client, path).text
    shown["/players"] = [
        row for row in page(client, "/players").rows("players-list") if "Newcomer" not in row[0]
    ]
    shown["/sessions/export.csv"] = client.get("/sessions/export.csv").text
    shown["/leaderboard.csv"] = client.get("/leaderboard.csv").text
    for player in players:
        shown[f"/players/{player['id']}"] = page(client, f"/players/{player['id']}").text
    return shown


def test_a_practice_round_is_filled_with_made_up_hands_every_table_complete(
    client: FlaskClient, runner: FlaskCliRunner
) -> None:
    event = make_event(client, players=17, practice=True, hands=8, seed=5)
    assert event["practice"] is True
    assert client.get("/api/events").json["events"][0]["practice"] is True
    event = drawn(client, event["id"])
    filled = filled_round(client, event["id"], 1)
    assert filled["version"] == event["version"] + 1
    for table in last_tables(filled):
        assert table["complete"] and table["hands"] == table["hands_to_play"] > 0
        session = client.get(f"/api/sessions/{table['session']}").json
        assert len(session["hands"]) == table["hands"]
        assert sum(session["totals"].values()) == 0
        assert client.get(f"/api/sessions/{table['session']}/history").json["changes"]
    assert filled["standings"] and sum(s["total"] for s in filled["standings"]) == 0
    assert runner.invoke(args=["check"]).exit_code == 0
    # Filled already: nothing to do, nothing changes.
    again = practice_hands(client, event["id"], 1)
    assert again.status_code == 200
    assert again.json == event_of(client, event["id"]) == filled
    # And the next round can be drawn at once.
    assert drawn(client, event["id"])["draws"][1]["round"] == 2


def test_made_up_hands_finish_a_table_some_hands_into_it(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, players=5, practice=True, hands=5)["id"])
    table = last_tables(event)[0]
    hand = pick(table["seats"][2], None, 100)
    assert client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
    filled = filled_round(client, event["id"], 1)
    assert last_tables(filled)[0]["complete"]
    hands = client.get(f"/api/sessions/{table['session']}").json["hands"]
    assert hands[0]["picker"] == table["seats"][2] and len(hands) == 5


def test_a_retried_fill_fills_once_and_answers_the_same(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, players=10, practice=True, hands=4)["id"])
    first = practice_hands(client, event["id"], 1, **{"Idempotency-Key": "fill-1"})
    second = practice_hands(client, event["id"], 1, **{"Idempotency-Key": "fill-1"})
    assert first.status_code == second.status_code == 200
    assert first.json == second.json
    assert event_of(client, event["id"])["version"] == first.json["version"]


def test_a_real_event_is_never_filled_and_a_round_not_drawn_is_404(client: FlaskClient) -> None:
    real = drawn(client, make_event(client, players=5)["id"])
    refused = practice_hands(client, real["id"], 1)
    assert refused.status_code == 409
    assert refused.json["field"] == "practice"
    assert last_tables(event_of(client, real["id"]))[0]["hands"] == 0
    practice = make_event(client, players=5, practice=True)
    missing = practice_hands(client, practice["id"], 1)
    assert (missing.status_code, missing.json["field"]) == (404, "round")
    drawn(client, practice["id"])
    assert practice_hands(client, practice["id"], 2).status_code == 404
    body = client.post(
        f"/api/events/{practice['id']}/rounds/1/practice-hands", json={"tables": [5]}
    )
    assert (body.status_code, body.json["field"]) == (400, "tables")


def test_practice_is_set_when_the_event_is_made_and_never_changes(client: FlaskClient) -> None:
    event = make_event(client, practice=True)
    same = client.patch(f"/api/events/{event['id']}", json={"practice": True, "name": "Again"})
    assert same.status_code == 200
    changed = client.patch(f"/api/events/{event['id']}", json={"practice": False})
    assert (changed.status_code, changed.json["field"]) == (409, "practice")
    real = make_event(client)
    assert client.patch(f"/api/events/{real['id']}", json={"practice": True}).status_code == 409
    wrong = client.post("/api/events", json={"name": "x", "practice": "yes"})
    assert wrong.json == {"error": "Practice must be true or false.", "field": "practice"}


def test_a_practice_event_counts_nowhere_else(client: FlaskClient) -> None:
    season = client.post(
        "/api/seasons",
        json={"name": "All time", "first_day": "2000-01-01", "last_day": "2100-12-31"},
    )
    assert season.status_code == 201, season.json
    league(client)
    before = everywhere(client)
    # The same players, and one only a practice event knows.
    practice = make_event(client, players=5, practice=True, hands=6)
    client.post(f"/api/events/{practice['id']}/players", json={"name": "Newcomer"})
    event = drawn(client, practice["id"])
    filled_round(client, event["id"], 1)
    after = everywhere(client)
    newcomer = next(p for p in after["/api/players"] if p["name"] == "Newcomer")
    assert (newcomer["sessions"], newcomer["hands"], newcomer["total"]) == (0, 0, 0)
    del after[f"/players/{newcomer['id']}"]
    # The home page lists the practice event itself, marked so.
    assert "club event · practice" in after.pop("/")
    before.pop("/")
    after["/api/players"] = [p for p in after["/api/players"] if p["name"] != "Newcomer"]
    # A player's page offers every other player to merge into.
    for path in after:
        if path.startswith("/players/"):
            after[path] = after[path].replace("Newcomer ", "", 1)
    assert after.keys() == before.keys()
    for path, shown in before.items():
        assert after[path] == shown, path


def test_a_practice_event_is_deleted_whole_and_a_real_one_is_not(
    client: FlaskClient, runner: FlaskCliRunner
) -> None:
    league(client)
    before = everywhere(client)
    practice = make_event(client, players=5, practice=True, hands=4)
    event = filled_round(client, drawn(client, practice["id"])["id"], 1)
    sessions = [t["session"] for t in last_tables(event)]
    deleted = client.delete(f"/api/events/{practice['id']}")
    assert deleted.status_code == 204
    assert client.get(f"/api/events/{practice['id']}").status_code == 404
    assert all(client.get(f"/api/sessions/{s}").status_code == 404 for s in sessions)
    assert client.delete(f"/api/events/{practice['id']}").status_code == 404
    assert everywhere(client) == before
    assert runner.invoke(args=["check"]).exit_code == 0
    real = client.get("/api/events").json["events"][0]
    refused = client.delete(f"/api/events/{real['id']}")
    assert refused.status_code == 409
    assert refused.json["error"] == (
        "Only a practice event can be deleted; a real event's tables are its standings, so "
        "they stay."
    )
    assert event_of(client, real["id"])["draws"]


def test_a_retried_delete_answers_the_same(client: FlaskClient) -> None:
    practice = make_event(client, players=5, practice=True)
    drawn(client, practice["id"])
    key = {"Idempotency-Key": "delete-practice"}
    first = client.delete(f"/api/events/{practice['id']}", headers=key)
    second = client.delete(f"/api/events/{practice['id']}", headers=key)
    assert (first.status_code, second.status_code) == (204, 204)


def test_the_pages_fill_a_round_and_delete_a_practice_event(client: FlaskClient) -> None:
    sent = filled(client, "/events/new", {"name": "Rehearsal", "practice": "y", "hands": "4"})
    made = client.post("/events/new", data=sent)
    assert made.status_code == 302, FormPage(made.text).errors
    event_id = int(made.location.rsplit("/", 1)[1])
    assert event_of(client, event_id)["practice"] is True
    for name in names(6):
        client.post(f"/api/events/{event_id}/players", json={"name": name})
    assert "practice" in page(client, "/events").text
    drawn(client, event_id)
    shown = page(client, f"/events/{event_id}")
    assert "Fill round 1 with made-up hands" in shown.text
    response = client.post(
        f"/events/{event_id}/rounds/1/practice-hands",
        data={"write_key": filled(client, f"/events/{event_id}", {})["write_key"]},
    )
    assert response.status_code == 302
    text = page(client, f"/events/{event_id}").text
    assert "made-up hands: every table of round 1 is complete." in text
    assert "Fill round 1" not in text
    assert "Delete this practice event?" in page(client, f"/events/{event_id}/delete").text
    deleted = client.post(f"/events/{event_id}/delete", data={"write_key": "delete-1"})
    assert deleted.status_code == 302 and deleted.location == "/events"
    assert "Rehearsal is deleted." in page(client, "/events").text
    assert client.get(f"/api/events/{event_id}").status_code == 404


def test_a_real_events_pages_offer_no_made_up_hands_and_no_delete(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, players=5)["id"])
    text = page(client, f"/events/{event['id']}").text
    assert "made-up hands" not in text and "Delete" not in text
    assert client.get(f"/events/{event['id']}/delete").status_code == 409
    refused = client.post(f"/events/{event['id']}/delete", data={"write_key": "d"})
    assert refused.status_code == 302
    assert "Only a practice event can be deleted" in page(client, f"/events/{event['id']}").text
    assert event_of(client, event["id"])["draws"]


def test_a_backup_keeps_pairs_apart_and_practice_events_and_restores_them(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, fresh: Any
) -> None:
    league(client)
    practice = make_event(client, players=10, practice=True, hands=4, apart=[names(2)])
    filled_round(client, drawn(client, practice["id"])["id"], 1)
    backup = backup_of(app)
    held = {event["id"]: event for event in backup["events"]}
    assert (held[practice["id"]]["apart"], held[practice["id"]]["practice"]) == (
        [names(2)], True,
    )  # fmt: skip
    before = everywhere(client)
    other = fresh()
    restore(other, backup)
    with other.test_client() as restored:
        assert event_of(restored, practice["id"]) == event_of(client, practice["id"])
        assert everywhere(restored) == before
        assert other.test_cli_runner().invoke(args=["check"]).exit_code == 0
        assert restored.delete(f"/api/events/{practice['id']}").status_code == 204


def test_a_merged_backup_leaves_a_practice_events_tables_out(
    app: Flask, client: FlaskClient, fresh: Any
) -> None:
    practice = make_event(client, players=5, practice=True, hands=4)
    filled_round(client, drawn(client, practice["id"])["id"], 1)
    backup = backup_of(app)
    other = fresh()
    restore(other, backup, merge=True)
    with other.test_client() as merged:
        assert merged.get("/api/sessions").json["sessions"] == []
        assert merged.get("/api/players").json["players"] == [] or all(
            p["sessions"] == 0 for p in merged.get("/api/players").json["players"]
        )


@pytest.mark.parametrize("hands", [1, 20])
def test_made_up_hands_at_tables_of_three_to_eight(client: FlaskClient, hands: int) -> None:
    event = make_event(client, players=33, practice=True, hands=hands)
    body = {"tables": [3, 4, 5, 6, 7, 8]}
    filled = filled_round(client, drawn(client, event["id"], body)["id"], 1)
    assert all(table["complete"] for table in last_tables(filled))
