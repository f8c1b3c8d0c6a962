"""The table view (`/sessions/<id>/table`) and what live updates cost: the page's standings,
next deal and last hand; the regions a poll swaps; and the statements a poll that finds nothing
new sends the database, whatever the session's length."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick, session_with
from ..helpers.database import statements
from ..helpers.pages import Page, page

SIX = [*SEATS, "Fay"]
SHEET_REGIONS = ["sheet-progress", "sheet-next", "sheet-totals", "sheet-hands"]
TABLE_REGIONS = ["tv-standings", "tv-next", "tv-last"]


def table_view(client: FlaskClient, session_id: int) -> Page:
    return page(client, f"/sessions/{session_id}/table")


def standings(view: Page) -> list[list[str]]:
    return view.rows("tv-table")[1:]


def test_the_table_view_shows_standings_the_next_deal_and_the_last_hand(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(
        api, [pick("Ann", "Bob", 75), pick("Cat", None, 95)], name="Friday", rounds=1
    )
    response = client.get(f"/sessions/{session_id}/table")
    assert response.status_code == 200
    assert re.findall(r"<h1>(.*?)</h1>", response.text) == ["Friday"]
    view = Page(response.text)
    assert standings(view) == [
        ["1", "Cat", "+7"],
        ["2", "Ann", "0"],
        ["3", "Bob", "-1"],
        ["4", "Dan", "-3"],
        ["4", "Eve", "-3"],
    ]
    totals = api.session(session_id)["standings"]
    assert [[str(s["place"]), s["player"], s["total"]] for s in totals] == [
        [place, player, int(total)] for place, player, total in standings(view)
    ]
    assert re.search(r"<strong>Cat</strong> deals hand 3</p>", response.text)
    assert "Hand 2 Cat alone, 95" in view.text
    assert view.items[-5:] == [
        ["Ann", "-2"], ["Bob", "-2"], ["Cat", "+8"], ["Dan", "-2"], ["Eve", "-2"],
    ]  # fmt: skip
    assert "Complete" not in view.text


def test_the_table_view_says_who_sits_out_and_who_left(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 70)], players=SIX, first_dealer="Fay")
    view = table_view(client, session_id)
    assert "Ann deals hand 2 Ann sits out" in view.text
    # Fay dealt and sat the first hand out: its scores name only who played it, in seat order.
    assert view.items == [["Ann", "+2"], ["Bob", "+1"], ["Cat", "-1"], ["Dan", "-1"], ["Eve", "-1"]]
    players = ["Ann", "Cat", "Dan", "Eve", "Fay"]
    assert client.patch(f"/api/sessions/{session_id}", json={"players": players}).status_code == 200
    view = table_view(client, session_id)
    assert ["2", "Bob left", "+1"] in standings(view)
    assert "Ann deals hand 2" in view.text and "sits out" not in view.text


def test_the_table_view_of_a_complete_session(api: Api, client: FlaskClient) -> None:
    hands = [pick(picker, None, 75) for picker in SEATS]
    view = table_view(client, session_with(api, hands, rounds=1))
    assert "Complete · final standings" in view.text
    assert "Complete after 5 hands" in view.text
    assert "deals hand" not in view.text
    assert standings(view) == [["1", player, "0"] for player in SEATS]


def test_the_table_view_before_the_first_hand_and_after_a_pass(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, [], first_dealer="Dan", rules={"no_bid": "doubler"})
    view = table_view(client, session_id)
    assert "Dan deals hand 1" in view.text
    assert "No hands yet" in view.text
    assert [row[1] for row in standings(view)] == SEATS
    api.record(session_id, kind="pass")
    view = table_view(client, session_id)
    assert "Hand 1 Everyone passed No scores: the deal moved on." in view.text
    assert "Eve deals hand 2 Next 1 hand doubled" in view.text


@pytest.mark.parametrize("session_id", ["999", str(2**31)])
def test_the_table_view_of_an_unknown_session_is_404(client: FlaskClient, session_id: str) -> None:
    response = client.get(f"/sessions/{session_id}/table")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_the_scoresheet_links_to_the_table_view(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [])
    html = client.get(f"/sessions/{session_id}").text
    assert f'<a class="btn" href="/sessions/{session_id}/table">Table view</a>' in html


@pytest.mark.parametrize(
    ("path", "regions"), [("/sessions/{}", SHEET_REGIONS), ("/sessions/{}/table", TABLE_REGIONS)]
)
def test_live_pages_name_their_api_version_and_regions(
    api: Api, client: FlaskClient, path: str, regions: list[str]
) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    version = api.session(session_id)["version"]
    html = client.get(path.format(session_id)).text
    main = re.search(r"<main([^>]*)>", html)
    assert main is not None
    assert f'data-live="/api/sessions/{session_id}"' in main[1]
    assert f'data-live-version="{version}"' in main[1]
    assert 'data-live-hands="1"' in main[1]
    assert re.findall(r'id="([\w-]+)" data-live-region', html) == regions
    assert re.search(r'<script src="/scripts/(sheet|table).js" defer></script>', html)


# --- what a poll costs


def test_a_poll_that_names_the_version_gets_an_empty_304(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    first = client.get(f"/api/sessions/{session_id}")
    etag = first.headers["ETag"]
    assert etag == f'"{first.json["version"]}"'  # type: ignore[index]
    unchanged = client.get(f"/api/sessions/{session_id}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert unchanged.headers["ETag"] == etag
    api.record(session_id, **pick("Bob", "Cat", 80))
    changed = client.get(f"/api/sessions/{session_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert len(changed.json["hands"]) == 2  # type: ignore[index]
    assert changed.headers["ETag"] == f'"{changed.json["version"]}"'  # type: ignore[index]
    assert changed.headers["ETag"] != etag
    missing = client.get("/api/sessions/999", headers={"If-None-Match": etag})
    assert missing.status_code == 404


def test_a_poll_that_finds_nothing_new_takes_two_statements_at_any_length(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """One statement reads the access setting (as every request does), one the version."""
    sessions = [
        session_with(api, [pick(SEATS[(n + 2) % 5], None, 75) for n in range(count)])
        for count in (20, 200)
    ]

    def poll(session_id: int) -> int:
        path = f"/api/sessions/{session_id}"
        etag = client.get(path).headers["ETag"]
        return statements(
            app, lambda: client.get(path, headers={"If-None-Match": etag}).status_code, 304
        )

    assert [poll(session_id) for session_id in sessions] == [2, 2]


def test_the_table_view_takes_the_same_statements_at_any_length(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    sessions = [
        session_with(api, [pick(SEATS[(n + 2) % 5], None, 75) for n in range(count)])
        for count in (10, 200)
    ]

    def view(session_id: int) -> int:
        path = f"/sessions/{session_id}/table"
        return statements(app, lambda: client.get(path).status_code, 200)

    counts = [view(session_id) for session_id in sessions]
    assert counts[0] == counts[1]
    assert 0 < counts[0] <= 8
