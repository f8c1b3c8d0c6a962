"""A backup's events and merges, checked against themselves and the rest of the file before a
restore writes anything: refused on the Settings page and by `flask import-backup` with a
sentence that names what is wrong, the database left as it was."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import func, select

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import (
    Event,
    EventPlayer,
    Hand,
    Player,
    PlayerMerge,
    Session,
    TrashedSession,
)

from ..helpers.api import Api, pick
from ..helpers.backups import BuiltBackup, backup_of, restore
from ..helpers.database import Fresh

NAMES = [f"Player {n:02d}" for n in range(1, 11)]


def ok(response: Any, status: int = 201) -> Any:
    assert response.status_code == status, response.json
    return response.json


def build_league(client: FlaskClient) -> None:
    """An event of two rounds, both drawn and the first played, ten players at two tables a
    round; then two sessions of their own, Bob at one and Bobby at the other, Bobby merged into
    Bob."""
    event = ok(client.post("/api/events", json={"name": "Club night", "rounds": 2, "hands": 5}))
    for name in NAMES:
        ok(client.post(f"/api/events/{event['id']}/players", json={"name": name}))
    event = ok(client.post(f"/api/events/{event['id']}/rounds", json={}))
    for table in event["draws"][0]["tables"]:
        seats = table["seats"]
        ok(client.post(f"/api/sessions/{table['session']}/hands", json=pick(seats[1], None, 75)))
        ok(client.patch(f"/api/sessions/{table['session']}", json={"ended": True}), 200)
    ok(client.post(f"/api/events/{event['id']}/rounds", json={}))
    api = Api(client)
    api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Eve"])
    own = api.new_session(players=["Ann", "Bobby", "Cat", "Dan", "Eve"])["id"]
    api.record(own, **pick("Bobby", "Ann", 90))
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    ok(client.post(f"/api/players/{ids['Bobby']}/merge", json={"into": ids["Bob"]}), 200)


def league_backup(backup_built: BuiltBackup) -> dict[str, Any]:
    backup = backup_built(build_league)
    assert len(backup["events"]) == 1 and len(backup["merges"]) == 1
    return backup


def tables(backup: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """The backup's table sessions by round and table."""
    return {
        (session["event"]["round"], session["event"]["table"]): session
        for session in backup["sessions"]
        if "event" in session
    }


def player_id(backup: dict[str, Any], name: str) -> int:
    return next(p["id"] for p in backup["players"] if p["name"] == name)


# Each hostile backup: a change to the league's backup, returning the sentence it is refused
# with.
Change = Callable[[dict[str, Any]], str]


def same_table_twice(backup: dict[str, Any]) -> str:
    first, second = tables(backup)[1, 1], tables(backup)[1, 2]
    second["event"]["table"] = 1
    event = first["event"]["id"]
    return (
        f"Session {first['id']} and session {second['id']} are both round 1, table 1 of event "
        f"{event}."
    )


def round_past_the_last(backup: dict[str, Any]) -> str:
    table = tables(backup)[2, 1]
    table["event"]["round"] = 5
    event = table["event"]["id"]
    return f"Session {table['id']} is a table of round 5 of event {event}, which plays 2 rounds."


def missing_event(backup: dict[str, Any]) -> str:
    table = tables(backup)[1, 2]
    missing = backup["events"][0]["id"] + 100
    table["event"]["id"] = missing
    return (
        f"Session {table['id']} is a table of event {missing}, which is not among the backup's "
        "events."
    )


def event_listed_twice(backup: dict[str, Any]) -> str:
    backup["events"].append({**backup["events"][0], "name": "Again"})
    return f"Event 2 of the backup: The id {backup['events'][0]['id']} is given to two events."


def checked_in_twice(backup: dict[str, Any]) -> str:
    players = backup["events"][0]["players"]
    players.append({"name": players[3]["name"].upper(), "checked_in": False})
    return f"Event 1 of the backup: {players[3]['name'].upper()} is listed twice among its players."


def round_left_out(backup: dict[str, Any]) -> str:
    backup["events"][0]["rounds"] = 3
    for table in (1, 2):
        tables(backup)[2, table]["event"]["round"] = 3
    event = backup["events"][0]["id"]
    return f"Event {event} has tables in round 3 but none in round 2."


def table_left_out(backup: dict[str, Any]) -> str:
    tables(backup)[1, 2]["event"]["table"] = 3
    return f"Round 1 of event {backup['events'][0]['id']} has table 3 but no table 2."


def numbered_zero(key: str) -> Change:
    def change(backup: dict[str, Any]) -> str:
        table = tables(backup)[1, 1]
        table["event"][key] = 0
        return (
            f"Session {table['id']}: Its event's {key} must be a whole number from 1 to 1000000000."
        )

    return change


