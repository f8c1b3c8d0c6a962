"""Inviting a phone in Chromium, with access on: a signed-in phone opens "Invite a phone" and
makes a link; a second phone opens it, records a hand on that session and is refused anywhere
else. With access off, a viewer's phone only looks at its session until it signs out. The
invite sheet, the invited scoresheet and the table view's code at 320, 390 and 768 px, checked
with axe-core."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.threaded_server import serving

from ..helpers.browser import (
    WIDTHS,
    Shot,
    api,
    app_on_new_database,
    checked,
    chip,
    event_drawn,
    fill,
    save,
    session_with_hands,
)

PASSCODE = "Sheep-1234"


@pytest.fixture(scope="module")
def guarded_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scorekeeper, served on this computer alone, with two sessions of three hands, whose
    changes need the passcode."""
    with app_on_new_database(tmp_path_factory.mktemp("invites")) as app:
        app.config["LISTENS_ON_NETWORK"] = False
        with serving(app) as url:
            session_with_hands(url, "Invited")
            session_with_hands(url, "Elsewhere")
            result = app.test_cli_runner().invoke(
                args=["access", "set-passcode", "--role", "scorer", "--passcode", PASSCODE]
            )
            assert result.exit_code == 0, result.output
            yield url


def sign_in(page: Page, url: str, then: str) -> None:
    page.goto(f"{url}/sign-in?next={then}")
    page.get_by_label("Passcode").fill(PASSCODE)
    page.get_by_role("button", name="Sign in").tap()
    page.wait_for_url(f"{url}{then}")


def at_widths(page: Page, name: str, shot: Shot) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        checked(page, width)
        shot(page, f"{name}-{width}", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})


def test_an_invited_phone_records_on_its_session_alone(
    page: Page,
    browser: Browser,
    browser_context_args: dict[str, Any],
    guarded_url: str,
    shot: Shot,
) -> None:
    sign_in(page, guarded_url, "/sessions/1")
    page.get_by_text("Session", exact=True).tap()
    page.get_by_role("link", name="Invite a phone").tap()
    expect(page.get_by_role("heading", name="Invite a phone", level=1)).to_be_visible()
    chip(page, "The phone may", "As scorer").tap()
    page.get_by_label("For how many hours").fill("3")
    page.get_by_role("button", name="Make the invite").tap()
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    url = link.inner_text()
    assert url.startswith(f"{guarded_url}/invites/")
    expect(page.locator(".invite svg.qr")).to_be_visible()
    expect(page.get_by_role("button", name="Revoke", exact=True)).to_be_visible()
    at_widths(page, "invite-sheet", shot)

    phone = browser.new_context(**browser_context_args).new_page()
    phone.goto(url)
    phone.wait_for_url(f"{guarded_url}/sessions/1")
    phone.get_by_role("link", name="Record hand").tap()
    fill(phone, "Dan", "Eve", 61)
    save(phone)
    expect(phone.get_by_text("Hand 4 saved.")).to_be_visible()
    assert len(api(guarded_url, "GET", "/api/sessions/1")["hands"]) == 4

    elsewhere = phone.goto(f"{guarded_url}/sessions/2")
    assert elsewhere is not None and elsewhere.status == 403
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    new_session = phone.goto(f"{guarded_url}/sessions/new")
    assert new_session is not None and new_session.status == 403
    phone.context.close()


def test_the_table_view_shows_a_viewer_code(page: Page, guarded_url: str, shot: Shot) -> None:
    sign_in(page, guarded_url, "/sessions/1/table")
    code = page.locator(".tv-code")
    expect(code).to_be_visible()
    expect(code.locator("svg.qr")).to_be_visible()
    expect(code).to_contain_text("viewer")
    at_widths(page, "table-invite-code", shot)
    page.set_viewport_size({"width": 1280, "height": 720})
    shot(page, "table-invite-code-tv")


