"""No network at the table, as the browser tests drive it over http and, through Caddy, over
https: hands saved offline arrive once, in order; a session opened once opens with no network."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .browser import UNSENT, Shot, at_widths, fill, hands_of, outbox, session_with_hands

NOT_SENT = "Saved on this phone, not sent yet"
# True once the worker has taken the page and kept it, and the page has kept its record form
# (the caches read anew on each try).
READY_OFFLINE = """form => {
    Promise.all([caches.match(location.pathname), window.idbKeyval.get(form)])
        .then((kept) => { window.readyOffline = kept.every(Boolean); });
    return navigator.serviceWorker.controller !== null && window.readyOffline;
}"""


def hands_saved_offline_arrive_once_in_order(
    page: Page, base_url: str, shot: Shot, shots: str
) -> None:
    """Hands saved with no network wait on the phone, the form ready for the next hand, and
    arrive once, in order, when the network returns. `shots` names the screenshots."""
    session_id = session_with_hands(base_url, "Basement")
    page.goto(f"/sessions/{session_id}/hands/new")
    page.context.set_offline(True)

    fill(page, "Dan", "Eve", 75)
    expect(page.locator("#preview")).to_have_text(
        "No preview offline: the hand is scored when it is sent."
    )
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).get_by_role("status")).to_have_text(NOT_SENT)
    expect(outbox(page).locator("li")).to_have_text(["Hand 4 · Dan & Eve, won · not sent yet"])
    # The form is ready for the next hand, dealt by the next seat.
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 5")
    expect(page.locator(".form-head .muted")).to_have_text(
        "Eve dealt · Ann → Bob → Cat → Dan → Eve"
    )
    expect(page.get_by_label("Picking team points")).to_have_value("")

    fill(page, "Ann", "Alone", 25)
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).locator("li")).to_have_text(
        [
            "Hand 4 · Dan & Eve, won · not sent yet",
            "Hand 5 · Ann alone, lost schneider · not sent yet",
        ]
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 6")
    at_widths(page, f"{shots}-record-hand", shot)
    assert len(hands_of(base_url, session_id)) == 3

    page.context.set_offline(False)
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 5 sent.")
    expect(outbox(page).locator("li")).to_have_count(0)
    # The save bar no longer says what it said offline.
    expect(page.locator("#preview")).not_to_have_text(
        "No preview offline: the hand is scored when it is sent."
    )
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 75), (5, "Ann", None, 25)]

    # Nothing is sent twice: not on a reload, not on the scoresheet, for nothing is left to send.
    page.goto(f"/sessions/{session_id}")
    assert page.evaluate(UNSENT) == []
    expect(outbox(page)).to_be_empty()
    assert len(hands_of(base_url, session_id)) == 5


def a_session_opened_once_opens_with_no_network(
    page: Page, base_url: str, shot: Shot, shots: str
) -> None:
    """The service worker keeps a session's scoresheet and record form as they open: with no
    network both open again, a hand is saved on the phone, and it arrives when the network
    returns. `shots` names the screenshots."""
    session_id = session_with_hands(base_url, "No network")
    page.goto(f"/sessions/{session_id}")
    # The worker has taken the page, and kept its record form.
    page.wait_for_function(READY_OFFLINE, arg=f"form {session_id}")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("No network")
    assert page.evaluate("performance.getEntriesByType('navigation')[0].workerStart") > 0

    # The record form was kept too: a hand is typed and saved with no network at all.
    page.get_by_role("link", name="Record hand").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hand 4")
    fill(page, "Dan", "Eve", 75)
    page.get_by_role("button", name="Save hand").tap()
    expect(outbox(page).locator("li")).to_have_count(1)
    page.goto(f"/sessions/{session_id}")
    expect(outbox(page).get_by_role("status")).to_have_text(NOT_SENT)
    expect(outbox(page).locator("li")).to_have_text(["Hand 4 · Dan & Eve, won · not sent yet"])
    at_widths(page, f"{shots}-scoresheet", shot)

    page.context.set_offline(False)
    expect(outbox(page).get_by_role("status")).to_have_text("Hand 4 sent.")
    assert hands_of(base_url, session_id)[3:] == [(4, "Dan", "Eve", 75)]
