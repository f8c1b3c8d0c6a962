"""Club events through the API (API.md "Club events", RULES.md "Club events: several tables,
rounds and prizes"): the event's shape, its draws and table sessions, standings and prizes,
refusals that change nothing, versions, write keys, the CSV, and its statements."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..helpers.api import Api, default_rules, pick, without_time
from ..helpers.backups import answers, assert_same_answers, backup_of, restore
from ..helpers.database import Fresh, statements_for
from ..helpers.events import drawn, event_of, make_event, record

OKTOBERFEST = {
    "name": "Oktoberfest 2026",
    "date": "2026-10-03",
    "hands": 20,
    "rounds": 3,
    "entry": 2500,
    "places": [30, 15, 10, 10, 10],
    "round_top": 5,
    "seed": 41,
}
NAMES = [f"Player {n:02d}" for n in range(1, 27)]


def check_in(client: FlaskClient, event_id: int, name: str, **more: Any) -> dict[str, Any]:
    response = client.post(f"/api/events/{event_id}/players", json={"name": name, **more})
    assert response.status_code == 201, response.json
    return response.json  # type: ignore[no-any-return]


def draw(client: FlaskClient, event_id: int, body: Any = None, **headers: str) -> Any:
    return client.post(f"/api/events/{event_id}/rounds", json=body or {}, headers=headers)


def end(client: FlaskClient, session_id: int) -> None:
    response = client.patch(f"/api/sessions/{session_id}", json={"ended": True})
    assert response.status_code == 200, response.json


def last_tables(event: dict[str, Any]) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = event["draws"][-1]["tables"]
    return tables


def play_round(client: FlaskClient, event: dict[str, Any], hands: list[Any]) -> None:
    """At each table of the last round, the hand made of its seats by hands[table], then the
    table ended."""
    for table, make in zip(last_tables(event), hands, strict=True):
        record(client, table["session"], make(table["seats"]))
        end(client, table["session"])


def alone(points: int) -> Any:
    return lambda seats: pick(seats[1], None, points)


def with_partner(points: int) -> Any:
    return lambda seats: pick(seats[1], seats[2], points)


def refused(
    client: FlaskClient, event_id: int, method: str, path: str, body: Any, status: int
) -> dict[str, Any]:
    """A write refused with `status`, changing nothing; its answer."""
    before = event_of(client, event_id)
    response = client.open(f"/api/events/{event_id}{path}", method=method, json=body)
    assert response.status_code == status, response.json
    assert event_of(client, event_id) == before
    return response.json  # type: ignore[no-any-return]


# --- the event


def test_a_new_event_as_api_md_shows_it(client: FlaskClient) -> None:
    response = client.post("/api/events", json=OKTOBERFEST)
    assert response.status_code == 201
    event = response.json
    assert response.headers["ETag"] == f'"{event["version"]}"'
    assert {key: event[key] for key in OKTOBERFEST} == OKTOBERFEST
    assert event["rules"] == default_rules()
    assert event["ties"] == "share"
    assert (event["players"], event["draws"], event["standings"]) == ([], [], [])
    assert event["complete"] is False
    listed = client.get("/api/events").json["events"]
    assert [(e["id"], e["name"]) for e in listed] == [(event["id"], "Oktoberfest 2026")]
    assert event_of(client, event["id"]) == event


def test_defaults_and_a_points_only_event(client: FlaskClient) -> None:
    event = make_event(client, 5)
    assert (event["hands"], event["rounds"], event["entry"], event["places"]) == (20, 0, 0, [])
    assert (event["round_top"], event["ties"], event["date"]) == (0, "share", None)
    assert 0 <= event["seed"] <= 999_999
    event = drawn(client, event["id"])
    play_round(client, event, [with_partner(75)])
    event = event_of(client, event["id"])
    assert (event["pot"], event["paid"], event["house"]) == (None, None, None)
    assert {(s["prize"], s["round_prizes"], s["paid"]) for s in event["standings"]} == {
        (None, None, None)
    }
    assert {leader["prize"] for leader in event["round_leaders"]} == {None}
    rows = list(csv.reader(io.StringIO(standings_csv(client, event["id"]))))
    assert rows[0] == [
        "place", "player", "round_1", "total", "hands_won", "prize", "round_prizes", "paid",
        "provisional",
    ]  # fmt: skip
    assert {tuple(row[-4:]) for row in rows[1:]} == {("", "", "", "")}


def test_players_check_in_and_out_in_order(client: FlaskClient) -> None:
    event = make_event(client, 3)
    event_id = event["id"]
    event = check_in(client, event_id, "player 01")  # already in: nothing changes
    assert event["version"] == 4
    response = client.delete(f"/api/events/{event_id}/players/{NAMES[1].upper()}")
    assert response.status_code == 200
    event = response.json
    assert event["players"] == [
        {"name": NAMES[0], "checked_in": True},
        {"name": NAMES[1], "checked_in": False},
        {"name": NAMES[2], "checked_in": True},
    ]
    event = check_in(client, event_id, NAMES[1])
    assert [p["checked_in"] for p in event["players"]] == [True, True, True]
    assert event["version"] == 6
    players = client.get("/api/players").json["players"]
    assert {p["name"] for p in players} == set(NAMES[:3])


def test_a_look_alike_name_is_refused_unless_confirmed(client: FlaskClient) -> None:
    event = make_event(client)
    check_in(client, event["id"], "Ann")
    answer = refused(client, event["id"], "POST", "/players", {"name": "\u0410nn"}, 400)
    assert answer["field"] == "name"
    assert "looks like Ann" in answer["error"]
    event = check_in(client, event["id"], "\u0410nn", new_players=["\u0410nn"])
    assert [p["name"] for p in event["players"]] == ["Ann", "\u0410nn"]


# --- the draws


@pytest.mark.parametrize(
    ("players", "sizes", "hands"),
    [
        (17, [6, 6, 5], [24, 24, 20]),
        (19, [5, 5, 5, 4], [20, 20, 20, 20]),
        (20, [5, 5, 5, 5], [20, 20, 20, 20]),
        (7, [4, 3], [20, 21]),
    ],
)
def test_a_draw_makes_tables_of_the_rules_sizes_each_an_ordinary_session(
    client: FlaskClient, players: int, sizes: list[int], hands: list[int]
) -> None:
    event = drawn(client, make_event(client, players, hands=20)["id"])
    (round_one,) = event["draws"]
    tables = round_one["tables"]
    assert [t["table"] for t in tables] == list(range(1, len(sizes) + 1))
    assert [len(t["seats"]) for t in tables] == sizes
    assert [t["hands_to_play"] for t in tables] == hands
    assert sorted(p for t in tables for p in t["seats"]) == NAMES[:players]
    for table in tables:
        assert (table["hands"], table["complete"]) == (0, False)
        session = client.get(f"/api/sessions/{table['session']}").json
        assert session["event"] == {"id": event["id"], "round": 1, "table": table["table"]}
        assert session["players"] == table["seats"]
        assert session["first_dealer"] == table["seats"][0]
        assert session["rounds"] * len(table["seats"]) == table["hands_to_play"]
        partner = "alone" if len(table["seats"]) == 3 else default_rules()["partner"]
        assert session["rules"] == default_rules() | {"partner": partner}


def test_given_table_sizes_are_numbered_in_their_order(client: FlaskClient) -> None:
    event = make_event(client, 16)
    refused(client, event["id"], "POST", "/rounds", {"tables": [6, 5, 4]}, 400)
    refused(client, event["id"], "POST", "/rounds", {"tables": [9, 7]}, 400)
    refused(client, event["id"], "POST", "/rounds", {"tables": "6,5,5"}, 400)
    event = drawn(client, event["id"], {"tables": [5, 6, 5]})
    assert [len(t["seats"]) for t in last_tables(event)] == [5, 6, 5]


def test_a_draw_is_fixed_by_its_seed(client: FlaskClient) -> None:
    seats = []
    for _ in range(2):
        event = drawn(client, make_event(client, 12, seed=99)["id"])
        seats.append([t["seats"] for t in last_tables(event)])
    assert seats[0] == seats[1]
    other = drawn(client, make_event(client, 12, seed=100)["id"])
    assert [t["seats"] for t in last_tables(other)] != seats[0]


def test_a_round_is_drawn_once_every_table_of_the_last_is_complete(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 10, rounds=2)["id"])
    event_id = event["id"]
    first, second = last_tables(event)
    answer = refused(client, event_id, "POST", "/rounds", {}, 409)
    assert "not complete" in answer["error"]
    end(client, first["session"])
    refused(client, event_id, "POST", "/rounds", {}, 409)
    end(client, second["session"])
    event = drawn(client, event_id)
    assert [d["round"] for d in event["draws"]] == [1, 2]
    assert [(t["table"], t["complete"]) for t in event["draws"][0]["tables"]] == [
        (1, True),
        (2, True),
    ]
    for table in last_tables(event):
        end(client, table["session"])
    answer = refused(client, event_id, "POST", "/rounds", {}, 409)
    assert "All 2 rounds" in answer["error"]
    assert event_of(client, event_id)["complete"] is True


def test_later_draws_seat_few_pairs_together_again(client: FlaskClient) -> None:
    """RULES.md: 25 players in five tables of five repeat no pair in rounds 2 and 3."""
    event = drawn(client, make_event(client, 25, rounds=3)["id"])
    for _ in range(2):
        for table in last_tables(event):
            end(client, table["session"])
        event = drawn(client, event["id"])
    pairs = [
        frozenset((a, b))
        for draw in event["draws"]
        for table in draw["tables"]
        for at, a in enumerate(table["seats"])
        for b in table["seats"][at + 1 :]
    ]
    assert len(pairs) == len(set(pairs)) == 3 * 5 * 10


def test_a_player_who_checks_in_later_joins_the_next_draw(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    event_id = event["id"]
    check_in(client, event_id, NAMES[5])
    client.delete(f"/api/events/{event_id}/players/{NAMES[0]}")
    assert sorted(last_tables(event_of(client, event_id))[0]["seats"]) == NAMES[:5]
    play_round(client, event, [with_partner(75)])
    event = drawn(client, event_id)
    assert sorted(last_tables(event)[0]["seats"]) == NAMES[1:6]
    standing = {s["player"]: s for s in event["standings"]}
    assert standing[NAMES[0]]["rounds"] == [standing[NAMES[0]]["total"], None]


# --- standings and prizes


def test_the_rules_prize_example(client: FlaskClient) -> None:
    """20 players at $25, places 30, 15, 10, 10, 10 and round_top 5 over 3 rounds: pot $500;
    1st $150, two tied 2nd share $75 + $50, each round's top $25."""
    event = drawn(client, make_event(client, 20, **OKTOBERFEST)["id"])
    event_id = event["id"]
    seats = [t["seats"] for t in last_tables(event)]
    # One hand a table: alone and schneider (+8), alone twice (+4 each), picker and partner
    # (+2, +1); the others -1 or -2.
    play_round(client, event, [alone(95), alone(75), alone(75), with_partner(75)])
    event = event_of(client, event_id)
    assert (event["pot"], event["complete"]) == (50_000, False)
    top = event["standings"][:5]
    assert [(s["player"], s["place"], s["total"]) for s in top] == [
        (seats[0][1], 1, 8),
        *sorted([(seats[1][1], 2, 4), (seats[2][1], 2, 4)]),
        (seats[3][1], 4, 2),
        (seats[3][2], 5, 1),
    ]
    assert [s["prize"] for s in top] == [15_000, 6_250, 6_250, 5_000, 5_000]
    assert {s["prize"] for s in event["standings"][5:]} == {0}
    assert event["round_leaders"] == [
        {"round": 1, "players": [seats[0][1]], "total": 8, "prize": 2_500}
    ]
    assert (event["paid"], event["house"]) == (40_000, 10_000)
    for _ in range(2):
        event = drawn(client, event_id)
        play_round(client, event, [alone(95), with_partner(75), with_partner(75), alone(31)])
    event = event_of(client, event_id)
    assert event["complete"] is True
    assert [len(d["tables"]) for d in event["draws"]] == [4, 4, 4]
    assert event["pot"] == 50_000
    assert [leader["prize"] for leader in event["round_leaders"]] == [2_500] * 3
    assert sum(s["prize"] for s in event["standings"][:5]) == 37_500
    assert (event["paid"], event["house"]) == (45_000, 5_000)
    for standing in event["standings"]:
        assert standing["total"] == sum(standing["rounds"])


