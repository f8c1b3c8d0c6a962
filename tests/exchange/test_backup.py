"""Backup and restore: export-backup / import-backup, and the settings page's download and upload.

A restore into a fresh database must give every API answer exactly as before, so these tests
build sessions with every kind of hand, multiplier and option, restore them elsewhere and
compare the answers field by field.
"""

from __future__ import annotations

import copy
import io
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gevent
import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from werkzeug.http import parse_options_header
from werkzeug.test import TestResponse

from scorekeeper.exchange import backup as backup_module
from scorekeeper.exchange import backup_checks, backup_file, journal, session_checks
from scorekeeper.exchange import restore as restore_module
from scorekeeper.exchange.backup import FORMAT
from scorekeeper.rules import OPTION_NAMES, RuleError
from scorekeeper.sessions import bulk, hand_rows
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Hand, HandPlayer, Player, Session

from ..helpers.api import SEATS, Api, default_rules, pick, without_time
from ..helpers.backups import (
    ODD_NAMES,
    answers,
    assert_same_answers,
    backup_of,
    build_sessions,
    count_rows,
    export_backup,
    import_backup,
    restore,
)
from ..helpers.database import Fresh


def stored(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """What the statistics read: players with their ids, and the derived columns of hands."""
    with app.app_context():
        players = db.session.execute(
            select(Player.id, Player.name, Player.name_key).order_by(Player.id)
        )
        hands = db.session.execute(
            select(
                Hand.session_id,
                Hand.number,
                Hand.multiplier,
                Player.name,
                HandPlayer.seat,
                HandPlayer.played,
                HandPlayer.score,
                HandPlayer.won,
                HandPlayer.schneidered,
                HandPlayer.points,
                HandPlayer.tricks,
            )
            .join(HandPlayer, HandPlayer.hand_id == Hand.id)
            .join(Player, Player.id == HandPlayer.player_id)
            .order_by(Hand.session_id, Hand.number, HandPlayer.seat)
        )
        return {"players": [tuple(row) for row in players], "hands": [tuple(row) for row in hands]}


# --- The round trip


def test_restore_into_a_fresh_database_gives_every_answer_identical(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    original, original_stored, backup = answers(client), stored(app), backup_of(app)
    csvs = {
        session["id"]: client.get(f"/sessions/{session['id']}/export.csv").text
        for session in original["/api/sessions"]["sessions"]
    }
    assert backup["format"] == FORMAT and backup["version"] == 1
    json.dumps(backup)  # plain JSON all through

    restored_app = fresh()
    assert restore(restored_app, backup) == "5 sessions with 19 hands, and 11 new players"
    restored_client = restored_app.test_client()
    assert_same_answers(answers(restored_client), original)
    assert stored(restored_app) == original_stored
    assert without_time(backup_of(restored_app)) == without_time(backup)
    for session_id, text in csvs.items():
        assert restored_client.get(f"/sessions/{session_id}/export.csv").text == text


def test_the_backup_holds_each_hand_as_recorded_and_nothing_derived(app: Flask, api: Api) -> None:
    build_sessions(api)
    backup = backup_of(app)
    assert [p["name"] for p in backup["players"]] == [*SEATS, "Fay", *ODD_NAMES]
    complete, doublers, leasters, odd, empty = backup["sessions"]
    assert complete["hands"][3] == {
        "dealer": "Dan", "seats": list(SEATS), "kind": "pick", "picker": "Eve", "partner": "Ann",
        "called_card": "JC",
        "forced": False, "picking_points": 120, "cracked_by": "Ann", "recracked": False,
        "blitzes": ["black", "red"], "result": "won_schwarz",
    }  # fmt: skip
    assert doublers["players"] == ["Ann", "Bob", "Cat", "Dan", "Fay"]
    assert doublers["first_dealer"] == "Cat"
    assert doublers["rules"] == {
        **default_rules(), "partner": "called_ace", "no_bid": "doubler", "blitzing": False,
    }  # fmt: skip
    assert [h["dealer"] for h in doublers["hands"]] == ["Cat", "Dan", "Fay", "Bob", "Cat"]
    assert leasters["hands"][0] == {
        "dealer": "Ann", "seats": list(SEATS), "kind": "leaster", "winner": "Cat",
        "points": {"Ann": 30, "Bob": 40, "Cat": 10, "Dan": 25, "Eve": 15},
        "tricks": {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 1, "Eve": 1},
    }  # fmt: skip
    assert leasters["hands"][3] == {
        "dealer": "Eve", "seats": list(SEATS), "kind": "leaster", "winner": "Bob", "points": None,
        "tricks": None,
    }  # fmt: skip
    assert odd["hands"][0] == {"dealer": "=SUM(A1)", "seats": odd["players"], "kind": "pass"}
    assert empty["hands"] == [] and empty["first_dealer"] == "Dan" and empty["rounds"] == 3
    recorded = {key for session in backup["sessions"] for hand in session["hands"] for key in hand}
    assert recorded == {
        "dealer", "seats", "kind", "picker", "partner", "called_card", "forced", "picking_points",
        "cracked_by", "recracked", "blitzes", "winner", "points", "tricks", "result",
    }  # fmt: skip


def test_a_session_started_after_a_restore_gets_a_new_id(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    """Ids are kept, and (on PostgreSQL) the id sequences are moved past them."""
    ids = build_sessions(api)
    backup = backup_of(app)
    restored_app = fresh()
    restore(restored_app, backup)
    restored = Api(restored_app.test_client())
    new = restored.new_session(players=["Ann", "Gus", "Hal", "Ida", "Jo"])
    assert new["id"] == max(ids) + 1
    restored.record(new["id"], **pick("Gus", "Hal", 70))
    with restored_app.app_context():
        player_ids = db.session.scalars(select(Player.id).order_by(Player.id)).all()
    assert player_ids == list(range(1, 16))


def test_restoring_keeps_the_order_of_sessions_by_creation_time(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup = backup_of(app)
    backup["sessions"][0]["created_at"] = "2020-02-29T23:59:59.123456+00:00"
    backup["sessions"][1]["created_at"] = "2021-06-01T20:00:00+02:00"
    backup["sessions"][2]["created_at"] = "2021-06-01T18:00:00"
    restored_app = fresh()
    restore(restored_app, backup)
    restored = restored_app.test_client().get("/api/sessions").json["sessions"]
    assert [(s["id"], s["created_at"]) for s in restored[-3:]] == [
        (3, "2021-06-01T18:00:00+00:00"),
        (2, "2021-06-01T18:00:00+00:00"),
        (1, "2020-02-29T23:59:59.123456+00:00"),
    ]


# --- Refusals change nothing


def test_a_database_with_sessions_is_refused_unless_merging(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    build_sessions(api)
    backup, before = backup_of(app), answers(client)
    with pytest.raises(RuleError) as refused:
        restore(app, backup)
    assert refused.value.message == (
        "This scorekeeper already holds 5 sessions and 11 players. Restore a backup into an "
        "empty one, or merge it into what is here."
    )
    assert answers(client) == before


def test_merge_adds_the_sessions_as_new_ones_and_matches_players_by_name(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup, original = backup_of(app), answers(client)
    target = fresh()
    here = Api(target.test_client())
    own = here.new_session(players=["ANN", "bob", "Gus", "Hal", "Ida"])["id"]
    here.record(own, **pick("Gus", "ANN", 80))

    assert restore(target, backup, merge=True) == "5 sessions with 19 hands, and 9 new players"

    merged = answers(target.test_client())
    listing = merged["/api/sessions"]["sessions"]
    assert sorted(s["id"] for s in listing) == [own, *range(own + 1, own + 6)]
    assert merged[f"/api/sessions/{own}"]["hands"][0]["scores"]["ANN"] == 1
    spelled = {"Ann": "ANN", "Bob": "bob"}
    for number, session_id in enumerate(range(own + 1, own + 6)):
        source = original[f"/api/sessions/{backup['sessions'][number]['id']}"]
        copy_ = merged[f"/api/sessions/{session_id}"]
        assert copy_["players"] == [spelled.get(p, p) for p in source["players"]]
        assert copy_["created_at"] == source["created_at"]
        assert list(copy_["totals"].values()) == list(source["totals"].values())
        assert [h["multiplier"] for h in copy_["hands"]] == [
            h["multiplier"] for h in source["hands"]
        ]
    assert count_rows(target)[0] == 5 + 9


def test_merge_into_an_empty_database_keeps_the_ids(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup, original = backup_of(app), answers(client)
    target = fresh()
    restore(target, backup, merge=True)
    assert_same_answers(answers(target.test_client()), original)


def tamper(backup: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    damaged = copy.deepcopy(backup)
    change(damaged)
    return damaged


def hand(backup: dict[str, Any], session: int, number: int) -> dict[str, Any]:
    found: dict[str, Any] = backup["sessions"][session]["hands"][number - 1]
    return found


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    (
        "a crack by a player who bid before the picker",
        lambda b: hand(b, 2, 5).update(cracked_by="Bob"),
        "Session 3, hand 5: Bob bid before Cat, so Bob can't crack.",
    ),
    (
        "impossible points",
        lambda b: hand(b, 0, 1).update(picking_points=119),
        "Session 1, hand 1: Picking team points can't be 119: no set of cards is worth "
        "exactly 1 point.",
    ),
    (
        "a leaster whose points don't add up",
        lambda b: hand(b, 2, 1)["points"].update(Ann=31),
        "Session 3, hand 1: The points add up to 121; a hand has 120.",
    ),
    (
        "a forced pick by someone who didn't deal",
        lambda b: hand(b, 0, 2).update(dealer="Ann"),
        "Session 1, hand 2: Only the dealer is forced to pick, and Ann dealt, not Bob.",
    ),
    (
        "a pass in a session that plays leasters",
        lambda b: b["sessions"][2]["hands"].append({"dealer": "Ann", "kind": "pass"}),
        "Session 3, hand 7: This session doesn't re-deal when everyone passes, so a hand "
        "can't be a pass.",
    ),
    (
        "more hands than the rounds allow",
        lambda b: b["sessions"][0]["hands"].append(b["sessions"][0]["hands"][0]),
        "Session 1, hand 6: This session is complete: its round is played. Add a round to "
        "record another hand.",
    ),
    (
        "a called card of the other partner rule",
        lambda b: hand(b, 1, 2).update(called_card="JD"),
        "Session 2, hand 2: The called card is one of AC, AS, AH, 10C, 10S, 10H.",
    ),
    (
        "a blitz in a session without blitzes",
        lambda b: hand(b, 1, 2).update(blitzes=["black"]),
        "Session 2, hand 2: This session doesn't play blitzes.",
    ),
    (
        "a derived field smuggled into a hand",
        lambda b: hand(b, 0, 1).update(bonus=5),
        "Session 1, hand 1: There is no field called bonus here.",
    ),
    (
        "points given as text",
        lambda b: hand(b, 0, 1).update(picking_points="75"),
        "Session 1, hand 1: Picking team points must be a whole number from 0 to 120.",
    ),
    (
        "a hand without a dealer",
        lambda b: hand(b, 3, 1).pop("dealer"),
        "Session 4, hand 1: Say who dealt the hand.",
    ),
    (
        "a hand that is not an object",
        lambda b: b["sessions"][4]["hands"].append([]),
        "Session 5, hand 1: It is not a JSON object.",
    ),
    (
        "a player seated twice",
        lambda b: b["sessions"][0]["players"].__setitem__(1, "ANN"),
        "Session 1: ANN is seated twice.",
    ),
    (
        "a seated player missing from the players",
        lambda b: b["players"].pop(),
        "Session 4: @eve is seated but not among the backup's players.",
    ),
    (
        "an unknown rule option",
        lambda b: b["sessions"][1]["rules"].update(cards=32),
        "Session 2: There is no rule option cards; the options are "
        f"{', '.join(sorted(OPTION_NAMES))}.",
    ),
    (
        "rounds out of range",
        lambda b: b["sessions"][4].update(rounds=101),
        "Session 5: Rounds must be a whole number from 0 to 100 (0 means open-ended).",
    ),
    (
        "two sessions with one id",
        lambda b: b["sessions"][4].update(id=1),
        "Session 1: The id 1 is given to two sessions.",
    ),
    (
        "a session without an id",
        lambda b: b["sessions"][3].pop("id"),
        "Session 4 of the backup: Its id must be a whole number from 1 to 1000000000.",
    ),
    (
        "a creation time that is not a time",
        lambda b: b["sessions"][0].update(created_at="last Friday"),
        "Session 1: Its created_at must be a date and time in ISO 8601, such as "
        "2024-03-01T19:30:00+00:00.",
    ),
    (
        "a session without hands",
        lambda b: b["sessions"][0].pop("hands"),
        "Session 1: It has no list of hands.",
    ),
    (
        "a player listed twice",
        lambda b: b["players"].append({"id": 99, "name": " ann "}),
        "Player 12 of the backup: ann is listed twice.",
    ),
    (
        "a player's name too long",
        lambda b: b["players"][0].update(name="A" * 41),
        "Player 1 of the backup: A player's name must be 1 to 40 characters long.",
    ),
    (
        "a player without a name",
        lambda b: b["players"].__setitem__(0, "Ann"),
        "Player 1 of the backup: It has no name.",
    ),
    (
        "no sessions list",
        lambda b: b.update(sessions={}),
        "This backup is damaged: it needs a list of players and of sessions.",
    ),
    (
        "a foreign file",
        lambda b: b.pop("format"),
        'This file is not a backup of the scorekeeper: it has no "format": '
        '"sheepshead-scorekeeper-backup".',
    ),
    (
        "a newer version",
        lambda b: b.update(version=2),
        "This backup is version 2, and this scorekeeper reads version 1.",
    ),
    (
        "a version as text",
        lambda b: b.update(version="1"),
        'This backup is version "1", and this scorekeeper reads version 1.',
    ),
    (
        "a version of true",
        lambda b: b.update(version=True),
        "This backup is version true, and this scorekeeper reads version 1.",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"),
    [pytest.param(change, message, id=name) for name, change, message in REFUSALS],
)
def test_an_invalid_backup_is_refused_and_changes_nothing(
    built_backup: dict[str, Any],
    fresh: Fresh,
    change: Callable[[dict[str, Any]], Any],
    message: str,
) -> None:
    backup = tamper(built_backup, change)
    target = fresh()
    with pytest.raises(RuleError) as refused:
        restore(target, backup)
    assert refused.value.message == message
    assert count_rows(target) == (0, 0, 0)
    assert target.test_client().get("/api/sessions").json == {"sessions": []}


@pytest.mark.parametrize("data", [[], "backup", None, {"sessions": []}, {"format": "zip"}])
def test_json_that_is_not_a_backup_is_refused(fresh: Fresh, data: Any) -> None:
    with pytest.raises(RuleError, match=r"^This file is not a backup of the scorekeeper:"):
        restore(fresh(), data)


# --- Hostile values: refused with a sentence on the page and the command line, nothing changed


def dumped(change: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], str]:
    """A change to a backup, then the backup as JSON text (lone surrogates escaped, as JSON
    writes them)."""
    return lambda backup: json.dumps(tamper(backup, change))


LONE_SURROGATE = "its text holds a lone surrogate (such as \\ud800), which is not a character."
CREATED_AT = "Its created_at must be a time from the year 2 to the year 9998."
HOSTILE: list[tuple[str, Callable[[dict[str, Any]], str], str]] = [
    (
        "400 KB of empty lists, which would take 25 times that to read",
        lambda b: json.dumps({**b, "sessions": []})[:-2] + "[]," * 133_000 + "[]]}",
        "This file is damaged or not a backup: it holds a value every 1.5 bytes, "
        "where a backup holds one every 7 or more.",
    ),
    (
        "a number of 5000 digits",
        lambda b: json.dumps(b).replace('"rounds": 1,', f'"rounds": {"9" * 5000},', 1),
        "This file is damaged or not a backup: it holds a number of 5000 digits.",
    ),
    (
        "a lone surrogate in a session's name",
        dumped(lambda b: b["sessions"][1].update(name="Friday \ud800")),
        f"Session 2 of the backup: {LONE_SURROGATE}",
    ),
    (
        "a lone surrogate in a key",
        dumped(lambda b: b["sessions"][3]["rules"].update({"\udc00": True})),
        f"Session 4 of the backup: {LONE_SURROGATE}",
    ),
    (
        "a lone surrogate in a player's name",
        dumped(lambda b: b["players"][2].update(name="Cat\ud83d")),
        f"Player 3 of the backup: {LONE_SURROGATE}",
    ),
    (
        "a lone surrogate in a rule set",
        dumped(lambda b: b["rule_sets"].append({"name": "\udfff", "rules": {}})),
        f"Rule set 1 of the backup: {LONE_SURROGATE}",
    ),
    (
        "a creation time of the year 1 at +14:00",
        dumped(lambda b: b["sessions"][2].update(created_at="0001-01-01T00:00:00+14:00")),
        f"Session 3: {CREATED_AT}",
    ),
    (
        "a creation time of the year 9999 at -14:00",
        dumped(lambda b: b["sessions"][0].update(created_at="9999-12-31T23:59:59-14:00")),
        f"Session 1: {CREATED_AT}",
    ),
    (
        "a rule set created in the year 1 at +14:00",
        dumped(
            lambda b: b["rule_sets"].append(
                {"name": "Friday", "rules": {}, "created_at": "0001-01-01T00:00:00+14:00"}
            )
        ),
        f"Rule set 1 of the backup: {CREATED_AT}",
    ),
    (
        "a rule set created in the year 9999 at -14:00",
        dumped(
            lambda b: b["rule_sets"].append(
                {"name": "Friday", "rules": {}, "created_at": "9999-12-31T23:59:59-14:00"}
            )
        ),
        f"Rule set 1 of the backup: {CREATED_AT}",
    ),
    (
        "rules that are an empty list",
        dumped(lambda b: b["sessions"][1].update(rules=[])),
        "Session 2: Rules must be an object of rule options.",
    ),
    (
        "rules that are text",
        dumped(lambda b: b["sessions"][1].update(rules="")),
        "Session 2: Rules must be an object of rule options.",
    ),
    (
        "a session id of 2147483647",
        dumped(lambda b: b["sessions"][4].update(id=2**31 - 1)),
        "Session 5 of the backup: Its id must be a whole number from 1 to 1000000000.",
    ),
    (
        "a player id of 2147483647",
        dumped(lambda b: b["players"][0].update(id=2**31 - 1)),
        "Player 1 of the backup: Its id must be a whole number from 1 to 1000000000.",
    ),
    (
        "a version of 2147483647",
        dumped(lambda b: b["sessions"][0].update(version=2**31 - 1)),
        "Session 1: Its version must be a whole number from 0 to 1000000000.",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"),
    [pytest.param(change, message, id=name) for name, change, message in HOSTILE],
)
def test_a_hostile_backup_is_refused_with_a_sentence_on_the_page_and_the_command_line(
    built_backup: dict[str, Any],
    fresh: Fresh,
    tmp_path: Path,
    change: Callable[[dict[str, Any]], str],
    message: str,
) -> None:
    text = change(built_backup)
    target = fresh()
    page = target.test_client().post("/settings/restore", data=upload(text.encode()))
    body = refused_page(page)
    assert f'<p class="error" id="backup-error">{escape(message)}</p>' in body
    assert count_rows(target) == (0, 0, 0)

    file = tmp_path / "hostile.json"
    file.write_text(text, "utf-8")
    command = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert (command.exit_code, command.stderr) == (1, f"Error: {message}\n")
    assert count_rows(target) == (0, 0, 0)


def test_a_backup_denser_than_most_reads_as_it_is(app: Flask, api: Api) -> None:
    build_sessions(api)
    backup = backup_of(app)
    big = {**backup, "sessions": backup["sessions"] * 100}
    text = json.dumps(big)
    assert len(text) > backup_file.DENSITY_CHECKED_FROM
    assert restore_module.read_backup(text.encode()) == big
    minified = json.dumps(big, separators=(",", ":"))
    assert restore_module.read_backup(minified) == big


def test_rules_that_are_not_an_object_are_refused_by_the_api_too(api: Api) -> None:
    for rules in ([], "", 0, False):
        answer = api.client.post(
            "/api/sessions", json={"players": SEATS, "rounds": 0, "rules": rules}
        )
        assert answer.status_code == 400
        assert answer.json == {
            "error": "Rules must be an object of rule options.",
            "field": "rules",
        }
    assert api.new_session(rules=None)["rules"]["partner"] == "jack_of_diamonds"


def test_the_largest_id_a_backup_may_give_leaves_room_for_new_sessions(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup = tamper(backup_of(app), lambda b: b["sessions"][4].update(id=backup_checks.MAX_KEPT))
    restored_app = fresh()
    restore(restored_app, backup)
    restored = Api(restored_app.test_client())
    new = restored.new_session()
    assert new["id"] == backup_checks.MAX_KEPT + 1
    restored.record(new["id"], **pick("Ann", "Bob", 70))
    assert len(restored.session(new["id"])["hands"]) == 1


# --- The command line


def test_export_and_import_backup_commands(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh, tmp_path: Path
) -> None:
    build_sessions(api)
    original = answers(client)
    file = tmp_path / "backup.json"
    exported = app.test_cli_runner().invoke(args=["export-backup", str(file)])
    assert exported.exit_code == 0, exported.output
    assert exported.stderr == (f"Backed up 5 sessions with 19 hands, and 11 players to {file}.\n")
    assert without_time(json.loads(file.read_text("utf-8"))) == without_time(backup_of(app))

    target = fresh()
    imported = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert imported.exit_code == 0, imported.output
    assert imported.stdout == "Restored 5 sessions with 19 hands, and 11 new players.\n"
    assert_same_answers(answers(target.test_client()), original)

    again = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert again.exit_code == 1
    assert again.stderr == (
        "Error: This scorekeeper already holds 5 sessions and 11 players. Restore a backup "
        "into an empty one, or merge it into what is here.\n"
    )
    merged = target.test_cli_runner().invoke(args=["import-backup", "--merge", str(file)])
    assert merged.exit_code == 0, merged.output
    assert merged.stdout == (
        "Restored 0 sessions with 0 hands, and 0 new players (5 sessions were here already).\n"
    )
    assert count_rows(target)[1] == 5
    assert_same_answers(answers(target.test_client()), original)


def test_backup_commands_on_stdout_and_stdin(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    original = answers(client)
    exported = app.test_cli_runner().invoke(args=["export-backup", "-"])
    assert exported.exit_code == 0
    assert json.loads(exported.stdout)["format"] == FORMAT
    target = fresh()
    imported = target.test_cli_runner().invoke(args=["import-backup", "-"], input=exported.stdout)
    assert imported.exit_code == 0, imported.output
    assert_same_answers(answers(target.test_client()), original)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "sheepshead-scorekeeper-backup", "version": 1, "players": [',
         "Error: This file is damaged or not a backup: it is not valid JSON (line 1, column "
         "71: Expecting value).\n"),
        (b"", "Error: This file is damaged or not a backup: it is not valid JSON (line 1, "
         "column 1: Expecting value).\n"),
        (b"\x80\x81 not UTF-8", "Error: This file is damaged or not a backup: it is not JSON "
         "text.\n"),
        (b'{"name": "scorekeeper", "version": "1.0.0"}',
         'Error: This file is not a backup of the scorekeeper: it has no "format": '
         '"sheepshead-scorekeeper-backup".\n'),
    ],
)  # fmt: skip
def test_import_backup_command_refuses_a_damaged_file(
    fresh: Fresh, tmp_path: Path, content: bytes, message: str
) -> None:
    file = tmp_path / "damaged.json"
    file.write_bytes(content)
    target = fresh()
    result = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert result.exit_code == 1
    assert result.stderr == message
    assert count_rows(target) == (0, 0, 0)


def test_import_backup_command_needs_a_file_that_exists(fresh: Fresh, tmp_path: Path) -> None:
    result = fresh().test_cli_runner().invoke(args=["import-backup", str(tmp_path / "no.json")])
    assert result.exit_code == 2
    assert "No such file or directory" in result.stderr


# --- The settings page


def upload(content: bytes, name: str = "backup.json", **fields: str) -> dict[str, Any]:
    return {"backup": (io.BytesIO(content), name), **fields}


def test_settings_page_offers_download_restore_and_csv_import(client: FlaskClient) -> None:
    page = client.get("/settings")
    assert page.status_code == 200
    assert 'href="/settings/backup.json"' in page.text
    assert 'action="/settings/restore"' in page.text
    assert 'enctype="multipart/form-data"' in page.text
    assert 'href="/sessions/import"' in page.text


def test_settings_page_states_the_upload_limit_and_the_command_for_larger_backups(
    app: Flask, client: FlaskClient
) -> None:
    said = "Backups and CSV files up to {} can be uploaded here; a larger backup restores with "
    assert said.format("64 MB") in client.get("/settings").text
    assert "<code>flask --app scorekeeper import-backup</code>" in client.get("/settings").text
    app.config["UPLOAD_LIMIT"] = 500_000
    assert said.format("500,000 bytes") in client.get("/settings").text


def test_download_backup_is_a_dated_json_attachment(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    build_sessions(api)
    response = client.get("/settings/backup.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.is_streamed
    disposition, options = parse_options_header(response.headers["Content-Disposition"])
    assert disposition == "attachment"
    today = datetime.now(UTC).date().isoformat()
    assert options["filename"] == f"sheepshead-backup-{today}.json"
    downloaded = json.loads(response.data)
    assert downloaded["exported_at"].startswith(today)
    assert without_time(downloaded) == without_time(backup_of(app))


def streamed_page(response: Any) -> str:
    assert response.status_code == 200 and response.is_streamed
    assert response.mimetype == "text/html"
    return b"".join(response.iter_encoded()).decode()


def refused_page(response: Any, status: int = 400) -> str:
    """The Settings page a refused restore answers, with the restore form, not the restore's
    page."""
    assert response.status_code == status
    assert response.mimetype == "text/html"
    body: str = response.text
    assert '<h1 class="while-restoring">' not in body
    assert 'action="/settings/restore"' in body and 'aria-describedby="backup-error"' in body
    assert "<progress" not in body and "Backup restored" not in body
    return body


def read_until(chunks: Iterator[bytes], marker: str) -> str:
    """A streamed page read only as far as the chunk that holds `marker`."""
    page = ""
    while marker not in page:
        page += next(chunks).decode()
    return page


PROGRESS = re.compile(
    r'<progress max="(\d+)" value="(\d+)" aria-label="Sessions restored"></progress> '
    r"(\d+) of (\d+) sessions"
)


def upload_in_batches_of_two(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, Any], Flask, TestResponse]:
    """The built sessions' answers, the fresh app their backup is uploaded to, and its restore
    page, restoring two sessions a batch."""
    build_sessions(api)
    original, backup = answers(client), client.get("/settings/backup.json").data
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    target = fresh()
    return original, target, target.test_client().post("/settings/restore", data=upload(backup))


def test_restore_upload_streams_its_progress_then_what_it_restored(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    original, target, response = upload_in_batches_of_two(client, api, fresh, monkeypatch)
    assert response.status_code == 200 and response.is_streamed
    chunks = response.iter_encoded()
    head = read_until(chunks, '<h1 class="while-restoring">Restoring the backup</h1>')
    # The page has begun before the restore has written anything.
    assert count_rows(target) == (0, 0, 0)
    body = head + b"".join(chunks).decode()

    # The heading said while restoring gives way to the outcome's.
    assert body.count("<h1") == 2
    # Checked before the page began, the sessions are written a batch a line.
    assert "sessions checked" not in body
    assert PROGRESS.findall(body) == [("5", done, done, "5") for done in ("0", "2", "4", "5")]
    outcome = (
        '<div class="restore-outcome">\n    <h1>Backup restored</h1>\n'
        "    <p>Backup restored: 5 sessions with 19 hands, and "
        '11 new players.</p>\n    <a class="btn primary wide" href="/">See the sessions</a>'
    )
    assert outcome in body
    assert body.index(outcome) > body.index("5 of 5 sessions")
    assert_same_answers(answers(target.test_client()), original)


def test_restore_upload_of_one_session_counts_it_as_one(
    client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    session = api.new_session(name="Alone")["id"]
    api.record(session, **pick("Bob", "Cat", 75))
    backup = client.get("/settings/backup.json").data
    body = streamed_page(fresh().test_client().post("/settings/restore", data=upload(backup)))
    assert "0 of 1 session</p>" in body and "1 of 1 session</p>" in body
    assert "of 1 sessions" not in body
    assert "Backup restored: 1 session with 1 hand" in body


def test_a_phone_that_leaves_the_restore_page_still_gets_it_restored(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    original, target, response = upload_in_batches_of_two(client, api, fresh, monkeypatch)
    page = read_until(response.iter_encoded(), 'aria-label="Sessions restored"')
    assert 'value="0" aria-label="Sessions restored"' in page
    assert count_rows(target) == (0, 0, 0)
    response.close()
    assert_same_answers(answers(target.test_client()), original)


def test_restore_upload_sent_again_lands_where_the_first_went(
    client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup = client.get("/settings/backup.json").data
    target = fresh().test_client()
    key = "restore-key-0123456789"
    first = target.post("/settings/restore", data=upload(backup, write_key=key))
    assert "Backup restored: 5 sessions" in streamed_page(first)
    again = target.post("/settings/restore", data=upload(backup, write_key=key))
    assert again.status_code == 302 and again.location == "/"
    home = target.get("/")
    assert home.text.count("Backup restored: 5 sessions with 19 hands, and 11 new players.") == 1
    assert len(target.get("/api/sessions").json["sessions"]) == 5


def test_restore_upload_that_fails_partway_says_so_and_leaves_nothing(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    backup = client.get("/settings/backup.json").data
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    fail_at_batch(monkeypatch, 3)
    target = fresh()
    body = streamed_page(target.test_client().post("/settings/restore", data=upload(backup)))
    assert PROGRESS.findall(body) == [("5", done, done, "5") for done in ("0", "2", "4")]
    assert (
        '<div class="restore-outcome">\n    <h1>Restore failed</h1>\n'
        '    <p class="error">The database failed at session 5 '
        "of 5. What the restore had added is taken out again: nothing was restored.</p>\n"
        '    <a class="btn wide" href="/settings">Back to settings</a>'
    ) in body
    assert "Backup restored" not in body
    assert count_rows(target) == (0, 0, 0)


def test_restore_upload_refusal_is_shown_on_the_page(client: FlaskClient, api: Api) -> None:
    build_sessions(api)
    before, backup = answers(client), client.get("/settings/backup.json").data
    response = client.post("/settings/restore", data=upload(backup))
    assert (
        '<p class="error" id="backup-error">This scorekeeper already holds 5 sessions and 11 '
        "players. Restore a backup into an empty one, or merge it into what is here.</p>"
    ) in refused_page(response)
    assert answers(client) == before

    damaged = client.post("/settings/restore", data=upload(backup[:100], merge="y"))
    damaged_page = refused_page(damaged)
    assert "This file is damaged or not a backup: it is not valid JSON" in damaged_page
    assert re.search(r'name="merge" value="y" checked', damaged_page)
    assert answers(client) == before

    missing = client.post("/settings/restore", data={"merge": "y"})
    assert "Choose the backup file." in refused_page(missing)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"", "This file is damaged or not a backup: it is not valid JSON", id="empty"),
        pytest.param(
            b'{"format": "\xff"}',
            "This file is damaged or not a backup: it is not JSON text.",
            id="not text",
        ),
        pytest.param(
            b"[]" + b" " * 300_000 + b"[" * 100_000,
            "This file is damaged or not a backup:",
            id="too dense",
        ),
        pytest.param(
            b'{"format": "zip"}', "This file is not a backup of the scorekeeper:", id="not a backup"
        ),
        pytest.param(
            json.dumps({"format": FORMAT, "version": 2}).encode(),
            "This backup is version 2, and this scorekeeper reads version 1.",
            id="a newer version",
        ),
        pytest.param(
            json.dumps({"format": FORMAT, "version": 1, "players": [], "sessions": 3}).encode(),
            "This backup is damaged: it needs a list of players and of sessions.",
            id="no list of sessions",
        ),
        pytest.param(
            json.dumps(
                {"format": FORMAT, "version": 1, "players": [], "sessions": [], "events": {}}
            ).encode(),
            "This backup is damaged: its events are not a list.",
            id="events not a list",
        ),
    ],
)
def test_a_file_refused_before_its_sessions_are_read_is_400_with_the_reason_on_the_form(
    fresh: Fresh, content: bytes, message: str
) -> None:
    target = fresh()
    body = refused_page(target.test_client().post("/settings/restore", data=upload(content)))
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', body)
    assert error is not None and error[1].startswith(str(escape(message))), error
    assert count_rows(target) == (0, 0, 0)


def test_restore_upload_refused_by_its_check_shows_the_form_again_and_changes_nothing(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    backup = json.loads(client.get("/settings/backup.json").data)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    third = backup["sessions"][2]
    third["hands"].append({"kind": "pick"})
    target = fresh().test_client()
    body = refused_page(
        target.post("/settings/restore", data=upload(json.dumps(backup).encode(), merge="y"))
    )

    # Refused in the second batch's worth, before the page began: nothing was written.
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', body)
    assert error is not None
    assert error.group(1).startswith(f"Session {third['id']}, hand {len(third['hands'])}: ")
    assert re.search(r'name="merge" value="y" checked', body)
    assert target.get("/api/sessions").json["sessions"] == []


def test_the_check_before_the_page_lets_other_connections_go_on_between_its_batches(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under gunicorn's gevent worker, whose `time.sleep` is gevent's, a phone's request goes
    on while an upload is checked, before its page answers."""
    build_sessions(api)
    backup = json.loads(client.get("/settings/backup.json").data)
    backup["sessions"][-1]["hands"].append({"kind": "pick"})
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    monkeypatch.setattr(time, "sleep", gevent.sleep)
    target = fresh().test_client()
    another = gevent.spawn(lambda: "another phone")
    page = target.post("/settings/restore", data=upload(json.dumps(backup).encode()))
    assert another.dead and another.value == "another phone"
    refused_page(page)


def test_restore_upload_merges_when_asked(client: FlaskClient, api: Api) -> None:
    build_sessions(api)
    backup = client.get("/settings/backup.json").data
    before = client.get("/api/sessions").json
    response = client.post("/settings/restore", data=upload(backup, merge="y"))
    assert (
        "Backup restored: 0 sessions with 0 hands, and 0 new players (5 sessions were here "
        "already)."
    ) in streamed_page(response)
    # Every session of the backup is here already, so merging it adds none.
    assert client.get("/api/sessions").json == before
    sessions = [
        {**session, "id": 100 + session["id"], "created_at": "2020-01-01T20:00:00+00:00"}
        for session in json.loads(backup)["sessions"]
    ]
    other = json.dumps({**json.loads(backup), "sessions": sessions}).encode()
    response = client.post("/settings/restore", data=upload(other, merge="y"))
    restored = "Backup restored: 5 sessions with 19 hands, and 0 new players."
    assert restored in streamed_page(response)
    assert len(client.get("/api/sessions").json["sessions"]) == 10


def test_restore_upload_needs_the_csrf_token(app: Flask, api: Api, fresh: Fresh) -> None:
    build_sessions(api)
    backup = backup_of(app)
    client = fresh(csrf=True).test_client()
    content = json.dumps(backup).encode()
    refused = client.post("/settings/restore", data=upload(content))
    assert refused.status_code == 400
    assert client.get("/api/sessions").json == {"sessions": []}

    page = client.get("/settings")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text)
    assert token is not None
    restored = client.post("/settings/restore", data=upload(content, csrf_token=token[1]))
    assert "Backup restored: 5 sessions" in streamed_page(restored)
    assert len(client.get("/api/sessions").json["sessions"]) == 5


# --- Any table: seats that change between hands


def build_changing_table(client: FlaskClient, api: Api) -> int:
    """Six seated, a seventh arrives, two leave, one more hand edited and one deleted."""
    session = api.new_session(
        players=[*SEATS, "Fay"], rounds=0, first_dealer="Fay", rules={"no_bid": "leaster"}
    )["id"]
    api.record(session, **pick("Ann", "Bob", 70))
    api.record(session, kind="leaster", winner="Cat", tricks={
        "Bob": 1, "Cat": 2, "Dan": 1, "Eve": 1, "Fay": 1,
    })  # fmt: skip
    seven = ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"]
    assert client.patch(f"/api/sessions/{session}", json={"players": seven}).status_code == 200
    api.record(session, **pick("Gus", None, 95))
    api.record(session, **pick("Eve", "Fay", 30))
    four = ["Gus", "Cat", "Dan", "Eve"]
    assert client.patch(f"/api/sessions/{session}", json={"players": four}).status_code == 200
    api.record(session, **pick("Dan", "Cat", 61))
    api.replace(session, 3, **pick("Gus", "Dan", 95))
    api.delete(session, 2)
    return session


def test_a_table_that_changed_round_trips_through_a_backup(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    session_id = build_changing_table(client, api)
    original, original_stored, backup = answers(client), stored(app), backup_of(app)
    held = backup["sessions"][0]
    assert held["players"] == ["Gus", "Cat", "Dan", "Eve"]
    assert [hand["seats"] for hand in held["hands"]] == [
        [*SEATS, "Fay"],
        ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"],
        ["Ann", "Bob", "Gus", "Cat", "Dan", "Eve", "Fay"],
        ["Gus", "Cat", "Dan", "Eve"],
    ]
    session = original[f"/api/sessions/{session_id}"]
    assert session["totals"] == {
        "Ann": 4, "Bob": 1, "Cat": 0, "Dan": 4, "Eve": -8, "Fay": -4, "Gus": 3,
    }  # fmt: skip
    assert [s["player"] for s in session["standings"] if not s["seated"]] == ["Ann", "Bob", "Fay"]

    restored_app = fresh()
    restore(restored_app, backup)
    assert_same_answers(answers(restored_app.test_client()), original)
    assert stored(restored_app) == original_stored
    assert without_time(backup_of(restored_app)) == without_time(backup)


def test_a_backup_from_before_hands_kept_their_seats_restores(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    """Backups made when every session was five seated have no seats and no sitting_out."""
    build_sessions(api)
    original, backup = answers(client), backup_of(app)
    for session in backup["sessions"]:
        del session["rules"]["sitting_out"]
        for hand in session["hands"]:
            del hand["seats"]

    restored_app = fresh()
    assert restore(restored_app, backup) == "5 sessions with 19 hands, and 11 new players"
    assert_same_answers(answers(restored_app.test_client()), original)


def test_a_backup_is_written_a_few_sessions_at_a_time(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    monkeypatch.setattr(hand_rows, "SESSIONS_AT_A_TIME", 2)
    with app.app_context():
        whole = export_backup()
        written = backup_module.Written()
        parts = backup_module.backup_text(written)
        text = next(parts) + next(parts)
        # One session written, and only the first two of five held in memory.
        held = [key for key in db.session.identity_map if key[0] is Session]
        assert sorted(key[1] for key in held) == [(1,), (2,)]
        text += "".join(parts)
    assert without_time(json.loads(text)) == without_time(whole)
    assert str(written) == "5 sessions with 19 hands, and 11 players"


def test_a_restore_inserts_sessions_in_batches_and_tells_its_progress(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    original, backup = answers(client), backup_of(app)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    inserted: list[int] = []
    insert = bulk.insert_sessions
    monkeypatch.setattr(
        bulk, "insert_sessions", lambda batch: inserted.append(len(batch)) or insert(batch)
    )
    told: list[int] = []
    target = fresh()
    with target.app_context():
        # The check, which writes nothing, tells of each batch's worth of sessions checked.
        restore = restore_module.Restore(copy.deepcopy(backup))
        with pytest.raises(RuntimeError, match="not checked yet"):
            next(restore.batches())
        assert list(restore.check()) == [2, 2, 1] and inserted == []
        restore.close()
        restored = import_backup(copy.deepcopy(backup), progress=told.append)
    assert str(restored) == "5 sessions with 19 hands, and 11 new players"
    assert inserted == [2, 2, 1] and told == [2, 2, 1]
    assert_same_answers(answers(target.test_client()), original)

    # Merged again, every session is here already: each batch tells the sessions it skipped.
    told.clear()
    inserted.clear()
    with target.app_context():
        again = import_backup(copy.deepcopy(backup), merge=True, progress=told.append)
    assert again.sessions == 0 and again.already == 5
    assert inserted == [0, 0, 0] and told == [2, 2, 1]


def test_a_restore_checks_each_session_once_and_writes_what_it_checked(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    original, backup = answers(client), backup_of(app)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    checked: list[int | None] = []
    check = session_checks.checked_session
    monkeypatch.setattr(
        session_checks,
        "checked_session",
        lambda given, session_id, where: (
            checked.append(session_id) or check(given, session_id, where)
        ),
    )
    target = fresh()
    with target.app_context():
        restored = import_backup(copy.deepcopy(backup))
    assert restored.sessions == 5
    assert checked == [session["id"] for session in backup["sessions"]]
    assert_same_answers(answers(target.test_client()), original)


def fail_at_batch(monkeypatch: pytest.MonkeyPatch, failing: int) -> list[int]:
    """Make the restore's batch `failing` (from 1) fail on the database; the sizes of the
    batches inserted before it."""
    inserted: list[int] = []
    insert = bulk.insert_sessions

    def insert_or_fail(batch: list[bulk.NewSession]) -> list[int]:
        if len(inserted) + 1 == failing:
            raise OperationalError("INSERT INTO hand", {}, Exception("disk I/O error"))
        inserted.append(len(batch))
        return insert(batch)

    monkeypatch.setattr(bulk, "insert_sessions", insert_or_fail)
    return inserted


def restored_in_workers(target: Flask, data: Any, merge: bool = False) -> restore_module.Restored:
    with target.app_context():
        restore = restore_module.Restore(copy.deepcopy(data), merge=merge)
        for _ in restore.check(workers=2):
            pass
        for _ in restore.batches():
            pass
        return restore.restored


def test_a_restore_checked_in_worker_processes_restores_and_refuses_as_one_checked_here(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    """`flask import-backup` checks a large backup in a worker process a CPU: what it restores
    and the first refusal, in the backup's order, are those of the check in this process."""
    build_sessions(api)
    original, backup = answers(client), backup_of(app)
    target = fresh()
    restored = restored_in_workers(target, backup)
    assert restored.sessions == len(backup["sessions"])
    assert_same_answers(answers(target.test_client()), original)
    again = restored_in_workers(target, backup, merge=True)
    assert again.sessions == 0 and again.already == len(backup["sessions"])

    last = tamper(backup, lambda b: b["sessions"][-1]["hands"].append({"kind": "pick"}))
    damaged = [
        tamper(last, lambda b: b["sessions"][1]["hands"].append({"kind": "nothing"})),
        tamper(last, lambda b: b["sessions"][1].update(id=b["sessions"][0]["id"])),
        tamper(last, lambda b: b["sessions"][1].update(players=["Nobody"])),
        tamper(last, lambda b: b["sessions"].insert(1, [])),
        last,
    ]
    for data in damaged:
        with pytest.raises(RuleError) as in_workers:
            restored_in_workers(fresh(), data)
        with fresh().app_context(), pytest.raises(RuleError) as here:
            import_backup(copy.deepcopy(data))
        assert in_workers.value.message == here.value.message


def test_a_restore_refused_at_its_last_session_changes_nothing(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    backup = backup_of(app)
    last = backup["sessions"][-1]
    damaged = tamper(backup, lambda b: b["sessions"][-1]["hands"].append({"kind": "pick"}))
    inserted = fail_at_batch(monkeypatch, 0)
    target = fresh()
    with pytest.raises(RuleError) as refused:
        restore(target, damaged)
    assert refused.value.message.startswith(
        f"Session {last['id']}, hand {len(last['hands']) + 1}: "
    )
    assert inserted == []
    assert count_rows(target) == (0, 0, 0)

    # Merged into a scorekeeper that holds sessions, with a new player: nothing changes either.
    before, rows = answers(client), count_rows(app)
    moved = tamper(damaged, lambda b: b["players"].append({"id": 99, "name": "Gus"}))
    for session in moved["sessions"]:
        session["created_at"] = "2020-01-01T20:00:00+00:00"
    with pytest.raises(RuleError, match=rf"^Session {last['id']}, hand "):
        restore(app, moved, merge=True)
    assert inserted == []
    assert count_rows(app) == rows and answers(client) == before


@pytest.mark.parametrize("merge", [False, True])
def test_a_batch_failing_on_the_database_takes_out_what_the_earlier_ones_added(
    app: Flask,
    client: FlaskClient,
    api: Api,
    fresh: Fresh,
    monkeypatch: pytest.MonkeyPatch,
    merge: bool,
) -> None:
    build_sessions(api)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    backup = tamper(backup_of(app), lambda b: b["players"].append({"id": 99, "name": "Gus"}))
    for session in backup["sessions"]:
        session["created_at"] = "2020-01-01T20:00:00+00:00"
    target = app if merge else fresh()
    before, rows = answers(target.test_client()), count_rows(target)
    inserted = fail_at_batch(monkeypatch, 2)
    with pytest.raises(restore_module.RestoreUndone) as undone:
        restore(target, backup, merge=merge)
    assert undone.value.message == (
        "The database failed at session 3 of 5. What the restore had added is taken out "
        "again: nothing was restored."
    )
    assert inserted == [2]
    assert count_rows(target) == rows
    assert answers(target.test_client()) == before
    with target.app_context():
        assert db.session.scalar(select(Player).where(Player.name == "Gus")) is None
        assert journal.unfinished() is None


@pytest.mark.usefixtures("batches_of_two")
def test_a_first_batch_failing_on_the_database_is_told_on_the_page_and_the_command_line(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    backup = json.dumps(backup_of(app))
    fail_at_batch(monkeypatch, 1)
    target = fresh()
    body = streamed_page(
        target.test_client().post("/settings/restore", data=upload(backup.encode()))
    )
    failed = "The database failed at session 1 of 5. Nothing was restored."
    assert f'<p class="error">{failed}</p>' in body
    file = tmp_path / "backup.json"
    file.write_text(backup)
    command = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert (command.exit_code, command.stderr) == (1, f"Error: {failed}\n")
    assert count_rows(target) == (0, 0, 0)


def test_a_failed_restore_keeps_a_session_a_phone_changed_meanwhile(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    backup = backup_of(app)
    first, second = (session["id"] for session in backup["sessions"][:2])
    target = fresh()
    phone = Api(target.test_client())
    changed = pick("Bob", "Cat", 80, called_card="JD")

    def a_phone_changes_the_first_session(done: int) -> None:
        # Between the first batch and the second, which fails.
        if phone.session(first)["hands"][0]["picking_points"] == 75:
            phone.replace(first, 1, **changed)

    fail_at_batch(monkeypatch, 2)
    with target.app_context(), pytest.raises(restore_module.RestoreUndone) as undone:
        import_backup(copy.deepcopy(backup), progress=a_phone_changes_the_first_session)
    assert undone.value.message == (
        "The database failed at session 3 of 5. What the restore had added is taken out "
        f"again, except 1 session that a phone has changed since (id {first}), kept with its "
        "changes."
    )
    kept = phone.session(first)
    assert len(kept["hands"]) == len(backup["sessions"][0]["hands"])
    assert kept["hands"][0]["picking_points"] == 80
    assert phone.client.get(f"/api/sessions/{second}").status_code == 404
    with target.app_context():
        assert db.session.scalar(select(func.count()).select_from(Session)) == 1


def test_import_backup_command_says_a_failed_batch_was_taken_out(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_sessions(api)
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup_of(app)))
    fail_at_batch(monkeypatch, 3)
    target = fresh()
    result = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: The database failed at session 5 of 5. What the restore had added is taken "
        "out again: nothing was restored.\n"
    )
    assert count_rows(target) == (0, 0, 0)


# --- A restore cut short: reported, undone, and never run twice at once

CUT_SHORT = re.compile(
    r"A (restore|merge) of a backup started \d{4}-\d\d-\d\d \d\d:\d\d UTC was cut short "
    r"after (\d+) of (\d+) sessions were written\."
)


def restore_in_batches_of_two(app: Flask, backup: dict[str, Any], merge: bool = False) -> Any:
    """A restore of `backup`, checked, whose batches of two sessions are written one at a time
    as the generator returned is advanced."""
    with app.app_context():
        restore = restore_module.Restore(copy.deepcopy(backup), merge)
        for _ in restore.check():
            pass
        yield from restore.batches()


def cut_short(app: Flask, backup: dict[str, Any], batches: int, merge: bool = False) -> None:
    """A restore that writes `batches` batches of two sessions, then stops as a crash stops it:
    its journal stays, its lock is let go."""
    writing = restore_in_batches_of_two(app, backup, merge)
    for _ in range(batches):
        next(writing)
    writing.close()


@pytest.fixture
def batches_of_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(restore_module, "SESSIONS_A_BATCH", 2)


@pytest.mark.usefixtures("batches_of_two")
def test_a_restore_cut_short_is_reported_by_check_and_undone_by_repair(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup = backup_of(app)
    target = fresh()
    cut_short(target, backup, batches=2)
    phone = Api(target.test_client())
    phone.record(2, kind="pass")
    assert count_rows(target)[1] == 4

    found = target.test_cli_runner().invoke(args=["check"])
    assert found.exit_code == 1
    said, *_, last = found.output.splitlines()
    match = CUT_SHORT.fullmatch(
        said.removesuffix(" `flask --app scorekeeper check --repair` undoes it.")
    )
    assert match is not None and match.groups() == ("restore", "4", "5"), said
    assert last == "Error: Checked 4 sessions: 1 problem."
    settings = target.test_client().get("/settings").text
    assert (
        f'<p class="notice" role="status">{escape(match[0])} What it had added is taken out'
        in settings
    )

    repaired = target.test_cli_runner().invoke(args=["check", "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert repaired.output.splitlines() == [
        f"Repaired: {match[0]} What it had added is taken out again (3 sessions and 6 players), "
        "except 1 session that a phone has changed since (id 2), kept with its changes.",
        "Checked 1 session: every one is consistent with its hands.",
    ]
    assert [s["id"] for s in phone.client.get("/api/sessions").json["sessions"]] == [2]
    assert len(phone.session(2)["hands"]) == len(backup["sessions"][1]["hands"]) + 1
    assert 'class="notice"' not in target.test_client().get("/settings").text
    merged = target.test_cli_runner().invoke(
        args=["import-backup", "--merge", "-"], input=json.dumps(backup)
    )
    assert merged.exit_code == 0, merged.output
    assert merged.output == "Restored 5 sessions with 19 hands, and 6 new players.\n"


@pytest.mark.usefixtures("batches_of_two")
@pytest.mark.parametrize("merge", [False, True])
def test_a_restore_first_undoes_one_cut_short(
    app: Flask, api: Api, fresh: Fresh, merge: bool
) -> None:
    build_sessions(api)
    original, backup = answers(api.client), backup_of(app)
    target = fresh()
    cut_short(target, backup, batches=1, merge=merge)
    assert count_rows(target)[1] == 2

    page = target.test_client().post("/settings/restore", data=upload(json.dumps(backup).encode()))
    body = streamed_page(page)
    notice = re.search(r'<p class="notice">(.*?)</p>', body)
    assert notice is not None
    match = CUT_SHORT.match(notice[1])
    assert match is not None and match.groups() == ("merge" if merge else "restore", "2", "5")
    assert notice[1].endswith("What it had added is taken out again: 2 sessions and 11 players.")
    assert "Backup restored: 5 sessions with 19 hands, and 11 new players." in body
    assert_same_answers(answers(target.test_client()), original)
    assert target.test_cli_runner().invoke(args=["check"]).exit_code == 0


@pytest.mark.usefixtures("batches_of_two")
def test_a_restore_cut_short_is_named_before_a_refusal_that_follows(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path
) -> None:
    """A session a phone changed is kept, so a restore that needs an empty scorekeeper is then
    refused, saying what was undone first."""
    build_sessions(api)
    backup = backup_of(app)
    target = fresh()
    cut_short(target, backup, batches=1)
    Api(target.test_client()).record(2, kind="pass")
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup))
    refused = target.test_cli_runner().invoke(args=["import-backup", str(file)])
    assert refused.exit_code == 1
    assert CUT_SHORT.match(refused.stderr.removeprefix("Error: "))
    assert refused.stderr.endswith(
        "What it had added is taken out again (1 session and 6 players), except 1 session that "
        "a phone has changed since (id 2), kept with its changes. This scorekeeper already "
        "holds 1 session and 5 players. Restore a backup into an empty one, or merge it into "
        "what is here.\n"
    )


@pytest.mark.usefixtures("batches_of_two")
def test_a_restore_cut_short_is_named_before_a_refusal_of_the_check_on_the_page(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    build_sessions(api)
    backup = backup_of(app)
    target = fresh()
    cut_short(target, backup, batches=1)
    last = backup["sessions"][-1]
    last["hands"].append({"kind": "pick"})
    page = target.test_client().post("/settings/restore", data=upload(json.dumps(backup).encode()))
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', refused_page(page))
    assert error is not None and CUT_SHORT.match(error[1])
    assert "What it had added is taken out again: 2 sessions and 11 players. " in error[1]
    assert f" 11 players. Session {last['id']}, hand {len(last['hands'])}: " in error[1]
    assert count_rows(target) == (0, 0, 0)


@pytest.mark.usefixtures("batches_of_two")
def test_while_a_restore_is_under_way_another_is_refused(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path
) -> None:
    build_sessions(api)
    original, backup = answers(api.client), backup_of(app)
    target = fresh()
    writing = restore_in_batches_of_two(target, backup)
    next(writing)
    under_way = re.compile(
        r"A restore of a backup started \d{4}-\d\d-\d\d \d\d:\d\d UTC is under way: 2 of 5 "
        r"sessions written so far\."
    )

    client = target.test_client()
    page = client.post("/settings/restore", data=upload(json.dumps(backup).encode(), merge="y"))
    error = re.search(r'<p class="error" id="backup-error">(.*?)</p>', refused_page(page, 409))
    assert error is not None and under_way.match(error[1])
    assert error[1].endswith(" Try again once it is done.")
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup))
    command = target.test_cli_runner().invoke(args=["import-backup", "--merge", str(file)])
    assert command.exit_code == 1 and under_way.match(command.stderr.removeprefix("Error: "))
    check = target.test_cli_runner().invoke(args=["check"])
    assert check.exit_code == 0, check.output
    assert under_way.fullmatch(check.output.splitlines()[0])
    assert under_way.search(client.get("/settings").text)
    assert count_rows(target)[1] == 2

    assert list(writing) == [2, 1]
    assert_same_answers(answers(client), original)
    assert 'class="notice"' not in client.get("/settings").text
    assert target.test_cli_runner().invoke(args=["check"]).output == (
        "Checked 5 sessions: every one is consistent with its hands.\n"
    )


def test_a_restore_batch_holds_at_most_its_hands_never_splitting_a_session(
    client: FlaskClient, api: Api, fresh: Fresh, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer waits for one batch at most, so a batch holds HANDS_A_BATCH hands at most,
    however few sessions that is; a session of more hands is a batch of its own."""
    for hands in (5, 2, 1, 0):
        session_id = api.new_session()["id"]
        for _ in range(hands):
            api.record(session_id, **pick("Ann", "Bob", 75))
    backup = client.get("/settings/backup.json").data
    monkeypatch.setattr(restore_module, "HANDS_A_BATCH", 4)
    monkeypatch.setattr(restore_module, "FEWEST_HANDS", 4)
    target = fresh()
    body = target.test_client().post("/settings/restore", data=upload(backup)).text
    assert PROGRESS.findall(body) == [("4", done, done, "4") for done in ("0", "1", "4")]
    assert "Backup restored: 4 sessions with 8 hands" in body


@pytest.mark.parametrize(("seconds", "batches"), [(0, [2, 2, 2, 2, 2]), (1e9, [2, 8])])
def test_restore_batches_hold_fewer_hands_when_batches_run_slow(
    client: FlaskClient,
    api: Api,
    fresh: Fresh,
    monkeypatch: pytest.MonkeyPatch,
    seconds: float,
    batches: list[int],
) -> None:
    """On a busy machine batches run slow, and a writer waiting for one would wait long: the
    first batch holds FEWEST_HANDS, as the pace is not known yet, and each after as many as the
    last one's pace writes in BATCH_SECONDS, from FEWEST_HANDS up to HANDS_A_BATCH."""
    for _ in range(10):
        api.record(api.new_session()["id"], **pick("Ann", "Bob", 75))
    backup = client.get("/settings/backup.json").data
    monkeypatch.setattr(restore_module, "FEWEST_HANDS", 2)
    monkeypatch.setattr(restore_module, "HANDS_A_BATCH", 8)
    monkeypatch.setattr(restore_module, "BATCH_SECONDS", seconds)
    target = fresh()
    body = target.test_client().post("/settings/restore", data=upload(backup)).text
    done = [int(value) for _, value, _, _ in PROGRESS.findall(body)]
    assert [after - before for before, after in itertools.pairwise(done)] == batches
    assert "Backup restored: 10 sessions with 10 hands" in body
