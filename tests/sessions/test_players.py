"""The players: listed with what they played, renamed everywhere at once, retired from the new
session's roster, and two entries of one person merged, and the merge undone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.rows import players_named

from ..helpers.api import Api, pick, session_with, without_time
from ..helpers.backups import answers, assert_same_answers, backup_of, restore
from ..helpers.database import Fresh
from ..helpers.pages import FormPage, html_page, page

HANDS = [pick("Ann", "Bob", 90), pick("Cat", None, 40), pick("Dan", "Eve", 61)]


def players(client: FlaskClient) -> dict[str, dict[str, Any]]:
    answer = client.get("/api/players")
    assert answer.status_code == 200
    return {p["name"]: p for p in answer.json["players"]}


def player_id(client: FlaskClient, name: str) -> int:
    return int(players(client)[name]["id"])


def everything(client: FlaskClient) -> dict[str, Any]:
    """What a player's name shows in: every session with its history, the settle-up, the
    leaderboard's CSV and the backup."""
    sessions = client.get("/api/sessions").json["sessions"]
    return {
        "sessions": [client.get(f"/api/sessions/{s['id']}").json for s in sessions],
        "history": [client.get(f"/api/sessions/{s['id']}/history").json for s in sessions],
        "leaderboard": client.get("/leaderboard.csv").text,
    }


