"""A session at the table, tapped through in Chromium at phone size, checked against the API."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import (
    Shot,
    Taps,
    api,
    assert_phone_friendly,
    chip,
    group,
    save,
    totals_on_page,
)


def test_a_session_tapped_through_matches_the_api(page: Page, base_url: str, shot: Shot) -> None:
    # An earlier session puts the five players on the roster.
    api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0, "name": "Last week"})

    page.goto("/")
    shot(page, "home")
    page.get_by_role("link", name="New session").tap()
    for name in SEATS:
        page.locator(".roster").get_by_label(name, exact=True).tap()
    assert [page.get_by_label(f"Seat {i}", exact=True).input_value() for i in range(1, 6)] == SEATS
    page.get_by_role("button", name="One round fewer").tap()
    page.get_by_label("Leaster").check()
    page.get_by_label("Name (optional)").fill("Friday at Dan's")
    shot(page, "new-session")
    assert_phone_friendly(page)
    page.get_by_role("button", name="Start session").tap()
    expect(page.get_by_text("Ann deals hand 1")).to_be_visible()
    session_id = int(page.url.rstrip("/").split("/")[-1])

    # Hand 1, the usual case: picker, partner, points, save.
    taps = Taps()
    taps(page.get_by_role("link", name="Record hand"))
    taps(chip(page, "Picker", "Bob"))
    taps(chip(page, "Partner", "Cat"))
    points = page.get_by_label("Picking team points")
    assert points.input_value() == ""
    taps(points)
    points.fill("75")
    expect(page.locator("#preview")).to_have_text("Bob +2, Cat +1, Ann, Dan, Eve -1")
    save_button = page.get_by_role("button", name="Save hand")
    assert save_button.is_visible() and points.bounding_box()["y"] + 48 <= 844  # type: ignore[index]
    shot(page, "record-hand-pick")
    assert_phone_friendly(page)
    taps(save_button)
    assert taps.count - 1 == 4  # the tap that opened the form is not part of recording
    expect(page.locator("tr.saved")).to_have_count(1)
    shot(page, "scoresheet-first-hand")

    # Hand 2: Dan alone, cracked by Eve, who bid after him.
    page.get_by_role("link", name="Record hand").tap()
    chip(page, "Picker", "Dan").tap()
    chip(page, "Partner", "Alone").tap()
    cracked_by = group(page, "Cracked by")
    expect(cracked_by.get_by_label("Cat", exact=True)).to_be_hidden()
    cracked_by.get_by_label("Eve", exact=True).tap()
    page.get_by_label("Opponents' points").fill("25")
    expect(page.locator("#preview")).to_have_text("Dan +16, 4 others -4, x2 for the crack")
    save(page)

    # Hand 3: everyone passed, so a leaster.
    page.get_by_role("link", name="Record hand").tap()
    page.get_by_label("Everyone passed").tap()
    expect(group(page, "Picker")).to_be_hidden()
    chip(page, "Leaster winner", "Ann").tap()
    expect(page.locator("#preview")).to_have_text("Ann +4, 4 others -1")
    shot(page, "record-hand-leaster")
    save(page)

    # Hand 4, then an undo, then hand 4 again.
    for picker, partner in (("Eve", "Ann"), ("Ann", "Eve")):
        page.get_by_role("link", name="Record hand").tap()
        chip(page, "Picker", picker).tap()
        chip(page, "Partner", partner).tap()
        page.get_by_label("Picking team points").fill("60")
        if picker == "Eve":
            # Ann sits before Eve, but the picker is said first.
            expect(page.locator("#preview")).to_have_text("Eve -2, Ann -1, Bob, Cat, Dan +1")
        save(page)
        if picker == "Eve":
            page.get_by_role("button", name="Undo last hand").tap()
            expect(page.get_by_text("Hand 4 undone.")).to_be_visible()
    shot(page, "scoresheet", full_page=True)

    # Edit hand 1: the picking team had 91.
    page.get_by_role("link", name="Edit hand 1").tap()
    expect(page.get_by_label("Picking team points")).to_have_value("75")
    page.get_by_label("Picking team points").fill("91")
    save(page)

    # Hand 5 completes the round.
    page.get_by_role("link", name="Record hand").tap()
    chip(page, "Picker", "Cat").tap()
    chip(page, "Partner", "Bob").tap()
    page.get_by_label("Picking team points").fill("120")
    save(page)
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    shot(page, "session-complete", full_page=True)
    totals = totals_on_page(page)

    page.get_by_role("link", name="Sessions").tap()
    expect(page.get_by_text("Won by Dan")).to_be_visible()
    shot(page, "history", full_page=True)
    assert_phone_friendly(page)

    session = api(base_url, "GET", f"/api/sessions/{session_id}")
    assert session["complete"] is True
    assert [h["kind"] for h in session["hands"]] == ["pick", "pick", "leaster", "pick", "pick"]
    assert session["totals"] == {"Ann": -7, "Bob": 3, "Cat": 4, "Dan": 11, "Eve": -11}
    assert totals == session["totals"]


def test_errors_show_inline_and_keep_what_was_typed(page: Page, base_url: str, shot: Shot) -> None:
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 1})
    page.goto(f"/sessions/{session['id']}/hands/new")
    chip(page, "Picker", "Bob").tap()
    chip(page, "Partner", "Cat").tap()
    page.get_by_label("Picking team points").fill("119")
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("#picking_points-error")).to_have_text(
        "Picking team points can't be 119: no set of cards is worth exactly 1 point."
    )
    expect(page.get_by_label("Picking team points")).to_have_value("119")
    expect(chip(page, "Picker", "Bob")).to_be_checked()
    shot(page, "record-hand-error")
    assert api(base_url, "GET", f"/api/sessions/{session['id']}")["hands"] == []
