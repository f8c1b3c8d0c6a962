"""A season made on its page at phone size, its standings at 320, 390 and 768 px with axe, and
the leaderboard's Season choice setting the dates and house rules."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlalchemy import update

from harness.threaded_server import serving
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Session

from ..helpers.api import SEATS, pick
from ..helpers.browser import Shot, api, app_on_new_database, at_widths


def test_a_season_made_on_its_page_shows_its_standings(
    page: Page, tmp_path: Path, shot: Shot
) -> None:
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        nights = [("2026-03-10", {"stake": 25}), ("2026-03-17", {"bump": True})]
        for day, rules in nights:
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
        # A table of three: its picker played one hand, under the fewest to be ranked.
        three = api(url, "POST", "/api/sessions", {"players": ["Ann", "Bob", "Gus"], "rounds": 0})
        api(url, "POST", f"/api/sessions/{three['id']}/hands", pick("Gus", None, 80))

        page.goto(f"{url}/seasons")
        expect(page.get_by_text("No seasons yet")).to_be_visible()
        page.get_by_label("Name").fill("Spring 2026")
        page.get_by_label("First day").fill("2026-03-01")
        page.get_by_label("Last day").fill("2099-12-31")
        page.get_by_label("Fewest hands to be ranked by average").fill("2")
        shot(page, "new-season", full_page=True)
        page.get_by_role("button", name="Make the season").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Spring 2026")
        expect(page.get_by_role("status")).to_have_text("Spring 2026 is made.")
        expect(page.get_by_text("2026-03-01 to 2099-12-31, every session.")).to_be_visible()
        expect(page.get_by_role("heading", name="Attendance")).to_be_visible()
        expect(page.get_by_text("Fewer than 2 hands, not ranked:")).to_be_visible()
        expect(page.get_by_text("In money, at $0.25 a point.")).to_be_visible()
        at_widths(page, "season", shot)

        # Only sessions with bump: the staked night is left out, so the season is in points.
        page.get_by_role("link", name="Edit").tap()
        page.locator("label.chip", has_text="Bump").tap()
        page.get_by_role("button", name="Save").tap()
        expect(
            page.get_by_text("2026-03-01 to 2099-12-31, sessions played with bump.")
        ).to_be_visible()
        expect(page.get_by_text("In points: no session had a stake.")).to_be_visible()
        at_widths(page, "season-bump", shot)

        page.goto(f"{url}/leaderboard")
        page.get_by_text("Dates and house rules").tap()
        page.get_by_label("Season").select_option(label="Spring 2026")
        page.get_by_role("button", name="Show").tap()
        expect(page.get_by_label("From", exact=True)).to_have_value("2026-03-01")
        expect(page.get_by_label("To", exact=True)).to_have_value("2099-12-31")
        expect(page.get_by_role("checkbox", name="Bump")).to_be_checked()
        expect(page.get_by_text("Gus")).to_have_count(0)
        at_widths(page, "leaderboard-season", shot)