def test_standings_add_each_players_tables(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 8, rounds=2)["id"])
    play_round(client, event, [with_partner(75), alone(45)])
    event = drawn(client, event["id"])
    play_round(client, event, [alone(95), with_partner(61)])
    event = event_of(client, event["id"])
    expected: dict[str, list[int]] = {}
    for number, draw in enumerate(event["draws"]):
        for table in draw["tables"]:
            totals = client.get(f"/api/sessions/{table['session']}").json["totals"]
            for player, total in totals.items():
                expected.setdefault(player, [0, 0])[number] = total
    shown = {s["player"]: s["rounds"] for s in event["standings"]}
    assert shown == expected
    totals = [s["total"] for s in event["standings"]]
    assert totals == sorted(totals, reverse=True)


def test_sitting_out_every_hand_is_not_playing(client: FlaskClient) -> None:
    """A table of six whose dealer sits out: after one hand, five played; all six are checked
    in and paid the entry."""
    event = drawn(client, make_event(client, 6, entry=1000, places=[50])["id"])
    (table,) = last_tables(event)
    assert len(table["seats"]) == 6
    play_round(client, event, [with_partner(75)])
    event = event_of(client, event["id"])
    assert (event["played"], event["pot"]) == (5, 6_000)
    leader = event["round_leaders"][0]
    assert table["seats"][0] not in leader["players"]


