"""Settings' "Import nights from a spreadsheet" in Chromium at phone size: a sheet chosen, its
questions answered in words (what a 0 is, a name like a player's), what came in said; a bad line
named with the file held. At 320, 390 and 768 px, with axe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from harness.threaded_server import serving

from ..helpers.browser import Shot, api, app_on_new_database, assert_phone_friendly, at_widths

KIEBZACK = "Date,Tom Kiebzack,Ann Koch,Bob Krueger\n2005-1-4,2,-2,\n2005-1-11,,1,-1\n"
KIEBZAK = "\ufeffDate,Ann Koch,Tom Kiebzak,Blake Adams\r\n2006-1-3,1,2,-3\r\n2006-1-10,-1,0,1\r\n"


@pytest.fixture(scope="module")
def league_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scorekeeper of its own, for a league's history."""
    with app_on_new_database(tmp_path_factory.mktemp("nights")) as app, serving(app) as url:
        yield url


def test_a_sheet_imported_from_settings_asks_then_says_what_came_in(
    page: Page, league_url: str, shot: Shot, tmp_path: Path
) -> None:
    api(league_url, "POST", "/api/imports/nights", {"csv": KIEBZACK})
    sheet = tmp_path / "2006.csv"
    sheet.write_text(KIEBZAK, encoding="utf-8")

    page.goto(f"{league_url}/settings")
    section = page.locator(
        "section", has=page.get_by_role("heading", name="Import nights from a spreadsheet")
    )
    section.get_by_label("Spreadsheet (CSV)").set_input_files(sheet)
    section.get_by_role("button", name="Import nights").tap()

    expect(page.get_by_role("heading", name="Before anything is kept")).to_be_visible()
    zeros = page.get_by_role("group", name="Is a 0 a player who was there and broke even")
    expect(zeros.get_by_label("They played and broke even")).to_be_checked()
    name = page.get_by_role("group", name="Tom Kiebzak: a new player, or Tom Kiebzack?")
    expect(name).to_be_visible()
    assert_phone_friendly(page)
    at_widths(page, "import-nights-asked", shot)
    name.get_by_label("Tom Kiebzack").check()
    page.get_by_role("button", name="Import nights").tap()

    expect(page.get_by_role("status")).to_have_text(
        "2006.csv: 2 nights from 2006-01-03 to 2006-01-10, 3 players, 1 new."
    )
    at_widths(page, "import-nights-done", shot)
    players = {p["name"]: p["total"] for p in api(league_url, "GET", "/api/players")["players"]}
    assert players == {"Ann Koch": -1, "Blake Adams": -2, "Bob Krueger": -1, "Tom Kiebzack": 4}


def test_a_bad_line_is_named_and_the_file_held(
    page: Page, league_url: str, shot: Shot, tmp_path: Path
) -> None:
    sheet = tmp_path / "2007.csv"
    sheet.write_text("Date,Ann Koch,Bob Krueger\n2007-1-2,2,1\n2007-2-30,1,-1\n", encoding="utf-8")
    page.goto(f"{league_url}/nights/import")
    page.get_by_label("Spreadsheet (CSV)").set_input_files(sheet)
    page.get_by_role("button", name="Import nights").tap()
    expect(page.locator(".refusal li")).to_have_text(
        [
            "Line 2: the nets add up to 3, not 0.",
            "Line 3: 2007-2-30 is not a date: write it YYYY-MM-DD, as 2010-07-06 or 2010-7-6.",
        ]
    )
    expect(page.get_by_text("The file: 2007.csv")).to_be_visible()
    expect(page.get_by_label("Or choose another file")).to_be_visible()
    at_widths(page, "import-nights-refused", shot)
