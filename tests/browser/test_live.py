"""Live updates in Chromium: a hand recorded on one phone shows on another phone's scoresheet
and on the table view within 2 seconds, with no reload, through the session's stream and with
no poll; a page without a stream asks every 2 s, pauses while it is hidden, and a poll that finds
nothing new leaves the page alone; a control in use is not swapped away. The table view is seen
at phone, tablet and TV size and checked with axe-core. (Through gunicorn and Caddy, and a
stream that drops: `test_live_stream.py`, `test_https.py`.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest
from playwright.sync_api import APIResponse, Browser, Page, Response, Route, expect

from ..helpers.browser import (
    Shot,
    api,
    axe_violations,
    chip,
    fill,
    form_kept,
    session_with_hands,
    totals_on_page,
)

# A poll every 2 s, then the page fetched again and swapped: the budget with time to spare.
LIVE_WITHIN_S = 2.5
# A mark that a reload would lose, and the time (ms since the epoch) of the last live update.
MARK = """() => {
    window.liveMark = "no reload";
    document.addEventListener("live:updated", () => { window.liveAt = Date.now(); });
}"""
LIVE_HANDS = (("Cat", "Dan", 75), ("Dan", "Eve", 40), ("Eve", "Ann", 90))
NOT_RELOADED = "[performance.getEntriesByType('navigation').length, window.liveMark]"
# The page's clock from a fixed time, standing still but when a test runs it on.
CLOCK_START = datetime(2026, 3, 6, 19, 30, tzinfo=UTC)
# The page's polls of its session's API, counted as it asks and as it has its answer (or none).
COUNT_POLLS = """(() => {
    window.polls = {asked: 0, answered: 0};
    const fetch = window.fetch;
    window.fetch = (resource, ...rest) => {
        if (!String(resource).includes("/api/sessions/")) return fetch(resource, ...rest);
        window.polls.asked += 1;
        return fetch(resource, ...rest).finally(() => { window.polls.answered += 1; });
    };
})()"""

# A browser without EventSource: the page asks every 2 s.
NO_STREAM = "delete window.EventSource"
Held = TypeVar("Held")
# Every text the news line takes, in order.
NEWS_SEEN = """() => {
    window.newsSeen = [];
    const news = document.querySelector(".live-news");
    new MutationObserver(() => window.newsSeen.push(news.textContent))
        .observe(news, {childList: true, characterData: true, subtree: true});
}"""


def record(base_url: str, session_id: int, picker: str, partner: str, points: int) -> None:
    hand = {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}
    api(base_url, "POST", f"/api/sessions/{session_id}/hands", hand)


def api_totals(base_url: str, session_id: int) -> dict[str, int]:
    return {
        s["player"]: s["total"]
        for s in api(base_url, "GET", f"/api/sessions/{session_id}")["standings"]
    }


def table_totals(page: Page) -> list[tuple[str, str, int]]:
    rows = page.locator(".tv-table tbody tr")
    return [
        (
            rows.nth(i).locator(".place").inner_text(),
            rows.nth(i).locator("th").inner_text(),
            int(rows.nth(i).locator(".total").inner_text()),
        )
        for i in range(rows.count())
    ]


def stop_the_clock(page: Page) -> None:
    """The next pages' timers fire only as the test runs their clock on, so a poll comes when
    the test says, however slow the machine; the pages count their polls (COUNT_POLLS). They
    have no stream, as in a browser without EventSource or behind a proxy that holds it back,
    so they ask every 2 s."""
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + timedelta(minutes=1))
    page.add_init_script(NO_STREAM)
    page.add_init_script(COUNT_POLLS)


def next_poll(page: Page, answered: int) -> None:
    """Run the clock on 2 s, to the page's next poll, and wait until the page has done with its
    answer, the `answered`th."""
    page.clock.run_for(2000)
    page.wait_for_function("answered => window.polls.answered >= answered", arg=answered)


def polls(page: Page, session_id: int) -> list[Response]:
    """Every answer the page gets from its session's API, as it comes."""
    seen: list[Response] = []
    path = f"/api/sessions/{session_id}"
    page.on("response", lambda response: response.url.endswith(path) and seen.append(response))
    return seen