def test_the_pot_is_the_entry_of_every_player_checked_in_from_the_first_hand_on(
    client: FlaskClient,
) -> None:
    """Ten players at $10: the pot is $100.00 before the draw, after it and after the first
    hand; one checked in and out before playing is refunded; one who played and checked out
    still counts."""
    event = make_event(client, 10, entry=1000, places=[40, 25, 15], round_top=10, rounds=2)
    event_id = event["id"]
    assert (event["played"], event["pot"]) == (0, 10_000)
    assert check_in(client, event_id, NAMES[10])["pot"] == 11_000
    response = client.delete(f"/api/events/{event_id}/players/{NAMES[10]}")
    assert response.json["pot"] == 10_000
    event = drawn(client, event_id)
    # Everyone at 0 shares places 1 to 10: $80.00 of the whole $100.00, $8.00 each.
    assert (event["played"], event["pot"], event["house"]) == (0, 10_000, 2_000)
    assert {s["prize"] for s in event["standings"]} == {800}
    first, second = last_tables(event)
    record(client, first["session"], with_partner(75)(first["seats"]))
    event = event_of(client, event_id)
    assert (event["played"], event["pot"]) == (5, 10_000)
    # The picker 1st ($40.00 and the round's top, $10.00), the partner 2nd ($25.00), the five
    # of table 2 at 0 share 3rd ($15.00, $3.00 each).
    paid = {s["player"]: (s["prize"], s["paid"]) for s in event["standings"]}
    assert paid[first["seats"][1]] == (4_000, 5_000)
    assert paid[first["seats"][2]] == (2_500, 2_500)
    assert {paid[p] for p in second["seats"]} == {(300, 300)}
    assert (event["paid"], event["house"]) == (9_000, 1_000)
    end(client, first["session"])
    play_round(client, {"draws": [{"tables": [second]}]}, [with_partner(75)])
    gone = first["seats"][0]
    response = client.delete(f"/api/events/{event_id}/players/{gone}")
    assert response.status_code == 200
    event = event_of(client, event_id)
    assert (event["played"], event["pot"]) == (10, 10_000)
    assert len([p for p in event["players"] if p["checked_in"]]) == 9