@pytest.fixture(scope="module")
def open_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scorekeeper with no passcode, served on this computer alone, with two sessions of
    three hands."""
    with app_on_new_database(tmp_path_factory.mktemp("open-invites")) as app:
        app.config["LISTENS_ON_NETWORK"] = False
        with serving(app) as url:
            session_with_hands(url, "Invited")
            session_with_hands(url, "Elsewhere")
            yield url


def test_with_access_off_an_invited_viewer_only_looks_until_it_signs_out(
    page: Page,
    browser: Browser,
    browser_context_args: dict[str, Any],
    open_url: str,
    shot: Shot,
) -> None:
    page.goto(f"{open_url}/sessions/1/invite")
    expect(page.get_by_text("anyone on this Wi-Fi can still open the scorekeeper")).to_be_visible()
    chip(page, "The phone may", "As viewer").tap()
    page.get_by_role("button", name="Make the invite").tap()
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    at_widths(page, "invite-sheet-access-off", shot)

    phone = browser.new_context(**browser_context_args).new_page()
    phone.goto(link.inner_text())
    phone.wait_for_url(f"{open_url}/sessions/1")
    expect(phone.get_by_role("heading", name="This phone")).to_be_visible()
    expect(phone.get_by_text("Invited to this session alone, as viewer")).to_be_visible()
    for name in ("Record hand", "Edit hand 1", "Delete hand 1", "Delete session", "Seats"):
        expect(phone.get_by_role("link", name=name)).to_have_count(0)
    expect(phone.get_by_text("Session", exact=True)).to_have_count(0)
    at_widths(phone, "invited-viewer-access-off", shot)
    elsewhere = phone.goto(f"{open_url}/sessions/2")
    assert elsewhere is not None and elsewhere.status == 403
    phone.get_by_role("link", name="Back to the session").tap()
    phone.get_by_role("button", name="Sign out").tap()
    expect(phone.get_by_text("Signed out.")).to_be_visible()
    again = phone.goto(f"{open_url}/sessions/2")
    assert again is not None and again.status == 200
    expect(phone.get_by_role("link", name="Record hand")).to_be_visible()

    # Revoked, an invite leaves its phone refused until it signs out.
    made = api(open_url, "POST", "/api/sessions/1/invites", {"role": "reader"})
    phone.goto(made["url"])
    phone.wait_for_url(f"{open_url}/sessions/1")
    api(open_url, "DELETE", f"/api/sessions/1/invites/{made['id']}")
    phone.goto(f"{open_url}/sessions/1")
    expect(phone.get_by_text("has expired or was revoked")).to_be_visible()
    expect(phone.get_by_role("link", name="Go on")).to_have_count(0)
    at_widths(phone, "sign-in-invite-ended-access-off", shot)
    phone.get_by_role("button", name="Sign out").tap()
    expect(phone.get_by_text("Signed out.")).to_be_visible()
    phone.context.close()


def clock_shape(time: str) -> str:
    """A time as the phone wrote it, its digits all 0, AM and PM alike: `Sun 03:10 PM` is
    `Sun 00:00 XM`."""
    return re.sub(r"[AP]M", "XM", re.sub(r"\d", "0", time))


@pytest.mark.parametrize(("locale", "twelve_hours"), [("en-US", True), ("de-DE", False)])
def test_an_invite_s_expiry_and_the_board_read_in_the_phone_s_clock(
    browser: Browser,
    browser_context_args: dict[str, Any],
    open_url: str,
    shot: Shot,
    locale: str,
    twelve_hours: bool,
) -> None:
    context = browser.new_context(**{**browser_context_args, "locale": locale})
    page = context.new_page()
    page.goto(f"{open_url}/sessions/1/invite")
    page.get_by_role("button", name="Make the invite").tap()
    expires = page.locator("#made-title time")
    listed = page.locator(".open-invites time").first
    # Written by the phone, not in the server's words it came with (`Sun 16:48`): clock.js
    # runs once the page is read, so both are waited for.
    in_server_words = re.compile(r"^[A-Z][a-z]{2} \d\d:\d\d$")
    expect(expires).not_to_have_text(in_server_words)
    until = expires.inner_text()
    expect(listed).to_have_text(until)
    shot(page, f"invite-sheet-clock-{locale}")

    event = event_drawn(open_url, f"Clock {locale}", hands=5)
    table = event["draws"][0]["tables"][0]
    page.goto(f"{open_url}/events/{event['id']}/board")
    page.wait_for_function("() => performance.getEntriesByType('resource').some("
                           "(r) => r.name.includes('/api/events/'))")  # fmt: skip
    hand = {"kind": "pick", "picker": table["seats"][1], "partner": table["seats"][2],
            "picking_points": 75}  # fmt: skip
    api(open_url, "POST", f"/api/sessions/{table['session']}/hands", hand)
    expect(page.locator(".board-news time")).to_have_text(re.compile(r"\d"), timeout=10_000)
    news, board = page.eval_on_selector(
        ".board-news", "(news) => [news.textContent, news.querySelector('time').textContent]"
    )
    assert news == f"Updated at {board}."
    shot(page, f"event-board-clock-{locale}")
    print(f"{locale}: invite until {until!r}, board updated at {board!r}")
    # One clock: the invite's time of day is written as the board's, after its weekday.
    assert clock_shape(until).endswith(" " + clock_shape(board))
    assert bool(re.search(r"[AP]M$", board)) is twelve_hours
    context.close()