@pytest.fixture
def other_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def test_a_hand_recorded_on_another_phone_shows_within_2_seconds(
    page: Page, other_phone: Page, base_url: str, shot: Shot
) -> None:
    session_id = session_with_hands(base_url, "Two phones live", LIVE_HANDS)
    page.goto(f"/sessions/{session_id}")
    page.evaluate(MARK)
    page.evaluate("window.scrollTo(0, 300)")
    totals_at = "document.getElementById('sheet-totals').getBoundingClientRect().top"
    in_sight = page.evaluate(totals_at)
    assert page.evaluate("window.scrollY") == 300

    other_phone.goto(f"{base_url}/sessions/{session_id}/hands/new")
    chip(other_phone, "Picker", "Ann").tap()
    chip(other_phone, "Partner", "Bob").tap()
    other_phone.get_by_label("Picking team points").fill("61")
    began = time.time()
    other_phone.get_by_role("button", name="Save hand").tap()
    expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    delay = page.evaluate("window.liveAt") / 1000 - began
    print(f"hand shown on the other phone after {delay:.2f} s")
    assert delay < LIVE_WITHIN_S

    assert totals_on_page(page) == api_totals(base_url, session_id)
    expect(page.locator("#sheet-progress")).to_contain_text("4 hands played")
    expect(page.locator(".deal")).to_have_text("Eve deals hand 5")
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded on another phone.")
    expect(page.locator("input[name=number]")).to_have_value("4")  # Undo now takes hand 4
    assert page.evaluate(NOT_RELOADED) == [1, "no reload"]
    # What was in sight stays where it was, though the news line was added above it.
    assert abs(page.evaluate(totals_at) - in_sight) <= 1  # scrolling lands on whole pixels
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "scoresheet-live-update", full_page=True)
    assert axe_violations(page) == []


def test_a_hand_shows_through_the_stream_with_no_poll(page: Page, base_url: str) -> None:
    """The page hears of the hand from its session's stream and asks the API once, then: no
    poll every 2 s while the stream speaks (the clock runs on 10 s, no poll comes)."""
    session_id = session_with_hands(base_url, "Streamed", LIVE_HANDS)
    seen = polls(page, session_id)
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + timedelta(minutes=1))
    page.goto(f"/sessions/{session_id}")
    expect(page.locator("[data-live-by=stream]")).to_be_attached()
    page.clock.run_for(10_000)
    assert seen == []

    record(base_url, session_id, "Ann", "Bob", 75)
    expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded on another phone.")
    assert [response.status for response in seen] == [200]
    page.clock.run_for(10_000)
    assert len(seen) == 1


def test_the_table_view_shows_each_new_hand_with_the_api_totals(
    page: Page, base_url: str, shot: Shot
) -> None:
    session_id = session_with_hands(base_url, "Friday at Dan's", LIVE_HANDS)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/sessions/{session_id}/table")
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday at Dan's")
    page.evaluate(MARK)
    before = table_totals(page)

    began = time.time()
    record(base_url, session_id, "Ann", "Bob", 30)
    expect(page.locator("#tv-last h2")).to_have_text("Hand 4", timeout=5000)
    delay = page.evaluate("window.liveAt") / 1000 - began
    print(f"hand shown on the table view after {delay:.2f} s")
    assert delay < LIVE_WITHIN_S

    standings = api(base_url, "GET", f"/api/sessions/{session_id}")["standings"]
    after = table_totals(page)
    assert after == [(str(s["place"]), s["player"], s["total"]) for s in standings]
    assert after != before
    expect(page.locator("#tv-last .summary")).to_have_text("Ann & Bob, 30")
    expect(page.locator(".tv-deal")).to_have_text("Eve deals hand 5")
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded on another phone.")
    assert page.evaluate(NOT_RELOADED) == [1, "no reload"]

    for name, size in (
        ("tv", {"width": 1920, "height": 1080}),
        ("768", {"width": 768, "height": 1024}),
        ("768-landscape", {"width": 1024, "height": 768}),
        ("390", {"width": 390, "height": 844}),
        ("320", {"width": 320, "height": 640}),
    ):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
        # Every player's name and total in sight without scrolling, on a TV and a tablet.
        if name != "390" and name != "320":
            last_row = page.locator(".tv-table tbody tr").last.bounding_box()
            assert last_row is not None and last_row["y"] + last_row["height"] <= size["height"]
        shot(page, f"table-view-{name}", full_page=True)
        assert axe_violations(page) == []


def test_the_table_view_in_dark_mode_is_axe_clean(page: Page, base_url: str, shot: Shot) -> None:
    session_id = session_with_hands(base_url, "Dark room", LIVE_HANDS)
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/sessions/{session_id}/table")
    shot(page, "table-view-tv-dark")
    assert axe_violations(page) == []