def test_a_standing_is_paid_its_place_prize_and_its_round_tops(client: FlaskClient) -> None:
    """Ten players at $10, places 40, 25, 15 and round_top 10 over two rounds, the first played:
    its top is 1st and paid $40.00 + $10.00 = $50.00, in the JSON and in standings.csv, whose
    `paid` column adds up to the event's `paid`."""
    event = make_event(client, 10, entry=1000, places=[40, 25, 15], round_top=10, rounds=2)
    event = drawn(client, event["id"])
    first, second = (t["seats"] for t in last_tables(event))
    play_round(client, event, [alone(95), with_partner(75)])
    event = event_of(client, event["id"])
    assert (event["pot"], event["paid"], event["house"]) == (10_000, 9_000, 1_000)
    shown = [
        (s["player"], s["total"], s["prize"], s["round_prizes"], s["paid"])
        for s in event["standings"][:3]
    ]
    assert shown == [
        (first[1], 8, 4_000, 1_000, 5_000),
        (second[1], 2, 2_500, 0, 2_500),
        (second[2], 1, 1_500, 0, 1_500),
    ]
    assert {(s["prize"], s["round_prizes"], s["paid"]) for s in event["standings"][3:]} == {
        (0, 0, 0)
    }
    assert sum(s["paid"] for s in event["standings"]) == event["paid"]
    rows = list(csv.DictReader(io.StringIO(standings_csv(client, event["id"]))))
    assert {k: rows[0][k] for k in ("player", "prize", "round_prizes", "paid")} == {
        "player": first[1],
        "prize": "40.00",
        "round_prizes": "10.00",
        "paid": "50.00",
    }
    assert [row["paid"] for row in rows[1:4]] == ["25.00", "15.00", "0.00"]
    assert sum(Decimal(row["paid"]) for row in rows) == Decimal("90.00")


