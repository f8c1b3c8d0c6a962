"""The scoresheet's grid in Chromium: a seat nobody held for a hand is hatched, and stays
hatched in the row just saved, whose highlight shows through."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import Shot, api


def test_a_saved_row_keeps_the_not_seated_hatching(page: Page, base_url: str, shot: Shot) -> None:
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
    sid = session["id"]
    hand = {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75}
    api(base_url, "POST", f"/api/sessions/{sid}/hands", hand)
    api(base_url, "PATCH", f"/api/sessions/{sid}", {"players": SEATS[:4]})
    api(base_url, "POST", f"/api/sessions/{sid}/hands", {**hand, "partner": None})
    page.goto(f"/sessions/{sid}?saved=2")
    away = page.locator("tr.saved td.away")
    expect(away).to_have_count(1)
    hatching = away.evaluate("cell => getComputedStyle(cell).backgroundImage")
    assert hatching.startswith("repeating-linear-gradient"), hatching
    highlight = page.locator("tr.saved td:not(.away)").first
    saved = highlight.evaluate("cell => getComputedStyle(cell).backgroundColor")
    assert away.evaluate("cell => getComputedStyle(cell).backgroundColor") == saved
    away.scroll_into_view_if_needed()
    shot(page, "grid-saved-row-not-seated")
