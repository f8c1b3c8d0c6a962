"""GET /sessions/<id>/export.csv: the columns, cells and defusing of API.md."""

from __future__ import annotations

import csv
import io

import pytest
from flask.testing import FlaskClient
from werkzeug.http import parse_options_header

from scorekeeper.exchange.csv_out import defuse

from ..helpers.api import SEATS, Api, pick, session_with
from ..helpers.tables import house_rules_night, play_the_night

HEADER = (
    "hand,dealer,kind,picker,partner,called_card,forced,picking_points,"
    "cracked_by,recracked,blitzes,multiplier,winner,result,penalized,seats"
)


def export(client: FlaskClient, session_id: int) -> list[list[str]]:
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.text)))


def test_download_is_a_dated_csv_attachment(api: Api, client: FlaskClient) -> None:
    session = api.new_session(name="Friday")
    response = client.get(f"/sessions/{session['id']}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    disposition, options = parse_options_header(response.headers["Content-Disposition"])
    assert disposition == "attachment"
    created_date = session["created_at"][:10]
    assert created_date in options["filename"]
    assert options["filename"].endswith(".csv")


def test_header_line_is_exact_with_players_in_seat_order(api: Api, client: FlaskClient) -> None:
    seats = ["Eve", "Cat", "Ann", "Dan", "Bob"]
    session_id = session_with(api, [], players=seats)
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert response.text.splitlines()[0] == HEADER + ",Eve,Cat,Ann,Dan,Bob"
    assert export(client, session_id) == [[*HEADER.split(","), *seats]]


def test_picks_one_row_a_hand_in_order(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api,
        [
            pick(
                "Bob",
                "Cat",
                95,
                called_card="JD",
                cracked_by="Dan",
                recracked=True,
                blitzes=["black", "red"],
            ),
            {"kind": "pick", "picker": "Cat", "partner": None, "opponent_points": 90},
            pick("Cat", "Dan", 61, forced=True),
        ],
    )
    rows = export(client, session_id)
    assert rows[0] == [*HEADER.split(","), *SEATS]
    assert rows[1:] == [
        ["1", "Ann", "pick", "Bob", "Cat", "JD", "", "95", "Dan", "yes", "black red", "16", "",
         "won_schneider", "", "1 2 3 4 5", "-32", "64", "32", "-32", "-32"],
        ["2", "Bob", "pick", "Cat", "", "", "", "30", "", "", "", "1", "", "lost_schneider", "",
         "1 2 3 4 5", "2", "2", "-8", "2", "2"],
        ["3", "Cat", "pick", "Cat", "Dan", "", "yes", "61", "", "", "", "1", "", "won", "",
         "1 2 3 4 5", "-1", "-1", "2", "1", "-1"],
    ]  # fmt: skip


def test_leaster_has_a_winner_and_no_pick_cells(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api, [{"kind": "leaster", "winner": "Cat"}], rules={"no_bid": "leaster"}
    )
    assert export(client, session_id)[1:] == [
        ["1", "Ann", "leaster", "", "", "", "", "", "", "", "", "1", "Cat", "", "",
         "1 2 3 4 5", "-1", "-1", "4", "-1", "-1"],
    ]  # fmt: skip


def test_pass_scores_nothing_and_doubles_the_next_pick(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api, [{"kind": "pass"}, pick("Cat", "Dan", 75)], rules={"no_bid": "doubler"}
    )
    assert export(client, session_id)[1:] == [
        ["1", "Ann", "pass", "", "", "", "", "", "", "", "", "1", "", "", "",
         "1 2 3 4 5", "0", "0", "0", "0", "0"],
        ["2", "Bob", "pick", "Cat", "Dan", "", "", "75", "", "", "", "2", "", "won", "",
         "1 2 3 4 5", "-2", "-2", "4", "2", "-2"],
    ]  # fmt: skip


def test_negative_scores_stay_numbers(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Bob", "Cat", 75)])
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert (
        response.text.splitlines()[1] == "1,Ann,pick,Bob,Cat,,,75,,,,1,,won,,1 2 3 4 5,-1,2,1,-1,-1"
    )


def test_names_that_look_like_formulas_are_defused(api: Api, client: FlaskClient) -> None:
    seats = ["=SUM(A1)", "+cmd", "-x", "@y", "Eve"]
    session_id = session_with(api, [pick("+cmd", "-x", 75, cracked_by="@y")], players=seats)
    assert export(client, session_id) == [
        [*HEADER.split(","), "'=SUM(A1)", "'+cmd", "'-x", "'@y", "Eve"],
        ["1", "'=SUM(A1)", "pick", "'+cmd", "'-x", "", "", "75", "'@y", "", "", "2", "", "won", "",
         "1 2 3 4 5", "-2", "4", "2", "-2", "-2"],
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+cmd", "'+cmd"),
        ("-x", "'-x"),
        ("@y", "'@y"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ann", "Ann"),
        ("a=b", "a=b"),
        ("", ""),
        (-2, -2),
        (0, 0),
        (None, None),
    ],
)
def test_defuse(cell: str | int | None, expected: str | int | None) -> None:
    assert defuse(cell) == expected


@pytest.mark.parametrize("session_id", [999, 2**31, 10**20])
def test_unknown_session_is_404(client: FlaskClient, session_id: int) -> None:
    assert client.get(f"/sessions/{session_id}/export.csv").status_code == 404


def test_a_table_that_changes(api: Api, client: FlaskClient) -> None:
    """A column for everyone the totals name: the first hand's seats, then Gus, who arrived;
    `out` where the player sat out, empty where they were not seated; the seats by those
    columns."""
    night = play_the_night(api)
    assert client.get(f"/sessions/{night}/export.csv").text == (
        f"{HEADER},Ann,Bob,Cat,Dan,Eve,Fay,Gus\r\n"
        "1,Ann,pick,Bob,Cat,,,75,,,,1,,won,,1 2 3 4 5 6,out,2,1,-1,-1,-1,\r\n"
        "2,Bob,pick,Cat,Dan,,,45,,,,1,,lost,,1 2 3 4 5 6,1,out,-2,-1,1,1,\r\n"
        "3,Cat,pick,Gus,,,,95,,,,1,,won_schneider,,1 2 3 7 4 5 6,-2,out,out,-2,-2,-2,8\r\n"
        "4,Gus,pick,Ann,Eve,,,61,,,,1,,won,,1 2 3 7 4 5 6,2,-1,out,-1,1,-1,out\r\n"
        "5,Eve,pick,Fay,Gus,,,120,,,,1,,won_schwarz,,1 2 3 7 5 6,-3,-3,-3,,out,6,3\r\n"
        "6,Fay,pick,Eve,Ann,,,30,,,,1,,lost_schneider,,1 2 3 7 5 6,-2,2,2,,-4,out,2\r\n"
    )


def test_a_player_who_only_sat_out_keeps_a_column_for_the_seats(
    api: Api, client: FlaskClient
) -> None:
    """Fay dealt the first hand, sat it out and left: the totals don't name her, but her
    column lets the seats of hand 1 say where she sat. A newcomer not yet at a hand has an
    empty column too."""
    session_id = api.new_session(players=[*SEATS, "Fay"], first_dealer="Fay")["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    for seats in (SEATS, [*SEATS, "Gus"]):
        assert (
            api.client.patch(f"/api/sessions/{session_id}", json={"players": seats}).status_code
            == 200
        )
    assert "Fay" not in api.session(session_id)["totals"]
    assert export(client, session_id) == [
        [*HEADER.split(","), "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"],
        ["1", "Fay", "pick", "Ann", "Bob", "", "", "75", "", "", "", "1", "", "won", "",
         "1 2 3 4 5 6", "2", "1", "-1", "-1", "-1", "out", ""],
    ]  # fmt: skip


# --- house rules: results, penalty hands


def test_results_and_penalty_hands_have_their_columns(api: Api, client: FlaskClient) -> None:
    session_id = house_rules_night(api)
    assert export(client, session_id) == [
        [*HEADER.split(","), *SEATS],
        ["1", "Ann", "pick", "Ann", "Bob", "", "", "", "", "", "", "1", "", "lost", "",
         "1 2 3 4 5", "-4", "-2", "2", "2", "2"],
        ["2", "Bob", "pass", "", "", "", "", "", "", "", "", "1", "", "", "",
         "1 2 3 4 5", "0", "0", "0", "0", "0"],
        ["3", "Cat", "pass", "", "", "", "", "", "", "", "", "1", "", "", "",
         "1 2 3 4 5", "0", "0", "0", "0", "0"],
        ["4", "Dan", "penalty", "", "", "", "", "", "", "", "", "1", "", "", "Dan",
         "1 2 3 4 5", "1", "1", "1", "-4", "1"],
        ["5", "Eve", "pick", "Bob", "Cat", "", "", "95", "Dan", "yes", "", "8", "",
         "won_schneider", "", "1 2 3 4 5", "-16", "32", "16", "-16", "-16"],
        ["6", "Ann", "pick", "Cat", "", "", "", "120", "", "", "", "1", "", "won_schneider", "",
         "1 2 3 4 5", "-2", "-2", "8", "-2", "-2"],
        ["7", "Bob", "pick", "Eve", "Ann", "", "", "10", "", "", "", "1", "", "lost_schwarz", "",
         "1 2 3 4 5", "-6", "6", "6", "6", "-12"],
    ]  # fmt: skip
    assert api.session(session_id)["totals"] == {
        "Ann": -27, "Bob": 35, "Cat": 33, "Dan": -14, "Eve": -27
    }  # fmt: skip


def test_a_penalized_name_is_defused(api: Api, client: FlaskClient) -> None:
    seats = ["=SUM(A1)", "Bob", "Cat", "Dan", "Eve"]
    penalty = {"kind": "penalty", "penalized": "=SUM(A1)"}
    session_id = session_with(api, [penalty], players=seats, rules={"penalties": True})
    assert export(client, session_id)[1][13:16] == ["", "'=SUM(A1)", "1 2 3 4 5"]
