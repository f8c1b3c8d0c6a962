"""`GET /api/sessions` and a session's history a page at a time, with the link to the next."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick


def every_page(client: FlaskClient, url: str, key: str) -> list[list[Any]]:
    pages = []
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.json
        pages.append(answer.json[key])
        url = answer.json.get("next", "")
    return pages


def test_sessions_come_a_page_at_a_time_newest_first(api: Api, client: FlaskClient) -> None:
    ids = [api.new_session()["id"] for _ in range(5)]
    others = api.new_session(players=["Fay", "Gus", "Hal"])["id"]
    newest_first = [others, *reversed(ids)]

    whole = client.get("/api/sessions").json
    assert [s["id"] for s in whole["sessions"]] == newest_first
    assert "next" not in whole

    pages = every_page(client, "/api/sessions?limit=4", "sessions")
    assert [[s["id"] for s in page] for page in pages] == [newest_first[:4], newest_first[4:]]
    first = client.get("/api/sessions?limit=4").json
    assert first["next"] == f"/api/sessions?limit=4&before={newest_first[3]}"

    by_player = every_page(client, "/api/sessions?limit=1&player=gus", "sessions")
    assert [[s["id"] for s in page] for page in by_player] == [[others]]
    assert [s["id"] for s in client.get("/api/sessions?player=Ann").json["sessions"]] == ids[::-1]
    assert client.get("/api/sessions?from=2000-01-01&to=2000-12-31").json == {"sessions": []}


def test_a_new_session_between_pages_is_not_listed_twice(api: Api, client: FlaskClient) -> None:
    ids = [api.new_session()["id"] for _ in range(3)]
    first = client.get("/api/sessions?limit=2").json
    api.new_session()
    rest = every_page(client, first["next"], "sessions")
    listed = [s["id"] for s in first["sessions"]] + [s["id"] for page in rest for s in page]
    assert listed == ids[::-1]


def test_a_page_the_server_cant_read_is_400(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    for query, field in [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=ten", "limit"),
        ("before=-1", "before"),
        ("before=99999999999", "before"),
        ("from=yesterday", "from"),
    ]:
        answer = client.get(f"/api/sessions?{query}")
        assert answer.status_code == 400, query
        assert answer.json["field"] == field, query
    gone = client.get(f"/api/sessions?before={session_id + 1}")
    assert gone.status_code == 400
    assert gone.json == {
        "error": f"Session {session_id + 1} is not listed any more: start again from the first "
        "page.",
        "field": "before",
    }


def test_a_history_comes_a_page_at_a_time(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session(players=SEATS)["id"]
    for picker in SEATS:
        api.record(session_id, **pick(picker, None, 75))
    whole = client.get(f"/api/sessions/{session_id}/history").json
    assert [c["number"] for c in whole["changes"]] == [5, 4, 3, 2, 1]
    assert "next" not in whole
    pages = every_page(client, f"/api/sessions/{session_id}/history?limit=2", "changes")
    assert [[c["number"] for c in page] for page in pages] == [[5, 4], [3, 2], [1]]
    assert client.get(f"/api/sessions/{session_id}/history?limit=0").status_code == 400
