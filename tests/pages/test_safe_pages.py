"""Safe writes from the pages: one-time write keys, two phones on one hand, the Changes page
with undo, taking back an Undo, deleting a session to the trash and restoring it."""

from __future__ import annotations

from flask.testing import FlaskClient

from ..helpers.api import Api, pick, session_with
from ..helpers.pages import (
    FormPage,
    filled,
    get_page,
    hands_path,
    html_page,
    redirected_page,
    sheet_path,
)

HANDS = [pick("Ann", "Bob", 75), pick("Bob", "Cat", 30), pick("Cat", None, 95)]


def test_back_then_save_records_the_hand_once(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS)
    path = hands_path(session_id)
    sent = filled(client, path, {"picker": "Dan", "partner": "Eve", "picking_points": "61"})
    assert redirected_page(client, client.post(path, data=sent), sheet_path(session_id, saved=4))
    # Back to the form as the browser kept it, then Save again, even with other points typed.
    again = redirected_page(
        client,
        client.post(path, data={**sent, "picking_points": "90"}),
        sheet_path(session_id, saved=4),
    )
    assert again.flashes == ["Hand 4 saved."]
    hands = api.session(session_id)["hands"]
    assert [(h["number"], h["picking_points"]) for h in hands][-1] == (4, 61)
    assert len(hands) == 4


def test_a_hand_recorded_on_another_phone_meanwhile_is_shown_not_overwritten(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, HANDS)
    path = hands_path(session_id)
    sent = filled(client, path, {"picker": "Dan", "partner": "Eve", "picking_points": "61"})
    api.record(session_id, **pick("Eve", "Ann", 100))  # the other phone

    answer = client.post(path, data=sent)
    assert (answer.status_code, answer.mimetype) == (409, "text/html")
    response = FormPage(answer.text)
    assert "Hand 4 was recorded on another phone meanwhile: Eve & Ann, 100" in response.text
    assert "save it as hand 5" in response.text
    assert len(api.session(session_id)["hands"]) == 4

    resent = filled(client, path, {"picker": "Dan", "partner": "Eve", "picking_points": "61"})
    assert redirected_page(client, client.post(path, data=resent), sheet_path(session_id, saved=5))
    assert [h["picker"] for h in api.session(session_id)["hands"]][3:] == ["Eve", "Dan"]


def test_an_edit_made_on_another_phone_meanwhile_is_shown_and_asked_about(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, HANDS)
    path = hands_path(session_id, "2/edit")
    mine = filled(client, path, {"picking_points": "45"})
    api.replace(session_id, 2, **pick("Bob", "Dan", 88))  # the other phone

    response = html_page(client.post(path, data=mine))
    assert "Hand 2 was changed on another phone while you edited it" in response.text
    assert "It is now: Bob & Dan, 88" in response.text
    assert api.session(session_id)["hands"][1]["picking_points"] == 88

    # Saving again from the page that showed both is a choice: mine replaces theirs.
    page = get_page(client, path)
    assert page.fields["original"] != [mine["original"]]
    resent = {**mine, "original": page.fields["original"][0]}
    assert redirected_page(client, client.post(path, data=resent), sheet_path(session_id, saved=2))
    hand = api.session(session_id)["hands"][1]
    assert (hand["partner"], hand["picking_points"]) == ("Cat", 45)


def test_an_edit_of_a_hand_deleted_meanwhile_says_so(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS)
    path = hands_path(session_id, "3/edit")
    mine = filled(client, path, {"picking_points": "45"})
    api.delete(session_id, 3)
    page = redirected_page(client, client.post(path, data=mine), sheet_path(session_id))
    assert page.flashes == ["Hand 3 was deleted on another phone, so your change was not saved."]
    assert len(api.session(session_id)["hands"]) == 2


def test_changes_page_tells_each_change_and_undoes_one(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS)
    api.replace(session_id, 1, **pick("Ann", None, 45))
    page = get_page(client, f"/sessions/{session_id}/changes")
    assert "Changes" in page.text
    assert "Hand 1 edited: partner Bob → alone, picking points 75 → 45" in page.text
    assert "Hand 3 added: Cat alone, 95" in page.text
    assert page.texts["button"].count("Restore") == 4

    sent = {"change": page.fields["change"][0], "write_key": page.fields["write_key"][0]}
    path = f"/sessions/{session_id}/changes/0/restore"
    done = redirected_page(client, client.post(path, data=sent), sheet_path(session_id, saved=1))
    assert done.flashes == ["Hand 1 changed back: partner alone → Bob, picking points 45 → 75."]
    assert api.session(session_id)["hands"][0]["picking_points"] == 75
    # The same form again is the same undo, not a second one.
    client.post(path, data=sent)
    assert api.session(session_id)["hands"][0]["picking_points"] == 75
    # A stale form (the change at index 0 is another one now) undoes nothing.
    stale = client.post(path, data={"change": sent["change"]})
    assert stale.status_code == 302
    assert api.session(session_id)["hands"][0]["picking_points"] == 75


def test_undo_last_hand_can_be_taken_back(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, HANDS)
    sheet = get_page(client, sheet_path(session_id))
    undo = {"number": "3", "write_key": sheet.fields["write_key"][0]}
    undone = redirected_page(
        client,
        client.post(f"/sessions/{session_id}/undo", data=undo),
        sheet_path(session_id, undone=3),
    )
    assert undone.flashes == ["Hand 3 undone."]
    assert "Restore" in undone.texts["button"]
    assert "Brings hand 3 back as it was." in undone.text
    assert len(api.session(session_id)["hands"]) == 2

    back = {
        "change": undone.fields["change"][0],
        "write_key": undone.fields["write_key"][0],
    }
    response = client.post(f"/sessions/{session_id}/changes/0/restore", data=back)
    assert response.location == sheet_path(session_id, saved=3)
    brought_back = redirected_page(client, response, sheet_path(session_id, saved=3))
    assert brought_back.flashes == ["Hand 3 brought back: Cat alone, 95."]
    assert [h["picker"] for h in api.session(session_id)["hands"]] == ["Ann", "Bob", "Cat"]
    assert "Restore" not in get_page(client, sheet_path(session_id, undone=3)).texts.get(
        "button", []
    )


def test_delete_session_moves_it_to_the_trash_and_restore_brings_it_back(
    api: Api, client: FlaskClient
) -> None:
    session_id = session_with(api, HANDS, name="Friday")
    kept = api.session(session_id)
    confirm = get_page(client, f"/sessions/{session_id}/delete")
    assert "Delete this session?" in confirm.text
    assert "Delete session" in confirm.texts["button"]
    assert len(api.client.get("/api/sessions").json["sessions"]) == 1

    sent = {"write_key": confirm.fields["write_key"][0]}
    trash = redirected_page(
        client, client.post(f"/sessions/{session_id}/delete", data=sent), "/trash"
    )
    assert trash.flashes == ["Friday moved to the trash. It can be restored for 30 days."]
    assert "Friday" in trash.text
    assert api.client.get("/api/sessions").json == {"sessions": []}
    assert client.get(f"/sessions/{session_id}").status_code == 404
    # The same confirmation sent again (a double tap) is answered as the first was.
    assert client.post(f"/sessions/{session_id}/delete", data=sent).location == "/trash"

    restore = {"write_key": trash.fields["write_key"][0]}
    back = client.post(f"/trash/{session_id}/restore", data=restore)
    assert back.location == f"/sessions/{session_id}"
    assert api.session(session_id)["hands"] == kept["hands"]
    assert "The trash is empty." in get_page(client, "/trash").text
