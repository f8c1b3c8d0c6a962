"""Ending a session and settling a leaver from the pages: the scoresheet's session menu, the
rename / rounds form, the Seats page's "Settle Cat now" and the settle-up page; every form
written once however often it is sent."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from ..helpers.api import SEATS, Api, pick
from ..helpers.database import NewApp
from ..helpers.pages import FormPage, get_page, html_page, redirected_page, sheet_path


def form_of(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's form that posts to `action`, as a browser sends them."""
    found = re.search(rf'<form method="post" action="{re.escape(action)}">(.*?)</form>', html, re.S)
    assert found, action
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', found[1]))


def test_the_session_menu_ends_and_reopens_the_session(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session(rounds=0)["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    sheet = client.get(sheet_path(session_id)).text
    assert '<summary class="btn">Session</summary>' in sheet
    assert f'href="/sessions/{session_id}/edit">Rename / rounds</a>' in sheet
    end = form_of(sheet, f"/sessions/{session_id}/end")
    assert set(end) == {"csrf_token", "write_key"}
    for _tap in range(2):
        ended = redirected_page(
            client, client.post(f"/sessions/{session_id}/end", data=end), sheet_path(session_id)
        )
    assert ended.flashes == ["Session ended: the standings are final."]
    assert '<span class="badge">Ended</span>' in client.get(sheet_path(session_id)).text
    assert "Record hand" not in ended.text
    assert "Final standings" in ended.text
    assert "Reopen session" in ended.texts["button"]
    changes = client.get(f"/api/sessions/{session_id}/history").json["changes"]
    assert [c["action"] for c in changes] == ["end", "add"]
    assert "Session ended" in get_page(client, f"/sessions/{session_id}/changes").text

    reopen = form_of(client.get(sheet_path(session_id)).text, f"/sessions/{session_id}/reopen")
    reopened = redirected_page(
        client, client.post(f"/sessions/{session_id}/reopen", data=reopen), sheet_path(session_id)
    )
    assert reopened.flashes == ["Session reopened."]
    assert "Record hand" in reopened.text
    assert api.session(session_id)["ended"] is False


def test_an_ended_session_offers_no_hand_form(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    client.patch(f"/api/sessions/{session_id}", json={"ended": True})
    answer = client.get(f"/sessions/{session_id}/hands/new")
    assert answer.status_code == 302
    assert client.get(answer.location).text.count("This session has ended.") == 1


def test_rename_and_rounds_keep_what_was_typed_when_refused(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session(rounds=2)["id"]
    for hand in (pick("Ann", "Bob", 75), pick("Bob", "Cat", 75)) * 3:
        api.record(session_id, **hand)
    path = f"/sessions/{session_id}/edit"
    page = get_page(client, path)
    assert (page.fields["name"], page.fields["rounds"]) == ([""], ["2"])
    assert "<h1>Rename / rounds</h1>" in client.get(path).text
    sent = {"name": "Friday", "rounds": "1", "write_key": page.fields["write_key"][0]}
    refused = client.post(path, data=sent)
    assert refused.status_code == 400
    shown = FormPage(refused.text)
    assert shown.errors == ["6 hands are already played, more than 1 round of 5 hands."]
    assert (shown.fields["name"], shown.fields["rounds"]) == (["Friday"], ["1"])
    assert shown.fields["write_key"] == [sent["write_key"]]
    assert api.session(session_id)["name"] == ""

    sent["rounds"] = "3"
    for _tap in range(2):
        saved = redirected_page(client, client.post(path, data=sent), sheet_path(session_id))
    assert saved.flashes == ["Name and rounds saved."]
    session = api.session(session_id)
    assert (session["name"], session["rounds"], session["version"]) == ("Friday", 3, 8)


def test_rounds_must_be_a_number(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session(rounds=2)["id"]
    refused = client.post(f"/sessions/{session_id}/edit", data={"name": "x", "rounds": "two"})
    assert refused.status_code == 400
    assert FormPage(refused.text).errors == [
        "Rounds must be a whole number from 0 to 100 (0 means open-ended)."
    ]


def cat_leaves_from_the_seats_page(api: Api, client: FlaskClient) -> int:
    """Worked examples 1 and 4 at 50 cents a point; then Cat leaves on the Seats page."""
    session_id: int = api.new_session(rules={"no_bid": "leaster", "stake": 50})["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    api.record(session_id, kind="leaster", winner="Cat")
    path = f"/sessions/{session_id}/seats"
    fields = {name: values[0] for name, values in get_page(client, path).fields.items()}
    seats = ["Ann", "Bob", "Dan", "Eve"]
    sent = {**fields, "seat": seats, "save": "1"}
    assert redirected_page(client, client.post(path, data=sent), path).flashes == ["Seats changed."]
    return session_id


def test_a_leaver_is_settled_from_the_seats_page(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves_from_the_seats_page(api, client)
    path = f"/sessions/{session_id}/seats"
    page = client.get(path).text
    assert "Settle Cat now</button>" in page
    assert "Dan pays Cat $1.00; Eve pays Cat $0.50" in page
    sent = form_of(page, f"/sessions/{session_id}/settle-leaver")
    assert sent["player"] == "Cat"
    for _tap in range(2):
        settled = redirected_page(
            client, client.post(f"/sessions/{session_id}/settle-leaver", data=sent), path
        )
    said = "Cat settled: gets $1.00 from Dan and $0.50 from Eve."
    assert settled.flashes == [said]
    assert said in settled.text
    assert "Settle Cat now" not in settled.text
    assert len(api.session(session_id)["settle_up"]["paid"]) == 2

    settle_up_path = f"/sessions/{session_id}/settle-up"
    assert '<h2 id="paid-heading">Paid early</h2>' in client.get(settle_up_path).text
    settle_up = get_page(client, settle_up_path)
    assert "Dan paid Cat $1.00" in settle_up.text and "Eve paid Cat $0.50" in settle_up.text
    # What is left: Ann +$0.50 and Eve -$0.50.
    assert "Eve pays Ann $0.50" in settle_up.text
    assert "Paid early: Dan pays Cat $1.00; Eve pays Cat $0.50" in settle_up.text


def test_a_refused_settlement_says_why_on_the_seats_page(api: Api, client: FlaskClient) -> None:
    session_id = cat_leaves_from_the_seats_page(api, client)
    answer = client.post(f"/sessions/{session_id}/settle-leaver", data={"player": "Dan"})
    page = redirected_page(client, answer, f"/sessions/{session_id}/seats")
    assert page.flashes == ["Dan is still seated: only a player who has left can be settled early."]
    assert api.session(session_id)["settle_up"]["paid"] == []


def test_no_stake_offers_no_early_settling(api: Api, client: FlaskClient) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    client.patch(f"/api/sessions/{session_id}", json={"players": ["Bob", "Cat", "Dan", "Eve"]})
    page = html_page(client.get(f"/sessions/{session_id}/seats"))
    assert "Settle who left" not in page.text


@pytest.mark.parametrize(
    ("action", "data"),
    [("end", {}), ("reopen", {}), ("edit", {"name": "x", "rounds": "1"}), ("settle-leaver", {})],
)
def test_each_form_needs_the_csrf_token(
    database: str, action: str, data: dict[str, str], new_app: NewApp
) -> None:
    with new_app(database, csrf=True) as app:
        client = app.test_client()
        created = client.post("/api/sessions", json={"players": SEATS, "rounds": 0})
        session_id = created.json["id"]
        refused = client.post(f"/sessions/{session_id}/{action}", data=data)
        assert refused.status_code == 400
        assert client.get(f"/api/sessions/{session_id}").json["version"] == 1


def test_the_settle_form_has_its_own_key_beside_the_seats_form(
    api: Api, client: FlaskClient
) -> None:
    session_id = cat_leaves_from_the_seats_page(api, client)
    path = f"/sessions/{session_id}/seats"
    seats = {name: values[0] for name, values in get_page(client, path).fields.items()}
    # Moving a seat sends the seats form back, keeping its key; the settle form gets another.
    moved = client.post(path, data={**seats, "seat": ["Ann", "Bob", "Dan", "Eve"], "down": "0"})
    settle = form_of(moved.text, f"/sessions/{session_id}/settle-leaver")
    assert settle["write_key"] != seats["write_key"]
    client.post(f"/sessions/{session_id}/settle-leaver", data=settle)
    saved = client.post(path, data={**seats, "seat": ["Bob", "Ann", "Dan", "Eve"], "save": "1"})
    assert saved.status_code == 302
    session = api.session(session_id)
    assert (session["players"], len(session["settle_up"]["paid"])) == (
        ["Bob", "Ann", "Dan", "Eve"], 2,
    )  # fmt: skip
