"""Club events' pages: a new event, check-in, a draw shown then made, the tables' cards, the
board and the results; refusals that keep what was typed and say what the API says; and a whole
small event, its tables recording through the API, its standings and prizes on the pages."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import rules
from scorekeeper.exchange import rule_sets
from scorekeeper.pages.words import signed

from ..helpers.api import pick
from ..helpers.pages import FormPage, assert_kept, filled, get_page, page, redirected_page

# "Dan" with a Cyrillic a: a new name that looks like Dan's.
DAN_LIKE = "D\u0430n"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def new_event(client: FlaskClient, **typed: str) -> int:
    sent = filled(client, "/events/new", {"name": "Club night", **typed})
    response = client.post("/events/new", data=sent)
    assert response.status_code == 302, FormPage(response.text).errors
    event_id = int(response.location.rsplit("/", 1)[1])
    assert response.location == f"/events/{event_id}"
    return event_id


def check_in(client: FlaskClient, event_id: int, *names: str, **more: Any) -> Any:
    sent: dict[str, Any] = filled(client, f"/events/{event_id}", {})
    sent.pop("name", None)
    return client.post(f"/events/{event_id}/players", data={**sent, "name": list(names), **more})


def event_json(client: FlaskClient, event_id: int) -> dict[str, Any]:
    response = client.get(f"/api/events/{event_id}")
    assert response.status_code == 200
    return response.json  # type: ignore[no-any-return]


def draw(client: FlaskClient, event_id: int, tables: str = "") -> Any:
    shown = get_page(client, f"/events/{event_id}/draw?tables={tables}")
    sent = {name: values[0] for name, values in shown.fields.items() if name != "tables"}
    return client.post(f"/events/{event_id}/rounds", data={**sent, "tables": tables})


def test_a_new_event_from_the_form_is_the_api_s_event(client: FlaskClient) -> None:
    assert "New event" in page(client, "/events").text
    event_id = new_event(
        client,
        name="Oktoberfest 2026",
        date="2026-10-03",
        hands="20",
        rounds="3",
        entry="25",
        places="30, 15, 10, 10, 10",
        round_top="5",
        ties="hands_won",
    )
    event = event_json(client, event_id)
    shown = {k: event[k] for k in ("name", "date", "hands", "rounds", "entry", "places")}
    assert shown == {
        "name": "Oktoberfest 2026",
        "date": "2026-10-03",
        "hands": 20,
        "rounds": 3,
        "entry": 2500,
        "places": [30, 15, 10, 10, 10],
    }
    assert (event["round_top"], event["ties"]) == (5, "hands_won")
    text = page(client, f"/events/{event_id}").text
    assert "Oktoberfest 2026" in text and "entry $25.00" in text
    assert "Oktoberfest 2026" in page(client, "/events").text


def test_an_event_takes_a_saved_rule_set(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        from scorekeeper.sessions.extensions import db

        saved = rule_sets.save("Friday", rules.options_from(partner="alone"))
        db.session.commit()
        saved_id = saved.id
    event_id = new_event(client, rule_set=str(saved_id))
    assert event_json(client, event_id)["rules"]["partner"] == "alone"


def test_refusals_keep_what_was_typed_and_say_what_the_api_says(client: FlaskClient) -> None:
    typed = {
        "name": "Club night",
        "date": "2026-10-03",
        "hands": "20",
        "rounds": "3",
        "entry": "25",
        "places": "60, 30",
        "round_top": "5",
    }
    sent = filled(client, "/events/new", typed)
    response = client.post("/events/new", data=sent)
    assert response.status_code == 400
    shown = FormPage(response.text)
    api = {"name": "x", "rounds": 3, "entry": 2500, "places": [60, 30], "round_top": 5}
    said = client.post("/api/events", json=api).json["error"]
    assert shown.errors == [said]
    assert_kept(shown, typed)
    assert client.get("/api/events").json["events"] == []
    for field, value in (("hands", "many"), ("name", ""), ("date", "3 Oct"), ("entry", "x")):
        response = client.post("/events/new", data={**sent, field: value})
        assert response.status_code == 400, field
        shown = FormPage(response.text)
        assert shown.error_ids == [f"{field}-error"], field
        assert_kept(shown, {field: value})
    assert client.get("/api/events").json["events"] == []


def autofocused(html: str) -> list[str]:
    return re.findall(r'<input [^>]*\bid="([^"]+)"[^>]*\bautofocus\b', html)


def test_after_a_typed_name_the_page_comes_back_with_the_name_field_focused(
    client: FlaskClient,
) -> None:
    client.post("/api/sessions", json={"players": NAMES[:5], "rounds": 1})
    event_id = new_event(client)
    assert autofocused(get_page(client, f"/events/{event_id}").text) == []
    response = check_in(client, event_id, new_name="Zed")
    shown = redirected_page(client, response, f"/events/{event_id}?typed=1")
    assert shown.flashes == ["Zed checked in: 1 in all."]
    assert autofocused(client.get(response.location).text) == ["new_name"]
    # Names tapped from the roster: the page comes back as it was, for more taps.
    response = check_in(client, event_id, "Ann", "Bob")
    redirected_page(client, response, f"/events/{event_id}")
    assert autofocused(client.get(response.location).text) == []


def test_check_in_taps_types_confirms_look_alikes_and_checks_out(client: FlaskClient) -> None:
    client.post("/api/sessions", json={"players": NAMES[:5], "rounds": 1})
    event_id = new_event(client)
    chips = get_page(client, f"/events/{event_id}")
    assert "Ann" in chips.text and "Check in" in chips.text
    response = check_in(client, event_id, "Ann", "Bob", new_name="Zed")
    shown = redirected_page(client, response, f"/events/{event_id}?typed=1")
    assert shown.flashes == ["3 players checked in: 3 in all."]
    assert "3 here" in shown.text
    response = check_in(client, event_id, new_name="ann ")
    assert response.status_code == 302
    # A new name like another player's is refused until confirmed, and kept as typed.
    response = check_in(client, event_id, "Cat", new_name=DAN_LIKE)
    assert response.status_code == 400
    refused = FormPage(response.text)
    said = client.post(f"/api/events/{event_id}/players", json={"name": DAN_LIKE}).json["error"]
    assert refused.errors == [said]
    assert refused.fields["new_name"] == [DAN_LIKE] and refused.fields["name"][0] == "Cat"
    assert [p["name"] for p in event_json(client, event_id)["players"]] == ["Ann", "Bob", "Zed"]
    response = check_in(client, event_id, "Cat", new_name=DAN_LIKE, new_player=DAN_LIKE)
    assert response.status_code == 302
    response = client.post(f"/events/{event_id}/players/out", data={"name": "Bob"})
    shown = redirected_page(client, response, f"/events/{event_id}")
    assert shown.flashes[-1:] == ["Bob checked out: they keep their points."]
    players = event_json(client, event_id)["players"]
    assert [(p["name"], p["checked_in"]) for p in players] == [
        ("Ann", True), ("Bob", False), ("Zed", True), ("Cat", True), (DAN_LIKE, True),
    ]  # fmt: skip
    response = check_in(client, event_id)
    assert response.status_code == 400
    assert FormPage(response.text).errors == ["Tap the players who are here, or type their names."]


def test_the_draw_is_shown_before_it_is_made_and_made_as_shown(client: FlaskClient) -> None:
    event_id = new_event(client, hands="5")
    check_in(client, event_id, new_name="\n".join(NAMES))
    preview = page(client, f"/events/{event_id}/draw").text
    assert "2 tables of 5, 5." in preview
    response = draw(client, event_id)
    cards = redirected_page(client, response, f"/events/{event_id}/rounds/1")
    assert cards.flashes == ["Round 1 drawn: hand each table its card."]
    drawn = event_json(client, event_id)["draws"][0]["tables"]
    for table in drawn:
        first, *others = table["seats"]
        seated = " ".join([f"Table {table['table']} 5 players {first} deals first", *others])
        assert seated in preview
    assert "Table 1 Club night · round 1" in cards.text
    assert "5 hands to play" in cards.text
    assert cards.text.count("Scan to score this table") == 2
    for table in drawn:
        sheet = page(client, f"/sessions/{table['session']}").text
        assert f"Club night : round 1, table {table['table']} · 5 hands to play" in sheet
    # The next round waits for every table.
    response = client.get(f"/events/{event_id}/draw")
    assert response.status_code == 409
    assert "Round 1 is still being played at tables 1, 2" in FormPage(response.text).text


def test_a_draw_with_stale_players_shows_the_draw_again(client: FlaskClient) -> None:
    event_id = new_event(client)
    check_in(client, event_id, new_name="\n".join(NAMES[:6]))
    shown = get_page(client, f"/events/{event_id}/draw")
    sent = {name: values[0] for name, values in shown.fields.items()}
    check_in(client, event_id, new_name="Gus")
    response = client.post(f"/events/{event_id}/rounds", data=sent)
    again = redirected_page(client, response, f"/events/{event_id}/draw")
    assert again.flashes[-1:] == [
        "The players changed since these tables were shown: here is the draw now."
    ]
    assert event_json(client, event_id)["draws"] == []
    response = client.get(f"/events/{event_id}/draw?tables=4,4")
    assert response.status_code == 400
    said = client.post(f"/api/events/{event_id}/rounds", json={"tables": [4, 4]}).json["error"]
    assert said in FormPage(response.text).text


def play(client: FlaskClient, event_id: int, points: list[int]) -> None:
    """Each table of the last round plays its 5 hands through the API: seat 2 picks with seat 3,
    the table's points each hand."""
    tables = event_json(client, event_id)["draws"][-1]["tables"]
    for table, scored in zip(tables, points, strict=True):
        seats = table["seats"]
        for _ in range(table["hands_to_play"]):
            hand = pick(seats[1], seats[2], scored)
            assert (
                client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
            )


