"""Two phones on one session in Chromium: an edit made meanwhile is shown, not overwritten; a
double tap saves once; Undo can be taken back; Changes and the trash at three widths. Each page
is checked with axe-core."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from ..helpers.browser import Shot, api, at_widths, axe_violations, chip, session_with_hands


def test_an_edit_from_another_phone_is_shown_and_asked_about(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], base_url: str, shot: Shot
) -> None:
    session_id = session_with_hands(base_url, "Two phones")
    page.goto(f"/sessions/{session_id}/hands/2/edit")
    page.get_by_label("Picking team points").fill("45")

    other = browser.new_context(**browser_context_args).new_page()
    other.goto(f"{base_url}/sessions/{session_id}/hands/2/edit")
    chip(other, "Partner", "Dan").tap()
    other.get_by_role("button", name="Save hand").tap()
    expect(other.get_by_text("Hand 2 saved.")).to_be_visible()

    page.get_by_role("button", name="Save hand").tap()
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("Hand 2 was changed on another phone while you edited it")
    expect(notice).to_contain_text("It is now: Bob & Dan, 30")
    expect(page.get_by_label("Picking team points")).to_have_value("45")
    shot(page, "edit-conflict")
    assert axe_violations(page) == []
    hand = api(base_url, "GET", f"/api/sessions/{session_id}")["hands"][1]
    assert (hand["partner"], hand["picking_points"]) == ("Dan", 30)

    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_text("Hand 2 saved.")).to_be_visible()
    hand = api(base_url, "GET", f"/api/sessions/{session_id}")["hands"][1]
    assert (hand["partner"], hand["picking_points"]) == ("Cat", 45)


def test_a_double_tap_on_save_records_one_hand(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Double tap")
    page.goto(f"/sessions/{session_id}/hands/new")
    chip(page, "Picker", "Dan").tap()
    chip(page, "Partner", "Eve").tap()
    page.get_by_label("Picking team points").fill("61")
    page.get_by_role("button", name="Save hand").dblclick()
    expect(page.get_by_text("Hand 4 saved.")).to_be_visible()
    assert len(api(base_url, "GET", f"/api/sessions/{session_id}")["hands"]) == 4


def test_undo_changes_and_trash(page: Page, base_url: str, shot: Shot) -> None:
    session_id = session_with_hands(base_url, "Undo and trash")
    page.goto(f"/sessions/{session_id}")
    page.get_by_role("button", name="Undo last hand").tap()
    expect(page.get_by_text("Hand 3 undone.")).to_be_visible()
    shot(page, "undo-bar")
    assert axe_violations(page) == []
    expect(page.get_by_text("Brings hand 3 back as it was.")).to_be_visible()
    page.get_by_role("button", name="Restore", exact=True).tap()
    expect(page.locator("tr.saved")).to_have_count(1)
    assert len(api(base_url, "GET", f"/api/sessions/{session_id}")["hands"]) == 3

    page.get_by_role("link", name="Changes").tap()
    expect(page.get_by_role("heading", name="Changes")).to_be_visible()
    expect(page.get_by_text("Hand 3 brought back: Cat & Dan, 95")).to_be_visible()
    at_widths(page, "changes", shot)

    page.goto(f"/sessions/{session_id}")
    page.get_by_role("link", name="Delete session").tap()
    expect(page.get_by_role("heading", name="Delete this session?")).to_be_visible()
    shot(page, "delete-session")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Delete session").tap()
    expect(page.get_by_role("heading", name="Trash")).to_be_visible()
    expect(page.get_by_text("Undo and trash moved to the trash.")).to_be_visible()
    at_widths(page, "trash", shot)
    page.get_by_role("button", name="Restore").first.tap()
    expect(page.get_by_role("heading", name="Undo and trash")).to_be_visible()
    assert len(api(base_url, "GET", f"/api/sessions/{session_id}")["hands"]) == 3
