"""Safe writes through the API: versions and ETags, If-Match, Idempotency-Key, the history of
changes with undo, the trash, and writers racing on one session."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick, session_with
from ..helpers.database import second_worker

HANDS = [pick("Ann", "Bob", 75), pick("Bob", "Cat", 30), pick("Cat", None, 95)]


def hands_of(api: Api, session_id: int) -> list[tuple[int, str | None, int | None]]:
    return [
        (h["number"], h["picker"], h["picking_points"]) for h in api.session(session_id)["hands"]
    ]


# --- versions


def test_every_write_grows_the_version_and_the_etag_follows(api: Api, client: FlaskClient) -> None:
    created = api.new_session()
    session_id, version = created["id"], created["version"]
    steps = [
        lambda: api.record(session_id, **HANDS[0]),
        lambda: api.replace(session_id, 1, **HANDS[1]),
        lambda: client.patch(f"/api/sessions/{session_id}", json={"name": "Friday"}),
        lambda: api.delete(session_id, 1),
    ]
    for step in steps:
        step()
        response = client.get(f"/api/sessions/{session_id}")
        assert response.json["version"] == version + 1
        assert response.headers["ETag"] == f'"{version + 1}"'
        version += 1


def test_a_known_etag_is_answered_not_modified(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    etag = client.get(f"/api/sessions/{session_id}").headers["ETag"]
    unchanged = client.get(f"/api/sessions/{session_id}", headers={"If-None-Match": etag})
    assert (unchanged.status_code, unchanged.data) == (304, b"")
    api.record(session_id, **HANDS[0])
    changed = client.get(f"/api/sessions/{session_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert len(changed.json["hands"]) == 4


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/hands", pick("Dan", "Eve", 60)),
        ("put", "/hands/2", pick("Dan", "Eve", 60)),
        ("delete", "/hands/2", None),
        ("patch", "", {"name": "Renamed"}),
        ("delete", "", None),
    ],
)
def test_a_stale_if_match_is_refused_and_changes_nothing(
    client: FlaskClient, api: Api, method: str, path: str, body: Any
) -> None:
    session_id = session_with(api, HANDS)
    before = api.session(session_id)
    stale = f'"{before["version"] - 1}"'
    response = getattr(client, method)(
        f"/api/sessions/{session_id}{path}", json=body, headers={"If-Match": stale}
    )
    assert response.status_code == 412
    assert response.json["field"] == "version"
    assert response.json["version"] == before["version"]
    assert response.json["error"] == (
        f"The session is at version {before['version']} now, not {before['version'] - 1}: "
        "it has changed since. Reload it and try again."
    )
    assert api.session(session_id) == before
    current = {"If-Match": f'"{before["version"]}"'}
    response = getattr(client, method)(
        f"/api/sessions/{session_id}{path}", json=body, headers=current
    )
    assert response.status_code in (200, 201, 204)


def test_if_match_that_is_no_version_is_refused(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    response = client.post(
        f"/api/sessions/{session_id}/hands", json=HANDS[0], headers={"If-Match": '"abc"'}
    )
    assert response.status_code == 412
    assert len(api.session(session_id)["hands"]) == 3


# --- idempotency keys


def test_a_repeated_post_records_one_hand_and_answers_the_same(
    client: FlaskClient, api: Api
) -> None:
    session_id = session_with(api, HANDS)
    headers = {"Idempotency-Key": "hand-4-from-phone-1"}
    answers = [
        client.post(
            f"/api/sessions/{session_id}/hands", json=pick("Dan", "Eve", 60), headers=headers
        )
        for _ in range(3)
    ]
    assert {(a.status_code, a.data) for a in answers} == {(201, answers[0].data)}
    assert answers[0].json["number"] == 4
    assert len(api.session(session_id)["hands"]) == 4


def test_a_key_used_for_another_request_is_a_conflict(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    headers = {"Idempotency-Key": "k1"}
    path = f"/api/sessions/{session_id}/hands"
    assert client.post(path, json=pick("Dan", "Eve", 60), headers=headers).status_code == 201
    other = client.post(path, json=pick("Dan", "Eve", 61), headers=headers)
    assert other.status_code == 409
    assert other.json["field"] == "Idempotency-Key"
    elsewhere = client.put(f"{path}/1", json=pick("Dan", "Eve", 60), headers=headers)
    assert elsewhere.status_code == 409
    assert len(api.session(session_id)["hands"]) == 4


@pytest.mark.parametrize("key", ["", "x" * 101, "with space", "tab\tkey", "é"])
def test_a_malformed_key_is_refused(client: FlaskClient, api: Api, key: str) -> None:
    session_id = session_with(api, HANDS)
    response = client.post(
        f"/api/sessions/{session_id}/hands",
        json=HANDS[0],
        headers={"Idempotency-Key": key.encode("utf-8").decode("latin-1")},
    )
    assert response.status_code == 400
    assert response.json["field"] == "Idempotency-Key"
    assert len(api.session(session_id)["hands"]) == 3


def test_every_kind_of_write_is_safe_to_repeat(client: FlaskClient, api: Api) -> None:
    created = [
        client.post(
            "/api/sessions",
            json={"players": SEATS, "rounds": 1},
            headers={"Idempotency-Key": "new"},
        )
        for _ in range(2)
    ]
    assert created[0].status_code == created[1].status_code == 201
    assert created[0].json == created[1].json
    assert len(client.get("/api/sessions").json["sessions"]) == 1
    session_id = created[0].json["id"]
    for hand in HANDS:
        api.record(session_id, **hand)

    def twice(method: str, path: str, key: str, body: Any = None) -> list[int]:
        return [
            getattr(client, method)(
                f"/api/sessions/{session_id}{path}", json=body, headers={"Idempotency-Key": key}
            ).status_code
            for _ in range(2)
        ]

    assert twice("delete", "/hands/1", "d1") == [204, 204]
    assert hands_of(api, session_id) == [(1, "Bob", 30), (2, "Cat", 95)]
    assert twice("patch", "", "p1", {"rounds": 2}) == [200, 200]
    assert api.session(session_id)["rounds"] == 2
    assert twice("post", "/history/0/restore", "u1") == [200, 200]
    assert hands_of(api, session_id) == [(1, "Ann", 75), (2, "Bob", 30), (3, "Cat", 95)]
    assert twice("delete", "", "gone") == [204, 204]
    assert client.get("/api/trash").json["sessions"][0]["id"] == session_id
    restored = [
        client.post(f"/api/trash/{session_id}/restore", headers={"Idempotency-Key": "back"})
        for _ in range(2)
    ]
    assert [r.status_code for r in restored] == [200, 200]
    assert len(client.get("/api/sessions").json["sessions"]) == 1


def test_keys_are_kept_in_the_database(app: Flask, api: Api) -> None:
    session_id = session_with(api, HANDS)
    headers = {"Idempotency-Key": "survives-a-restart"}
    first = app.test_client().post(
        f"/api/sessions/{session_id}/hands", json=HANDS[0], headers=headers
    )
    # Another app object on the same database: another server worker, or the server restarted.
    with second_worker(app) as other:
        again = other.test_client().post(
            f"/api/sessions/{session_id}/hands", json=HANDS[0], headers=headers
        )
    assert (again.status_code, again.json) == (first.status_code, first.json)
    assert len(api.session(session_id)["hands"]) == 4


# --- history and undo


def test_history_lists_every_change_newest_first(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS[:2])
    api.replace(session_id, 1, **pick("Ann", "Bob", 45))
    api.delete(session_id, 2)
    changes = client.get(f"/api/sessions/{session_id}/history").json["changes"]
    assert [(c["action"], c["number"]) for c in changes] == [
        ("delete", 2),
        ("edit", 1),
        ("add", 2),
        ("add", 1),
    ]
    deleted, edited, added = changes[0], changes[1], changes[3]
    assert deleted["after"] is None and deleted["before"]["picker"] == "Bob"
    assert (edited["before"]["picking_points"], edited["after"]["picking_points"]) == (75, 45)
    assert edited["after"]["scores"] == {"Ann": -2, "Bob": -1, "Cat": 1, "Dan": 1, "Eve": 1}
    assert added["before"] is None and added["after"]["number"] == 1
    assert all(c["at"].endswith("+00:00") for c in changes)


def test_undo_puts_a_hand_back_as_it_was(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    api.replace(session_id, 2, **pick("Bob", "Cat", 61))
    api.delete(session_id, 1)
    assert hands_of(api, session_id) == [(1, "Bob", 61), (2, "Cat", 95)]

    restore = f"/api/sessions/{session_id}/history/0/restore"
    answer = client.post(restore)
    assert answer.status_code == 200
    assert [h["picker"] for h in answer.json["hands"]] == ["Ann", "Bob", "Cat"]
    assert hands_of(api, session_id) == [(1, "Ann", 75), (2, "Bob", 61), (3, "Cat", 95)]
    # The undo is a change of its own, and can be undone in turn.
    changes = client.get(f"/api/sessions/{session_id}/history").json["changes"]
    assert (changes[0]["action"], changes[0]["before"], changes[0]["after"]["picker"]) == (
        "restore",
        None,
        "Ann",
    )
    # Undo the edit of hand 2 (index 2: restore, delete, edit, ...).
    assert client.post(f"/api/sessions/{session_id}/history/2/restore").status_code == 200
    assert hands_of(api, session_id) == [(1, "Ann", 75), (2, "Bob", 30), (3, "Cat", 95)]
    totals = api.session(session_id)["totals"]
    assert sum(totals.values()) == 0


def test_undo_of_an_add_removes_the_hand(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    assert client.post(f"/api/sessions/{session_id}/history/0/restore").status_code == 200
    assert hands_of(api, session_id) == [(1, "Ann", 75), (2, "Bob", 30)]


def test_undo_of_a_change_overtaken_by_another_is_refused(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, HANDS)
    api.replace(session_id, 3, **pick("Cat", None, 100))
    api.replace(session_id, 3, **pick("Cat", None, 20))
    before = api.session(session_id)
    # Index 1 is the first edit; hand 3 has been edited again since.
    refused = client.post(f"/api/sessions/{session_id}/history/1/restore")
    assert refused.status_code == 409
    assert refused.json["field"] == "index"
    assert api.session(session_id) == before
    assert client.post(f"/api/sessions/{session_id}/history/9/restore").status_code == 404
    assert client.get("/api/sessions/99/history").status_code == 404


# --- the trash


def test_a_deleted_session_goes_to_the_trash_and_comes_back_whole(
    client: FlaskClient, api: Api
) -> None:
    session_id = session_with(api, HANDS, name="Friday")
    api.replace(session_id, 1, **pick("Ann", "Bob", 45))
    kept = api.session(session_id)
    history = client.get(f"/api/sessions/{session_id}/history").json
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204

    assert client.get(f"/api/sessions/{session_id}").status_code == 404
    assert client.get("/api/sessions").json == {"sessions": []}
    assert client.get("/leaderboard.csv").text.count("\n") == 1
    trash = client.get("/api/trash").json["sessions"]
    assert [(t["id"], t["name"], t["hand_count"], t["players"]) for t in trash] == [
        (session_id, "Friday", 3, SEATS)
    ]

    back = client.post(f"/api/trash/{session_id}/restore")
    assert back.status_code == 200
    assert back.json["id"] == session_id
    assert {**api.session(session_id), "version": 0} == {**kept, "version": 0}
    assert api.session(session_id)["version"] > kept["version"]
    assert client.get(f"/api/sessions/{session_id}/history").json == history
    assert client.get("/api/trash").json == {"sessions": []}
    assert client.post(f"/api/trash/{session_id}/restore").status_code == 404


def test_a_deleted_sessions_id_never_names_another_session(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """A hand sent to a deleted session's id (from a phone that still has it open, the outbox,
    a script) lands nowhere, and the session comes back from the trash under its own id, even
    when newer sessions were started meanwhile, by this server or after a restart."""
    kept = session_with(api, HANDS, name="Friday")
    deleted = session_with(api, HANDS, name="Saturday")
    assert client.delete(f"/api/sessions/{deleted}").status_code == 204
    newer = api.new_session(name="Sunday")["id"]
    with second_worker(app) as restarted:
        newest = Api(restarted.test_client()).new_session(name="Monday")["id"]
    assert deleted < newer < newest

    late = client.post(f"/api/sessions/{deleted}/hands", json=pick("Ann", "Bob", 60))
    assert late.status_code == 404
    assert [api.session(n)["hands"] for n in (newer, newest)] == [[], []]
    back = client.post(f"/api/trash/{deleted}/restore")
    assert (back.status_code, back.json["id"], back.json["name"]) == (200, deleted, "Saturday")
    assert sorted(s["id"] for s in client.get("/api/sessions").json["sessions"]) == [
        kept, deleted, newer, newest
    ]  # fmt: skip


# --- writers racing on one session


def test_concurrent_writers_leave_the_session_as_if_one_after_another(app: Flask, api: Api) -> None:
    session_id = session_with(api, [])
    failures: list[Any] = []

    def writer(n: int) -> None:
        client = app.test_client()
        for i in range(6):
            points = [0, 30, 60, 75, 95, 120][(n + i) % 6]
            response = client.post(
                f"/api/sessions/{session_id}/hands",
                json=pick(SEATS[n % 5], SEATS[(n + 1) % 5], points),
            )
            if response.status_code != 201:
                failures.append(response.json)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    session = api.session(session_id)
    assert [h["number"] for h in session["hands"]] == list(range(1, 37))
    for player in SEATS:
        assert session["totals"][player] == sum(h["scores"][player] for h in session["hands"])
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 0, result.output
