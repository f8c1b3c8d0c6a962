"""A night at a table of six: a seventh player arrives and one leaves, tapped through in Chromium
at 320, 390 and 768 px wide, checked against the API, with axe on every page it touches."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from ..helpers.browser import Shot, api, checked, chip, group, seat


def clear_of_the_save_bar(page: Page, last: Locator) -> None:
    """Scrolled to the bottom, the form's last control sits above the fixed Save bar."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    bar = page.locator(".savebar").bounding_box()
    box = last.bounding_box()
    assert bar is not None and box is not None
    assert box["y"] + box["height"] <= bar["y"]


def record(page: Page, picker: str, partner: str, points: str, preview: str) -> None:
    page.get_by_role("link", name="Record hand").tap()
    chip(page, "Picker", picker).tap()
    chip(page, "Partner", partner).tap()
    page.get_by_label("Picking team points").fill(points)
    expect(page.locator("#preview")).to_have_text(preview)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("tr.saved")).to_have_count(1)


@pytest.mark.parametrize("width", [320, 390, 768])
def test_six_seated_then_one_arrives_and_one_leaves(
    page: Page, base_url: str, shot: Shot, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    name = f"any-table-{width}"

    # New session: five rows to start with; the partner rule follows the size.
    page.goto("/sessions/new")
    expect(page.locator(".seats li:visible")).to_have_count(5)
    partner = group(page, "Partner")
    for number, player in enumerate(["Bob", "Ann", "Cat"], start=1):
        seat(page, number).fill(player)
    expect(partner.get_by_label("Alone")).to_be_checked()
    expect(partner.get_by_label("Jack of diamonds")).to_be_hidden()
    # Seat 1 moves down: Ann, Bob, Cat.
    page.get_by_role("button", name="Move seat 1 down").tap()
    assert [seat(page, n).input_value() for n in (1, 2, 3)] == ["Ann", "Bob", "Cat"]
    seat(page, 4).fill("Dan")
    expect(partner.get_by_label("Alone")).to_be_checked()
    expect(partner.get_by_label("Jack of diamonds")).to_be_visible()
    seat(page, 5).fill("Eve")
    expect(partner.get_by_label("Jack of diamonds")).to_be_checked()
    expect(group(page, "With six or more seated")).to_be_hidden()
    page.get_by_role("button", name="Add player").tap()
    seat(page, 6).fill("Fay")
    expect(
        group(page, "With six or more seated").get_by_label("The dealer sits out")
    ).to_be_checked()
    page.get_by_label("First dealer").select_option(label="Seat 6 · Fay")
    page.get_by_label("Rounds").fill("0")
    shot(page, f"{name}-new-session", full_page=True)
    checked(page, width)
    page.get_by_role("button", name="Start session").tap()
    expect(page.locator(".next .deal")).to_have_text("Fay deals hand 1 · Fay sits out")
    session_id = int(page.url.rstrip("/").split("/")[-1])

    # Hand 1: Fay deals and sits out, so she is not offered.
    page.get_by_role("link", name="Record hand").tap()
    expect(page.get_by_text("Fay sits out this hand.")).to_be_visible()
    expect(group(page, "Picker").get_by_label("Fay", exact=True)).to_have_count(0)
    chip(page, "Picker", "Ann").tap()
    chip(page, "Partner", "Bob").tap()
    page.get_by_label("Picking team points").fill("70")
    expect(page.locator("#preview")).to_have_text("Ann +2, Bob +1, Cat, Dan, Eve -1 · Fay sits out")
    shot(page, f"{name}-record-hand")
    checked(page, width)
    clear_of_the_save_bar(page, page.locator(".hand-form .extras"))
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".next .deal")).to_have_text("Ann deals hand 2 · Ann sits out")

    # Gus arrives and sits after Fay: he deals hand 2, and Fay sits out with him.
    page.get_by_role("link", name="Seats").tap()
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    page.get_by_label("Name").fill("Gus")
    page.get_by_label("Sits").select_option(label="after Fay")
    page.get_by_role("button", name="Sits down").tap()
    expect(page.locator(".next .deal")).to_have_text("Gus deals hand 2 · Gus and Fay sit out")
    shot(page, f"{name}-seats-arrival", full_page=True)
    checked(page, width)
    clear_of_the_save_bar(page, page.get_by_role("button", name="Gus leaves"))
    page.get_by_role("button", name="Save seats").tap()
    expect(page.get_by_text("Seats changed.")).to_be_visible()
    expect(page.locator(".next .deal")).to_have_text("Gus deals hand 2 · Gus and Fay sit out")

    # Hand 2: Cat and Dan, 95.
    record(page, "Cat", "Dan", "95", "Cat +4, Dan +2, Ann, Bob, Eve -2 · Gus and Fay sit out")

    # Bob leaves; Gus dealt last and is still seated, so Ann deals next and sits out.
    page.get_by_role("link", name="Seats").tap()
    page.get_by_role("button", name="Bob leaves").tap()
    expect(page.locator(".next .deal")).to_have_text("Ann deals hand 3 · Ann sits out")
    expect(page.get_by_text("Leaving: Bob.")).to_be_visible()
    shot(page, f"{name}-seats-leaving", full_page=True)
    checked(page, width)
    page.get_by_role("button", name="Save seats").tap()
    expect(page.locator(".next .deal")).to_have_text("Ann deals hand 3 · Ann sits out")

    # Hand 3: Eve and Cat lose with 40.
    # Cat sits before Eve, but the picker is said first.
    record(page, "Eve", "Cat", "40", "Eve -2, Cat -1, Dan, Fay, Gus +1 · Ann sits out")
    expect(page.locator(".next .deal")).to_have_text("Cat deals hand 4 · Cat sits out")

    session = api(base_url, "GET", f"/api/sessions/{session_id}")
    totals = {"Ann": 0, "Bob": -1, "Cat": 2, "Dan": 2, "Eve": -5, "Fay": 1, "Gus": 1}
    assert session["totals"] == totals
    assert session["players"] == ["Ann", "Cat", "Dan", "Eve", "Fay", "Gus"]
    assert [hand["sitting_out"] for hand in session["hands"]] == [["Fay"], ["Fay", "Gus"], ["Ann"]]

    # The scoresheet: a column each, Bob marked as left with his total, dashes for sitting out.
    rows = page.locator("table.standings tbody tr")
    on_page = {
        rows.nth(i).locator("th a").inner_text(): int(rows.nth(i).locator("td.total").inner_text())
        for i in range(rows.count())
    }
    assert on_page == totals
    expect(page.locator("table.standings th", has_text="Bob")).to_contain_text("left")
    expect(page.locator(".grid thead th.left")).to_have_count(1)
    expect(page.locator(".grid td.out")).to_have_count(4)
    grid = page.locator(".grid-scroll")
    assert grid.evaluate("el => el.scrollWidth <= el.clientWidth")
    shot(page, f"{name}-scoresheet", full_page=True)
    checked(page, width)
