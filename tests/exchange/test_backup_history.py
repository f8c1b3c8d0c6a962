"""A backup carries the whole story: each session's Changes history and the trash, so a restore
brings back exactly what was there, Undo and the trash working as before; a backup without them
still restores, and a history that a page or an Undo could not read is refused with a sentence."""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.exchange import backup_rows
from scorekeeper.rules import RuleError
from scorekeeper.sessions import loading
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Change, Player, Session
from scorekeeper.sessions.records import changed, hand_input_json

from ..helpers.api import Api, pick, without_time
from ..helpers.backups import (
    answers,
    assert_same_answers,
    backup_of,
    build_sessions,
    count_rows,
    import_backup,
    restore,
)
from ..helpers.database import Fresh


def story(api: Api) -> dict[str, int]:
    """Sessions whose histories hold every kind of change: hands added, edited, deleted and
    brought back, a session ended and reopened, a leaver settled early; and a session in the
    trash with a history of its own."""
    client = api.client
    ids = dict(
        zip(("complete", "doublers", "leasters", "odd", "empty"), build_sessions(api), strict=True)
    )
    doublers = ids["doublers"]
    # Undo the delete of hand 4: it comes back ("restore" with the hand after it).
    assert client.post(f"/api/sessions/{doublers}/history/0/restore").status_code == 200
    assert client.patch(f"/api/sessions/{ids['empty']}", json={"ended": True}).status_code == 200
    assert client.patch(f"/api/sessions/{ids['empty']}", json={"ended": False}).status_code == 200

    staked = api.new_session(name="Staked", rules={"no_bid": "leaster", "stake": 50})["id"]
    api.record(staked, **pick("Ann", "Bob", 75))
    api.record(staked, kind="leaster", winner="Cat")
    seated = client.patch(
        f"/api/sessions/{staked}", json={"players": ["Ann", "Bob", "Dan", "Eve", "Fay"]}
    )
    assert seated.status_code == 200, seated.json
    settled = client.post(f"/api/sessions/{staked}/settle-leaver", json={"player": "Cat"})
    assert settled.status_code == 201, settled.json
    ids["staked"] = staked

    thrown = api.new_session(name="Thrown away")["id"]
    api.record(thrown, **pick("Bob", "Cat", 61))
    api.replace(thrown, 1, **pick("Bob", "Cat", 59))
    assert client.delete(f"/api/sessions/{thrown}").status_code == 204
    ids["thrown"] = thrown
    return ids


def test_hands_and_changes_read_as_rows_are_written_as_the_records_write_them(
    app: Flask, api: Api
) -> None:
    """A backup reads its hands and changes as plain rows (`backup_rows`): each hand is what
    `hand_input_json` makes of the engine's hand of its row, and each session's changes the
    text of `changed` of every change, byte for byte, for every kind of hand and change."""
    ids = story(api)
    penalties = api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Zoë"], rules=PENALTIES)
    api.record(penalties["id"], kind="penalty", penalized="Zoë")
    api.record(penalties["id"], **pick("Ann", None, 70))
    renamed = api.client.patch("/api/players/1", json={"name": "Anne \\ Back"})
    assert renamed.status_code == 200, renamed.json
    with app.app_context():
        connection = db.session.connection()
        sessions = db.session.scalars(select(Session).order_by(Session.id)).all()
        chosen = [session.id for session in sessions]
        assert set(chosen) >= set(ids.values()) - {ids["thrown"]} | {penalties["id"]}
        names = {row.id: row.name for row in db.session.execute(select(Player.id, Player.name))}
        hands = backup_rows.recorded_hands(connection, chosen, names)
        changes = backup_rows.changes_text(connection, chosen)
        for session in sessions:
            written = [hand_input_json(loading.hand_of(row)) for row in session.hands]
            assert dumped(hands.get(session.id, [])) == dumped(written)
            kept = db.session.scalars(
                select(Change).where(Change.session_id == session.id).order_by(Change.id)
            )
            records = [changed(c.at, c.action, c.number, c.before, c.after) for c in kept]
            assert changes.get(session.id, "[]") == dumped(records)


PENALTIES = {"penalties": True, "no_bid": "doubler"}


def dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# A change as the Changes page tells it (its id there is the row's, which a restore renumbers).
CHANGE = re.compile(r'<p id="change-\d+">(.*?)</p>')