def test_a_missed_round_is_null_in_the_json_and_empty_in_the_csv(client: FlaskClient) -> None:
    """A player checked out after round 1 and a latecomer checked in for round 2."""
    event = drawn(client, make_event(client, 5, entry=1000, places=[100], rounds=2)["id"])
    event_id = event["id"]
    play_round(client, event, [alone(95)])
    gone, late = last_tables(event)[0]["seats"][0], NAMES[5]
    client.delete(f"/api/events/{event_id}/players/{gone}")
    check_in(client, event_id, late)
    event = drawn(client, event_id)
    play_round(client, event, [alone(75)])
    event = event_of(client, event_id)
    rounds = {s["player"]: s["rounds"] for s in event["standings"]}
    assert rounds[gone] == [-2, None]
    assert rounds[late][0] is None and rounds[late][1] in (4, -1)
    assert event["pot"] == 6_000
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(standings_csv(client, event_id)))}
    assert (rows[gone]["round_1"], rows[gone]["round_2"], rows[gone]["total"]) == ("-2", "", "-2")
    assert (rows[late]["round_1"], rows[late]["round_2"]) == ("", str(rounds[late][1]))


def test_ties_by_lot_say_so(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5, ties="LOT ")["id"])
    assert event["ties"] == "lot"
    play_round(client, event, [with_partner(75)])
    standings = event_of(client, event["id"])["standings"]
    assert [s["place"] for s in standings] == [1, 2, 3, 4, 5]
    assert [s.get("by_lot", False) for s in standings] == [False, False, True, True, True]


def test_ties_by_hands_won(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5, ties="hands_won")["id"])
    (table,) = last_tables(event)
    seats = table["seats"]
    # The picker and partner win one each; a picker alone loses the third: totals tie.
    for hand in (pick(seats[1], seats[2], 75), pick(seats[2], seats[1], 75)):
        record(client, table["session"], hand)
    end(client, table["session"])
    standings = event_of(client, event["id"])["standings"]
    by_player = {s["player"]: (s["total"], s["hands_won"], s["place"]) for s in standings}
    assert by_player[seats[1]] == by_player[seats[2]] == (3, 2, 1)


def standings_csv(client: FlaskClient, event_id: int) -> str:
    response = client.get(f"/api/events/{event_id}/standings.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    return response.get_data(as_text=True)


def test_standings_csv(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5, entry=2500, places=[60, 40], rounds=2)["id"])
    seats = last_tables(event)[0]["seats"]
    play_round(client, event, [alone(95)])
    event = drawn(client, event["id"])
    rows = list(csv.DictReader(io.StringIO(standings_csv(client, event["id"]))))
    assert list(rows[0]) == [
        "place", "player", "round_1", "round_2", "total", "hands_won", "prize", "round_prizes",
        "paid", "provisional",
    ]  # fmt: skip
    assert rows[0] == {
        "place": "1",
        "player": seats[1],
        "round_1": "8",
        "round_2": "0",
        "total": "8",
        "hands_won": "1",
        "prize": "75.00",
        "round_prizes": "0.00",
        "paid": "75.00",
        "provisional": "",
    }
    assert [row["prize"] for row in rows[1:]] == ["12.50"] * 4
    assert [row["paid"] for row in rows[1:]] == ["12.50"] * 4


