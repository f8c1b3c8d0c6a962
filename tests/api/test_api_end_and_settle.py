"""Ending a session early and settling a player who leaves, through the API (API.md "Ending, and
settling a leaver"): the session's shape, refusals, versions, write keys, the history and undo,
the settle-ups, and the backup and the trash keeping both."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlalchemy import select

from scorekeeper.insights import player_numbers
from scorekeeper.insights.dates import DateRange
from scorekeeper.rules import RuleError
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player

from ..helpers.api import SEATS, Api, pick
from ..helpers.backups import import_backup

LEASTER = {"kind": "leaster", "winner": "Cat"}


def patch(client: FlaskClient, session_id: int, body: Any, **headers: str) -> Any:
    return client.patch(f"/api/sessions/{session_id}", json=body, headers=headers)


def history(client: FlaskClient, session_id: int) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = client.get(f"/api/sessions/{session_id}/history").json[
        "changes"
    ]
    return changes


# --- ending and reopening


def test_an_ended_session_is_complete_with_its_hands_until_reopened(
    api: Api, client: FlaskClient
) -> None:
    session = api.new_session(rounds=2)
    session_id = session["id"]
    assert (session["ended"], session["complete"], session["next_dealer"]) == (False, False, "Ann")
    api.record(session_id, **pick("Ann", "Bob", 75))
    ended = patch(client, session_id, {"ended": True})
    assert ended.status_code == 200, ended.json
    body = ended.json
    assert (body["ended"], body["complete"], body["next_dealer"]) == (True, True, None)
    assert body["sitting_out_next"] == []
    assert body["version"] == session["version"] + 2
    assert ended.headers["ETag"] == f'"{body["version"]}"'
    assert body["totals"] == {"Ann": 2, "Bob": 1, "Cat": -1, "Dan": -1, "Eve": -1}
    assert [s["place"] for s in body["standings"]] == [1, 2, 3, 3, 3]

    refused = client.post(f"/api/sessions/{session_id}/hands", json=pick("Bob", "Cat", 75))
    assert refused.status_code == 409
    assert refused.json == {"error": "This session has ended. Reopen it to record another hand."}
    summary = client.get("/api/sessions").json["sessions"][0]
    assert (summary["ended"], summary["complete"], summary["hand_count"]) == (True, True, 1)

    reopened = patch(client, session_id, {"ended": False})
    assert reopened.status_code == 200
    assert (reopened.json["ended"], reopened.json["complete"]) == (False, False)
    assert reopened.json["next_dealer"] == "Bob"
    api.record(session_id, **pick("Bob", "Cat", 75))
    assert api.session(session_id)["totals"]["Bob"] == 3
    changes = history(client, session_id)
    assert [(c["action"], c["number"]) for c in changes] == [
        ("add", 2), ("reopen", None), ("end", None), ("add", 1),
    ]  # fmt: skip
    assert (changes[1]["before"], changes[1]["after"]) == ({"ended": True}, {"ended": False})


def test_ending_applies_after_the_other_changes_of_the_request(
    api: Api, client: FlaskClient
) -> None:
    session_id = api.new_session(rounds=1)["id"]
    changed = patch(client, session_id, {"name": "Cut short", "rounds": 3, "ended": True})
    assert changed.status_code == 200, changed.json
    assert (changed.json["name"], changed.json["rounds"], changed.json["ended"]) == (
        "Cut short", 3, True,
    )  # fmt: skip
    assert changed.json["version"] == 2
    assert [c["action"] for c in history(client, session_id)] == ["end"]


def test_ending_an_ended_session_changes_nothing(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    first = patch(client, session_id, {"ended": True})
    again = patch(client, session_id, {"ended": True})
    assert again.status_code == 200
    assert again.json["version"] == first.json["version"]
    assert [c["action"] for c in history(client, session_id)] == ["end"]


@pytest.mark.parametrize("value", ["yes", 1, [], {}])
def test_ended_must_be_true_or_false(api: Api, client: FlaskClient, value: Any) -> None:
    session_id = api.new_session()["id"]
    refused = patch(client, session_id, {"ended": value, "name": "Not kept"})
    assert (refused.status_code, refused.json) == (
        400, {"error": "Ended must be true or false.", "field": "ended"},
    )  # fmt: skip
    assert api.session(session_id)["name"] == ""
    assert api.session(session_id)["version"] == 1


def test_ending_takes_if_match_and_write_keys(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    stale = patch(client, session_id, {"ended": True}, **{"If-Match": '"0"'})
    assert (stale.status_code, stale.json["version"]) == (412, 1)
    assert api.session(session_id)["ended"] is False
    first = patch(client, session_id, {"ended": True}, **{"Idempotency-Key": "end-1"})
    patch(client, session_id, {"ended": False})
    repeat = patch(client, session_id, {"ended": True}, **{"Idempotency-Key": "end-1"})
    assert (repeat.status_code, repeat.json) == (200, first.json)
    assert api.session(session_id)["ended"] is False
    other = patch(client, session_id, {"name": "x"}, **{"Idempotency-Key": "end-1"})
    assert other.status_code == 409


def test_undoing_an_end_reopens_and_undoing_that_ends_again(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    patch(client, session_id, {"ended": True})
    undone = client.post(f"/api/sessions/{session_id}/history/0/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["ended"] is False
    assert client.post(f"/api/sessions/{session_id}/history/0/restore").json["ended"] is True
    assert [c["action"] for c in history(client, session_id)] == ["end", "reopen", "end"]
    # The first end can't be undone on its own once the session was reopened and ended again.
    patch(client, session_id, {"ended": False})
    refused = client.post(f"/api/sessions/{session_id}/history/3/restore")
    assert refused.status_code == 409
    assert "ended or reopened again since" in refused.json["error"]


def test_an_ended_session_is_not_in_progress_and_counts_as_complete(
    api: Api, client: FlaskClient
) -> None:
    session_id = api.new_session(rounds=0)["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    assert "In progress" in client.get("/").text
    patch(client, session_id, {"ended": True})
    home = client.get("/").text
    assert f'href="/sessions/{session_id}"' in home
    assert "In progress" not in home and "in progress" not in home
    assert "Won by Ann" in client.get("/sessions").text
    assert client.get("/api/sessions").json["sessions"][0]["complete"] is True


def test_an_ended_session_gives_each_player_a_place_in_the_statistics(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    session_id = api.new_session(rounds=0)["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))

    def places() -> list[int | None]:
        with app.app_context():
            ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
            return [line.place for line in player_numbers.player_stats(ann, DateRange()).sessions]

    assert places() == [None]
    patch(client, session_id, {"ended": True})
    assert places() == [1]


# --- settling a leaver


def cat_leaves(api: Api, client: FlaskClient, stake: int = 50) -> int:
    """Worked examples 1 and 4 at 50 cents a point, then Cat leaves and Fay sits down: Ann
    +$0.50, Bob $0, Cat +$1.50, Dan -$1.00, Eve -$1.00."""
    session_id: int = api.new_session(rules={"no_bid": "leaster", "stake": stake})["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    api.record(session_id, **LEASTER)
    seated = patch(client, session_id, {"players": ["Ann", "Bob", "Dan", "Eve", "Fay"]})
    assert seated.status_code == 200, seated.json
    return session_id


STILL_SEATED = "is still seated: only a player who has left can be settled early."


def settle(client: FlaskClient, session_id: int, body: Any, **headers: str) -> Any:
    return client.post(f"/api/sessions/{session_id}/settle-leaver", json=body, headers=headers)


def test_a_leaver_is_settled_and_the_settle_up_settles_only_the_rest(
    api: Api, client: FlaskClient
) -> None:
    session_id = cat_leaves(api, client)
    version = api.session(session_id)["version"]
    settled = settle(client, session_id, {"player": "cat"})
    assert settled.status_code == 201, settled.json
    assert settled.json == {
        "player": "Cat",
        "payments": [
            {"from": "Dan", "to": "Cat", "amount": 100}, {"from": "Eve", "to": "Cat", "amount": 50},
        ],
    }  # fmt: skip
    session = api.session(session_id)
    assert session["version"] == version + 1
    expected = {
        "stake": 50,
        "unit": "cents",
        "balances": {"Ann": 50, "Bob": 0, "Cat": 150, "Dan": -100, "Eve": -100, "Fay": 0},
        "payments": [{"from": "Eve", "to": "Ann", "amount": 50}],
        "paid": settled.json["payments"],
        "exact": True,
    }
    assert session["settle_up"] == expected
    assert client.get(f"/api/sessions/{session_id}/settle-up").json == expected
    ranged = client.get("/api/settle-up").json
    assert (ranged["paid"], ranged["payments"]) == (expected["paid"], expected["payments"])
    [change, *_] = history(client, session_id)
    assert (change["action"], change["number"], change["before"]) == ("settle-leaver", None, None)
    assert change["after"] == settled.json
    assert (
        "Cat settled: gets $1.00 from Dan and $0.50 from Eve"
        in client.get(f"/sessions/{session_id}/changes").text
    )


def test_a_leaver_is_settled_once(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves(api, client)
    assert settle(client, session_id, {"player": "Cat"}).status_code == 201
    again = settle(client, session_id, {"player": "Cat"})
    assert (again.status_code, again.json) == (
        409, {"error": "Cat is settled already.", "field": "player"},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"player": "Dan"}, 409, f"Dan {STILL_SEATED}"),
        ({"player": "Zed"}, 400, "Zed has not played in this session."),
        ({"player": " bob "}, 409, f"Bob {STILL_SEATED}"),
        ({}, 400, "Say which player to settle."),
        ({"player": 7}, 400, "The player must be given as text."),
        ({"player": "Cat", "amount": 5}, 400, "There is no field called amount here."),
    ],
)  # fmt: skip
def test_a_leaver_who_cannot_be_settled_changes_nothing(
    api: Api, client: FlaskClient, body: Any, status: int, error: str
) -> None:
    session_id = cat_leaves(api, client)
    before = api.session(session_id)
    refused = settle(client, session_id, body)
    assert (refused.status_code, refused.json["error"]) == (status, error)
    assert api.session(session_id) == before


def test_no_stake_no_early_settling(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves(api, client, stake=0)
    refused = settle(client, session_id, {"player": "Cat"})
    assert (refused.status_code, refused.json["error"]) == (
        409, "This session has no stake, so there is no money to settle early.",
    )  # fmt: skip
    assert settle(client, 999, {"player": "Cat"}).status_code == 404


def test_settling_takes_if_match_and_write_keys(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves(api, client)
    version = api.session(session_id)["version"]
    stale = settle(client, session_id, {"player": "Cat"}, **{"If-Match": f'"{version - 1}"'})
    assert stale.status_code == 412
    first = settle(client, session_id, {"player": "Cat"}, **{"Idempotency-Key": "settle-cat"})
    repeat = settle(client, session_id, {"player": "Cat"}, **{"Idempotency-Key": "settle-cat"})
    assert (first.status_code, repeat.status_code, repeat.json) == (201, 201, first.json)
    assert api.session(session_id)["version"] == version + 1
    assert len(api.session(session_id)["settle_up"]["paid"]) == 2


def test_the_stake_stays_once_a_leaver_is_settled(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves(api, client)
    settle(client, session_id, {"player": "Cat"})
    refused = patch(client, session_id, {"rules": {"stake": 25}})
    assert (refused.status_code, refused.json["field"]) == (409, "rules")
    assert api.session(session_id)["rules"]["stake"] == 50


def test_a_later_edit_leaves_the_settlement_and_the_settle_up_settles_the_difference(
    api: Api, client: FlaskClient
) -> None:
    session_id = cat_leaves(api, client)
    settle(client, session_id, {"player": "Cat"})
    # The leaster was Dan's after all: Cat -2 (-$1.00) in all, though paid $1.50 early.
    api.replace(session_id, 2, kind="leaster", winner="Dan")
    up = api.session(session_id)["settle_up"]
    assert up["balances"] == {"Ann": 50, "Bob": 0, "Cat": -100, "Dan": 150, "Eve": -100, "Fay": 0}
    assert up["paid"] == [
        {"from": "Dan", "to": "Cat", "amount": 100}, {"from": "Eve", "to": "Cat", "amount": 50},
    ]  # fmt: skip
    # Left: Ann +50, Cat -250 (-100 less the 150 received), Dan +250, Eve -50.
    assert up["payments"] == [
        {"from": "Cat", "to": "Dan", "amount": 250}, {"from": "Eve", "to": "Ann", "amount": 50},
    ]  # fmt: skip
    assert settle(client, session_id, {"player": "Cat"}).status_code == 409


def test_undoing_a_settlement_takes_it_back(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves(api, client)
    settle(client, session_id, {"player": "Cat"})
    undone = client.post(f"/api/sessions/{session_id}/history/0/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["settle_up"]["paid"] == []
    [change, *_] = history(client, session_id)
    assert (change["action"], change["number"], change["after"]) == ("restore", None, None)
    words = escape("Cat's early settlement taken back")
    assert words in client.get(f"/sessions/{session_id}/changes").text
    again = client.post(f"/api/sessions/{session_id}/history/0/restore")
    assert len(again.json["settle_up"]["paid"]) == 2
    assert settle(client, session_id, {"player": "Cat"}).status_code == 409


# --- the backup and the trash keep both


def restore_merged(client: FlaskClient, backup: Any) -> dict[str, Any]:
    """The backup's one session restored beside the sessions here, as the API shows it."""
    with client.application.app_context():
        import_backup(copy.deepcopy(backup), merge=True)
    newest: dict[str, Any] = client.get("/api/sessions").json["sessions"][0]
    return client.get(f"/api/sessions/{newest['id']}").json  # type: ignore[no-any-return]


