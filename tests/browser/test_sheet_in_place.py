"""The scoresheet as a phone sees `make run` over plain http on the LAN, with no service worker:
Record hand and Edit open the form in place, Save goes through the outbox and the sheet moves on
in place, so a phone that loses the network anywhere between hands keeps recording and sends
its hands once, in order, when the network is back. After Save the next hand is in view: "Hand N
saved." with Undo, who deals and who sits out, and Record hand, with JavaScript and without."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import (
    UNSENT,
    Shot,
    Taps,
    api,
    at_widths,
    axe_violations,
    chip,
    drawn_at_its_centre,
    fill,
    form_kept,
    hands_of,
    outbox,
    session_with_hands,
    totals_on_page,
)

# No service worker, as over plain http on the LAN (the conftest's default, said here too).
pytestmark = pytest.mark.browser_context_args(service_workers="block")

# A mark a page load would lose.
MARK = "window.inPlaceMark = 'no page load'"
NOT_RELOADED = "[performance.getEntriesByType('navigation').length, window.inPlaceMark]"
OFFLINE_HANDS = (("Dan", "Eve", 75), ("Eve", "Alone", 40), ("Ann", "Bob", 95))
# As the outbox says them, and as the server's scoresheet does once they are sent.
SUMMARIES = ("Dan & Eve, won", "Eve alone, lost", "Ann & Bob, won schneider")
SENT = ("Dan & Eve, 75", "Eve alone, 40", "Ann & Bob, 95")


def open_sheet(page: Page, session_id: int) -> None:
    """The scoresheet, once it has kept its record form for opening with no network."""
    page.goto(f"/sessions/{session_id}")
    page.evaluate(MARK)
    form_kept(page, session_id)


def in_view(page: Page, target: Locator) -> None:
    """Wholly on the first screen: the page not scrolled, the target inside the viewport."""
    expect(target).to_be_visible()
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], target
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], target


@pytest.mark.parametrize("width", [320, 390])
def test_three_hands_recorded_offline_from_the_sheet_arrive_once_in_order(
    page: Page,
    browser: Browser,
    browser_context_args: dict[str, Any],
    base_url: str,
    shot: Shot,
    width: int,
) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    session_id = session_with_hands(base_url, f"Wi-Fi drops at {width}")
    open_sheet(page, session_id)
    assert page.evaluate("navigator.serviceWorker?.controller ?? null") is None

    page.context.set_offline(True)
    for number, (picker, partner, points) in enumerate(OFFLINE_HANDS, start=4):
        page.get_by_role("link", name="Record hand").tap()
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text(f"Hand {number}")
        expect(heading).to_be_focused()
        fill(page, picker, partner, points)
        page.get_by_role("button", name="Save hand").tap()
        status = page.get_by_role("status").filter(has_text=f"Hand {number} saved")
        expect(status).to_have_text(f"Hand {number} saved on this phone, not sent yet.Undo")
        expect(status).to_be_focused()
        expect(page.locator(f"#pending-{number}")).to_have_text(
            f"{number}{SUMMARIES[number - 4]} · not sent yet"
        )
    # The sheet moved on past the hands kept here; their scores wait for the server.
    expect(page.locator(".deal")).to_have_text("Bob deals hand 7")
    expect(page.get_by_text("Bidding: Cat → Dan → Eve → Ann → Bob")).to_be_visible()
    expect(outbox(page).locator("li")).to_have_count(3)
    at_widths(page, f"sheet-offline-{width}", shot)
    assert len(hands_of(base_url, session_id)) == 3

    page.context.set_offline(False)
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 6 sent.")
    # The status of the last hand kept says it is saved now, with no Undo of a kept hand.
    expect(page.locator("main > .saved-status")).to_have_text("Hand 6 saved.")
    assert hands_of(base_url, session_id)[3:] == [
        (4, "Dan", "Eve", 75),
        (5, "Eve", None, 40),
        (6, "Ann", "Bob", 95),
    ]
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(page.locator("#hand-6")).to_be_attached()
    assert totals_on_page(page) == {
        s["player"]: s["total"]
        for s in api(base_url, "GET", f"/api/sessions/{session_id}")["standings"]
    }
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]

    # Another phone's scoresheet shows them, and nothing was sent twice.
    other = browser.new_context(**browser_context_args).new_page()
    other.goto(f"{base_url}/sessions/{session_id}")
    for number, summary in enumerate(SENT, start=4):
        expect(other.locator(f"#hand-{number} + tr.about .summary")).to_contain_text(summary)
    other.context.close()
    assert page.evaluate(UNSENT) == []
    assert len(hands_of(base_url, session_id)) == 6


@pytest.mark.parametrize("size", [(320, 568), (390, 844)])
def test_a_usual_hand_is_five_taps_and_the_next_hand_is_in_view(
    page: Page, base_url: str, shot: Shot, size: tuple[int, int]
) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    # Six seated: one sits out each hand.
    body = {"players": [*SEATS, "Fay"], "rounds": 0, "name": "Six at the table"}
    session_id = int(api(base_url, "POST", "/api/sessions", body)["id"])
    open_sheet(page, session_id)

    for number, (picker, partner) in enumerate((("Bob", "Cat"), ("Dan", "Eve")), start=1):
        taps = Taps()
        taps(page.get_by_role("link", name="Record hand"))
        taps(chip(page, "Picker", picker))
        taps(chip(page, "Partner", partner))
        taps(chip(page, "Result", "Won"))
        taps(page.get_by_role("button", name="Save hand"))
        assert taps.count == 5

        status = page.get_by_role("status").filter(has_text=f"Hand {number} saved.")
        expect(status).to_be_focused()
        in_view(page, status)
        in_view(page, status.get_by_role("button", name="Undo"))
        deal = page.locator(".next .deal")
        expect(deal).to_contain_text(f"deals hand {number + 1}")
        in_view(page, deal)
        in_view(page, deal.locator(".sits-out"))
        in_view(page, page.get_by_role("link", name="Record hand"))
        # The saved row is marked where it is, down in the grid.
        expect(page.locator("tr.saved")).to_have_count(1)
        expect(page.locator(f"#hand-{number}")).to_have_class("scores saved")
        assert page.evaluate(NOT_RELOADED) == [1, "no page load"]
    assert totals_on_page(page) == {
        s["player"]: s["total"]
        for s in api(base_url, "GET", f"/api/sessions/{session_id}")["standings"]
    }
    assert [(h["picker"], h["result"]) for h in hands_of_api(base_url, session_id)] == [
        ("Bob", "won"),
        ("Dan", "won"),
    ]
    shot(page, f"sheet-saved-in-place-{width}x{height}")
    assert axe_violations(page) == []


def hands_of_api(base_url: str, session_id: int) -> list[dict[str, Any]]:
    return list(api(base_url, "GET", f"/api/sessions/{session_id}")["hands"])


@pytest.mark.parametrize("size", [(320, 568), (390, 844)])
@pytest.mark.browser_context_args(java_script_enabled=False)
def test_without_javascript_save_lands_with_the_next_hand_in_view(
    page: Page, base_url: str, shot: Shot, size: tuple[int, int]
) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    session_id = session_with_hands(base_url, f"No script {width}")
    page.goto(f"/sessions/{session_id}")
    page.get_by_role("link", name="Record hand").tap()
    expect(page).to_have_url(f"{base_url}/sessions/{session_id}/hands/new")
    chip(page, "Picker", "Dan").tap()
    chip(page, "Partner", "Eve").tap()
    chip(page, "Result", "Won").tap()
    page.get_by_role("button", name="Save hand").tap()
    expect(page).to_have_url(f"{base_url}/sessions/{session_id}?saved=4")
    status = page.get_by_role("status").filter(has_text="Hand 4 saved.")
    in_view(page, status)
    in_view(page, status.get_by_role("button", name="Undo"))
    in_view(page, page.locator(".next .deal"))
    in_view(page, page.get_by_role("link", name="Record hand"))
    expect(page.locator("#hand-4")).to_have_class("scores saved")
    shot(page, f"sheet-saved-no-script-{width}x{height}")


def test_back_and_cancel_return_to_the_sheet_in_place(
    page: Page, base_url: str, shot: Shot
) -> None:
    session_id = session_with_hands(base_url, "Back to the sheet")
    open_sheet(page, session_id)
    sheet_url = page.url
    page.get_by_role("link", name="Record hand").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 4")
    chip(page, "Picker", "Dan").tap()
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text("Back to the sheet")
    assert page.url == sheet_url
    expect(page.get_by_role("link", name="Record hand")).to_be_focused()

    # Opened again, it is as it was left; Cancel leaves it too, and is drawn above the Save bar.
    page.get_by_role("link", name="Record hand").tap()
    expect(chip(page, "Picker", "Dan")).to_be_checked()
    at_widths(page, "record-hand-in-place", shot)
    for width, height in ((320, 568), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert drawn_at_its_centre(page, "Cancel"), (width, height)
    page.get_by_role("link", name="Cancel").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Back to the sheet")
    assert page.url == sheet_url
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]
    assert len(hands_of(base_url, session_id)) == 3


def test_an_edit_in_place_saves_and_says_so(page: Page, base_url: str, shot: Shot) -> None:
    session_id = session_with_hands(base_url, "Edit in place")
    open_sheet(page, session_id)
    page.get_by_role("link", name="Edit hand 2").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit hand 2")
    page.get_by_label("Picking team points").fill("")
    page.get_by_label("Picking team points").fill("45")
    expect(page.locator("#preview")).not_to_be_empty()
    shot(page, "edit-in-place")
    page.get_by_role("button", name="Save hand").tap()
    status = page.get_by_role("status").filter(has_text="Hand 2 saved.")
    expect(status).to_be_focused()
    expect(page.locator("#hand-2")).to_have_class("scores saved")
    assert hands_of(base_url, session_id)[1] == (2, "Bob", "Cat", 45)
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]

    # With no network, an edit says it needs one rather than leaving the page.
    page.context.set_offline(True)
    page.get_by_role("link", name="Edit hand 3").tap()
    expect(page.get_by_role("status").first).to_have_text(
        "Editing a hand needs the network: try again when it is back."
    )
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]


def test_undo_takes_back_a_hand_kept_offline(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Taken back")
    open_sheet(page, session_id)
    page.context.set_offline(True)
    page.get_by_role("link", name="Record hand").tap()
    fill(page, "Dan", "Eve", 75)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".deal")).to_have_text("Eve deals hand 5")
    status = page.locator("main > .saved-status")
    status.get_by_role("button", name="Undo").tap()
    expect(status).to_have_text("Hand 4 taken back: it was never sent.")
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(outbox(page)).to_be_empty()

    # The next hand is hand 4 again, and nothing is sent once the network is back.
    page.get_by_role("link", name="Record hand").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 4")
    page.go_back()
    page.context.set_offline(False)
    assert page.evaluate(UNSENT) == []
    assert len(hands_of(base_url, session_id)) == 3


def test_a_hand_refused_in_place_says_why_and_saves_once_mended(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Refused in place")
    open_sheet(page, session_id)
    page.get_by_role("link", name="Record hand").tap()
    chip(page, "Picker", "Dan").tap()
    chip(page, "Partner", "Eve").tap()
    chip(page, "Result", "Lost").tap()
    page.get_by_label("Picking team points").fill("75")
    page.get_by_role("button", name="Save hand").tap()
    # The server's sentence, in the form still open in place, with what was typed.
    sentence = "The picking team's 75 points mean won, not lost (31 to 60 points)."
    expect(page.locator(".hand-form .error").first).to_have_text(sentence)
    expect(page.get_by_label("Picking team points")).to_have_value("75")
    assert len(hands_of(base_url, session_id)) == 3

    chip(page, "Result", "Won").tap()
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 4 saved.")).to_be_focused()
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 75)]
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]

    # Recorded on another phone meanwhile: asked about in place, saved as the next hand.
    page.get_by_role("link", name="Record hand").tap()
    fill(page, "Eve", "Ann", 40)
    api(base_url, "POST", f"/api/sessions/{session_id}/hands",
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 80})  # fmt: skip
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("alert")).to_contain_text("save it as hand 6")
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 6 saved.")).to_be_focused()
    assert hands_of(base_url, session_id)[3:] == [
        (4, "Dan", "Eve", 75),
        (5, "Ann", "Bob", 80),
        (6, "Eve", "Ann", 40),
    ]
    assert page.evaluate(NOT_RELOADED) == [1, "no page load"]


def test_a_form_kept_before_a_hand_was_undone_opens_for_the_hand_undone(
    page: Page, base_url: str
) -> None:
    session_id = session_with_hands(base_url, "Kept, then undone")
    open_sheet(page, session_id)  # keeps the form for hand 4
    api(base_url, "DELETE", f"/api/sessions/{session_id}/hands/3")
    # Opened again with the form's page not answering: the kept form serves, moved back a hand.
    page.route("**/hands/new", lambda route: route.abort("internetdisconnected")
               if route.request.method == "GET" else route.fallback())  # fmt: skip
    page.reload()
    page.get_by_role("link", name="Record hand").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 3")
    expect(page.locator(".form-head .muted")).to_have_text(
        "Cat dealt · Dan → Eve → Ann → Bob → Cat"
    )
    fill(page, "Dan", "Eve", 75)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 3 saved.")).to_be_focused()
    assert hands_of(base_url, session_id)[2:] == [(3, "Dan", "Eve", 75)]