# --- refusals, versions and write keys


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rounds": 3}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "N", "hands": 0}, "hands"),
        ({"name": "N", "hands": 301}, "hands"),
        ({"name": "N", "hands": "20"}, "hands"),
        ({"name": "N", "rounds": 101}, "rounds"),
        ({"name": "N", "entry": -1}, "entry"),
        ({"name": "N", "entry": 25.0}, "entry"),
        ({"name": "N", "places": [60, 50]}, "places"),
        ({"name": "N", "places": [90], "round_top": 5, "rounds": 3}, "places"),
        ({"name": "N", "places": [101]}, "places"),
        ({"name": "N", "round_top": -5}, "round_top"),
        ({"name": "N", "ties": "coin"}, "ties"),
        ({"name": "N", "date": "2026-13-01"}, "date"),
        ({"name": "N", "date": 20261003}, "date"),
        ({"name": "N", "seed": -1}, "seed"),
        ({"name": "N", "rules": {"partner": "queen_of_clubs"}}, "rules"),
        ({"name": "N", "colour": "red"}, "colour"),
    ],
)
def test_an_invalid_event_is_refused(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/events", json=body)
    assert response.status_code == 400, response.json
    assert response.json["field"] == field
    assert client.get("/api/events").json == {"events": []}


def test_unknown_events_are_404(client: FlaskClient) -> None:
    make_event(client, 3)
    for method, path, body in (
        ("GET", "/api/events/99", None),
        ("PATCH", "/api/events/99", {"name": "x"}),
        ("POST", "/api/events/99/players", {"name": "Ann"}),
        ("DELETE", "/api/events/99/players/Ann", None),
        ("POST", "/api/events/99/rounds", {}),
        ("GET", "/api/events/99/standings.csv", None),
        ("GET", "/api/events/99999999999", None),
        ("DELETE", "/api/events/1/players/Nobody", None),
    ):
        response = client.open(path, method=method, json=body)
        assert response.status_code == 404, (path, response.json)
        assert "error" in response.json


def test_changes_and_what_may_change_after_the_first_draw(client: FlaskClient) -> None:
    event = make_event(client, 5, rounds=3)
    event_id = event["id"]
    response = client.patch(
        f"/api/events/{event_id}",
        json={"name": "Renamed", "rules": {"partner": "called_ace"}, "entry": 500, "seed": 3},
    )
    assert response.status_code == 200, response.json
    event = response.json
    assert (event["name"], event["rules"]["partner"], event["entry"], event["seed"]) == (
        "Renamed",
        "called_ace",
        500,
        3,
    )
    event = drawn(client, event_id)
    for body, field in (
        ({"rules": {"partner": "jack_of_diamonds"}}, "rules"),
        ({"entry": 1000}, "entry"),
        ({"seed": 4}, "seed"),
    ):
        assert refused(client, event_id, "PATCH", "", body, 409)["field"] == field
    refused(client, event_id, "PATCH", "", {}, 400)
    refused(client, event_id, "PATCH", "", {"places": [96], "round_top": 2}, 400)
    response = client.patch(
        f"/api/events/{event_id}",
        json={"entry": 500, "seed": 3, "places": [50, 20], "ties": "hands_won", "hands": 12},
    )
    assert response.status_code == 200, response.json
    assert (response.json["places"], response.json["ties"]) == ([50, 20], "hands_won")


def test_etag_and_if_match(client: FlaskClient) -> None:
    event = make_event(client, 5)
    event_id = event["id"]
    response = client.get(f"/api/events/{event_id}")
    assert response.headers["ETag"] == f'"{event["version"]}"'
    # A hand at a table changes the standings, not the event's version: never a 304.
    tag = f'"{event["version"]}"'
    again = client.get(f"/api/events/{event_id}", headers={"If-None-Match": tag})
    assert (again.status_code, again.json) == (200, event_of(client, event_id))
    before = event_of(client, event_id)
    for method, path, body in (
        ("PATCH", "", {"name": "Late"}),
        ("POST", "/players", {"name": "Zed"}),
        ("DELETE", f"/players/{NAMES[0]}", None),
        ("POST", "/rounds", {}),
    ):
        response = client.open(
            f"/api/events/{event_id}{path}", method=method, json=body, headers={"If-Match": '"1"'}
        )
        assert response.status_code == 412, response.json
        assert response.json["version"] == event["version"]
        assert "The event is at version" in response.json["error"]
    assert event_of(client, event_id) == before
    response = client.patch(
        f"/api/events/{event_id}",
        json={"name": "On time"},
        headers={"If-Match": f'"{event["version"]}"'},
    )
    assert response.status_code == 200
    assert response.json["version"] == event["version"] + 1


def test_a_retried_draw_draws_once(client: FlaskClient) -> None:
    event = make_event(client, 10, rounds=2)
    key = {"Idempotency-Key": "draw-round-1"}
    first = draw(client, event["id"], **key)
    second = draw(client, event["id"], **key)
    assert first.status_code == second.status_code == 201
    assert first.json == second.json
    assert len(event_of(client, event["id"])["draws"]) == 1
    assert len(client.get("/api/sessions").json["sessions"]) == 2
    other = draw(client, event["id"], {"tables": [5, 5]}, **key)
    assert other.status_code == 409
    assert other.json["field"] == "Idempotency-Key"


def test_a_table_of_an_event_is_not_deleted(client: FlaskClient) -> None:
    event = drawn(client, make_event(client, 5)["id"])
    session_id = last_tables(event)[0]["session"]
    response = client.delete(f"/api/sessions/{session_id}")
    assert response.status_code == 409
    assert client.get(f"/api/sessions/{session_id}").status_code == 200


def test_a_merged_player_keeps_their_event(client: FlaskClient) -> None:
    event = make_event(client, 3)
    event = check_in(client, event["id"], "Bobby")
    client.post("/api/sessions", json={"players": ["Bob", "Cat", "Dan"], "rounds": 0})
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    response = client.post(f"/api/players/{ids['Bobby']}/merge", json={"into": ids["Bob"]})
    assert response.status_code == 200, response.json
    assert [p["name"] for p in event_of(client, event["id"])["players"]][-1] == "Bob"
    check_in(client, event["id"], NAMES[3])
    ids = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    response = client.post(f"/api/players/{ids[NAMES[3]]}/merge", json={"into": ids["Bob"]})
    assert response.status_code == 409


# --- statements


def test_reading_an_event_takes_as_many_statements_however_many_tables(
    app: Flask, client: FlaskClient
) -> None:
    small = drawn(client, make_event(client, 6)["id"])
    play_round(client, small, [with_partner(75)])
    large = drawn(client, make_event(client, 24, rounds=3)["id"])
    for _ in range(2):
        play_round(client, large, [with_partner(75)] * 4)
        large = drawn(client, large["id"])
    counts = [statements_for(app, client, f"/api/events/{e['id']}") for e in (small, large)]
    assert counts[0] == counts[1]
    # The event and its players, the tables with their seats and stand-ins, their hand
    # counts, their players' sums, and the access check every request makes.
    assert counts[0] == 2 + 3 + 1 + 1 + 1, counts


def test_a_backup_keeps_events_with_their_tables(
    app: Flask, client: FlaskClient, fresh: Fresh
) -> None:
    event = make_event(client, 11, **{**OKTOBERFEST, "rounds": 2})
    event = drawn(client, event["id"])
    play_round(client, event, [with_partner(75), alone(40)])
    event = drawn(client, event["id"])
    record(
        client, last_tables(event)[0]["session"], with_partner(61)(last_tables(event)[0]["seats"])
    )
    client.delete(f"/api/events/{event['id']}/players/{NAMES[0]}")
    later = make_event(client, 3, name="Later")
    original, backup = answers(client), backup_of(app)
    assert [e["id"] for e in backup["events"]] == [event["id"], later["id"]]

    restored_app = fresh()
    restore(restored_app, backup)
    again = restored_app.test_client()
    assert_same_answers(answers(again), original)
    for event_id in (event["id"], later["id"]):
        assert event_of(again, event_id) == event_of(client, event_id)
        csv = f"/api/events/{event_id}/standings.csv"
        assert again.get(csv).text == client.get(csv).text
    assert without_time(backup_of(restored_app)) == without_time(backup)
    assert make_event(again)["id"] == later["id"] + 1

    # Merged into sessions here, the tables come as sessions of their own, and no event.
    merged_app = fresh()
    merged = merged_app.test_client()
    Api(merged).new_session()
    restore(merged_app, backup, merge=True)
    assert merged.get("/api/events").json["events"] == []
    sessions = [
        merged.get(f"/api/sessions/{s['id']}").json
        for s in answers(merged)["/api/sessions"]["sessions"]
    ]
    assert len(sessions) == 1 + len(original["/api/sessions"]["sessions"])
    assert all("event" not in session for session in sessions)