def table_in_the_trash(backup: dict[str, Any]) -> str:
    table = {k: v for k, v in tables(backup)[1, 1].items() if k != "changes"}
    trashed = max(s["id"] for s in backup["sessions"]) + 1
    backup["trash"].append(
        {
            "id": trashed,
            "deleted_at": datetime.now(UTC).isoformat(),
            "session": table,
            "version": table["version"],
            "changes": [],
        }
    )
    return (
        f"Trashed session {trashed}: It is table 1 of round 1 of event "
        f"{table['event']['id']}, but a table of an event is never deleted."
    )


def event_no_event_has(backup: dict[str, Any]) -> str:
    backup["events"][0]["hands"] = 0
    return "Event 1 of the backup: Hands a round must be a whole number from 1 to 300, not 0."


def prizes_past_the_pot(backup: dict[str, Any]) -> str:
    event = backup["events"][0]
    event.update(rounds=0, entry=500, places=[95], round_top=5)
    return (
        f"Event {event['id']}: The prizes give 105 percent of the pot (95 for places and 5 for "
        "each of 2 rounds); they can give at most 100."
    )


def merged_into_no_one(backup: dict[str, Any]) -> str:
    backup["merges"][0]["into"] = 999
    return (
        "Merge 1 of the backup: It merges Bobby into player 999, who is neither among the "
        "backup's players nor merged into another by a later merge."
    )


def merged_yet_listed(backup: dict[str, Any]) -> str:
    ann = player_id(backup, "Ann")
    backup["merges"][0]["player"] = ann
    return (
        f"Merge 1 of the backup: It merges player {ann} away, but Ann is still among the "
        f"backup's players as player {ann}."
    )


def merged_into_themselves(backup: dict[str, Any]) -> str:
    merge = backup["merges"][0]
    merge["into"] = merge["player"]
    return f"Merge 1 of the backup: It merges player {merge['player']} into themselves."


def merge_listed_twice(backup: dict[str, Any]) -> str:
    merge = backup["merges"][0]
    backup["merges"].append({**merge, "player": 900, "name": "Zed"})
    return f"Merge 2 of the backup: The id {merge['id']} is given to two merges."


def merged_away_twice(backup: dict[str, Any]) -> str:
    merge = backup["merges"][0]
    backup["merges"].append({**merge, "id": merge["id"] + 1})
    return f"Merge 2 of the backup: Player {merge['player']} is merged away by two merges."


def merged_into_one_merged_before(backup: dict[str, Any]) -> str:
    merge = backup["merges"][0]
    later = {**merge, "id": merge["id"] + 1, "player": 900, "name": "Zed", "into": merge["player"]}
    backup["merges"].append(later)
    return (
        f"Merge 2 of the backup: It merges Zed into player {merge['player']}, who is neither "
        "among the backup's players nor merged into another by a later merge."
    )


def merged_in_the_future(backup: dict[str, Any]) -> str:
    backup["merges"][0]["at"] = "2999-01-01T00:00:00+00:00"
    return "Merge 1 of the backup: It is dated 2999-01-01T00:00:00+00:00, in the future."


HOSTILE: dict[str, Change] = {
    "two tables claim round 1, table 1": same_table_twice,
    "a table in round 5 of a 2-round event": round_past_the_last,
    "a table of an event the backup doesn't hold": missing_event,
    "an event listed twice": event_listed_twice,
    "a player checked in twice to one event": checked_in_twice,
    "tables in round 3 and none in round 2": round_left_out,
    "table 3 and no table 2": table_left_out,
    "a table in round 0": numbered_zero("round"),
    "table 0": numbered_zero("table"),
    "a table in the trash": table_in_the_trash,
    "an event with no hands a round": event_no_event_has,
    "prizes past the pot for the rounds drawn": prizes_past_the_pot,
    "a merge into a player missing": merged_into_no_one,
    "a merge of a player still listed": merged_yet_listed,
    "a merge into themselves": merged_into_themselves,
    "a merge's id given twice": merge_listed_twice,
    "a player merged away twice": merged_away_twice,
    "a merge into a player merged before it": merged_into_one_merged_before,
    "a merge dated in the future": merged_in_the_future,
}


def held(app: Flask) -> dict[str, Any]:
    """What the database holds: its players, sessions, hands, events with their players,
    merges and trash."""
    with app.app_context():
        found: dict[str, Any] = {
            model.__name__: db.session.scalar(select(func.count()).select_from(model))
            for model in (Player, Session, Hand, Event, EventPlayer, PlayerMerge, TrashedSession)
        }
        found["players"] = list(db.session.execute(select(Player.id, Player.name)))
        found["sessions"] = list(db.session.execute(select(Session.id, Session.version)))
        return found


