"""A club event of 200 players at 40 tables on the TV in Chromium, at 1280x720 and 1920x1080:
no site menu, every table of the round on the screen at once, and within its paging every
player's standing; the standings turn a page every 10 seconds; axe finds nothing wrong. The
Print standings page prints two columns a sheet."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ..helpers.browser import Shot, api, axe_violations

PLAYERS = 200
TABLES = 40
TV = {"1280": {"width": 1280, "height": 720}, "1920": {"width": 1920, "height": 1080}}
CLOCK_START = datetime(2026, 3, 6, 19, 30, tzinfo=UTC)
MARK_SWAPS = """document.addEventListener("live:updated", () => {
    document.documentElement.dataset.swapped = "yes";
});"""


@pytest.fixture(scope="module")
def big_night(base_url: str) -> dict[str, Any]:
    """A practice event of 200 players, round 1 at 40 tables of five filled with made-up hands
    and round 2 drawn, with three hands at its first table."""
    event = api(
        base_url,
        "POST",
        "/api/events",
        {"name": "Big night", "practice": True, "hands": 5, "rounds": 3, "seed": 11,
         "entry": 1000, "places": [30, 20, 10], "round_top": 5},
    )  # fmt: skip
    players = f"/api/events/{event['id']}/players"
    for number in range(1, PLAYERS + 1):
        api(base_url, "POST", players, {"name": f"Player {number:03d}"})
    rounds = f"/api/events/{event['id']}/rounds"
    api(base_url, "POST", rounds, {"tables": [5] * TABLES})
    api(base_url, "POST", f"{rounds}/1/practice-hands", {})
    drawn: dict[str, Any] = api(base_url, "POST", rounds, {"tables": [5] * TABLES})
    table = drawn["draws"][1]["tables"][0]
    seats = table["seats"]
    for points in (75, 45, 90):
        hand = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": points}
        api(base_url, "POST", f"/api/sessions/{table['session']}/hands", hand)
    return drawn


def in_view(page: Page, selector: str) -> list[bool]:
    """Whether each element is wholly on the screen, as a TV shows it. Found and measured in one
    step of the page's script, so a swap of the board can't come between the two."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)].map((item) => {
            const box = item.getBoundingClientRect();
            return item.getClientRects().length > 0 && box.top >= 0 && box.left >= 0
                && box.bottom <= innerHeight && box.right <= innerWidth;
        })""",
        selector,
    )


@pytest.mark.parametrize("size", TV)
def test_the_board_shows_every_table_and_pages_through_every_player(
    page: Page, base_url: str, shot: Shot, big_night: dict[str, Any], size: str
) -> None:
    page.set_viewport_size(TV[size])
    # The standings turn a page only when the test runs the clock on.
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + timedelta(minutes=1))
    page.add_init_script(MARK_SWAPS)
    page.goto(f"/events/{big_night['id']}/board")
    # The board reads the event as it opens and swaps in the page it then fetches again.
    expect(page.locator("html")).to_have_attribute("data-swapped", "yes")
    expect(page.locator("header.bar")).to_have_count(0)
    expect(page.locator("#board-tables")).to_contain_text("Round 2 of 3 0 of 40 tables done")
    expect(page.locator("#board-tables li")).to_have_count(TABLES)
    expect(page.locator("#board-tables li").first).to_contain_text("Table 1 3/5 hands")
    assert in_view(page, "#board-tables li") == [True] * TABLES
    assert page.evaluate("document.documentElement.scrollHeight") <= TV[size]["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= TV[size]["width"]

    label = page.locator("[data-page-of]")
    expect(label).to_have_text(re.compile(r"Page 1 of \d+"))
    pages = int(label.inner_text().rsplit(" ", 1)[1])
    assert 2 <= pages <= 10
    shot(page, f"event-board-200-{size}")
    seen: list[str] = []
    for number in range(1, pages + 1):
        expect(label).to_have_text(f"Page {number} of {pages}")
        rows = page.locator("#board-standings tbody tr")
        assert all(in_view(page, "#board-standings tbody tr"))
        seen += rows.locator("th").all_inner_texts()
        if number == 2:
            shot(page, f"event-board-200-{size}-page-2")
        page.clock.run_for(10_000)
    expect(label).to_have_text(f"Page 1 of {pages}")
    assert sorted(seen) == [f"Player {n:03d}" for n in range(1, PLAYERS + 1)]
    # axe waits on the page's timers.
    page.clock.resume()
    assert axe_violations(page) == []


def test_the_print_standings_page_prints_two_columns(
    page: Page, base_url: str, shot: Shot, big_night: dict[str, Any]
) -> None:
    page.goto(f"/events/{big_night['id']}/standings")
    expect(page.locator("h1")).to_have_text("Standings: Big night")
    expect(page.locator(".print-standings tbody tr")).to_have_count(PLAYERS)
    assert axe_violations(page) == []
    shot(page, "event-standings-print-phone", full_page=True)
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print")
    expect(page.locator("header.bar")).to_be_hidden()
    columns = page.locator(".print-columns").evaluate("e => getComputedStyle(e).columnCount")
    assert columns == "2"
    shot(page, "event-standings-print-a4", full_page=True)