def hide(page: Page, hidden: bool) -> None:
    page.evaluate(
        """hidden => {
            Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
            Object.defineProperty(document, "visibilityState", {configurable: true,
                get: () => hidden ? "hidden" : "visible"});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_polling_pauses_while_the_page_is_hidden(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Hidden", LIVE_HANDS)
    seen = polls(page, session_id)
    stop_the_clock(page)
    page.goto(f"/sessions/{session_id}/table")
    next_poll(page, 1)
    assert [response.status for response in seen] == [304]

    hide(page, True)
    asked = len(seen)
    record(base_url, session_id, "Ann", "Bob", 75)
    page.clock.run_for(4500)
    assert page.evaluate("window.polls.asked") == asked
    assert len(seen) == asked
    expect(page.locator("#tv-last h2")).to_have_text("Hand 3")

    # Seen again: it asks at once, not on the next tick (the clock stands still).
    hide(page, False)
    expect(page.locator("#tv-last h2")).to_have_text("Hand 4")
    assert seen[asked].status == 200


def test_a_poll_that_finds_nothing_new_leaves_the_page_alone(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Nothing new", LIVE_HANDS)
    seen = polls(page, session_id)
    stop_the_clock(page)
    page.goto(f"/sessions/{session_id}")
    # The page's own start is done: the kept forms' section, made once their store is read.
    expect(page.locator("#outbox-forms")).to_be_attached()
    page.evaluate(
        """() => {
            window.changes = 0;
            window.updates = 0;
            new MutationObserver(records => { window.changes += records.length; })
                .observe(document.body, {subtree: true, childList: true, attributes: true,
                                         characterData: true});
            document.addEventListener("live:updated", () => { window.updates += 1; });
        }"""
    )
    next_poll(page, 1)
    next_poll(page, 2)
    assert [response.status for response in seen] == [304, 304]
    assert [response.request.sizes()["responseBodySize"] for response in seen] == [0, 0]
    assert page.evaluate("[window.changes, window.updates]") == [0, 0]

    record(base_url, session_id, "Ann", "Bob", 75)
    page.clock.run_for(2000)
    expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    assert page.evaluate("window.updates") == 1


def test_a_control_in_use_is_not_swapped_away(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "In use", LIVE_HANDS)
    page.goto(f"/sessions/{session_id}")
    undo = page.get_by_role("button", name="Undo last hand")
    undo.focus()
    record(base_url, session_id, "Ann", "Bob", 75)
    expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    expect(page.locator("table.standings")).to_contain_text(
        str(api_totals(base_url, session_id)["Ann"])
    )
    # The focused Undo keeps its region as it was (it still names hand 3) while in use...
    expect(undo).to_be_focused()
    expect(page.locator("input[name=number]")).to_have_value("3")
    # ...and takes the new one as soon as it is left.
    page.locator("h1").click()
    expect(page.locator("input[name=number]")).to_have_value("4")
    expect(page.locator(".deal")).to_have_text("Eve deals hand 5")


def test_offline_polls_keep_the_page_and_a_refresh_asks_at_once(page: Page, base_url: str) -> None:
    session_id = session_with_hands(base_url, "Offline", LIVE_HANDS)
    stop_the_clock(page)
    page.goto(f"/sessions/{session_id}")
    page.context.set_offline(True)
    record(base_url, session_id, "Ann", "Bob", 75)
    next_poll(page, 1)
    expect(page.locator("#hand-4")).to_have_count(0)
    expect(page.locator(".deal")).to_have_text("Dan deals hand 4")

    # Asked at once, not on the next tick (the clock stands still).
    page.context.set_offline(False)
    page.evaluate("document.dispatchEvent(new CustomEvent('live:refresh'))")
    expect(page.locator("#hand-4")).to_be_attached()
    # Asked for by this phone (its outbox sent a hand), so not told as another phone's.
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded.")


def held(page: Page, routes: list[Held]) -> Held:
    """The first request `routes` holds, once Playwright has handed it over (within 5 s)."""
    deadline = time.monotonic() + 5
    while not routes and time.monotonic() < deadline:
        page.wait_for_timeout(10)
    assert routes, "no request was held"
    return routes[0]


def test_a_poll_asked_before_this_phone_saved_finds_its_own_hand_no_news(
    page: Page, base_url: str
) -> None:
    session_id = session_with_hands(base_url, "Own save, late poll", LIVE_HANDS)
    api_path = f"/api/sessions/{session_id}"
    polls_held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if polls_held:
            route.continue_()
        else:
            polls_held.append(route)

    # Without a stream, the page's poll is on its way every 2 s.
    page.add_init_script(NO_STREAM)
    page.route(f"**{api_path}", hold_the_first)
    page.goto(f"/sessions/{session_id}")
    page.evaluate(NEWS_SEEN)
    form_kept(page, session_id)
    # The page's poll is on its way with the version before the save; it reaches the server
    # once the phone has saved hand 4 and shows it.
    poll = held(page, polls_held)
    page.get_by_role("link", name="Record hand").tap()
    fill(page, "Ann", "Bob", 61)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("main > .saved-status")).to_contain_text("Hand 4 saved.")
    expect(page.locator("#hand-4")).to_be_attached()
    with page.expect_response(lambda response: response.url.endswith(api_path)) as answer:
        poll.continue_()
    assert answer.value.status == 200  # it finds the version this phone's save made

    # Another phone's hand, told once the poll is done: this phone's own was never news.
    record(base_url, session_id, "Cat", "Dan", 75)
    news = page.locator(".live-news")
    expect(news).to_have_text("Hand 5 recorded on another phone.", timeout=5000)
    assert page.evaluate("window.newsSeen") == ["Hand 5 recorded on another phone."]


def test_a_poll_answered_before_this_phones_save_was_is_not_told_as_another_phones(
    page: Page, base_url: str
) -> None:
    session_id = session_with_hands(base_url, "Own save, early poll", LIVE_HANDS)
    api_path = f"/api/sessions/{session_id}"
    saves_held: list[tuple[Route, APIResponse]] = []

    def write_then_hold(route: Route) -> None:
        if route.request.method == "POST":
            saves_held.append((route, route.fetch(max_redirects=0)))
        else:
            route.continue_()

    page.route(f"**/sessions/{session_id}/hands/new", write_then_hold)
    page.goto(f"/sessions/{session_id}")
    page.evaluate(NEWS_SEEN)
    form_kept(page, session_id)
    page.get_by_role("link", name="Record hand").tap()
    fill(page, "Ann", "Bob", 61)
    # Hand 4 is written, its answer held: a poll finds the new version before the phone has it.
    with page.expect_response(
        lambda response: response.url.endswith(api_path) and response.status == 200,
        timeout=5000,
    ):
        page.get_by_role("button", name="Save hand").tap()
    route, written = held(page, saves_held)
    route.fulfill(response=written)
    expect(page.locator("main > .saved-status")).to_contain_text("Hand 4 saved.")
    expect(page.locator("#hand-4")).to_be_attached()

    record(base_url, session_id, "Cat", "Dan", 75)
    news = page.locator(".live-news")
    expect(news).to_have_text("Hand 5 recorded on another phone.", timeout=5000)
    assert page.evaluate("window.newsSeen") == ["Hand 5 recorded on another phone."]


def test_a_hand_kept_offline_and_sent_is_not_told_as_another_phones(
    page: Page, base_url: str
) -> None:
    session_id = session_with_hands(base_url, "Own hand sent late", LIVE_HANDS)
    api_path = f"/api/sessions/{session_id}"
    sends_held: list[tuple[Route, APIResponse]] = []

    def write_then_hold(route: Route) -> None:
        if route.request.method == "POST":
            sends_held.append((route, route.fetch(max_redirects=0)))
        else:
            route.continue_()

    page.route(f"**/sessions/{session_id}/hands/new", write_then_hold)
    page.goto(f"/sessions/{session_id}")
    page.evaluate(NEWS_SEEN)
    form_kept(page, session_id)
    page.context.set_offline(True)
    page.get_by_role("link", name="Record hand").tap()
    fill(page, "Ann", "Bob", 61)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("main > .saved-status")).to_contain_text("not sent yet")
    # Back online the outbox sends hand 4, its answer held: a poll finds the new version first.
    with page.expect_response(
        lambda response: response.url.endswith(api_path) and response.status == 200,
        timeout=5000,
    ):
        page.context.set_offline(False)
    route, written = held(page, sends_held)
    route.fulfill(response=written)
    expect(page.locator("main > .saved-status")).to_have_text("Hand 4 saved.")
    expect(page.locator("#hand-4")).to_be_attached()

    record(base_url, session_id, "Cat", "Dan", 75)
    news = page.locator(".live-news")
    expect(news).to_have_text("Hand 5 recorded on another phone.", timeout=5000)
    assert page.evaluate("window.newsSeen") == ["Hand 5 recorded on another phone."]
