"""Where an event shows besides its own pages: the home page lists it as one row with its last
round's tables under it (each a link to its scoresheet) instead of a row a table, never offers
a table to resume, and a finished table's scoresheet offers no Add a round or Settle up but the
way back to its event; the Print standings page lists every player."""

from __future__ import annotations

from flask.testing import FlaskClient

from ..helpers.api import pick
from ..helpers.events import drawn, last_tables, make_event
from ..helpers.pages import Page, page


def test_the_home_page_lists_an_event_as_one_row_with_its_tables(client: FlaskClient) -> None:
    own = client.post("/api/sessions", json={"players": ["Ann", "Bob", "Cat"], "rounds": 1})
    event = drawn(client, make_event(client, players=10, name="Club night", hands=5)["id"])
    tables = last_tables(event)
    hand = pick(tables[0]["seats"][0], tables[0]["seats"][1], 75)
    client.post(f"/api/sessions/{tables[0]['session']}/hands", json=hand)
    response = client.get("/")
    shown = Page(response.text)
    assert "Club night" in shown.text
    assert "club event · round 1: 2 tables, 0 done" in shown.text
    assert f'href="/sessions/{tables[0]["session"]}"' in response.text
    assert "Table 1 1/5 hands" in shown.text and "Table 2 0/5 hands" in shown.text
    # No table is a session row of its own, nor the one to resume.
    assert "round 1, table" not in shown.text
    assert "Resume" in shown.text
    assert f'href="/sessions/{own.json["id"]}"' in response.text


def test_an_event_of_many_tables_folds_them_away(client: FlaskClient) -> None:
    drawn(client, make_event(client, players=40, name="Big night")["id"])
    text = page(client, "/").text
    assert "All 7 tables" in text


def test_a_practice_event_is_marked_on_the_home_page(client: FlaskClient) -> None:
    make_event(client, name="Rehearsal", practice=True)
    assert "club event · practice · checking in" in page(client, "/").text


def test_a_finished_tables_scoresheet_leads_back_to_its_event(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, players=5, hands=1)["id"])
    table = last_tables(event)[0]
    for number in range(5):
        seats = table["seats"]
        hand = pick(seats[number], seats[(number + 1) % 5], 75)
        assert client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
    text = page(client, f"/sessions/{table['session']}").text
    assert "Final standings" in text
    assert "Add a round" not in text and "Settle up" not in text
    assert "Back to Club night" in text
    own = client.post("/api/sessions", json={"players": ["Ann", "Bob", "Cat"], "rounds": 1})
    for picker in ("Ann", "Bob", "Cat"):
        client.post(f"/api/sessions/{own.json['id']}/hands", json=pick(picker, None, 75))
    text = page(client, f"/sessions/{own.json['id']}").text
    assert "Add a round" in text and "Settle up" in text


def test_print_standings_lists_every_player_with_each_round(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, players=10, entry=500, places=[60, 40])["id"])
    table = last_tables(event)[0]
    hand = pick(table["seats"][0], table["seats"][1], 90)
    client.post(f"/api/sessions/{table['session']}/hands", json=hand)
    shown = page(client, f"/events/{event['id']}/standings")
    rows = shown.rows("print-standings")
    assert rows[0] == ["Place", "Player", "R1", "Total", "Paid"]
    assert len(rows) == 11
    assert "Print standings" in page(client, f"/events/{event['id']}").text