def test_a_backup_and_the_trash_keep_the_end_and_the_early_payments(
    api: Api, client: FlaskClient
) -> None:
    session_id = cat_leaves(api, client)
    settle(client, session_id, {"player": "Cat"})
    patch(client, session_id, {"ended": True})
    before = api.session(session_id)
    backup = client.get("/settings/backup.json").json
    [kept] = backup["sessions"]
    assert (kept["ended"], kept["paid"]) == (
        True,
        [
            {"player": "Cat", "from": "Dan", "to": "Cat", "amount": 100},
            {"player": "Cat", "from": "Eve", "to": "Cat", "amount": 50},
        ],
    )
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204
    restored = restore_merged(client, backup)
    assert (restored["ended"], restored["settle_up"]) == (True, before["settle_up"])
    assert settle(client, restored["id"], {"player": "Cat"}).status_code == 409
    client.delete(f"/api/sessions/{restored['id']}")

    from_trash = client.post(f"/api/trash/{session_id}/restore")
    assert from_trash.status_code == 200, from_trash.json
    assert (from_trash.json["ended"], from_trash.json["settle_up"]) == (True, before["settle_up"])
    assert settle(client, session_id, {"player": "Cat"}).status_code == 409
    assert [c["action"] for c in history(client, session_id)][:2] == ["end", "settle-leaver"]


