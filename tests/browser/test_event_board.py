"""A club event's board on the TV in Chromium: a hand recorded at a table shows on the board
within 2 seconds, with no reload; the board at phone, tablet and TV sizes, light and dark, with
nothing axe-core finds wrong; and the round's cards print one table a sheet."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from ..helpers.browser import Shot, api, axe_violations, event_drawn

LIVE_WITHIN_S = 2.5
MARK = """() => {
    window.liveMark = "no reload";
    document.addEventListener("live:updated", () => { window.liveAt = Date.now(); });
}"""
NOT_RELOADED = "[performance.getEntriesByType('navigation').length, window.liveMark]"
SIZES = {
    "320": {"width": 320, "height": 700},
    "390": {"width": 390, "height": 844},
    "768": {"width": 768, "height": 1024},
    "tv": {"width": 1920, "height": 1080},
}


def record(base_url: str, table: dict[str, object], points: int) -> None:
    seats = table["seats"]
    assert isinstance(seats, list)
    hand = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": points}
    api(base_url, "POST", f"/api/sessions/{table['session']}/hands", hand)


def test_the_board_shows_a_hand_recorded_at_a_table_within_2_seconds(
    page: Page, base_url: str, shot: Shot
) -> None:
    event = event_drawn(base_url, "Board night", hands=5, entry=1000, places=[50, 30])
    first, second = event["draws"][0]["tables"]
    page.set_viewport_size(SIZES["tv"])
    page.goto(f"/events/{event['id']}/board")
    expect(page.locator("#board-tables")).to_contain_text("Table 1 0/5 hands")
    # The board reads the event once as it opens; wait for it before a hand is recorded.
    page.wait_for_function("() => performance.getEntriesByType('resource').some("
                           "(r) => r.name.includes('/api/events/'))")  # fmt: skip
    page.evaluate(MARK)
    began = time.time()
    record(base_url, second, 75)
    expect(page.locator("#board-tables")).to_contain_text("Table 2 1/5 hands", timeout=5000)
    delay = page.evaluate("window.liveAt") / 1000 - began
    print(f"hand shown on the board after {delay:.2f} s")
    assert delay < LIVE_WITHIN_S
    assert page.evaluate(NOT_RELOADED) == [1, "no reload"]
    standings = api(base_url, "GET", f"/api/events/{event['id']}")["standings"]
    leader = page.locator("#board-standings tbody tr").first
    expect(leader.locator("th")).to_have_text(standings[0]["player"])
    expect(leader.locator(".total")).to_have_text(f"+{standings[0]['total']}")
    prize = standings[0]["prize"]
    expect(leader.locator(".prize")).to_have_text(f"${prize // 100}.{prize % 100:02d}")

    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shot(page, f"event-board-{size_name}", full_page=True)
        assert axe_violations(page) == []
    for _ in range(4):
        record(base_url, first, 61)
        record(base_url, second, 40)
    record(base_url, first, 95)
    expect(page.locator(".board-next")).to_have_text("Round 1 complete: draw round 2", timeout=5000)
    shot(page, "event-board-round-complete", full_page=True)


def test_the_board_in_dark_mode_is_axe_clean(page: Page, base_url: str, shot: Shot) -> None:
    event = event_drawn(base_url, "Dark board", hands=5)
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(SIZES["tv"])
    page.goto(f"/events/{event['id']}/board")
    shot(page, "event-board-tv-dark")
    assert axe_violations(page) == []


def test_the_round_s_cards_print_one_table_a_sheet(page: Page, base_url: str, shot: Shot) -> None:
    event = event_drawn(base_url, "Printed night", hands=5)
    page.goto(f"/events/{event['id']}/rounds/1")
    expect(page.locator(".table-card")).to_have_count(2)
    expect(page.locator(".table-card .qr")).to_have_count(2)
    page.emulate_media(media="print")
    breaks = page.locator(".table-card").evaluate_all(
        "cards => cards.map((card) => getComputedStyle(card).breakAfter)"
    )
    assert breaks == ["page", "auto"]
    expect(page.locator("header.bar")).to_be_hidden()
    shot(page, "event-round-print", full_page=True)
