"""Tournament tables on the pages (the issue's "Confirming", "The director", "Substitutes"): a
new event that confirms, the scoresheet's Confirm buttons with the names who may confirm and the
record form's preview saying who confirms, an edit that unconfirms; the director called from a
table and answered from the board or the table; the board marking tables with hands to confirm
and the results waiting for them; a substitute seated from the round's tables page, the table's
Seats and the standings saying "Zed for Ann". A form refuses with the API's sentence."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from ..helpers.api import pick
from ..helpers.events import confirm_event, drawn, event_of, last_tables, make_event, record
from ..helpers.pages import FormPage, filled, get_page, page


def forms_of(html: str, action: str) -> list[str]:
    """The forms of a page posting to `action`, as their HTML."""
    return re.findall(rf'<form[^>]*action="{re.escape(action)}"[^>]*>.*?</form>', html, re.S)


def fields_of(form: str) -> dict[str, str]:
    return {
        name: value
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def test_a_new_event_from_the_form_may_ask_for_confirming(client: FlaskClient) -> None:
    sent = filled(client, "/events/new", {"name": "Cup", "confirm": "y"})
    response = client.post("/events/new", data=sent)
    assert response.status_code == 302
    event_id = int(response.location.rsplit("/", 1)[1])
    assert event_of(client, event_id)["confirm"] is True
    plain = client.post("/events/new", data=filled(client, "/events/new", {"name": "Plain"}))
    assert event_of(client, int(plain.location.rsplit("/", 1)[1]))["confirm"] is False


def test_the_scoresheet_offers_the_other_side_as_big_buttons(client: FlaskClient) -> None:
    event = confirm_event(client)
    table = last_tables(event)[0]
    session_id, seats = table["session"], table["seats"]
    record(client, session_id, pick(seats[1], seats[2], 75))
    sheet = client.get(f"/sessions/{session_id}").text
    action = f"/sessions/{session_id}/hands/1/confirm"
    (form,) = forms_of(sheet, action)
    buttons = re.findall(r'<button type="submit" name="by" value="([^"]+)"', form)
    assert buttons == [seats[0], seats[3], seats[4]]
    assert "1 hand to confirm" in page(client, f"/sessions/{session_id}").text

    refused = client.post(action, data={**fields_of(form), "by": seats[1]})
    assert refused.status_code == 302
    said = get_page(client, refused.location).flashes
    assert said == [
        f"{seats[1]} can't confirm hand 1: the side that did not pick confirms it, "
        f"{seats[0]}, {seats[3]} or {seats[4]}."
    ]
    confirmed = client.post(action, data={**fields_of(form), "by": seats[3]})
    assert confirmed.status_code == 302
    shown = get_page(client, confirmed.location)
    assert shown.flashes == [f"Hand 1 confirmed by {seats[3]}."]
    assert f"✓ {seats[3]} confirmed" in shown.text and "to confirm" not in shown.text
    # The same form again is answered as before, and writes nothing.
    again = client.post(action, data={**fields_of(form), "by": seats[3]})
    assert again.status_code == 302
    changes = client.get(f"/api/sessions/{session_id}/history").json["changes"]
    assert [c["action"] for c in changes] == ["confirm", "add"]
    assert f"Hand 1 confirmed by {seats[3]}" in page(client, f"/sessions/{session_id}/changes").text

    # An edit unconfirms, and the Confirm buttons are back.
    client.put(f"/api/sessions/{session_id}/hands/1", json=pick(seats[1], seats[2], 80))
    assert len(forms_of(client.get(f"/sessions/{session_id}").text, action)) == 1


def test_the_record_form_s_preview_says_who_confirms(client: FlaskClient) -> None:
    event = confirm_event(client)
    table = last_tables(event)[0]
    session_id, seats = table["session"], table["seats"]
    sent = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": "75"}
    preview = client.post(f"/sessions/{session_id}/hands/preview", data=sent).json["preview"]
    assert preview.endswith(f" · {seats[0]}, {seats[3]} or {seats[4]} confirms")
    plain = drawn(client, make_event(client, 5)["id"])
    other = last_tables(plain)[0]
    seats = other["seats"]
    sent = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": "75"}
    preview = client.post(f"/sessions/{other['session']}/hands/preview", data=sent).json
    assert "confirms" not in preview["preview"]


def test_a_table_calls_the_director_and_the_board_answers(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 10)["id"])
    table = last_tables(event)[1]
    session_id = table["session"]
    sheet = client.get(f"/sessions/{session_id}").text
    (form,) = forms_of(sheet, f"/sessions/{session_id}/director")
    assert [n for n in re.findall(r'<option value="([^"]*)"', form)] == [
        "", "misdeal", "revoke", "a dispute", "other",
    ]  # fmt: skip
    called = client.post(
        f"/sessions/{session_id}/director", data={**fields_of(form), "note": "revoke"}
    )
    assert called.status_code == 302
    shown = get_page(client, called.location)
    assert shown.flashes == ["The director is called."]
    assert "The director is called since" in shown.text and "revoke" in shown.text
    board = client.get(f"/events/{event['id']}/board").text
    assert "Table 2 calls the director · revoke" in FormPage(board).text
    (answer,) = forms_of(board, f"/events/{event['id']}/board/calls/{session_id}/answer")
    answered = client.post(
        f"/events/{event['id']}/board/calls/{session_id}/answer", data=fields_of(answer)
    )
    assert answered.location == f"/events/{event['id']}/board"
    assert get_page(client, answered.location).flashes == [
        "Table 2's call for the director is answered."
    ]
    assert event_of(client, event["id"])["calls"] == []
    # From the table: called, and answered there.
    client.post(f"/sessions/{session_id}/director", data={"note": ""})
    (answer,) = forms_of(
        client.get(f"/sessions/{session_id}").text, f"/sessions/{session_id}/director/answer"
    )
    client.post(f"/sessions/{session_id}/director/answer", data=fields_of(answer))
    assert event_of(client, event["id"])["calls"] == []
    words = page(client, f"/sessions/{session_id}/changes").text
    assert "Director called: revoke" in words and "Director's call answered" in words
    assert "answered from the table or the board, not undone" in words


def test_the_board_and_the_results_wait_for_every_hand_to_be_confirmed(
    client: FlaskClient,
) -> None:
    event = confirm_event(client, 5, rounds=1, hands=1, entry=1000, places=[100])
    table = last_tables(event)[0]
    session_id, seats = table["session"], table["seats"]
    for _ in seats:
        record(client, session_id, pick(seats[1], None, 61))
    board = page(client, f"/events/{event['id']}/board")
    assert "5 hands to confirm" in board.text
    assert "Standings provisional" in board.text
    assert "the results are final once every hand is confirmed" in board.text
    results = page(client, f"/events/{event['id']}/results")
    assert "Provisional: 5 hands to confirm at table 1 of round 1." in results.text
    assert "Who gets paid, once every hand is confirmed" in results.text
    for number in range(1, 6):
        hand = client.get(f"/api/sessions/{session_id}").json["hands"][number - 1]
        by = next(p for p in hand["players"] if p != hand["picker"])
        client.post(f"/api/sessions/{session_id}/hands/{number}/confirm", json={"by": by})
    board = page(client, f"/events/{event['id']}/board")
    assert "to confirm" not in board.text and "Final standings" in board.text
    assert "Provisional" not in page(client, f"/events/{event['id']}/results").text


def test_a_substitute_from_the_round_s_tables_page(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    table = last_tables(event)[0]
    session_id, seats = table["session"], table["seats"]
    ann = seats[2]
    shown = get_page(client, f"/events/{event['id']}/rounds/1")
    assert "Someone leaves: seat a substitute" in shown.text
    sent = {**{k: v[0] for k, v in shown.fields.items()}, "out": ann, "player": "Zed"}
    refused = client.post(f"/events/{event['id']}/substitutes", data={**sent, "player": seats[0]})
    assert refused.status_code == 400
    assert FormPage(refused.text).errors == [
        f"{seats[0]} has a seat in round 1 already, at table 1."
    ]
    made = client.post(f"/events/{event['id']}/substitutes", data=sent)
    assert made.status_code == 302
    assert made.location == f"/events/{event['id']}/rounds/1"
    cards = get_page(client, made.location)
    assert cards.flashes == [f"Zed sits in for {ann}."]
    assert f"Zed for {ann}" in cards.text
    assert f"Zed for {ann}" in page(client, f"/sessions/{session_id}/seats").text
    record(client, session_id, pick(seats[0], None, 90))
    standings = page(client, f"/events/{event['id']}/board").text
    assert f"{ann} Zed for {ann}" in standings
    assert f"Zed for {ann}" in page(client, f"/events/{event['id']}/results").text
    assert f"Zed sits in for {ann}" in page(client, f"/sessions/{session_id}/changes").text
    # Ann comes back the same way.
    sent = {**{k: v[0] for k, v in get_page(client, made.location).fields.items()}}
    back = client.post(
        f"/events/{event['id']}/substitutes", data={**sent, "out": "Zed", "player": ann}
    )
    assert get_page(client, back.location).flashes == [f"{ann} is back in their seat."]
