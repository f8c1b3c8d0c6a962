"""An event's Check-in page in Chromium: new names typed one after another with only the
keyboard, the name field ready again after each, at 320, 390 and 768 px with axe-core."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import Shot, api, at_widths

TYPED = ("Quinn", "Rory", "Sage")


def test_typed_names_check_in_one_after_another_with_only_typing_and_enter(
    page: Page, base_url: str, shot: Shot
) -> None:
    # Players who have played before, to tap: the name field comes after them.
    api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 1})
    event = api(base_url, "POST", "/api/events", {"name": "Typing night", "seed": 5})
    page.goto(f"/events/{event['id']}")
    expect(page.get_by_role("group", name="Tap who is here")).to_be_visible()
    name = page.get_by_label("Someone new")
    expect(name).not_to_be_focused()
    name.tap()
    for here, typed in enumerate(TYPED, start=1):
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        expect(page.get_by_role("status")).to_have_text(f"{typed} checked in: {here} in all.")
        # Back with the field focused, empty and in sight: the next name needs no tap.
        expect(name).to_be_focused()
        expect(name).to_have_value("")
        expect(name).to_be_in_viewport()
    checked_in = [p["name"] for p in api(base_url, "GET", f"/api/events/{event['id']}")["players"]]
    assert checked_in == list(TYPED)
    expect(page.locator(".checked-in li > span")).to_have_text(list(TYPED))
    at_widths(page, "check-in-typed", shot)