def page_error(response: Any) -> str:
    """The reason on the Settings page a refused restore answers with: 400, the form again."""
    assert response.status_code == 400
    body = response.text
    assert '<h1 class="while-restoring">' not in body and 'action="/settings/restore"' in body
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', body)
    assert error is not None, body[-3000:]
    return error[1]


@pytest.mark.parametrize("merge", [False, True], ids=["restore", "merge"])
@pytest.mark.parametrize("change", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_backup_whose_events_or_merges_contradict_it_is_refused_before_anything_is_written(
    backup_built: BuiltBackup,
    fresh: Fresh,
    tmp_path: Path,
    change: Change,
    merge: bool,
) -> None:
    backup = league_backup(backup_built)
    message = change(backup)
    target = fresh()
    if merge:
        Api(target.test_client()).new_session()
    before = held(target)

    fields = {"merge": "y"} if merge else {}
    upload = {"backup": (io.BytesIO(json.dumps(backup).encode()), "backup.json"), **fields}
    page = target.test_client().post("/settings/restore", data=upload)
    assert page_error(page) == escape(message)
    assert held(target) == before

    file = tmp_path / "hostile.json"
    file.write_text(json.dumps(backup), "utf-8")
    command = target.test_cli_runner().invoke(
        args=["import-backup", *(["--merge"] if merge else []), str(file)]
    )
    assert (command.exit_code, command.stderr) == (1, f"Error: {message}\n")
    assert held(target) == before


def test_the_league_restores_whole(backup_built: BuiltBackup, fresh: Fresh) -> None:
    """The backup every hostile one is made from is itself restored."""
    backup = league_backup(backup_built)
    target = fresh()
    restore(target, copy.deepcopy(backup))
    assert held(target)["Event"] == 1 and held(target)["PlayerMerge"] == 1
    again = target.test_client()
    event = again.get(f"/api/events/{backup['events'][0]['id']}").json
    assert [len(d["tables"]) for d in event["draws"]] == [2, 2]


def test_a_merge_into_a_player_merged_later_restores_and_undoes(
    app: Flask, client: FlaskClient, fresh: Fresh
) -> None:
    """Bobby merged into Bob, then Bob into Robert: the first merge's player is gone from the
    backup's players, and both are undone after the restore, the later first."""
    api = Api(client)
    for seated in ("Bobby", "Bob", "Robert"):
        api.new_session(players=["Ann", "Cat", "Dan", "Eve", seated])
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    ok(client.post(f"/api/players/{ids['Bobby']}/merge", json={"into": ids["Bob"]}), 200)
    ok(client.post(f"/api/players/{ids['Bob']}/merge", json={"into": ids["Robert"]}), 200)
    backup = backup_of(app)
    assert [(m["player"], m["into"]) for m in backup["merges"]] == [
        (ids["Bobby"], ids["Bob"]),
        (ids["Bob"], ids["Robert"]),
    ]

    target = fresh()
    restore(target, backup)
    again = target.test_client()
    first, later = sorted(m["id"] for m in again.get("/api/players/merges").json["merges"])
    ok(again.post(f"/api/players/merges/{later}/undo"), 200)
    ok(again.post(f"/api/players/merges/{first}/undo"), 200)
    names = {p["name"]: p["id"] for p in again.get("/api/players").json["players"]}
    assert names == {
        **{n: ids[n] for n in ("Ann", "Cat", "Dan", "Eve")},
        **{n: ids[n] for n in ("Bobby", "Bob", "Robert")},
    }


def test_a_restore_keeps_the_ids_its_merges_name_from_new_players_and_sessions(
    backup_built: BuiltBackup, fresh: Fresh
) -> None:
    """Bobby, merged away, had the largest id of any player, and the merge names a session in
    the trash since gone from it with a larger id than any session's: neither id is handed out
    again, so the merge still undoes as it did."""
    backup = league_backup(backup_built)
    (merge,) = backup["merges"]
    assert merge["player"] > max(p["id"] for p in backup["players"])
    gone = max(s["id"] for s in backup["sessions"]) + 5
    merge["trashed"].append(gone)

    target = fresh()
    restore(target, backup)
    again = Api(target.test_client())
    session = again.new_session(players=["Ann", "Bob", "Cat", "Dan", "Zed"])
    assert session["id"] > gone
    ids = {p["name"]: p["id"] for p in again.client.get("/api/players").json["players"]}
    assert ids["Zed"] > merge["player"]
    ok(again.client.post(f"/api/players/merges/{merge['id']}/undo"), 200)
    restored = {p["name"]: p["id"] for p in again.client.get("/api/players").json["players"]}
    assert restored["Bobby"] == merge["player"]
