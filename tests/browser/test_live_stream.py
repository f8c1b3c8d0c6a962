"""Live updates in Chromium through gunicorn as `make run` serves it (2 gevent workers): a hand
recorded on one phone shows on the other within 2 seconds through the session's stream, with no
poll; when the server restarts the stream drops, the page asks every 2 s meanwhile and takes the
stream again once the server is back; with no network the page keeps what it shows, and when the
network returns the hand recorded meanwhile shows and the stream speaks again. (Through Caddy
over https: `test_https.py`.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from ..faults.server import FaultServer
from ..helpers.browser import PHONE_CONTEXT, api, chip, session_with_hands

LIVE_WITHIN_S = 2.5
LIVE_HANDS = (("Cat", "Dan", 75), ("Dan", "Eve", 40), ("Eve", "Ann", 90))
MARK = """() => {
    document.addEventListener("live:updated", () => { window.liveAt = Date.now(); });
}"""
# The page's looks at its session's API: asked, and failed for want of an answer.
COUNT_LOOKS = """(() => {
    window.looks = {asked: 0, failed: 0};
    const fetch = window.fetch;
    window.fetch = (resource, ...rest) => {
        if (!String(resource).includes("/api/sessions/")) return fetch(resource, ...rest);
        window.looks.asked += 1;
        return fetch(resource, ...rest).catch((failure) => {
            window.looks.failed += 1;
            throw failure;
        });
    };
})()"""
# How long a stream takes to drop and to be heard again, with time to spare on a busy machine.
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FaultServer]:
    folder = tmp_path_factory.mktemp("live-stream")
    server = FaultServer(f"sqlite:///{folder / 'scorekeeper.sqlite3'}", log=folder / "gunicorn.log")
    server.log.touch()
    server.fresh_schema()
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="module")
def base_url(served: FaultServer) -> str:
    return f"http://127.0.0.1:{served.port}"


@pytest.fixture(scope="module")
def browser_context_args(base_url: str) -> dict[str, Any]:
    return {**PHONE_CONTEXT, "base_url": base_url, "service_workers": "block"}


@pytest.fixture
def other_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def looks(page: Page, session_id: int) -> list[Response]:
    """Every answer the page gets from its session's API, as it comes."""
    seen: list[Response] = []
    path = f"/api/sessions/{session_id}"
    page.on("response", lambda response: response.url.endswith(path) and seen.append(response))
    return seen


def hears_by(page: Page, how: str) -> None:
    expect(page.locator(f"[data-live-by={how}]")).to_be_attached(timeout=WAIT_MS)


def record(base_url: str, session_id: int, picker: str, partner: str, points: int) -> None:
    hand = {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}
    api(base_url, "POST", f"/api/sessions/{session_id}/hands", hand)


def test_a_hand_saved_on_one_phone_shows_on_the_other_through_the_stream(
    page: Page, other_phone: Page, base_url: str
) -> None:
    session_id = session_with_hands(base_url, "Streamed through gunicorn", LIVE_HANDS)
    seen = looks(page, session_id)
    page.goto(f"/sessions/{session_id}")
    hears_by(page, "stream")
    page.evaluate(MARK)

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
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded on another phone.")
    # The stream's news, then one look at the API: no poll every 2 s.
    assert [response.status for response in seen] == [200]
    assert page.locator("[data-live-by=stream]").count() == 1


def test_the_page_falls_back_to_polls_while_the_server_restarts_and_takes_the_stream_again(
    page: Page, base_url: str, served: FaultServer
) -> None:
    session_id = session_with_hands(base_url, "Server restarted", LIVE_HANDS)
    page.add_init_script(COUNT_LOOKS)
    page.goto(f"/sessions/{session_id}")
    hears_by(page, "stream")

    served.restart(same_port=True)
    # The stream ended with the server; until the page hears it again it asks every 2 s.
    page.wait_for_function("() => window.looks.asked >= 1", timeout=WAIT_MS)
    hears_by(page, "stream")

    page.evaluate(MARK)
    began = time.time()
    record(base_url, session_id, "Ann", "Bob", 61)
    expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    delay = page.evaluate("window.liveAt") / 1000 - began
    print(f"hand shown after the restart after {delay:.2f} s")
    assert delay < LIVE_WITHIN_S
    expect(page.locator(".live-news")).to_have_text("Hand 4 recorded on another phone.")


def test_with_no_network_the_page_keeps_what_it_shows_then_catches_up(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    session_id = session_with_hands(base_url, "Offline with a stream", LIVE_HANDS)
    page.add_init_script(COUNT_LOOKS)
    page.goto(f"/sessions/{session_id}")
    hears_by(page, "stream")

    page.context.set_offline(True)
    record(base_url, session_id, "Ann", "Bob", 61)
    # Told of the hand (a stream open before stays open in Chromium's offline), or asking
    # every 2 s: either way a look that fails, and the page as it was.
    page.wait_for_function("() => window.looks.failed >= 1", timeout=WAIT_MS)
    expect(page.locator(".deal")).to_have_text("Dan deals hand 4")
    expect(page.locator("#hand-4")).to_have_count(0)

    page.context.set_offline(False)
    expect(page.locator("#hand-4")).to_be_attached(timeout=WAIT_MS)
    expect(page.locator(".deal")).to_have_text("Eve deals hand 5")
    hears_by(page, "stream")
