"""No network at the table, in Chromium: hands saved offline wait on the phone and arrive once,
in order, when the network returns; a session opened once opens with no network; a hand another
phone recorded meanwhile is shown and asked about, never dropped."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, Route, expect

from ..helpers.browser import (
    Shot,
    api,
    at_widths,
    axe_violations,
    fill,
    hands_of,
    outbox,
    session_with_hands,
)
from ..helpers.offline import (
    NOT_SENT,
    a_session_opened_once_opens_with_no_network,
    hands_saved_offline_arrive_once_in_order,
)

# These phones run the service worker, which the other browser tests block.
pytestmark = pytest.mark.browser_context_args(service_workers="allow")


def test_hands_saved_offline_arrive_once_in_order(page: Page, base_url: str, shot: Shot) -> None:
    hands_saved_offline_arrive_once_in_order(page, base_url, shot, "offline")


def test_a_hand_whose_reply_was_lost_arrives_once(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Lost reply")
    page.goto(f"/sessions/{session_id}/hands/new")
    fill(page, "Dan", "Eve", 61)

    def lose_the_reply(route: Route) -> None:
        route.fetch(max_redirects=0)  # the server saves the hand...
        route.abort("internetdisconnected")  # ...and the phone never hears of it

    page.route("**/hands/new", lose_the_reply, times=1)
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).locator("li")).to_have_text(["Hand 4 · Dan & Eve, won · not sent yet"])
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 61)]

    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 4 sent.")
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 61)]


def test_a_hand_the_server_was_too_busy_for_is_sent_again(page: Page, base_url: str) -> None:
    """A 503 (the server busy saving a restore or an import, with Retry-After) refuses nothing:
    the hand waits on the phone as with no network, whether it was the Save or a later send that
    found the server busy, and arrives once when the server takes it."""
    session_id = session_with_hands(base_url, "Busy server")
    page.goto(f"/sessions/{session_id}/hands/new")
    fill(page, "Dan", "Eve", 61)

    def busy(route: Route) -> None:
        route.fulfill(status=503, headers={"Retry-After": "2"}, body="Busy")

    page.route("**/hands/new", busy, times=2)
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).locator("li")).to_have_text(["Hand 4 · Dan & Eve, won · not sent yet"])
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 5")

    page.evaluate("window.dispatchEvent(new Event('online'))")  # busy again
    page.wait_for_timeout(300)
    expect(outbox(page).locator("li")).to_have_text(["Hand 4 · Dan & Eve, won · not sent yet"])
    assert hands_of(base_url, session_id)[3:] == []

    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 4 sent.")
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 61)]


def test_a_double_tap_offline_keeps_one_hand(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Double tap offline")
    page.goto(f"/sessions/{session_id}/hands/new")
    page.context.set_offline(True)
    fill(page, "Cat", "Ann", 91)
    page.get_by_role("button", name="Save hand").dblclick()
    expect(outbox(page).locator("li")).to_have_text(
        ["Hand 4 · Cat & Ann, won schneider · not sent yet"]
    )
    page.wait_for_timeout(300)
    expect(outbox(page).locator("li")).to_have_count(1)
    # A tap on the form as it opened for the next hand keeps nothing.
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 5")
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_timeout(300)
    expect(outbox(page).locator("li")).to_have_count(1)

    page.context.set_offline(False)
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 4 sent.")
    assert hands_of(base_url, session_id)[3:] == [(4, "Cat", "Ann", 91)]


def test_a_session_opened_once_opens_with_no_network(page: Page, base_url: str, shot: Shot) -> None:
    a_session_opened_once_opens_with_no_network(page, base_url, shot, "offline")


def test_a_hand_another_phone_recorded_meanwhile_is_shown_and_asked_about(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], base_url: str, shot: Shot
) -> None:
    session_id = session_with_hands(base_url, "Two phones offline")
    page.goto(f"/sessions/{session_id}/hands/new")
    page.context.set_offline(True)
    fill(page, "Dan", "Eve", 75)
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).locator("li")).to_have_count(1)

    other = browser.new_context(**browser_context_args).new_page()
    other.goto(f"{base_url}/sessions/{session_id}/hands/new")
    fill(other, "Eve", "Ann", 40)
    other.get_by_role("button", name="Save hand").tap()
    expect(other.get_by_text("Hand 4 saved.")).to_be_visible()
    other.context.close()

    page.context.set_offline(False)
    page.goto(f"/sessions/{session_id}")
    pending = outbox(page).locator("li")
    expect(pending).to_contain_text(
        "Hand 4 · Dan & Eve, won · Not sent: another phone recorded hand 4"
    )
    expect(outbox(page).get_by_role("status")).to_have_text(NOT_SENT)
    at_widths(page, "offline-conflict", shot)
    assert hands_of(base_url, session_id)[3:] == [(4, "Eve", "Ann", 40)]

    pending.get_by_role("button", name="Review").tap()
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("Hand 4 was recorded on another phone meanwhile: Eve & Ann, 40")
    expect(notice).to_contain_text("save it as hand 5")
    expect(page.get_by_label("Picking team points")).to_have_value("75")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_text("Hand 5 saved.")).to_be_visible()
    expect(outbox(page)).to_be_empty()
    assert hands_of(base_url, session_id)[3:] == [(4, "Eve", "Ann", 40), (5, "Dan", "Eve", 75)]


def test_a_pending_hand_can_be_discarded_after_asking(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Discard")
    page.goto(f"/sessions/{session_id}/hands/new")
    page.context.set_offline(True)
    fill(page, "Dan", "Eve", 75)
    page.get_by_role("button", name="Save hand").tap()
    # Kept on the phone before the network comes back.
    expect(outbox(page).locator("li")).to_have_count(1)
    api(base_url, "POST", f"/api/sessions/{session_id}/hands",
        {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 80})  # fmt: skip
    page.context.set_offline(False)
    page.goto(f"/sessions/{session_id}")
    pending = outbox(page).locator("li")
    expect(pending).to_contain_text("Not sent: another phone recorded hand 4")

    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if len(asked) == 2:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    discard = pending.get_by_role("button", name="Discard")
    discard.tap()
    # The tap returns once the dialog is answered; dismissed, it leaves the hand as it was.
    assert len(asked) == 1
    expect(pending).to_have_count(1)
    discard.tap()
    expect(outbox(page)).to_be_empty()
    assert asked == ["Discard hand 4 (Dan & Eve, won)? It was never sent, so it will be lost."] * 2
    assert hands_of(base_url, session_id)[3:] == [(4, "Bob", "Cat", 80)]
