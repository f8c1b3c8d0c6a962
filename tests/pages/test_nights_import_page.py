"""Settings' "Import nights from a spreadsheet" (pages/nights_import.py): the file picker, the
questions in words (what a 0 is, one question a name like a player's), every bad line named on
the page with the file held, and the summary of what came in."""

from __future__ import annotations

import io
import re
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ..helpers.api import Api
from ..helpers.database import Fresh
from ..helpers.nights import DRIFTED, league
from ..helpers.pages import FormPage, Page

URL = "/nights/import"
KIEBZACK = "Date,Tom Kiebzack,Ann Koch,Bob Krueger\n2005-1-4,2,-2,\n2005-1-11,,1,-1\n"
KIEBZAK = "Date,Ann Koch,Tom Kiebzak,Blake Adams\n2006-1-3,1,2,-3\n2006-1-10,-1,0,1\n"


def upload(
    client: FlaskClient, text: str | bytes, name: str = "2006.csv", **form: Any
) -> TestResponse:
    data = text.encode() if isinstance(text, str) else text
    return client.post(URL, data={"sheet": (io.BytesIO(data), name), **form})


def answer(client: FlaskClient, asked: TestResponse, **answers: str) -> TestResponse:
    """The asking page sent back as a browser would, with these radios chosen."""
    fields: dict[str, Any] = FormPage(asked.text).fields
    return client.post(URL, data={**fields, **answers})


def sessions(client: FlaskClient) -> list[dict[str, Any]]:
    return client.get("/api/sessions").json["sessions"]  # type: ignore[no-any-return]


def test_settings_has_the_file_picker(client: FlaskClient) -> None:
    page = client.get("/settings").text
    assert "Import nights from a spreadsheet" in page
    form = page[page.index('id="nights-heading"') :]
    assert f'action="{URL}"' in form and 'type="file" id="sheet" name="sheet"' in form
    assert client.get(URL).status_code == 200


def test_a_sheet_asks_its_questions_in_words_then_says_what_came_in(
    client: FlaskClient, api: Api
) -> None:
    upload(client, KIEBZACK, "2005.csv")
    asked = upload(client, KIEBZAK)
    assert asked.status_code == 200
    page = Page(asked.text).text
    assert (
        "1 of the sheet's 6 filled cells are 0. Is a 0 a player who was there and broke even, "
        "or one who wasn't there?" in page
    )
    assert "Tom Kiebzak: a new player, or Tom Kiebzack?" in page
    held = FormPage(asked.text).fields
    assert held["asked"] == ["Tom Kiebzak"]
    assert held["sheet_name"] == ["2006.csv"] and held["held_sheet"][0]
    # Most cells are not 0: played is suggested.
    assert held["zeros"] == ["played"]
    assert len(sessions(client)) == 2

    done = answer(client, asked, **{"as-0": "Tom Kiebzack"})
    assert done.status_code == 302, done.text
    summary = "2006.csv: 2 nights from 2006-01-03 to 2006-01-10, 3 players, 1 new."
    assert FormPage(client.get(done.location).text).flashes == [summary]
    players = {p["name"]: p["total"] for p in client.get("/api/players").json["players"]}
    assert players == {"Ann Koch": -1, "Blake Adams": -2, "Bob Krueger": -1, "Tom Kiebzack": 4}


def test_a_name_answered_a_new_player_is_one(client: FlaskClient) -> None:
    upload(client, KIEBZACK, "2005.csv")
    asked = upload(client, KIEBZAK)
    done = answer(client, asked, **{"as-0": "new", "zeros": "absent"})
    assert done.status_code == 302, done.text
    page = FormPage(client.get(done.location).text)
    assert page.flashes == ["2006.csv: 2 nights from 2006-01-03 to 2006-01-10, 3 players, 2 new."]
    names = {p["name"] for p in client.get("/api/players").json["players"]}
    assert {"Tom Kiebzak", "Tom Kiebzack"} <= names


def test_a_question_left_unanswered_is_asked_again_keeping_the_answers(
    client: FlaskClient,
) -> None:
    upload(client, KIEBZACK, "2005.csv")
    asked = upload(client, KIEBZAK)
    # The name left unanswered: the zeros answered are kept while it is asked again.
    again = answer(client, asked, zeros="absent", **{"as-0": ""})
    assert again.status_code == 200
    fields = FormPage(again.text).fields
    assert fields["zeros"] == ["absent"] and fields["asked"] == ["Tom Kiebzak"]
    assert "Is a 0" not in Page(again.text).text
    done = answer(client, again, **{"as-0": "Tom Kiebzack"})
    assert done.status_code == 302, done.text
    assert len(sessions(client)) == 4