def test_a_whole_small_event(client: FlaskClient) -> None:
    """Ten players, two rounds of two tables, prizes for three places and each round's top."""
    event_id = new_event(
        client, hands="5", rounds="2", entry="10", places="50, 20, 10", round_top="5"
    )
    check_in(client, event_id, new_name="\n".join(NAMES))
    board = page(client, f"/events/{event_id}/board")
    assert "10 players checked in." in board.text
    assert draw(client, event_id).status_code == 302
    board = page(client, f"/events/{event_id}/board").text
    assert "Table 1 0/5 hands" in board and "Table 2 0/5 hands" in board
    play(client, event_id, [75, 40])
    board = page(client, f"/events/{event_id}/board").text
    assert "Table 1 5/5 hands" in board
    assert "Round 1 complete: draw round 2" in board
    assert draw(client, event_id).status_code == 302
    play(client, event_id, [95, 61])
    event = event_json(client, event_id)
    assert event["complete"] is True and event["pot"] == 10000
    board = page(client, f"/events/{event_id}/board")
    assert "The event is complete." in board.text
    standings = board.rows("tv-table")[1:]
    assert [row[1] for row in standings] == [s["player"] for s in event["standings"]]
    results = page(client, f"/events/{event_id}/results")
    rows = results.rows("event-standings")[1:]
    for row, standing in zip(rows, event["standings"], strict=True):
        assert row[0] == str(standing["place"]) and row[1] == standing["player"]
        prize = standing["prize"]
        assert row[-1] == (f"${prize // 100}.{prize % 100:02d}" if prize else "")
    assert "Who gets paid" in results.text
    house = event["house"]
    assert f"The house ${house // 100}.{house % 100:02d}" in results.text
    assert "Pot $100.00: $10.00 from each of 10 players." in results.text
    assert f"/api/events/{event_id}/standings.csv" in client.get(f"/events/{event_id}/results").text
    first = event["standings"][0]
    assert f"1. {first['player']} +{first['total']}" in results.text
    csv = client.get(f"/api/events/{event_id}/standings.csv")
    assert csv.status_code == 200
    event_page = page(client, f"/events/{event_id}").text
    assert "The event is complete." in event_page


