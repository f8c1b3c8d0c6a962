"""GET /sessions/<id>/export.csv: the columns, cells and defusing of API.md."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.http import parse_options_header

from scorekeeper.csv_export import defuse

from .helpers import SEATS, Api, pick

HEADER = (
    "hand,dealer,kind,picker,partner,called_card,forced,picking_points,"
    "cracked_by,recracked,blitzes,multiplier,winner,seats"
)


def export(client: FlaskClient, session_id: int) -> list[list[str]]:
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.text)))


def session_with(api: Api, hands: list[dict[str, Any]], **given: Any) -> int:
    session_id: int = api.new_session(**given)["id"]
    for hand in hands:
        api.record(session_id, **hand)
    return session_id


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
         "1 2 3 4 5", "-32", "64", "32", "-32", "-32"],
        ["2", "Bob", "pick", "Cat", "", "", "", "30", "", "", "", "1", "",
         "1 2 3 4 5", "2", "2", "-8", "2", "2"],
        ["3", "Cat", "pick", "Cat", "Dan", "", "yes", "61", "", "", "", "1", "",
         "1 2 3 4 5", "-1", "-1", "2", "1", "-1"],
    ]  # fmt: skip


def test_leaster_has_a_winner_and_no_pick_cells(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api, [{"kind": "leaster", "winner": "Cat"}], rules={"no_bid": "leaster"}
    )
    assert export(client, session_id)[1:] == [
        ["1", "Ann", "leaster", "", "", "", "", "", "", "", "", "1", "Cat",
         "1 2 3 4 5", "-1", "-1", "4", "-1", "-1"],
    ]  # fmt: skip


def test_pass_scores_nothing_and_doubles_the_next_pick(api: Api, client: FlaskClient) -> None:
    session_id = session_with(
        api, [{"kind": "pass"}, pick("Cat", "Dan", 75)], rules={"no_bid": "doubler"}
    )
    assert export(client, session_id)[1:] == [
        ["1", "Ann", "pass", "", "", "", "", "", "", "", "", "1", "",
         "1 2 3 4 5", "0", "0", "0", "0", "0"],
        ["2", "Bob", "pick", "Cat", "Dan", "", "", "75", "", "", "", "2", "",
         "1 2 3 4 5", "-2", "-2", "4", "2", "-2"],
    ]  # fmt: skip


def test_negative_scores_stay_numbers(api: Api, client: FlaskClient) -> None:
    session_id = session_with(api, [pick("Bob", "Cat", 75)])
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert response.text.splitlines()[1] == "1,Ann,pick,Bob,Cat,,,75,,,,1,,1 2 3 4 5,-1,2,1,-1,-1"


def test_names_that_look_like_formulas_are_defused(api: Api, client: FlaskClient) -> None:
    seats = ["=SUM(A1)", "+cmd", "-x", "@y", "Eve"]
    session_id = session_with(api, [pick("+cmd", "-x", 75, cracked_by="@y")], players=seats)
    assert export(client, session_id) == [
        [*HEADER.split(","), "'=SUM(A1)", "'+cmd", "'-x", "'@y", "Eve"],
        ["1", "'=SUM(A1)", "pick", "'+cmd", "'-x", "", "", "75", "'@y", "", "", "2", "",
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