def test_a_backup_without_the_new_keys_restores_as_not_ended(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    backup = client.get("/settings/backup.json").json
    del backup["sessions"][0]["ended"], backup["sessions"][0]["paid"]
    client.delete(f"/api/sessions/{session_id}")
    restored = restore_merged(client, backup)
    assert (restored["ended"], restored["complete"], restored["settle_up"]["paid"]) == (
        False, False, [],
    )  # fmt: skip
    assert restored["players"] == SEATS


@pytest.mark.parametrize(
    ("paid", "error"),
    [
        ([{"player": "Cat", "from": "Dan", "to": "Cat"}], "has a player, from, to and amount"),
        ([{"player": "Cat", "from": "Zed", "to": "Cat", "amount": 5}], "a player not of the"),
        ([{"player": "Cat", "from": "Dan", "to": "Eve", "amount": 5}], "runs between the player"),
        ([{"player": "Cat", "from": "Dan", "to": "Cat", "amount": 0}], "whole number of cents"),
        ("all", "must be a list"),
    ],
)
def test_a_backup_with_bad_early_payments_is_refused(
    api: Api, client: FlaskClient, paid: Any, error: str
) -> None:
    session_id = cat_leaves(api, client)
    backup = client.get("/settings/backup.json").json
    backup["sessions"][0]["paid"] = paid
    client.delete(f"/api/sessions/{session_id}")
    with client.application.app_context(), pytest.raises(RuleError, match=error):
        import_backup(copy.deepcopy(backup), merge=True)