def test_most_zeros_suggest_they_were_not_there(client: FlaskClient) -> None:
    sheet = (
        "Date,Ann Koch,Bob Krueger,Cat Lange,Dan Meyer\n"
        "2010-1-5,3,-3,0,0\n2010-1-12,0,0,2,-2\n2010-1-19,0,0,0,0\n"
    )
    asked = upload(client, sheet)
    assert "8 of the sheet's 12 filled cells are 0." in Page(asked.text).text
    assert FormPage(asked.text).fields["zeros"] == ["absent"]
    assert "Suggested: most filled cells are 0" in asked.text
    done = answer(client, asked)
    assert done.status_code == 302
    assert FormPage(client.get(done.location).text).flashes == [
        "2006.csv: 2 nights from 2010-01-05 to 2010-01-12, 4 players, 4 new. "
        "1 line has no player, skipped."
    ]
    assert [s["players"] for s in sessions(client)] == [
        ["Cat Lange", "Dan Meyer"], ["Ann Koch", "Bob Krueger"],
    ]  # fmt: skip


def test_a_bad_line_is_named_on_the_page_and_the_file_held(client: FlaskClient) -> None:
    sheet = KIEBZACK + "2005-1-18,2,1,\n2005-2-30,1,-1,\n"
    refused = upload(client, sheet, "2005.csv")
    assert refused.status_code == 400
    assert "Nothing was imported." in refused.text
    assert re.findall(r"<li>(.*?)</li>", refused.text) == [
        "Line 4: the nets add up to 3, not 0.",
        "Line 5: 2005-2-30 is not a date: write it YYYY-MM-DD, as 2010-07-06 or 2010-7-6.",
    ]
    fields = FormPage(refused.text).fields
    assert fields["sheet_name"] == ["2005.csv"] and fields["held_sheet"][0]
    assert "Or choose another file" in refused.text
    assert sessions(client) == []
    # Another file chosen takes the held one's place.
    fixed = client.post(
        URL, data={**fields, "sheet": (io.BytesIO(KIEBZACK.encode()), "2005 fixed.csv")}
    )
    assert fixed.status_code == 302, fixed.text
    assert len(sessions(client)) == 2


def test_no_file_or_a_damaged_one_is_refused(client: FlaskClient) -> None:
    none = client.post(URL, data={})
    assert none.status_code == 400
    assert "Choose the spreadsheet&#39;s CSV file." in none.text
    damaged = client.post(URL, data={"held_sheet": "not base64!", "sheet_name": "x.csv"})
    assert damaged.status_code == 400
    assert "The file held by the page was damaged: choose it again." in damaged.text
    latin = upload(client, "Date,Zoë,Bob\n".encode("latin-1"))
    assert latin.status_code == 400
    assert "The file is not text in UTF-8." in latin.text


def test_a_whole_history_in_one_sheet_says_what_came_in(client: FlaskClient, api: Api) -> None:
    history = league()
    # 39 of the 42 players are here already.
    here = [
        name for name in history.sessions() if name not in ("Blake Adams", "Sam Frank", "Tony Graf")
    ]
    for first, second in zip(here[::2], here[1::2] + here[:1], strict=False):
        client.post(
            "/api/sessions", json={"played_on": "2003-12-31", "totals": {first: 1, second: -1}}
        )
    asked = upload(client, history.combined(), "history.csv")
    assert "Tom Kiebzak: a new player, or Tom Kiebzack?" in Page(asked.text).text
    done = answer(client, asked, **{"as-0": DRIFTED[1], "zeros": "played"})
    assert done.status_code == 302, done.text
    assert FormPage(client.get(done.location).text).flashes == [
        "history.csv: 1,435 nights from 2004-01-05 to 2013-05-02, 42 players, 3 new."
    ]
    again = upload(client, history.combined(), "history.csv",
                   zeros="played", same_name=DRIFTED[0], same_player=DRIFTED[1])  # fmt: skip
    assert FormPage(client.get(again.location).text).flashes == [
        "history.csv: No night was added. 1,435 nights were here already."
    ]


def test_the_import_needs_the_csrf_token(fresh: Fresh) -> None:
    client = fresh(csrf=True).test_client()
    assert upload(client, KIEBZACK).status_code == 400
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/settings").text)
    assert token is not None
    assert upload(client, KIEBZACK, csrf_token=token[1]).status_code == 302
    assert len(sessions(client)) == 2