def the_story(client: FlaskClient) -> dict[str, Any]:
    """Every session's history as the API and the Changes page tell it, and the trash."""
    told: dict[str, Any] = {"/api/trash": client.get("/api/trash").json}
    sessions = client.get("/api/sessions").json
    assert sessions is not None
    for session in sessions["sessions"]:
        for path in (
            f"/api/sessions/{session['id']}/history",
            f"/sessions/{session['id']}/changes",
        ):
            answer = client.get(path)
            assert answer.status_code == 200, path
            told[path] = answer.json if path.startswith("/api/") else CHANGE.findall(answer.text)
    return told


def test_a_restore_brings_back_every_history_and_the_trash(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    ids = story(api)
    backup = backup_of(app)
    original, told = answers(client), the_story(client)
    assert len(told["/api/trash"]["sessions"]) == 1
    assert [c["action"] for c in told[f"/api/sessions/{ids['empty']}/history"]["changes"]] == [
        "reopen",
        "end",
    ]
    # What an Undo and a restore from the trash give here, to compare with the restored copy.
    undone = client.post(f"/api/sessions/{ids['doublers']}/history/1/restore")
    assert undone.status_code == 200, undone.json
    back = client.post(f"/api/trash/{ids['thrown']}/restore")
    assert back.status_code == 200, back.json
    back_history = client.get(f"/api/sessions/{ids['thrown']}/history").json

    target = fresh()
    assert restore(target, backup) == (
        "6 sessions with 22 hands, 11 new players, and 1 session in the trash"
    )
    here = target.test_client()
    assert_same_answers(answers(here), original)
    assert the_story(here) == told
    doublers = told[f"/api/sessions/{ids['doublers']}/history"]["changes"]
    assert len(told[f"/sessions/{ids['doublers']}/changes"]) == len(doublers) == 9
    assert without_time(backup_of(target)) == without_time(backup)

    again = here.post(f"/api/sessions/{ids['doublers']}/history/1/restore")
    assert again.status_code == 200, again.json
    assert again.json == undone.json
    from_trash = here.post(f"/api/trash/{ids['thrown']}/restore")
    assert from_trash.status_code == 200, from_trash.json
    assert from_trash.json == back.json
    assert here.get(f"/api/sessions/{ids['thrown']}/history").json == back_history


def test_a_backup_without_histories_or_trash_still_restores(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    story(api)
    backup = backup_of(app)
    original = answers(client)
    del backup["trash"]
    for session in backup["sessions"]:
        del session["changes"]
    target = fresh()
    assert restore(target, backup) == "6 sessions with 22 hands, and 11 new players"
    here = target.test_client()
    assert_same_answers(answers(here), original)
    for session in backup["sessions"]:
        history = here.get(f"/api/sessions/{session['id']}/history").json
        assert history == {"changes": []}
    assert here.get("/api/trash").json == {"sessions": []}


def test_a_merge_adds_the_trash_once_and_keeps_a_different_one_under_a_new_id(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    ids = story(api)
    backup = backup_of(app)
    target = fresh()
    restore(target, backup)
    here = target.test_client()
    merged = restore(target, backup, merge=True)
    assert merged.endswith("(6 sessions were here already)")
    assert "trash" not in merged
    assert len(here.get("/api/trash").json["sessions"]) == 1

    other = copy.deepcopy(backup)
    other["trash"][0]["session"]["name"] = "Another thrown away"
    assert restore(target, other, merge=True).startswith(
        "0 sessions with 0 hands, 0 new players, and 1 session in the trash"
    )
    trash = here.get("/api/trash").json["sessions"]
    assert sorted((s["id"], s["name"]) for s in trash) == [
        (ids["thrown"], "Thrown away"),
        (ids["thrown"] + 1, "Another thrown away"),
    ]
    back = here.post(f"/api/trash/{ids['thrown'] + 1}/restore")
    assert back.status_code == 200, back.json
    assert back.json["name"] == "Another thrown away"
    history = here.get(f"/api/sessions/{back.json['id']}/history").json["changes"]
    assert [c["action"] for c in history] == ["edit", "add"]


def test_a_merged_session_brings_its_history(
    app: Flask, client: FlaskClient, api: Api, fresh: Fresh
) -> None:
    ids = story(api)
    backup = backup_of(app)
    told = client.get(f"/api/sessions/{ids['doublers']}/history").json
    target = fresh()
    here = Api(target.test_client())
    here.new_session(name="Already here")
    restore(target, backup, merge=True)
    copies = [s for s in here.client.get("/api/sessions").json["sessions"] if s["id"] > 1]
    doublers = next(s["id"] for s in copies if s["players"] == ["Ann", "Bob", "Cat", "Dan", "Fay"])
    assert here.client.get(f"/api/sessions/{doublers}/history").json == told


def test_a_trashed_session_deleted_too_long_ago_is_left_out(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    story(api)
    backup = backup_of(app)
    old = datetime.now(UTC) - timedelta(days=31)
    backup["trash"][0]["deleted_at"] = old.isoformat()
    target = fresh()
    assert "trash" not in restore(target, backup)
    assert target.test_client().get("/api/trash").json == {"sessions": []}


HAND = {
    "number": 1, "dealer": "Ann", "kind": "pick", "picker": "Bob", "partner": "Cat",
    "called_card": None, "forced": False, "picking_points": 75, "cracked_by": None,
    "recracked": False, "blitzes": [], "winner": None, "points": None, "tricks": None,
    "doubled": False, "bumped": False, "multiplier": 1, "result": "won", "penalized": None,
    "players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"],
    "sitting_out": [], "scores": {"Ann": -1, "Bob": 2, "Cat": 1, "Dan": -1, "Eve": -1},
}  # fmt: skip
AT = "2026-03-01T19:30:00+00:00"


def hand_change(**change: Any) -> dict[str, Any]:
    return {"at": AT, "action": "add", "number": 1, "before": None, "after": HAND} | change


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({}, "Session 1: Its changes must be a list."),
        (
            [{"at": AT, "action": "add"}],
            "Session 1, change 1: A change has an at, action, number, before and after, and "
            "nothing else.",
        ),
        (
            [hand_change(at="yesterday")],
            "Session 1, change 1: Its at must be a date and time in ISO 8601, such as "
            "2024-03-01T19:30:00+00:00.",
        ),
        (
            [hand_change(action="end")],
            "Session 1, change 1: Its action must be add, edit, delete, restore or confirm.",
        ),
        (
            [hand_change(number=None)],
            "Session 1, change 1: Its action must be end, reopen, settle-leaver, night, restore, "
            "call-director, answer-director, substitute, rename, merge or unmerge.",
        ),
        (
            [hand_change(number=0)],
            "Session 1, change 1: Its number must be a whole number from 1 to 1000000000.",
        ),
        (
            [hand_change(after=None)],
            "Session 1, change 1: A change to a hand has the hand before it or after it.",
        ),
        (
            [hand_change(after=HAND | {"kind": "solo"})],
            "Session 1, change 1: The hand after it: The kind of hand is one of pick, leaster, "
            "pass, penalty.",
        ),
        (
            [hand_change(after=HAND | {"blitzes": ["green"]})],
            "Session 1, change 1: The hand after it: A blitz is one of black, red.",
        ),
        (
            [hand_change(after=HAND | {"scores": {"Ann": "1"}})],
            "Session 1, change 1: The hand after it: Its scores is missing or not what a hand "
            "holds.",
        ),
        (
            [hand_change(after={k: v for k, v in HAND.items() if k != "multiplier"})],
            "Session 1, change 1: The hand after it: Its multiplier is missing or not what a "
            "hand holds.",
        ),
        (
            [hand_change(after=HAND | {"number": 2})],
            "Session 1, change 1: The hand after it: It is numbered 2, not 1.",
        ),
        (
            [hand_change(after=HAND | {"dealer": None})],
            "Session 1, change 1: The hand after it: Say who dealt the hand.",
        ),
        (
            [hand_change(after=HAND | {"picking_points": 121})],
            "Session 1, change 1: The hand after it: Picking team points must be a whole "
            "number from 0 to 120.",
        ),
        (
            [hand_change(before=HAND | {"picking_points": -75})],
            "Session 1, change 1: The hand before it: Picking team points must be a whole "
            "number from 0 to 120.",
        ),
        (
            [hand_change(after=HAND | {"forced": 0})],
            "Session 1, change 1: The hand after it: Forced must be true or false.",
        ),
        (
            [hand_change(after=HAND | {"picking_points": 75.0})],
            "Session 1, change 1: The hand after it: Picking team points must be a whole "
            "number from 0 to 120.",
        ),
        (
            [hand_change(after=HAND | {"opponents": 45})],
            "Session 1, change 1: The hand after it: There is no field called opponents here.",
        ),
        (
            [hand_change(action="end", number=None, before={"ended": 0}, after={"ended": True})],
            'Session 1, change 1: Ending a session changes {"ended": true or false}.',
        ),
        (
            [hand_change(action="settle-leaver", number=None, before=None, after=None)],
            "Session 1, change 1: Settling a player early has the settlement before it or "
            "after it.",
        ),
        (
            [
                hand_change(
                    action="settle-leaver",
                    number=None,
                    after={
                        "player": "Cat",
                        "payments": [{"from": "Ann", "to": "Bob", "amount": 5}],
                    },
                )
            ],
            "Session 1, change 1: A payment of Cat's settlement runs between them and another.",
        ),
        (
            [
                hand_change(
                    action="settle-leaver",
                    number=None,
                    after={
                        "player": "Cat",
                        "payments": [{"from": "Cat", "to": "Bob", "amount": 0}],
                    },
                )
            ],
            "Session 1, change 1: A payment made early is a whole number of cents from 1 to "
            "1000000000.",
        ),
    ],
)
def test_a_history_a_page_or_an_undo_could_not_read_is_refused(
    app: Flask, api: Api, changes: Any, refusal: str
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Bob", "Cat", 75))
    backup = backup_of(app)
    backup["sessions"][0]["changes"] = changes
    with app.app_context(), pytest.raises(RuleError) as refused:
        import_backup(copy.deepcopy(backup), merge=True)
    assert refused.value.message == refusal
    assert count_rows(app) == (5, 1, 1)


def test_a_trash_that_a_restore_from_the_trash_could_not_read_is_refused(
    app: Flask, api: Api, fresh: Fresh
) -> None:
    story(api)
    backup = backup_of(app)
    for damage, refusal in (
        ({"trash": {}}, "This backup is damaged: its trash is not a list."),
        (
            {"trash": [{"id": 9}]},
            "Trashed session 1 of the backup: A trashed session has an id, deleted_at, session, "
            "version and changes, and nothing else.",
        ),
        (
            {"trash": [backup["trash"][0] | {"session": {**backup["trash"][0]["session"],
                                                         "hands": [{"kind": "pick"}]}}]},
            "Trashed session 7, hand 1: Say who picked, or record a leaster or a pass.",
        ),
    ):  # fmt: skip
        target = fresh()
        with target.app_context(), pytest.raises(RuleError) as refused:
            import_backup(copy.deepcopy(backup | damage))
        assert refused.value.message.startswith(refusal.split(":")[0])
        assert count_rows(target) == (0, 0, 0)


# Any JSON value, to put where a history holds one.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["", "Ann", "won", "red"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every value inside `value`."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += leaves(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += leaves(inner, (*path, index))
    return found


def value_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    changed = copy.copy(value)
    changed[path[0]] = put(value[path[0]], path[1:], new)
    return changed


def test_a_damaged_history_is_refused_or_reads_and_undoes_without_failing(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """Any value put anywhere in a session's history: the backup is refused, or the Changes page
    shows it and every Undo answers, refused or not, but never fails."""
    session_id = api.new_session(rules={"stake": 25, "no_bid": "leaster"})["id"]
    api.record(session_id, **pick("Bob", "Cat", 75))
    api.replace(session_id, 1, **pick("Bob", None, 35))
    api.record(session_id, kind="leaster", winner="Ann")
    api.delete(session_id, 2)
    assert client.patch(f"/api/sessions/{session_id}", json={"ended": True}).status_code == 200
    made = backup_of(app)
    changes = made["sessions"][0]["changes"]
    # What the history holds somewhere, to put elsewhere: likelier than any value to pass.
    held = [value_at(changes, path) for path in leaves(changes)[1:]]
    values = JSON | st.sampled_from([v for v in held if not isinstance(v, dict | list)] or [None])

    @settings(max_examples=80)
    @given(data=st.data())
    def damaged(data: st.DataObject) -> None:
        backup = copy.deepcopy(made)
        path = data.draw(st.sampled_from(leaves(changes)[1:]))
        backup["sessions"][0]["changes"] = put(changes, path, data.draw(values))
        try:
            restore(app, backup, merge=True)
        except RuleError:
            return
        copied = max(s["id"] for s in client.get("/api/sessions").json["sessions"])
        assert client.get(f"/sessions/{copied}/changes").status_code == 200
        for index in range(len(changes)):
            undo = client.post(f"/api/sessions/{copied}/history/{index}/restore")
            assert undo.status_code < 500, (path, undo.json)
        json.dumps(client.get(f"/api/sessions/{copied}").json)

    damaged()
