"""Share results in Chromium: a season's link made on its page and a session's from its menu,
each shown with its QR code and copied; the link opened on another phone with no cookies, the
season's standings and the session's scoresheet at 320, 390 and 768 px with axe, with nothing
to tap on them; then revoked, and the link's page says it opens nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, expect
from sqlalchemy import update

from harness.threaded_server import serving
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session

from ..helpers.api import SEATS, pick
from ..helpers.browser import Shot, api, app_on_new_database, at_widths, session_with_hands

COPIED = "Link copied: paste it into a message."


def make_and_copy(page: Page) -> str:
    """Share results tapped on the page: the sheet shows the link, its QR code and Copy, which
    puts the link on the clipboard. The link's path."""
    page.get_by_role("button", name="Share results").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Share results")
    expect(page.locator("svg.qr")).to_be_visible()
    link = page.get_by_role("textbox", name="The link").input_value()
    page.get_by_role("button", name="Copy", exact=True).tap()
    expect(page.locator("#share-status")).to_have_text(COPIED)
    assert page.evaluate("navigator.clipboard.readText()") == link
    return urlsplit(link).path


def nothing_to_tap(page: Page) -> None:
    assert page.locator("a, button, input, select, textarea, form, summary, nav").count() == 0


def test_a_shared_season_and_session_on_a_phone_with_no_cookies(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], tmp_path: Path, shot: Shot
) -> None:
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        for day, rules in (("2026-03-10", {"stake": 25}), ("2026-03-17", {})):
            session = api(
                url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0, "rules": rules}
            )
            for hand in (pick(SEATS[0], SEATS[1], 75), pick(SEATS[2], SEATS[3], 40)):
                api(url, "POST", f"/api/sessions/{session['id']}/hands", hand)
            with own.app_context():
                moment = datetime.fromisoformat(f"{day}T19:00:00").replace(tzinfo=UTC)
                db.session.execute(
                    update(Session).where(Session.id == session["id"]).values(created_at=moment)
                )
                db.session.commit()
        season = api(
            url,
            "POST",
            "/api/seasons",
            {"name": "Spring 2026", "first_day": "2026-03-01", "last_day": "2026-05-31"},
        )
        sid = session_with_hands(url, "Friday at Dan's")
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])

        page.goto(f"{url}/seasons/{season['id']}")
        season_link = make_and_copy(page)
        at_widths(page, "share-results", shot)

        page.goto(f"{url}/sessions/{sid}")
        page.locator("summary", has_text="Session").tap()
        shot(page, "session-menu-share-results")
        session_link = make_and_copy(page)

        other_phone = browser.new_context(**browser_context_args)
        try:
            shared = other_phone.new_page()
            shared.goto(url + season_link)
            expect(shared.get_by_role("heading", level=1)).to_have_text("Spring 2026")
            expect(shared.get_by_text("Shared results, read-only")).to_be_visible()
            expect(shared.get_by_role("heading", name="By total")).to_be_visible()
            expect(shared.get_by_role("heading", name="Nights")).to_be_visible()
            expect(shared.get_by_text("In money, at $0.25 a point.")).to_be_visible()
            nothing_to_tap(shared)
            at_widths(shared, "shared-season", shot)

            shared.goto(url + session_link)
            expect(shared.get_by_role("heading", level=1)).to_have_text("Friday at Dan's")
            expect(shared.get_by_role("heading", name="Scoresheet")).to_be_visible()
            expect(shared.get_by_role("heading", name="Running totals")).to_be_visible()
            nothing_to_tap(shared)
            at_widths(shared, "shared-session", shot)
            assert other_phone.cookies() == []

            page.get_by_role("button", name="Revoke", exact=True).tap()
            expect(page.locator(".flash")).to_have_text("Link revoked: it opens nothing now.")
            shared.reload()
            expect(shared.get_by_role("heading", level=1)).to_have_text("No such link")
            nothing_to_tap(shared)
            at_widths(shared, "shared-revoked", shot)
            assert other_phone.cookies() == []
        finally:
            other_phone.close()
