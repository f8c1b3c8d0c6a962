"""The pages around an event's settings: New event's pairs to keep apart and its spelled-out
usual rules with a way to Rule sets, Check-in's "Keep apart" pairs added and removed, and the
page that changes an event after it is made (rules and entry only before the first draw), each
refusing with the API's sentence."""

from __future__ import annotations

from flask.testing import FlaskClient

from ..helpers.events import drawn, end_round, event_of, make_event
from ..helpers.pages import FormPage, filled, get_page, page


def new_event(client: FlaskClient, **typed: str) -> int:
    sent = filled(client, "/events/new", {"name": "Club night", **typed})
    response = client.post("/events/new", data=sent)
    assert response.status_code == 302, FormPage(response.text).errors
    return int(response.location.rsplit("/", 1)[1])


def test_new_event_keeps_the_pairs_typed_one_a_line(client: FlaskClient) -> None:
    event_id = new_event(client, apart="Ann and Bob\n\nCat, Dan\nEve & Fay\n")
    assert event_of(client, event_id)["apart"] == [["Ann", "Bob"], ["Cat", "Dan"], ["Eve", "Fay"]]
    text = page(client, f"/events/{event_id}").text
    assert "Keep apart: Ann and Bob" in text and "Keep apart: Eve and Fay" in text


def test_new_event_refuses_a_pair_of_one_with_the_apis_sentence(client: FlaskClient) -> None:
    sent = filled(client, "/events/new", {"name": "Night", "apart": "Ann and Bob\nCat"})
    response = client.post("/events/new", data=sent)
    assert response.status_code == 400
    shown = FormPage(response.text)
    said = client.post("/api/events", json={"name": "x", "apart": [["Ann", "Bob"], ["Cat"]]})
    assert shown.errors == [said.json["error"]]
    assert "Ann and Bob\nCat" in response.text
    assert client.get("/api/events").json["events"] == []


def test_new_event_spells_out_the_usual_rules_and_links_rule_sets(client: FlaskClient) -> None:
    text = page(client, "/events/new").text
    assert "The usual rules: Jack of diamonds partner" in text
    assert 'href="/rule-sets"' in client.get("/events/new").text


def test_check_in_adds_and_removes_a_pair_to_keep_apart(client: FlaskClient) -> None:
    event = make_event(client, players=3)
    path = f"/events/{event['id']}"
    sent = filled(client, path, {})
    added = client.post(
        f"{path}/apart",
        data={
            "csrf_token": "",
            "write_key": sent["write_key"],
            "first": "player 01",
            "second": "Zed",
        },
    )
    assert added.status_code == 302
    assert event_of(client, event["id"])["apart"] == [["Player 01", "Zed"]]
    text = page(client, path).text
    assert "Keep apart: Player 01 and Zed" in text
    assert "Player 01 and Zed are kept apart from the next draw on." in text
    again = client.post(f"{path}/apart", data={"first": "Zed", "second": "Player 01"})
    assert again.status_code == 302
    assert "Player 01 and Zed are kept apart twice: name each pair once." in page(client, path).text
    removed = client.post(f"{path}/apart/remove", data={"name": ["Player 01", "Zed"]})
    assert removed.status_code == 302
    assert event_of(client, event["id"])["apart"] == []


def test_the_change_page_changes_the_event_as_patch_does(client: FlaskClient) -> None:
    event_id = new_event(client, name="Friday", places="50, 30", entry="10")
    shown = get_page(client, f"/events/{event_id}/edit")
    assert shown.fields["name"] == ["Friday"] and shown.fields["places"] == ["50, 30"]
    assert "Change the event" in page(client, f"/events/{event_id}").text
    sent = filled(
        client,
        f"/events/{event_id}/edit",
        {"name": "Friday final", "places": "", "apart": "Ann and Bob", "hands": "12"},
    )
    response = client.post(f"/events/{event_id}/edit", data=sent)
    assert response.status_code == 302, FormPage(response.text).errors
    event = event_of(client, event_id)
    assert (event["name"], event["places"], event["apart"], event["hands"]) == (
        "Friday final", [], [["Ann", "Bob"]], 12,
    )  # fmt: skip
    assert event["entry"] == 1000


def test_the_change_page_shows_whether_the_other_side_confirms_and_turns_it_off(
    client: FlaskClient,
) -> None:
    event_id = new_event(client, confirm="y")
    assert event_of(client, event_id)["confirm"] is True
    sent = filled(client, f"/events/{event_id}/edit", {"name": "Friday"})
    assert sent["confirm"] == "y"
    assert client.post(f"/events/{event_id}/edit", data=sent).status_code == 302
    assert event_of(client, event_id)["confirm"] is True
    sent = filled(client, f"/events/{event_id}/edit", {})
    del sent["confirm"]
    response = client.post(f"/events/{event_id}/edit", data=sent)
    assert response.status_code == 302, FormPage(response.text).errors
    assert event_of(client, event_id)["confirm"] is False


def test_after_the_first_draw_rules_and_entry_are_shown_as_they_stay(
    client: FlaskClient,
) -> None:
    event = make_event(client, players=6, entry=500)
    end_round(client, drawn(client, event["id"]))
    shown = page(client, f"/events/{event['id']}/edit")
    assert "A round is drawn, so the rules stay as they are." in shown.text
    assert "A round is drawn, so the entry fee stays as it is." in shown.text
    sent = filled(client, f"/events/{event['id']}/edit", {"name": "Renamed"})
    # A browser doesn't send a disabled field.
    del sent["entry"]
    response = client.post(f"/events/{event['id']}/edit", data=sent)
    assert response.status_code == 302, FormPage(response.text).errors
    assert (event_of(client, event["id"])["name"], event_of(client, event["id"])["entry"]) == (
        "Renamed", 500,
    )  # fmt: skip
    sent = filled(client, f"/events/{event['id']}/edit", {"entry": "9"})
    response = client.post(f"/events/{event['id']}/edit", data=sent)
    assert response.status_code == 400
    said = client.patch(f"/api/events/{event['id']}", json={"entry": 900})
    assert said.status_code == 409
    assert FormPage(response.text).errors == [said.json["error"]]


def test_the_change_page_refuses_what_patch_refuses(client: FlaskClient) -> None:
    event_id = new_event(client)
    sent = filled(client, f"/events/{event_id}/edit", {"hands": "0"})
    response = client.post(f"/events/{event_id}/edit", data=sent)
    assert response.status_code == 400
    said = client.patch(f"/api/events/{event_id}", json={"hands": 0})
    assert FormPage(response.text).errors == [said.json["error"]]


def test_a_change_from_a_page_opened_before_another_change_is_refused(
    client: FlaskClient,
) -> None:
    event_id = new_event(client)
    sent = filled(client, f"/events/{event_id}/edit", {"name": "Mine"})
    assert client.patch(f"/api/events/{event_id}", json={"name": "Theirs"}).status_code == 200
    response = client.post(f"/events/{event_id}/edit", data=sent)
    assert response.status_code == 400
    assert "The event changed on another phone" in response.text
    assert event_of(client, event_id)["name"] == "Theirs"
    assert FormPage(response.text).fields["name"] == ["Theirs"]