def test_the_list_counts_sessions_hands_and_totals_by_name(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    session_with(api, HANDS[:1], players=["Ann", "Bob", "Cat", "Dan", "Fay"])
    listed = players(client)
    assert list(listed) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    ann, fay = listed["Ann"], listed["Fay"]
    assert (ann["sessions"], ann["hands"], ann["active"]) == (2, 4, True)
    assert (fay["sessions"], fay["hands"]) == (1, 1)
    assert set(ann) >= {"id", "name", "sessions", "hands", "last_played", "active"}
    assert ann["last_played"].endswith("+00:00")
    sheets = [api.session(s["id"]) for s in client.get("/api/sessions").json["sessions"]]
    assert ann["total"] == sum(sheet["totals"]["Ann"] for sheet in sheets)


def test_the_list_counts_a_session_sat_in_without_playing_a_hand(
    api: Api, client: FlaskClient
) -> None:
    """Fay deals the first hand at six seated, sits it out and leaves; Gus is seated at a
    session with no hands yet. Each sat in one session and played no hand."""
    six = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    session_id = session_with(api, [pick("Ann", "Bob", 90)], players=six, first_dealer="Fay")
    assert api.session(session_id)["hands"][0]["sitting_out"] == ["Fay"]
    left = client.patch(f"/api/sessions/{session_id}", json={"players": six[:5]})
    assert left.status_code == 200, left.json
    session_with(api, players=["Ann", "Bob", "Gus"])
    listed = players(client)
    for name in ("Fay", "Gus"):
        assert (listed[name]["sessions"], listed[name]["hands"], listed[name]["total"]) == (1, 0, 0)
        assert listed[name]["last_played"] is not None
    assert (listed["Ann"]["sessions"], listed["Ann"]["hands"]) == (2, 1)


def test_a_rename_shows_everywhere_and_is_in_every_session_history(
    api: Api, client: FlaskClient
) -> None:
    first = session_with(api, HANDS)
    second = session_with(api, HANDS[:2])
    api.client.delete(f"/api/sessions/{first}/hands/3")
    before = everything(client)
    bob = player_id(client, "Bob")

    answer = client.patch(f"/api/players/{bob}", json={"name": "Robert"})

    assert answer.status_code == 200, answer.json
    assert answer.json["name"] == "Robert" and answer.json["id"] == bob
    after = everything(client)
    for history in after["history"]:
        renames = [c for c in history["changes"] if c["action"] == "rename"]
        assert [(c["before"], c["after"]) for c in renames] == [
            ({"name": "Bob"}, {"name": "Robert"})
        ]
        history["changes"] = [c for c in history["changes"] if c["action"] != "rename"]
    assert "'Bob'" not in repr(after) and "Bob," not in after["leaderboard"]
    for old, new in zip(before["sessions"], after["sessions"], strict=True):
        assert new["version"] == old["version"] + 1
        assert new["totals"]["Robert"] == old["totals"]["Bob"]
    history = client.get(f"/api/sessions/{second}/history").json["changes"]
    assert (history[0]["action"], history[0]["before"], history[0]["after"]) == (
        "rename",
        {"name": "Bob"},
        {"name": "Robert"},
    )
    # Undoing the hand deleted before the rename brings it back with the new name.
    undo = client.post(f"/api/sessions/{first}/history/1/restore")
    assert undo.status_code == 200, undo.json
    assert undo.json["hands"][2]["seats"] == ["Ann", "Robert", "Cat", "Dan", "Eve"]


def test_a_name_another_player_has_is_refused_with_an_offer_to_merge(
    api: Api, client: FlaskClient
) -> None:
    session_with(api, HANDS)
    before = everything(client)
    answer = client.patch(f"/api/players/{player_id(client, 'Bob')}", json={"name": "ann"})
    assert answer.status_code == 409
    assert answer.json["field"] == "name"
    assert "merge Bob into Ann" in answer.json["error"]
    assert everything(client) == before


def test_bad_player_changes_are_400_and_change_nothing(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    bob = player_id(client, "Bob")
    before = everything(client)
    for body, field in [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": 7}, "name"),
        ({"active": "no"}, "active"),
        ({"nick": "B"}, "nick"),
    ]:
        answer = client.patch(f"/api/players/{bob}", json=body)
        assert answer.status_code == 400, (body, answer.json)
        assert answer.json["field"] == field
    assert client.patch("/api/players/99999", json={"name": "X"}).status_code == 404
    assert client.patch("/api/players/99999999999", json={"name": "X"}).status_code == 404
    assert everything(client) == before


def test_a_retired_player_keeps_everything_and_is_not_offered(
    api: Api, client: FlaskClient
) -> None:
    session_with(api, HANDS)
    eve = player_id(client, "Eve")
    before = everything(client)
    answer = client.patch(f"/api/players/{eve}", json={"active": False})
    assert answer.status_code == 200 and answer.json["active"] is False
    assert everything(client) == before
    page = client.get("/sessions/new").text
    assert 'value="Eve"' not in page
    assert 'value="Eve"' in client.get("/sessions/new?everyone=1").text
    assert client.patch(f"/api/players/{eve}", json={"active": True}).json["active"] is True
    assert 'value="Eve"' in client.get("/sessions/new").text


def test_the_roster_offers_regulars_first(api: Api, client: FlaskClient) -> None:
    session_with(api, players=["Zed", "Bob", "Cat", "Dan", "Eve"])
    session_with(api, players=["Zed", "Bob", "Cat", "Dan", "Ann"])
    page = client.get("/sessions/new").text
    order = [name for name in ["Zed", "Bob", "Ann", "Eve"] if f'value="{name}"' in page]
    assert sorted(order, key=lambda n: page.index(f'value="{n}"')) == ["Bob", "Zed", "Ann", "Eve"]


def test_a_merge_moves_everything_and_can_be_undone(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    bobby = session_with(
        api,
        [pick("Ann", "Bobby", 90), pick("Cat", None, 40)],
        players=["Ann", "Bobby", "Cat", "Dan", "Eve"],
    )
    listed = players(client)
    before = everything(client)

    answer = client.post(
        f"/api/players/{listed['Bobby']['id']}/merge", json={"into": listed["Bob"]["id"]}
    )

    assert answer.status_code == 200, answer.json
    assert answer.json["name"] == "Bob"
    assert (answer.json["sessions"], answer.json["hands"]) == (2, 5)
    assert "Bobby" not in players(client)
    sheet = api.session(bobby)
    assert sheet["players"] == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert sheet["totals"]["Bob"] == before["sessions"][0]["totals"]["Bobby"]
    history = client.get(f"/api/sessions/{bobby}/history").json["changes"]
    assert (history[0]["action"], history[0]["after"]) == ("merge", {"name": "Bob"})

    merges = client.get("/api/players/merges").json["merges"]
    assert [(m["name"], m["into"]) for m in merges] == [("Bobby", listed["Bob"]["id"])]
    undone = client.post(f"/api/players/merges/{merges[0]['id']}/undo")
    assert undone.status_code == 200, undone.json
    assert undone.json["id"] == listed["Bobby"]["id"]
    again = everything(client)
    assert [s["players"] for s in again["sessions"]] == [s["players"] for s in before["sessions"]]
    assert [s["totals"] for s in again["sessions"]] == [s["totals"] for s in before["sessions"]]
    assert again["leaderboard"] == before["leaderboard"]
    assert client.get("/api/players/merges").json["merges"] == []
    assert client.post(f"/api/players/merges/{merges[0]['id']}/undo").status_code == 404


def test_two_who_played_in_one_session_are_not_merged(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS, name="Friday")
    before = everything(client)
    answer = client.post(
        f"/api/players/{player_id(client, 'Bob')}/merge", json={"into": player_id(client, "Ann")}
    )
    assert answer.status_code == 409
    assert f'session {session_id} "Friday"' in answer.json["error"]
    assert everything(client) == before
    for body, status in [({"into": 99999}, 404), ({"into": "1"}, 400), ({}, 400)]:
        answer = client.post(f"/api/players/{player_id(client, 'Bob')}/merge", json=body)
        assert answer.status_code == status, (body, answer.json)
    assert everything(client) == before


def test_a_player_write_repeated_with_its_key_happens_once(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS)
    bob = player_id(client, "Bob")
    headers = {"Idempotency-Key": "rename-bob"}
    first = client.patch(f"/api/players/{bob}", json={"name": "Robert"}, headers=headers)
    again = client.patch(f"/api/players/{bob}", json={"name": "Robert"}, headers=headers)
    assert (first.status_code, again.status_code) == (200, 200)
    assert first.json == again.json
    assert api.session(session_id)["version"] == 1 + len(HANDS) + 1


# --- the pages


def test_the_players_page_lists_and_finds_players(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    ann = players(client)["Ann"]
    client.patch(f"/api/players/{player_id(client, 'Eve')}", json={"active": False})
    shown = page(client, "/players")
    rows = shown.rows("players-list")
    assert rows[0] == ["Player", "Sessions", "Hands", "Total"]
    assert [row[0].split()[0] for row in rows[1:]] == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert rows[1][1:] == ["1", "3", f"{ann['total']:+d}"]
    assert "retired" in rows[5][0] and "retired" not in rows[1][0]
    found = page(client, "/players?q=an")
    assert [row[0].split()[0] for row in found.rows("players-list")[1:]] == ["Ann", "Dan"]
    assert "No player's name holds “Zed”." in page(client, "/players?q=Zed").text
    for path in ("/", "/settings"):
        assert 'href="/players"' in client.get(path).text


def test_the_players_list_comes_in_pages_small_at_a_thousand_players(
    app: Flask, client: FlaskClient
) -> None:
    names = [f"Player {n:04d}" for n in range(1, 1001)]
    with app.app_context():
        players_named(names)
        db.session.commit()
    shown = page(client, "/players")
    listed = [row[0].split(" not")[0] for row in shown.rows("players-list")[1:]]
    assert listed == names[:200]
    assert "Players 1\u2013200 of 1,000, by name." in shown.text
    assert len(client.get("/players").data) < 100 * 1024
    last = page(client, "/players?page=5")
    assert [row[0].split(" not")[0] for row in last.rows("players-list")[1:]] == names[800:]
    assert "Players 801\u20131,000 of 1,000, by name." in last.text
    assert "Next players" not in last.text
    assert 'href="/players?page=4">Previous players</a>' in client.get("/players?page=5").text
    # A page past the last is the last; a search is paged on its own.
    assert page(client, "/players?page=9").rows("players-list")[1:] == last.rows("players-list")[1:]
    found = page(client, "/players?q=Player 09")
    assert len(found.rows("players-list")) == 1 + 100 and "Next players" not in found.text


def back_link(client: FlaskClient, path: str) -> tuple[str, str]:
    """Where a page's back link goes, and what it says."""
    response = client.get(path)
    assert response.status_code == 200
    found = re.search(r'<p class="back"><a href="([^"]*)">([^<]*)</a>', response.text)
    assert found is not None
    return found[1], found[2]


def test_a_players_page_goes_back_where_it_was_reached_from(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    ann = player_id(client, "Ann")
    listed = client.get("/players").text
    assert f'href="/players/{ann}?back=players"' in listed
    came = f"/players/{ann}?back=players"
    assert back_link(client, came) == ("/players", "\N{LEFTWARDS ARROW} Players")
    # From the leaderboard's link, and from anywhere else, it goes to the leaderboard.
    assert f'href="/players/{ann}"' in client.get("/leaderboard").text
    for path in (f"/players/{ann}", f"/players/{ann}?back=elsewhere"):
        assert back_link(client, path) == ("/leaderboard", "\N{LEFTWARDS ARROW} Leaderboard")
    # Its dates and house rules keep where it came from.
    path = f"/players/{ann}?back=players&from=2020-01-01"
    assert back_link(client, path)[0] == "/players"
    assert html_page(client.get(path)).fields["back"] == ["players"]
    # So do their older sessions, back to the page that goes back to the list.
    older = back_link(client, f"/players/{ann}/sessions?back=players")
    assert older == (came, "\N{LEFTWARDS ARROW} Ann")


def test_a_rename_from_the_page_and_a_refusal_keeping_what_was_typed(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, HANDS)
    bob = player_id(client, "Bob")
    form = html_page(client.get(f"/players/{bob}"))
    assert form.fields["name"] == ["Bob"]

    taken = client.post(f"/players/{bob}/rename", data={"name": "ANN", "write_key": "k" * 20})
    assert taken.status_code == 409
    refused = FormPage(taken.text)
    assert refused.fields["name"] == ["ANN"]
    assert refused.errors == [
        "Ann is another player already. If Bob and Ann are one person, merge Bob into Ann instead."
    ]
    assert api.session(session_id)["players"][1] == "Bob"

    sent = {"name": " Robert ", "write_key": "r" * 20}
    done = client.post(f"/players/{bob}/rename", data=sent, follow_redirects=True)
    assert html_page(done).flashes == ["Bob is now Robert."]
    again = client.post(f"/players/{bob}/rename", data=sent, follow_redirects=True)
    assert html_page(again).flashes == ["Bob is now Robert."]
    sheet = api.session(session_id)
    assert sheet["players"][1] == "Robert" and sheet["version"] == 1 + len(HANDS) + 1


def test_merge_retire_and_undo_from_the_page(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    session_with(api, [pick("Ann", "Bobby", 90)], players=["Ann", "Bobby", "Cat", "Dan", "Eve"])
    listed = players(client)
    bob, bobby = listed["Bob"]["id"], listed["Bobby"]["id"]

    refused = client.post(
        f"/players/{bob}/merge", data={"into": str(listed["Ann"]["id"]), "write_key": "m" * 20}
    )
    assert refused.status_code == 409
    assert FormPage(refused.text).errors == [
        "Bob and Ann both played in session 1, so they are two people: they can't be merged."
    ]
    merged = client.post(
        f"/players/{bobby}/merge",
        data={"into": str(bob), "write_key": "n" * 20},
        follow_redirects=True,
    )
    shown = html_page(merged)
    assert shown.flashes == ["Bobby is merged into Bob."]
    assert "Bobby was merged into Bob on" in shown.text
    assert "Undo the merge of Bobby" in shown.texts["button"]
    assert client.get(f"/players/{bobby}").status_code == 404

    retired = client.post(
        f"/players/{bob}/active",
        data={"active": "0", "write_key": "o" * 20},
        follow_redirects=True,
    )
    assert html_page(retired).flashes == ["Bob is retired."]
    assert players(client)["Bob"]["active"] is False
    assert "Bring back" in html_page(client.get(f"/players/{bob}")).texts["button"]

    (merge,) = client.get("/api/players/merges").json["merges"]
    undone = client.post(
        f"/players/merges/{merge['id']}/undo",
        data={"write_key": "p" * 20},
        follow_redirects=True,
    )
    assert html_page(undone).flashes == ["Bobby is back, apart from Bob."]
    assert players(client)["Bobby"]["hands"] == 1
    changes = page(client, "/sessions/2/changes")
    assert " ".join(changes.items[0]).startswith("Bobby taken apart from Bob again ")
    assert " ".join(changes.items[1]).startswith("Bobby merged into Bob ")
    assert "Undone on the player's page" in changes.text


def test_a_backup_keeps_renames_merges_and_retired_players(
    app: Flask, api: Api, client: FlaskClient, fresh: Fresh
) -> None:
    session_with(api, HANDS)
    session_with(api, [pick("Ann", "Bobby", 90)], players=["Ann", "Bobby", "Cat", "Dan", "Eve"])
    listed = players(client)
    client.post(f"/api/players/{listed['Bobby']['id']}/merge", json={"into": listed["Bob"]["id"]})
    client.patch(f"/api/players/{listed['Bob']['id']}", json={"name": "Robert"})
    client.patch(f"/api/players/{listed['Eve']['id']}", json={"active": False})
    original, backup = answers(client), backup_of(app)
    assert {p["name"]: p["active"] for p in backup["players"]}["Eve"] is False

    restored_app = fresh()
    restore(restored_app, backup)
    again = restored_app.test_client()
    assert_same_answers(answers(again), original)
    assert players(again) == players(client)
    for session in original["/api/sessions"]["sessions"]:
        history = f"/api/sessions/{session['id']}/history"
        assert again.get(history).json == client.get(history).json
    assert without_time(backup_of(restored_app)) == without_time(backup)
    (merge,) = again.get("/api/players/merges").json["merges"]
    assert merge == client.get("/api/players/merges").json["merges"][0]
    assert again.post(f"/api/players/merges/{merge['id']}/undo").status_code == 200
    assert players(again)["Bobby"]["hands"] == 1


# --- what the history and the trash keep of a name

FOUR = ["Ann", "Bob", "Cat", "Dan"]


def left_after_a_deleted_hand(api: Api, client: FlaskClient, name: str, others: list[str]) -> int:
    """A session where `name` played one hand, which was deleted, and then left: they are named
    only in its history. Its id."""
    session_id = session_with(api, [pick(name, others[0], 90)], players=[*others, name])
    assert client.delete(f"/api/sessions/{session_id}/hands/1").status_code == 204
    left = client.patch(f"/api/sessions/{session_id}", json={"players": [*others, "Eve"]})
    assert left.status_code == 200, left.json
    return session_id


def history(client: FlaskClient, session_id: int) -> list[dict[str, Any]]:
    answer = client.get(f"/api/sessions/{session_id}/history")
    assert answer.status_code == 200, answer.json
    return answer.json["changes"]  # type: ignore[no-any-return]


# What a hand's JSON holds besides names.
WORDS = ("kind", "called_card", "result", "blitzes")


def names_of(value: Any) -> set[str]:
    """The strings of a hand's or a payment's JSON but its words, and the names it scores."""
    if isinstance(value, dict):
        scored = set(value["scores"]) if "scores" in value else set()
        return scored.union(*(names_of(v) for k, v in value.items() if k not in WORDS))
    if isinstance(value, list):
        return set().union(*(names_of(item) for item in value))
    return {value} if isinstance(value, str) else set()


def naming(changes: list[dict[str, Any]], name: str) -> list[str]:
    """The actions of the changes whose hands or payments name `name` (a change to a player
    names them in its words alone)."""
    return [
        c["action"]
        for c in changes
        if c["action"] not in ("rename", "merge", "unmerge")
        and name in names_of([c["before"], c["after"]])
    ]


def test_a_rename_reaches_every_history_and_older_changes_undo_with_the_new_name(
    api: Api, client: FlaskClient
) -> None:
    hands = [pick("Ida", "Ann", 90), pick("Ann", "Ida", 40)]
    seated = session_with(api, hands, players=[*FOUR, "Ida"])
    api.replace(seated, 1, **pick("Ann", "Bob", 90))
    left = left_after_a_deleted_hand(api, client, "Ida", FOUR)
    versions = [api.session(n)["version"] for n in (seated, left)]
    assert naming(history(client, left), "Ida") == ["delete", "add"]

    renamed = client.patch(f"/api/players/{player_id(client, 'Ida')}", json={"name": "Iona"})

    assert renamed.status_code == 200, renamed.json
    for session_id, version in zip((seated, left), versions, strict=True):
        changes = history(client, session_id)
        assert (changes[0]["action"], changes[0]["before"], changes[0]["after"]) == (
            "rename", {"name": "Ida"}, {"name": "Iona"}
        )  # fmt: skip
        assert naming(changes, "Ida") == []
        assert api.session(session_id)["version"] == version + 1
        shown = [" ".join(item) for item in page(client, f"/sessions/{session_id}/changes").items]
        (said,) = [line for line in shown if "Ida" in line]
        assert said.startswith("Ida renamed Iona ")
    assert naming(history(client, left), "Iona") == ["delete", "add"]
    # The edit and the deletion made before the rename are undone with the new name.
    undone = client.post(f"/api/sessions/{seated}/history/1/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["hands"][0]["picker"] == "Iona"
    back = client.post(f"/api/sessions/{left}/history/1/restore")
    assert back.status_code == 200, back.json
    assert back.json["hands"][0]["seats"] == [*FOUR, "Iona"]
    assert "Ida" not in players(client)


def test_a_merge_reaches_every_history_and_its_undo_gives_the_history_back(
    api: Api, client: FlaskClient
) -> None:
    session_with(api, HANDS)
    others = ["Ann", "Cat", "Dan", "Fay"]
    bobby = session_with(api, [pick("Bobby", "Ann", 90)], players=[*others, "Bobby"])
    left = left_after_a_deleted_hand(api, client, "Bobby", others)
    before = {n: history(client, n) for n in (bobby, left)}
    listed = players(client)

    merged = client.post(
        f"/api/players/{listed['Bobby']['id']}/merge", json={"into": listed["Bob"]["id"]}
    )

    assert merged.status_code == 200, merged.json
    (merge,) = client.get("/api/players/merges").json["merges"]
    assert sorted(merge["sessions"]) == [bobby, left]
    for session_id in (bobby, left):
        changes = history(client, session_id)
        assert changes[0]["action"] == "merge"
        assert naming(changes, "Bobby") == []
        assert naming(changes, "Bob") == naming(before[session_id], "Bobby")
    # The hand deleted before the merge comes back with the player merged into.
    back = client.post(f"/api/sessions/{left}/history/1/restore")
    assert back.status_code == 200, back.json
    assert back.json["hands"][0]["picker"] == "Bob"
    assert "Bobby" not in players(client)

    undone = client.post(f"/api/players/merges/{merge['id']}/undo")

    assert undone.status_code == 200, undone.json
    assert [c["action"] for c in history(client, bobby)] == ["unmerge", "merge", "add"]
    assert history(client, bobby)[2:] == before[bobby]
    changes = history(client, left)
    assert [c["action"] for c in changes] == ["unmerge", "restore", "merge", "delete", "add"]
    assert changes[3:] == before[left]
    assert naming(changes, "Bob") == [] and naming(changes, "Bobby") == ["restore", "delete", "add"]
    assert api.session(left)["hands"][0]["picker"] == "Bobby"
    assert players(client)["Bobby"]["hands"] == 2


def test_two_named_at_one_session_only_in_its_history_are_not_merged(
    api: Api, client: FlaskClient
) -> None:
    """Bobby played a hand at Bob's table that was deleted: they are still two people."""
    session_id = left_after_a_deleted_hand(api, client, "Bobby", FOUR)
    before = everything(client)
    answer = client.post(
        f"/api/players/{player_id(client, 'Bobby')}/merge", json={"into": player_id(client, "Bob")}
    )
    assert answer.status_code == 409, answer.json
    assert f"both played in session {session_id}" in answer.json["error"]
    assert everything(client) == before


QUOTED = 'Bo "Red"'


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Zoë", "Zoé"),
        ("ida", "Ida"),
        ("JD", "Jay"),
        ("pick", "Pickles"),
        (": Ida", "Ida"),
        ('Ida "Red"', "Ida"),
    ],
)
def test_a_rename_rewrites_the_history_whatever_the_names(
    api: Api, client: FlaskClient, old: str, new: str
) -> None:
    """Names like a hand's words or a called card, written with escapes or quotes, or beside
    a name with a quote: the history renames the player and keeps everything else."""
    alone = session_with(api, [pick(old, "Ann", 90, called_card="JD")], players=[*FOUR, old])
    quoted = session_with(
        api, [pick("Ann", old, 61, called_card="JD")], players=["Ann", QUOTED, "Cat", "Dan", old]
    )
    api.replace(quoted, 1, **pick(QUOTED, old, 30))
    left = left_after_a_deleted_hand(api, client, old, FOUR)
    bystander = session_with(api, [pick("Ann", "Bob", 90, called_card="JD")])
    unseen = history(client, bystander)

    renamed = client.patch(f"/api/players/{player_id(client, old)}", json={"name": new})

    assert renamed.status_code == 200, renamed.json
    for session_id in (alone, quoted, left):
        changes = history(client, session_id)
        assert (changes[0]["before"], changes[0]["after"]) == ({"name": old}, {"name": new})
        assert naming(changes, old) == []
    (added,) = history(client, alone)[1:]
    hand = added["after"]
    assert (hand["kind"], hand["picker"], hand["called_card"]) == ("pick", new, "JD")
    assert hand["seats"] == [*FOUR, new] and new in hand["scores"]
    edited, _ = history(client, quoted)[1:]
    assert (edited["before"]["partner"], edited["before"]["called_card"]) == (new, "JD")
    assert edited["after"]["picker"] == QUOTED
    assert edited["after"]["seats"] == ["Ann", QUOTED, "Cat", "Dan", new]
    deleted, _ = history(client, left)[1:]
    assert deleted["before"]["picker"] == new
    assert history(client, bystander) == unseen
    assert old not in players(client)


def trashed(client: FlaskClient) -> dict[int, dict[str, Any]]:
    return {entry["id"]: entry for entry in client.get("/api/trash").json["sessions"]}


def test_a_rename_reaches_the_trash(app: Flask, api: Api, client: FlaskClient) -> None:
    kept = session_with(api, [pick("Tia", "Ann", 90)], players=[*FOUR, "Tia"])
    session_id = session_with(api, [pick("Ann", "Tia", 90)], players=[*FOUR, "Tia"])
    api.replace(session_id, 1, **pick("Tia", "Bob", 61))
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204

    renamed = client.patch(f"/api/players/{player_id(client, 'Tia')}", json={"name": "Tiana"})

    assert renamed.status_code == 200, renamed.json
    assert trashed(client)[session_id]["players"] == [*FOUR, "Tiana"]
    (entry,) = backup_of(app)["trash"]
    assert "'Tia'" not in repr({**entry, "changes": entry["changes"][:-1]})
    assert entry["changes"][-1]["before"] == {"name": "Tia"}
    back = client.post(f"/api/trash/{session_id}/restore")
    assert back.status_code == 200, back.json
    assert back.json["players"] == [*FOUR, "Tiana"]
    assert back.json["hands"][0]["picker"] == "Tiana"
    assert sorted(players(client)) == sorted([*FOUR, "Tiana"])
    assert players(client)["Tiana"]["sessions"] == 2
    changes = history(client, session_id)
    assert [c["action"] for c in changes] == ["rename", "edit", "add"]
    assert naming(changes, "Tia") == []
    undone = client.post(f"/api/sessions/{session_id}/history/1/restore")
    assert undone.status_code == 200, undone.json
    assert undone.json["hands"][0]["partner"] == "Tiana"
    assert api.session(kept)["players"] == [*FOUR, "Tiana"]


def test_a_merge_reaches_the_trash_and_is_undone_after_a_restore(
    api: Api, client: FlaskClient
) -> None:
    session_with(api, HANDS)
    others = ["Ann", "Cat", "Dan", "Fay"]
    kept = session_with(api, [pick("Bobby", "Ann", 90)], players=[*others, "Bobby"])
    deleted = session_with(api, [pick("Ann", "Bobby", 61)], players=[*others, "Bobby"])
    sheets = {n: api.session(n) for n in (kept, deleted)}
    assert client.delete(f"/api/sessions/{deleted}").status_code == 204
    listed = players(client)

    merged = client.post(
        f"/api/players/{listed['Bobby']['id']}/merge", json={"into": listed["Bob"]["id"]}
    )

    assert merged.status_code == 200, merged.json
    assert trashed(client)[deleted]["players"] == [*others, "Bob"]
    (merge,) = client.get("/api/players/merges").json["merges"]
    assert (merge["sessions"], merge["trashed"]) == ([kept], [deleted])
    back = client.post(f"/api/trash/{deleted}/restore")
    assert back.status_code == 200, back.json
    assert back.json["players"] == [*others, "Bob"]
    assert "Bobby" not in players(client)
    assert naming(history(client, deleted), "Bobby") == []

    undone = client.post(f"/api/players/merges/{merge['id']}/undo")

    assert undone.status_code == 200, undone.json
    for session_id, sheet in sheets.items():
        assert api.session(session_id)["players"] == [*others, "Bobby"]
        assert api.session(session_id)["totals"] == sheet["totals"]
        changes = history(client, session_id)
        assert changes[0]["action"] == "unmerge"
        assert naming(changes, "Bob") == []
    assert players(client)["Bobby"]["sessions"] == 2
    assert players(client)["Bob"]["sessions"] == 1


def test_two_who_played_in_one_session_in_the_trash_are_not_merged(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, [pick("Bobby", "Bob", 90)], players=[*FOUR, "Bobby"])
    session_with(api, HANDS)
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204
    before = everything(client)
    answer = client.post(
        f"/api/players/{player_id(client, 'Bobby')}/merge", json={"into": player_id(client, "Bob")}
    )
    assert answer.status_code == 409, answer.json
    assert answer.json["error"] == (
        f"Bobby and Bob both played in session {session_id}, in the trash, so they are two "
        "people: they can't be merged."
    )
    assert everything(client) == before
    assert trashed(client)[session_id]["players"] == [*FOUR, "Bobby"]


# --- a merge is as if they had been one player all along

POOL = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@st.composite
def nights(draw: st.DrawFn) -> list[tuple[list[str], list[dict[str, Any]], bool]]:
    """Sessions of five from POOL, each with hands, and whether Bob came as "Bobby" to it."""
    drawn = []
    for _ in range(draw(st.integers(1, 4))):
        seats = draw(st.permutations(POOL))[:5]
        hands = []
        for _ in range(draw(st.integers(0, 4))):
            picker = draw(st.sampled_from(seats))
            partner = draw(st.none() | st.sampled_from([p for p in seats if p != picker]))
            hands.append(pick(picker, partner, draw(st.sampled_from([0, 30, 61, 90, 120]))))
        drawn.append((seats, hands, "Bob" in seats and draw(st.booleans())))
    return drawn


def play(api: Api, drawn: list[tuple[list[str], list[dict[str, Any]], bool]], alias: bool) -> None:
    def named(name: str | None, bobby: bool) -> str | None:
        return "Bobby" if alias and bobby and name == "Bob" else name

    for seats, hands, bobby in drawn:
        session_id = api.new_session(players=[named(p, bobby) for p in seats])["id"]
        for hand in hands:
            names = {key: named(hand[key], bobby) for key in ("picker", "partner")}
            api.record(session_id, **(hand | names))


def statistics(client: FlaskClient) -> dict[str, Any]:
    listed = client.get("/api/players").json["players"]
    pages = {}
    for player in listed:
        shown = page(client, f"/players/{player['id']}")
        pages[player["name"]] = {
            table: shown.rows(table)
            for table in ("player-stats", "player-sizes", "player-sessions")
            if table in shown.tables
        }
    return {
        "players": [{k: v for k, v in p.items() if k not in ("id", "last_played")} for p in listed],
        "pages": pages,
        "leaderboard": client.get("/leaderboard.csv").text,
        "settle_up": client.get("/api/settle-up").json,
    }


def emptied(app: Flask) -> None:
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(drawn=nights())
def test_statistics_after_a_merge_are_as_if_one_player_all_along(
    app: Flask, client: FlaskClient, drawn: list[tuple[list[str], list[dict[str, Any]], bool]]
) -> None:
    api = Api(client)
    emptied(app)
    play(api, drawn, alias=False)
    all_along = statistics(client)
    emptied(app)
    play(api, drawn, alias=True)
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    if "Bobby" in ids:
        if "Bob" not in ids:
            renamed = client.patch(f"/api/players/{ids['Bobby']}", json={"name": "Bob"})
            assert renamed.status_code == 200, renamed.json
        else:
            merged = client.post(f"/api/players/{ids['Bobby']}/merge", json={"into": ids["Bob"]})
            assert merged.status_code == 200, merged.json
    assert statistics(client) == all_along


def test_a_merge_needs_a_player_chosen(api: Api, client: FlaskClient) -> None:
    session_with(api, HANDS)
    bob = player_id(client, "Bob")
    shown = html_page(client.get(f"/players/{bob}"))
    assert shown.fields.get("into") is None
    for chosen in ("", "x", "9" * 30):
        refused = client.post(f"/players/{bob}/merge", data={"into": chosen})
        assert refused.status_code == 400
        assert FormPage(refused.text).errors == ["Choose the player to merge into."]
    assert "Bob" in players(client)
