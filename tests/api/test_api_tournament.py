"""Tournament tables through the API (API.md "Tournament tables: the other side confirms, the
director is called", RULES.md "Tournament tables"): hands confirmed by the other side, what an
edit does to it, the board's counts, provisional standings and a complete event waiting for
them; the director called and answered; a substitute seated for a player and counted for them.
Each write is safe to repeat and refused whole."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.rules import RuleError

from ..helpers.access import invited, set_passcode, signed_in
from ..helpers.api import Api, pick, without_time
from ..helpers.backups import answers, assert_same_answers, backup_of, restore
from ..helpers.database import Fresh
from ..helpers.events import confirm_event, drawn, event_of, last_tables, make_event, record


def confirm(
    client: FlaskClient, session_id: int, number: int, by: Any, status: int = 200, **headers: str
) -> Any:
    response = client.post(
        f"/api/sessions/{session_id}/hands/{number}/confirm", json={"by": by}, headers=headers
    )
    assert response.status_code == status, response.json
    return response.json


def session_of(client: FlaskClient, session_id: int) -> dict[str, Any]:
    response = client.get(f"/api/sessions/{session_id}")
    assert response.status_code == 200
    return response.json  # type: ignore[no-any-return]


def history(client: FlaskClient, session_id: int) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = client.get(f"/api/sessions/{session_id}/history").json[
        "changes"
    ]
    return changes


def table_one(event: dict[str, Any]) -> tuple[int, list[str]]:
    table = last_tables(event)[0]
    return table["session"], table["seats"]


# --- confirming


def test_an_event_asks_for_confirming_and_its_hands_carry_confirmed_by(
    client: FlaskClient,
) -> None:
    plain = drawn(client, make_event(client, 5)["id"])
    assert plain["confirm"] is False
    session_id, seats = table_one(plain)
    record(client, session_id, pick(seats[1], seats[2], 75))
    assert "confirmed_by" not in session_of(client, session_id)["hands"][0]

    event = confirm_event(client)
    assert event["confirm"] is True
    session_id, seats = table_one(event)
    added = client.post(f"/api/sessions/{session_id}/hands", json=pick(seats[1], seats[2], 75))
    assert added.json["confirmed_by"] is None
    assert session_of(client, session_id)["hands"][0]["confirmed_by"] is None


def test_the_other_side_confirms_a_hand_once(client: FlaskClient) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    version = session_of(client, session_id)["version"]
    confirmed = confirm(client, session_id, 1, seats[3].upper())
    assert confirmed["confirmed_by"] == seats[3]
    assert session_of(client, session_id)["version"] == version + 1
    assert session_of(client, session_id)["hands"][0]["confirmed_by"] == seats[3]
    change = history(client, session_id)[0]
    assert (change["action"], change["number"]) == ("confirm", 1)
    assert (change["before"]["confirmed_by"], change["after"]["confirmed_by"]) == (
        None,
        seats[3],
    )
    # Twice, by another of the side: 200, nothing changes.
    again = confirm(client, session_id, 1, seats[4])
    assert again["confirmed_by"] == seats[3]
    assert session_of(client, session_id)["version"] == version + 1
    assert len(history(client, session_id)) == 2


@pytest.mark.parametrize("who", ["picker", "partner", "stranger", "empty"])
def test_anyone_but_the_other_side_is_refused_at_by_and_nothing_changes(
    client: FlaskClient, who: str
) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    before = session_of(client, session_id)
    by = {"picker": seats[1], "partner": seats[2], "stranger": "Zed", "empty": " "}[who]
    refused = confirm(client, session_id, 1, by, status=400)
    assert refused["field"] == "by"
    assert seats[3] in refused["error"] and seats[1] not in refused["error"].split(":")[1]
    assert session_of(client, session_id) == before


@pytest.mark.parametrize("body", [{}, {"by": 3}, {"by": "Ann", "when": "now"}])
def test_a_confirm_without_a_name_is_refused(client: FlaskClient, body: Any) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    response = client.post(f"/api/sessions/{session_id}/hands/1/confirm", json=body)
    assert response.status_code == 400
    assert response.json["field"] in ("by", "when")


def test_a_leaster_a_pass_and_a_penalty_are_confirmed_by_their_players(
    client: FlaskClient,
) -> None:
    event = confirm_event(client, rules={"no_bid": "leaster", "penalties": True})
    session_id, seats = table_one(event)
    record(client, session_id, {"kind": "leaster", "winner": seats[2]})
    record(client, session_id, {"kind": "penalty", "penalized": seats[3]})
    assert confirm(client, session_id, 1, seats[2])["confirmed_by"] == seats[2]
    assert confirm(client, session_id, 2, seats[3], status=400)["field"] == "by"
    assert confirm(client, session_id, 2, seats[1])["confirmed_by"] == seats[1]
    other = confirm_event(client, rules={"no_bid": "redeal"})
    session_id, seats = table_one(other)
    record(client, session_id, {"kind": "pass"})
    assert confirm(client, session_id, 1, seats[0])["confirmed_by"] == seats[0]


def test_an_edit_unconfirms_and_a_restore_of_the_confirm_unconfirms(
    client: FlaskClient,
) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    confirm(client, session_id, 1, seats[3])
    edited = client.put(f"/api/sessions/{session_id}/hands/1", json=pick(seats[1], seats[2], 80))
    assert (edited.status_code, edited.json["confirmed_by"]) == (200, None)
    confirm(client, session_id, 1, seats[4])
    undone = client.post(f"/api/sessions/{session_id}/history/0/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["hands"][0]["confirmed_by"] is None


def test_a_table_that_does_not_confirm_refuses_with_409(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    assert confirm(client, session_id, 1, seats[3], status=409)["field"] == "by"
    plain = client.post("/api/sessions", json={"players": seats, "rounds": 0}).json["id"]
    record(client, plain, pick(seats[1], seats[2], 75))
    confirm(client, plain, 1, seats[3], status=409)
    confirm(client, session_id, 2, seats[3], status=409)
    confirming = confirm_event(client)
    confirm(client, table_one(confirming)[0], 1, seats[3], status=404)


def test_the_board_counts_hands_to_confirm_and_the_standings_are_provisional(
    client: FlaskClient,
) -> None:
    event = confirm_event(client, 10, rounds=1, entry=1000, places=[100], hands=1)
    tables = last_tables(event)
    for table in tables:
        seats = table["seats"]
        record(client, table["session"], pick(seats[1], seats[2], 75))
    event = event_of(client, event["id"])
    assert [t["to_confirm"] for t in last_tables(event)] == [1, 1]
    assert [t["complete"] for t in last_tables(event)] == [False, False]
    for table in tables:
        seats = table["seats"]
        for _ in range(len(seats) - 1):
            record(
                client,
                table["session"],
                {"kind": "pick", "picker": seats[0], "partner": None, "picking_points": 61},
            )
    event = event_of(client, event["id"])
    assert all(t["complete"] for t in last_tables(event))
    assert event["provisional"] is True and event["complete"] is False
    assert all(s["provisional"] is True for s in event["standings"])
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/events/{event['id']}/standings.csv").text))
    )
    assert {row["provisional"] for row in rows} == {"yes"}
    for table in last_tables(event):
        hands = session_of(client, table["session"])["hands"]
        for hand in hands:
            seats = hand["players"]
            picked = {hand["picker"], hand["partner"]}
            confirm(
                client, table["session"], hand["number"], next(p for p in seats if p not in picked)
            )
    event = event_of(client, event["id"])
    assert [t["to_confirm"] for t in last_tables(event)] == [0, 0]
    assert event["provisional"] is False and event["complete"] is True
    assert all(s["provisional"] is False for s in event["standings"])
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/events/{event['id']}/standings.csv").text))
    )
    assert {row["provisional"] for row in rows} == {""}


def test_a_confirm_is_safe_to_repeat_and_refuses_a_stale_version(client: FlaskClient) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    first = confirm(client, session_id, 1, seats[3], **{"Idempotency-Key": "confirm-1"})
    again = confirm(client, session_id, 1, seats[3], **{"Idempotency-Key": "confirm-1"})
    assert first == again
    assert [c["action"] for c in history(client, session_id)] == ["confirm", "add"]
    stale = confirm(client, session_id, 1, seats[4], status=412, **{"If-Match": '"1"'})
    assert stale["field"] == "version"


# --- the director


def test_a_table_calls_the_director_until_the_call_is_answered(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 10)["id"])
    session_id = last_tables(event)[1]["session"]
    version = session_of(client, session_id)["version"]
    called = client.post(
        f"/api/sessions/{session_id}/director", json={"note": " misdeal  at seat 3"}
    )
    assert called.status_code == 201, called.json
    call = called.json
    assert {k: call[k] for k in ("table", "round", "session", "note")} == {
        "table": 2, "round": 1, "session": session_id, "note": "misdeal at seat 3",
    }  # fmt: skip
    assert event_of(client, event["id"])["calls"] == [call]
    assert session_of(client, session_id)["director"] == {"note": call["note"], "at": call["at"]}
    assert session_of(client, session_id)["version"] == version + 1
    # Calling again while the call is open changes nothing.
    again = client.post(f"/api/sessions/{session_id}/director", json={})
    assert (again.status_code, again.json) == (200, call)
    other = last_tables(event)[0]["session"]
    assert client.post(f"/api/sessions/{other}/director").status_code == 201
    assert [c["table"] for c in event_of(client, event["id"])["calls"]] == [2, 1]
    assert client.post(f"/api/sessions/{other}/director", json={}).json["note"] == ""

    assert client.delete(f"/api/sessions/{session_id}/director").status_code == 204
    assert [c["table"] for c in event_of(client, event["id"])["calls"]] == [1]
    assert session_of(client, session_id)["director"] is None
    assert client.delete(f"/api/sessions/{session_id}/director").status_code == 204
    assert [c["action"] for c in history(client, session_id)] == [
        "answer-director", "call-director",
    ]  # fmt: skip
    undo = client.post(f"/api/sessions/{session_id}/history/0/restore")
    assert undo.status_code == 409


def test_a_call_is_refused_with_a_long_note_or_away_from_an_event(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    session_id = last_tables(event)[0]["session"]
    long = client.post(f"/api/sessions/{session_id}/director", json={"note": "x" * 201})
    assert (long.status_code, long.json["field"]) == (400, "note")
    typed = client.post(f"/api/sessions/{session_id}/director", json={"note": 3})
    assert (typed.status_code, typed.json["field"]) == (400, "note")
    assert event_of(client, event["id"])["calls"] == []
    plain = client.post("/api/sessions", json={"players": ["A", "B", "C"], "rounds": 0}).json
    assert client.post(f"/api/sessions/{plain['id']}/director").status_code == 409


def test_an_invited_scorer_may_call_the_director_and_a_reader_may_not(
    app: Flask, runner: FlaskCliRunner, client: FlaskClient
) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    session_id = last_tables(event)[0]["session"]
    set_passcode(runner)
    owner = signed_in(app)
    reader = invited(app, owner, session_id, "reader")
    assert reader.post(f"/api/sessions/{session_id}/director", json={}).status_code == 403
    scorer = invited(app, owner, session_id, "scorer")
    assert scorer.post(f"/api/sessions/{session_id}/director", json={}).status_code == 201
    assert reader.delete(f"/api/sessions/{session_id}/director").status_code == 403
    assert scorer.delete(f"/api/sessions/{session_id}/director").status_code == 204


# --- substitutes


def substitute(client: FlaskClient, event_id: int, status: int = 201, **body: Any) -> Any:
    response = client.post(f"/api/events/{event_id}/substitutes", json=body)
    assert response.status_code == status, response.json
    return response.json


def test_a_substitute_counts_for_the_player_replaced(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 10, entry=1000, places=[100])["id"])
    session_id, seats = table_one(event)
    ann = seats[3]
    record(client, session_id, pick(seats[1], seats[2], 75))
    event = substitute(client, event["id"], out=ann, **{"in": "Zed"})
    table = last_tables(event)[0]
    assert table["seats"] == [*seats[:3], "Zed", *seats[4:]]
    assert table["substitutes"] == [{"in": "Zed", "for": ann}]
    # The next hand Zed and the picker's side lose: Zed's -1 counts for Ann.
    record(client, session_id, pick(seats[2], seats[4], 40))
    event = event_of(client, event["id"])
    standings = {s["player"]: s for s in event["standings"]}
    assert "Zed" not in standings
    assert (standings[ann]["total"], standings[ann]["substitutes"]) == (-1 + 1, ["Zed"])
    assert event["pot"] == 10_000
    session = session_of(client, session_id)
    assert session["totals"]["Zed"] == 1 and session["totals"][ann] == -1
    assert [s["seated"] for s in session["standings"] if s["player"] == ann] == [False]
    change = history(client, session_id)[1]
    assert (change["action"], change["after"]) == (
        "substitute",
        {"out": ann, "in": "Zed", "for": ann},
    )
    players = {p["name"]: p for p in client.get("/api/players").json["players"]}
    assert players["Zed"]["hands"] == 1

    # Ann comes back the same way, and counts for herself again; Zed's hand stays hers.
    event = substitute(client, event["id"], out="Zed", **{"in": ann.lower()})
    assert last_tables(event)[0]["seats"] == seats
    record(client, session_id, pick(seats[1], seats[3], 75))
    standings = {s["player"]: s for s in event_of(client, event["id"])["standings"]}
    assert standings[ann]["total"] == -1 + 1 + 1 and "Zed" not in standings


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"out": "Zed", "in": "Yul"}, "out"),
        ({"out": "Player 01", "in": "Player 02"}, "in"),
        ({"out": "Player 01"}, "in"),
        ({"in": "Zed"}, "out"),
        ({"out": "Player 01", "in": ""}, "in"),
        ({"out": "Player 01", "in": "Zed", "seat": 3}, "seat"),
    ],
)
def test_a_substitute_is_refused_when_the_seat_or_the_player_does_not_fit(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    event = drawn(client, make_event(client, 10)["id"])
    before = event_of(client, event["id"])
    refused = substitute(client, event["id"], status=400, **body)
    assert refused["field"] == field
    assert event_of(client, event["id"]) == before


def test_no_substitute_before_a_draw_or_at_a_complete_table(client: FlaskClient) -> None:
    event = make_event(client, 5)
    assert substitute(client, event["id"], 400, out="Player 01", **{"in": "Zed"})["field"] == "out"
    event = drawn(
        client,
        event["id"],
    )
    session_id, seats = table_one(event)
    client.patch(f"/api/sessions/{session_id}", json={"ended": True})
    substitute(client, event["id"], 409, out=seats[0], **{"in": "Zed"})


def test_a_substitute_is_safe_to_repeat(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    session_id, seats = table_one(event)
    path = f"/api/events/{event['id']}/substitutes"
    body = {"out": seats[0], "in": "Zed"}
    first = client.post(path, json=body, headers={"Idempotency-Key": "sub-1"})
    again = client.post(path, json=body, headers={"Idempotency-Key": "sub-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json == again.json
    assert [c["action"] for c in history(client, session_id)] == ["substitute"]
    stale = client.post(path, json={"out": "Zed", "in": seats[0]}, headers={"If-Match": '"1"'})
    assert stale.status_code == 412


def test_a_rename_or_merge_follows_the_confirmer_and_the_substitute(client: FlaskClient) -> None:
    event = confirm_event(client, 10)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    confirm(client, session_id, 1, seats[3])
    substitute(client, event["id"], out=seats[4], **{"in": "Zed"})
    record(client, session_id, pick(seats[1], seats[2], 75))
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    renamed = client.patch(f"/api/players/{ids[seats[3]]}", json={"name": "Confirmer"})
    assert renamed.status_code == 200, renamed.json
    assert session_of(client, session_id)["hands"][0]["confirmed_by"] == "Confirmer"
    other = client.post("/api/sessions", json={"players": ["Zedd", "Q1", "Q2"], "rounds": 0})
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    merged = client.post(f"/api/players/{ids['Zed']}/merge", json={"into": ids["Zedd"]})
    assert merged.status_code == 200, merged.json
    assert other.status_code == 201
    event = event_of(client, event["id"])
    assert last_tables(event)[0]["substitutes"] == [{"in": "Zedd", "for": seats[4]}]
    standings = {s["player"]: s for s in event["standings"]}
    assert standings[seats[4]]["substitutes"] == ["Zedd"] and "Zedd" not in standings


# --- backups


def test_a_backup_keeps_confirmations_calls_and_substitutes(
    app: Flask, client: FlaskClient, fresh: Fresh
) -> None:
    event = confirm_event(client, 10, rounds=2)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    confirm(client, session_id, 1, seats[3])
    record(client, session_id, pick(seats[1], None, 40))
    substitute(client, event["id"], out=seats[4], **{"in": "Zed"})
    record(client, session_id, pick(seats[2], seats[3], 90))
    client.post(f"/api/sessions/{session_id}/director", json={"note": "revoke"})
    original, backup = answers(client), backup_of(app)
    kept = next(s for s in backup["sessions"] if s["id"] == session_id)
    assert [h.get("confirmed_by") for h in kept["hands"]] == [seats[3], None, None]
    assert kept["substitutes"] == [{"in": "Zed", "for": seats[4]}]
    assert kept["director"]["note"] == "revoke"
    assert next(e for e in backup["events"] if e["id"] == event["id"])["confirm"] is True

    restored_app = fresh()
    restore(restored_app, backup)
    again = restored_app.test_client()
    assert_same_answers(answers(again), original)
    assert event_of(again, event["id"]) == event_of(client, event["id"])
    assert without_time(backup_of(restored_app)) == without_time(backup)
    assert [c["action"] for c in history(again, session_id)][:2] == ["call-director", "add"]

    # Merged into what is here, the tables are ordinary sessions: no call, nobody stands in.
    merged_app = fresh()
    Api(merged_app.test_client()).new_session()
    restore(merged_app, backup, merge=True)
    merged = merged_app.test_client()
    tables = [
        merged.get(f"/api/sessions/{s['id']}").json
        for s in merged.get("/api/sessions").json["sessions"]
    ]
    assert all("director" not in table for table in tables)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"confirmed_by": "{picker}"}, "hand 1: {picker} can't confirm hand 1"),
        ({"director": {"note": "x" * 201, "at": "2026-10-03T20:00:00+00:00"}}, "at most 200"),
        ({"director": {"note": "revoke"}}, "a note and a time"),
        ({"substitutes": [{"in": "Nobody", "for": "{picker}"}]}, "not among the backup's"),
        ({"substitutes": [{"in": "{picker}", "for": "{picker}"}]}, "not for themselves"),
    ],
)
def test_a_restore_refuses_what_a_table_could_not_hold(
    app: Flask, client: FlaskClient, fresh: Fresh, change: dict[str, Any], words: str
) -> None:
    event = confirm_event(client)
    session_id, seats = table_one(event)
    record(client, session_id, pick(seats[1], seats[2], 75))
    backup = backup_of(app)
    kept = next(s for s in backup["sessions"] if s["id"] == session_id)
    given = json.loads(json.dumps(change).replace("{picker}", seats[1]))
    if "confirmed_by" in given:
        kept["hands"][0].update(given)
    else:
        kept.update(given)
    with pytest.raises(RuleError) as refused:
        restore(fresh(), backup)
    assert words.replace("{picker}", seats[1]) in refused.value.message
