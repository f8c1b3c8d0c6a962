"""A spreadsheet of nights kept without hands imported (API.md "Nights kept without hands"):
`POST /api/imports/nights` as CSV or JSON, its questions (zeros, names like a player's) asked at
once, its bad lines named, nothing kept unless all is; and a file imported twice adds nothing."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.exchange import nights_in

from ..helpers.api import Api

URL = "/api/imports/nights"
SHEET = "Date,Ann,Bob,Cat,Dan\r\n2010-7-6,5,-2,,-3\r\n\r\n2010-07-13,,4,-4,\r\n2010-7-6,-1,1,,\r\n"


def send(client: FlaskClient, body: Any, status: int = 201, **headers: str) -> dict[str, Any]:
    if isinstance(body, str):
        answer = client.post(URL, data=body.encode(), content_type="text/csv", headers=headers)
    else:
        answer = client.post(URL, json=body, headers=headers)
    assert answer.status_code == status, answer.json
    return answer.json  # type: ignore[no-any-return]


def nothing_kept(client: FlaskClient) -> None:
    assert client.get("/api/sessions").json["sessions"] == []
    assert client.get("/api/players").json["players"] == []


def test_a_sheet_of_nights_is_imported_as_sessions_kept_without_hands(
    client: FlaskClient, api: Api
) -> None:
    imported = send(client, "\ufeff" + SHEET)
    assert {k: v for k, v in imported.items() if k != "sessions"} == {
        "nights": 3, "already_here": 0, "skipped": 0, "new_players": ["Ann", "Bob", "Dan", "Cat"],
        "players": 4, "from": "2010-07-06", "to": "2010-07-13",
    }  # fmt: skip
    first, second, third = (api.session(i) for i in imported["sessions"])
    # In the order of their days, two of one day in the file's order; each starts its day.
    assert [s["totals"] for s in (first, second, third)] == [
        {"Ann": 5, "Bob": -2, "Dan": -3}, {"Ann": -1, "Bob": 1}, {"Bob": 4, "Cat": -4},
    ]  # fmt: skip
    assert all(s["totals_only"] and s["complete"] for s in (first, second, third))
    assert [
        datetime.fromisoformat(s["created_at"]).astimezone().isoformat()[:19]
        for s in (first, second, third)
    ] == ["2010-07-06T00:00:00", "2010-07-06T00:00:00", "2010-07-13T00:00:00"]
    players = {
        p["name"]: (p["total"], p["sessions"]) for p in client.get("/api/players").json["players"]
    }
    assert players == {"Ann": (4, 2), "Bob": (3, 3), "Cat": (-4, 1), "Dan": (-3, 1)}


def test_a_sheet_imported_twice_adds_nothing_the_second_time(client: FlaskClient) -> None:
    send(client, SHEET)
    again = send(client, {"csv": SHEET})
    assert (again["nights"], again["already_here"], again["sessions"]) == (0, 3, [])
    assert len(client.get("/api/sessions").json["sessions"]) == 3
    # One more night of the same day and nets is a night more.
    more = send(client, SHEET + "2010-7-6,-1,1,,\r\n")
    assert (more["nights"], more["already_here"]) == (1, 3)


NOT_A_DATE = "is not a date: write it YYYY-MM-DD, as 2010-07-06 or 2010-7-6."
NOT_A_NET = "net is a whole number from -100,000 to 100,000."


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("2010-7-20,2,1,,", "Line 6: the nets add up to 3, not 0."),
        ("2010-2-30,1,-1,,", f"Line 6: 2010-2-30 {NOT_A_DATE}"),
        ("7/20/2010,1,-1,,", f"Line 6: 7/20/2010 {NOT_A_DATE}"),
        (",1,-1,,", "Line 6: the date is missing."),
        ("2010-7-20,1.5,-1.5,,", f"Line 6: Ann's {NOT_A_NET}"),
        ("2010-7-20,,x,1,-1", f"Line 6: Bob's {NOT_A_NET}"),
        ("2010-7-20,200000,-200000,,", f"Line 6: Ann's {NOT_A_NET}"),
        ("2010-7-20,,,3,", "Line 6: a night has 2 to 40 players, not 1."),
        ("2010-7-20,1,-1,,,5", "Line 6: it has a net in column 6, past the last player's column."),
        ("0001-1-1,1,-1,,", "Line 6: 0001-01-01 is a day too far off to keep."),
    ],
)  # fmt: skip
def test_a_bad_line_is_refused_by_its_number_and_nothing_is_kept(
    client: FlaskClient, line: str, sentence: str
) -> None:
    refused = send(client, SHEET + line + "\r\n", 400)
    assert refused == {"error": sentence}
    nothing_kept(client)


def test_every_bad_line_is_named(client: FlaskClient) -> None:
    lines = [f"2010-8-{day},{day},,," for day in range(1, 21)]
    refused = send(client, {"csv": SHEET + "\n".join(lines)}, 400)
    said = [f"Line {6 + n}: a night has 2 to 40 players, not 1." for n in range(10)]
    assert refused["error"] == " ".join([*said, "And 10 more lines."])
    nothing_kept(client)


@pytest.mark.parametrize(
    ("sheet", "sentence"),
    [
        ("", "The file is empty."),
        (",,,\r\n,,\r\n", "The file is empty."),
        ("Day,Ann,Bob\r\n", "Line 1 must be the header: Date, then a column for each player."),
        ("Date,Ann\r\n", "Line 1 must be the header: Date, then a column for each player."),
        ("DATE,Ann,,Bob\r\n", "Line 1: every player column needs a name; column 3 has none."),
        ("date,Ann,ANN\r\n", "Line 1: ANN has two columns."),
        ("Date,Ann,B\u200bob\r\n", "Line 1: a player's name can't hold control or invisible "
         "characters; this one holds U+200B (zero width space)."),
    ],
)  # fmt: skip
def test_a_file_that_is_not_a_sheet_of_nights_is_refused(
    client: FlaskClient, sheet: str, sentence: str
) -> None:
    assert send(client, {"csv": sheet}, 400) == {"error": sentence}
    nothing_kept(client)


def test_a_sheet_of_too_many_lines_is_refused_as_it_is_read(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(nights_in, "MAX_LINES", 3)
    assert send(client, SHEET, 201)["nights"] == 3
    refused = send(client, SHEET + "2010-7-20,1,-1,,\r\n", 400)
    assert refused == {
        "error": "A sheet holds at most 3 nights: split this one into files of a season or a few."
    }


def test_a_file_not_in_utf8_is_refused(client: FlaskClient) -> None:
    answer = client.post(URL, data="Date,Zoë,Bob\n".encode("latin-1"), content_type="text/csv")
    assert answer.status_code == 400
    assert answer.json["error"] == (
        "The file is not text in UTF-8. Save it from the spreadsheet as CSV (UTF-8)."
    )


def test_a_line_without_a_player_is_skipped_and_counted(client: FlaskClient) -> None:
    imported = send(client, SHEET + "2010-7-20,,,,\r\n2010-7-27\r\n,,,,\r\n")
    assert (imported["nights"], imported["skipped"]) == (3, 2)


ZEROS = "Date,Ann,Bob,Cat\r\n2011-1-4,3,-3,0\r\n2011-1-11,0,0,0\r\n2011-1-18,0,2,-2\r\n"


def test_a_sheet_with_zeros_is_asked_what_a_zero_is(client: FlaskClient, api: Api) -> None:
    asked = send(client, ZEROS, 409)
    assert asked == {
        "error": "Nothing is imported until this is answered: 5 of the sheet's 9 filled cells "
        "are 0: is a 0 a player who was there and broke even, or one who wasn't there?",
        "ask_zeros": {"zeros": 5, "cells": 9},
    }
    nothing_kept(client)
    absent = send(client, {"csv": ZEROS, "zeros": "absent"})
    assert (absent["nights"], absent["skipped"]) == (2, 1)
    assert [api.session(i)["totals"] for i in absent["sessions"]] == [
        {"Ann": 3, "Bob": -3}, {"Bob": 2, "Cat": -2},
    ]  # fmt: skip


def test_a_zero_is_a_player_who_broke_even_when_the_answer_says_so(
    client: FlaskClient, api: Api
) -> None:
    played = client.post(f"{URL}?zeros=played", data=ZEROS, content_type="text/csv")
    assert played.status_code == 201, played.json
    assert (played.json["nights"], played.json["skipped"]) == (3, 0)
    assert [api.session(i)["totals"] for i in played.json["sessions"]] == [
        {"Ann": 3, "Bob": -3, "Cat": 0}, {"Ann": 0, "Bob": 0, "Cat": 0},
        {"Ann": 0, "Bob": 2, "Cat": -2},
    ]  # fmt: skip


def test_a_line_wrong_whatever_a_zero_is_is_refused_before_asking(client: FlaskClient) -> None:
    sheet = ZEROS + "2011-1-25,0,,\r\n2011-2-1,1,0,\r\n"
    refused = send(client, sheet, 400)
    assert refused == {"error": "Line 6: a night has 2 to 40 players, not 1."}
    assert send(client, {"csv": sheet, "zeros": "played"}, 400) == {
        "error": "Line 5: a night has 2 to 40 players, not 1. Line 6: the nets add up to 1, not 0."
    }


def test_an_answer_that_is_not_one_is_refused(client: FlaskClient) -> None:
    refused = client.post(f"{URL}?zeros=maybe", data=ZEROS, content_type="text/csv")
    assert refused.status_code == 400
    assert refused.json["field"] == "zeros"
    for body, field in (
        ({"csv": ZEROS, "zeros": 0}, "zeros"),
        ({"csv": ZEROS, "same_as": ["Ann"]}, "same_as"),
        ({"csv": ZEROS, "same_as": {"Ann": 1}}, "same_as"),
        ({"csv": ZEROS, "new_players": "Ann"}, "new_players"),
        ({"csv": 5}, "csv"),
        ({}, "csv"),
        ({"csv": ZEROS, "rounds": 1}, "rounds"),
    ):
        assert send(client, body, 400)["field"] == field
    nothing_kept(client)


def test_a_body_neither_json_nor_csv_is_refused(client: FlaskClient) -> None:
    answer = client.post(URL, data=SHEET, content_type="text/plain")
    assert answer.status_code == 415
    assert "text/csv" in answer.json["error"]


KIEBZACK = "Date,Tom Kiebzack,Ann\r\n2005-1-4,2,-2\r\n"
KIEBZAK = "Date,Ann,Tom Kiebzak,Blake Adams\r\n2006-1-3,1,2,-3\r\n2006-1-10,-1,,1\r\n"


def test_a_new_name_like_a_players_is_asked_until_answered(client: FlaskClient, api: Api) -> None:
    send(client, KIEBZACK)
    asked = send(client, KIEBZAK, 409)
    assert asked == {
        "error": "Nothing is imported until this is answered: "
        "Tom Kiebzak: a new player, or Tom Kiebzack?",
        "ask": [{"name": "Tom Kiebzak", "like": ["Tom Kiebzack"]}],
    }
    assert len(client.get("/api/sessions").json["sessions"]) == 1
    same = send(client, {"csv": KIEBZAK, "same_as": {"tom kiebzak": "TOM KIEBZACK"}})
    assert same["new_players"] == ["Blake Adams"]
    assert api.session(same["sessions"][0])["totals"] == {
        "Ann": 1, "Tom Kiebzack": 2, "Blake Adams": -3,
    }  # fmt: skip
    players = {p["name"]: p["total"] for p in client.get("/api/players").json["players"]}
    assert players == {"Ann": -2, "Blake Adams": -2, "Tom Kiebzack": 4}


def test_a_new_name_like_a_players_can_be_a_new_player(client: FlaskClient) -> None:
    send(client, KIEBZACK)
    new = send(client, {"csv": KIEBZAK, "new_players": ["TOM KIEBZAK"]})
    assert new["new_players"] == ["Tom Kiebzak", "Blake Adams"]
    players = {p["name"] for p in client.get("/api/players").json["players"]}
    assert players == {"Ann", "Blake Adams", "Tom Kiebzack", "Tom Kiebzak"}


def test_every_question_is_asked_at_once(client: FlaskClient) -> None:
    send(client, {"csv": KIEBZACK})
    sheet = "Date,Tom Kiebzak,Ann,Brian Olsen,Bryan Olsen\r\n2006-1-3,1,0,-1,\r\n"
    asked = send(client, {"csv": sheet}, 409)
    assert asked["ask"] == [
        {"name": "Tom Kiebzak", "like": ["Tom Kiebzack"]},
    ]
    assert asked["ask_zeros"] == {"zeros": 1, "cells": 3}
    assert asked["error"].startswith("Nothing is imported until these are answered: 1 of")


def test_a_name_the_same_as_no_one_is_refused(client: FlaskClient) -> None:
    refused = send(client, {"csv": KIEBZAK, "same_as": {"Tom Kiebzak": "Tom Kiebzek"}}, 400)
    assert refused == {
        "error": "Tom Kiebzak is the same as Tom Kiebzek, who is neither a player here nor a "
        "column of the file.",
        "field": "same_as",
    }
    nothing_kept(client)


def test_two_columns_of_one_player_in_one_line_are_refused(client: FlaskClient) -> None:
    sheet = "Date,Tom Kiebzack,Tom Kiebzak,Ann\r\n2005-1-4,2,,-2\r\n2005-1-11,1,1,-2\r\n"
    same_as = {"Tom Kiebzak": "Tom Kiebzack"}
    refused = send(client, {"csv": sheet, "same_as": same_as}, 400)
    assert refused == {"error": "Line 3: Tom Kiebzack is listed twice."}
    ok = send(client, {"csv": sheet.replace("1,1,-2", ",2,-2"), "same_as": same_as})
    assert ok["new_players"] == ["Tom Kiebzack", "Ann"]


def test_a_file_over_the_upload_limit_is_413(app: Flask, client: FlaskClient) -> None:
    app.config["UPLOAD_LIMIT"] = 2000
    big = SHEET + "2010-8-1,1,-1,,\r\n" * 200
    answer = client.post(URL, data=big, content_type="text/csv")
    assert answer.status_code == 413
    assert client.post(URL, json={"csv": big}).status_code == 413
    # Larger than the API's 1 MB for a body, within the upload limit.
    app.config["UPLOAD_LIMIT"] = 4 * 1024 * 1024
    large = SHEET + ",,,,\r\n" * 200_000
    imported = client.post(URL, data=large, content_type="text/csv")
    assert imported.status_code == 201, imported.json
    assert imported.json["nights"] == 3


def test_an_import_sent_again_with_its_key_is_answered_as_before(client: FlaskClient) -> None:
    first = send(client, SHEET, **{"Idempotency-Key": "nights-1"})
    assert send(client, SHEET, **{"Idempotency-Key": "nights-1"}) == first
    assert len(client.get("/api/sessions").json["sessions"]) == 3
    other = client.post(
        f"{URL}?zeros=played",
        data=SHEET,
        content_type="text/csv",
        headers={"Idempotency-Key": "nights-1"},
    )
    assert other.status_code == 409


# --- flask import-nights


def sheets(tmp_path: Path, **files: str) -> list[str]:
    paths = []
    for name, text in files.items():
        path = tmp_path / f"{name}.csv"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_the_command_imports_each_file_in_turn_and_asks_at_the_terminal(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    files = sheets(tmp_path, y2005=KIEBZACK, y2006=KIEBZAK, y2007=ZEROS)
    done = runner.invoke(args=["import-nights", *files], input="Tom Kiebzack\n\n")
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        f"{files[0]}: 1 night on 2005-01-04, 2 players, 2 new.",
        "Tom Kiebzak: a new player, or Tom Kiebzack? New, or the player's name "
        "(new, Tom Kiebzack) [new]: Tom Kiebzack",
        f"{files[1]}: 2 nights from 2006-01-03 to 2006-01-10, 3 players, 1 new.",
        "5 of the sheet's 9 filled cells are 0: is a 0 a player who was there and broke even, "
        "or one who wasn't there? Played or absent (played, absent) [absent]: ",
        f"{files[2]}: 2 nights from 2011-01-04 to 2011-01-18, 3 players, 2 new. "
        "1 line has no player, skipped.",
    ]
    players = {p["name"]: p["sessions"] for p in client.get("/api/players").json["players"]}
    assert players == {"Ann": 4, "Blake Adams": 2, "Bob": 2, "Cat": 1, "Tom Kiebzack": 2}
    again = runner.invoke(
        args=["import-nights", *files, "--zeros", "absent", "--same-as", "Tom Kiebzak=Tom Kiebzack"]
    )
    assert again.exit_code == 0, again.output
    assert again.output.splitlines() == [
        f"{files[0]}: No night was added. 1 night was here already.",
        f"{files[1]}: No night was added. 2 nights were here already.",
        f"{files[2]}: No night was added. 2 nights were here already. "
        "1 line has no player, skipped.",
    ]


def test_the_commands_answers_can_be_given_ahead(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    files = sheets(tmp_path, y2005=KIEBZACK, y2006=KIEBZAK, y2007=ZEROS)
    done = runner.invoke(
        args=["import-nights", *files, "--zeros", "PLAYED", "--new-player", "Blake Adams",
              "--same-as", "tom kiebzak = Tom Kiebzack"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "?" not in done.output
    assert done.output.splitlines()[-1] == (
        f"{files[2]}: 3 nights from 2011-01-04 to 2011-01-18, 3 players, 2 new."
    )
    new = runner.invoke(
        args=[
            "import-nights",
            *sheets(tmp_path, y2008=KIEBZAK.replace("2006", "2008")),
            "--new-player",
            "Tom Kiebzak",
        ]
    )
    assert new.exit_code == 0, new.output
    assert "Tom Kiebzak" in {p["name"] for p in client.get("/api/players").json["players"]}


def test_the_command_stops_at_a_file_refused(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    files = sheets(tmp_path, good=SHEET, bad=SHEET + "2010-7-20,2,1,,\r\n", after=KIEBZACK)
    refused = runner.invoke(args=["import-nights", *files])
    assert refused.exit_code == 1
    assert refused.output.splitlines()[1:] == [
        f"Error: Nothing of {files[1]} was imported.",
        "Line 6: the nets add up to 3, not 0.",
    ]
    assert len(client.get("/api/sessions").json["sessions"]) == 3
    unanswered = runner.invoke(args=["import-nights", sheets(tmp_path, z=ZEROS)[0]], input="")
    assert unanswered.exit_code == 1
    assert (
        "Error: Nothing more was imported: answer with --zeros, --new-player or --same-as.\n"
        in unanswered.output
    )
    wrong = runner.invoke(args=["import-nights", files[0], "--same-as", "Ann"])
    assert wrong.exit_code == 2
    assert "'Ann' is not NAME=PLAYER." in wrong.output