def test_every_page_of_an_event_has_one_h1(client: FlaskClient) -> None:
    event_id = new_event(client)
    check_in(client, event_id, new_name="\n".join(NAMES[:4]))
    draw(client, event_id)
    for path in ("/events", "/events/new", "", "/draw", "/rounds/1", "/board", "/results"):
        where = path if path.startswith("/events") else f"/events/{event_id}{path}"
        response = client.get(where)
        assert response.text.count("<h1") == 1, where
    assert client.get(f"/events/{event_id}/rounds/2").status_code == 404


def test_each_table_card_invites_a_scorer_to_its_table_alone(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    event_id = new_event(client, hands="5")
    check_in(client, event_id, new_name="\n".join(NAMES))
    draw(client, event_id)
    tables = event_json(client, event_id)["draws"][0]["tables"]
    result = runner.invoke(
        args=["access", "set-passcode", "--role", "scorer", "--passcode", "Sheep-1234"]
    )
    assert result.exit_code == 0, result.output
    # Not signed in, this screen may not invite: no codes.
    assert "Scan to score this table" not in client.get(f"/events/{event_id}/rounds/1").text
    organizer = app.test_client()
    assert organizer.post("/sign-in", data={"passcode": "Sheep-1234"}).status_code == 303
    cards = organizer.get(f"/events/{event_id}/rounds/1").text
    links = re.findall(r"https?://[^\s\"<]+/invites/[\w.-]+", cards)
    assert len(set(links)) == 2
    # Shown again, the same codes.
    assert set(re.findall(r"https?://[^\s\"<]+/invites/[\w.-]+", organizer.get(
        f"/events/{event_id}/rounds/1").text)) == set(links)  # fmt: skip
    for link, table in zip(sorted(set(links), key=links.index), tables, strict=True):
        phone = app.test_client()
        opened = phone.get(urlsplit(link).path)
        assert opened.status_code == 303
        assert opened.location == f"/sessions/{table['session']}"
        hand = pick(table["seats"][1], table["seats"][2], 75)
        assert phone.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
        assert phone.get(f"/events/{event_id}").status_code == 403


def test_the_board_shows_the_whole_pot_before_and_after_the_first_hand(
    client: FlaskClient,
) -> None:
    """Ten players at $10 checked in: Pot $100.00 on the TV before any hand and after table 1's
    first, not a pot of those who have played."""
    event_id = new_event(client, hands="5", rounds="2", entry="10", places="40, 25, 15")
    check_in(client, event_id, new_name="\n".join(NAMES))
    assert "Pot $100.00" in page(client, f"/events/{event_id}/board").text
    draw(client, event_id)
    assert "Pot $100.00" in page(client, f"/events/{event_id}/board").text
    table = event_json(client, event_id)["draws"][0]["tables"][0]
    hand = pick(table["seats"][1], table["seats"][2], 75)
    assert client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
    assert "Pot $100.00" in page(client, f"/events/{event_id}/board").text
    results = page(client, f"/events/{event_id}/results").text
    assert "Pot $100.00: $10.00 from each of 10 players." in results


def test_who_gets_paid_on_the_results_page_is_the_csv_s_paid(client: FlaskClient) -> None:
    """Places 40, 25, 15 and round_top 10: the 1st, also the round's top, is paid $50.00 on the
    page and in the CSV."""
    event_id = new_event(
        client, hands="5", rounds="2", entry="10", places="40, 25, 15", round_top="10"
    )
    check_in(client, event_id, new_name="\n".join(NAMES))
    draw(client, event_id)
    play(client, event_id, [95, 61])
    event = event_json(client, event_id)
    first = event["standings"][0]
    assert (first["prize"], first["round_prizes"], first["paid"]) == (4_000, 1_000, 5_000)
    results = page(client, f"/events/{event_id}/results")
    paid = [item for item in results.items if item and item[0] == first["player"]]
    assert paid == [[first["player"], "1st", "place,", "round", "1's", "top", "$50.00"]]
    rows = client.get(f"/api/events/{event_id}/standings.csv").text.splitlines()
    assert rows[1].endswith(",40.00,10.00,50.00,")


def recap_of(client: FlaskClient, event_id: int) -> list[str]:
    text = client.get(f"/events/{event_id}/results").text
    found = re.search(r'<pre class="recap" id="recap">(.*?)</pre>', text, re.DOTALL)
    assert found is not None
    return html.unescape(found[1]).splitlines()


def test_the_recap_says_each_only_when_several_share_a_round_s_top(client: FlaskClient) -> None:
    typed = {"hands": "5", "rounds": "1", "entry": "10", "places": "40, 25, 15", "round_top": "10"}
    alone_on_top = new_event(client, **typed)
    check_in(client, alone_on_top, new_name="\n".join(NAMES))
    draw(client, alone_on_top)
    play(client, alone_on_top, [95, 61])
    (leader,) = event_json(client, alone_on_top)["round_leaders"]
    (top,) = leader["players"]
    said = f"Round 1 top: {top} {signed(leader['total'])} · $10.00"
    assert said in recap_of(client, alone_on_top)
    shared = new_event(client, **typed)
    check_in(client, shared, new_name="\n".join(NAMES))
    draw(client, shared)
    play(client, shared, [75, 75])
    (leader,) = event_json(client, shared)["round_leaders"]
    assert len(leader["players"]) == 2
    said = f"Round 1 top: {', '.join(leader['players'])} +10 · $5.00 each"
    assert said in recap_of(client, shared)


def missed_a_round(client: FlaskClient) -> tuple[int, str, str]:
    """An event of two rounds: Eve played round 1 and checked out; Fay checked in for round 2.
    The event, Eve and Fay."""
    event_id = new_event(client, hands="5", rounds="2", entry="10", places="50, 30")
    check_in(client, event_id, new_name="\n".join(NAMES[:5]))
    draw(client, event_id)
    play(client, event_id, [75])
    assert client.post(f"/events/{event_id}/players/out", data={"name": "Eve"}).status_code == 302
    check_in(client, event_id, new_name="Fay")
    draw(client, event_id)
    play(client, event_id, [75])
    return event_id, "Eve", "Fay"


def test_a_missed_round_is_a_dash_on_the_results_page_and_the_board(client: FlaskClient) -> None:
    event_id, gone, late = missed_a_round(client)
    standings = {s["player"]: s for s in event_json(client, event_id)["standings"]}
    assert standings[gone]["rounds"][1] is None and standings[late]["rounds"][0] is None
    results = page(client, f"/events/{event_id}/results")
    rows = {row[1]: row for row in results.rows("event-standings")[1:]}
    missed = "\N{EN DASH} missed this round"
    total = signed(standings[gone]["total"])
    assert rows[gone][2:5] == [signed(standings[gone]["rounds"][0]), missed, total]
    assert rows[late][2:4] == [missed, signed(standings[late]["rounds"][1])]
    board = page(client, f"/events/{event_id}/board")
    shown = {row[1]: row[2] for row in board.rows("tv-table")[1:]}
    assert shown[gone] == total and late in shown
