"""A night from paper added at phone size: four players tapped from the roster, each net typed
on the number pad with ± for the losers, "Off by" turning to "Adds up to 0" and Save held until
then; the night's page it lands on, and its edit. At 320, 390 and 768 px with axe."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from harness.threaded_server import serving

from ..helpers.api import SEATS
from ..helpers.browser import Shot, api, app_on_new_database, at_widths, checked, group


def type_net(page: Page, player: str, digits: str, minus: bool = False) -> None:
    """A net as a thumb types it: the field tapped, ± tapped for a loss, then the digits."""
    page.get_by_label(f"{player}'s net", exact=True).tap()
    if minus:
        page.get_by_role("button", name=f"Minus, {player}'s net").tap()
    page.keyboard.type(digits)


def standings(page: Page) -> list[str]:
    rows = page.locator("table.standings tbody tr")
    return [" ".join(rows.nth(i).locator("td, th").all_inner_texts()) for i in range(rows.count())]


def test_a_night_from_paper_is_added_and_edited(page: Page, tmp_path: Path, shot: Shot) -> None:
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        api(url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
        page.goto(f"{url}/sessions")
        page.get_by_role("link", name="Add a night from paper").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Add a night from paper")
        tally = page.locator("#tally")
        save = page.get_by_role("button", name="Save night")
        expect(tally).to_have_text("Two players at least")
        expect(save).to_be_disabled()
        expect(page.get_by_role("button", name="More lines")).to_have_count(0)
        at_widths(page, "night-form", shot)

        players = group(page, "Players and their nets")
        for name in ("Ann", "Bob", "Cat", "Dan"):
            players.get_by_label(name, exact=True).tap()
        for number, name in enumerate(("Ann", "Bob", "Cat", "Dan"), start=1):
            expect(page.get_by_label(f"Player {number}", exact=True)).to_have_value(name)
        type_net(page, "Ann", "5")
        expect(tally).to_have_text("Off by 5")
        expect(save).to_be_disabled()
        type_net(page, "Bob", "2", minus=True)
        expect(tally).to_have_text("Off by 3")
        expect(page.get_by_label("Bob's net", exact=True)).to_have_value("-2")
        expect(page.get_by_role("button", name="Minus, Bob's net")).to_have_attribute(
            "aria-pressed", "true"
        )
        type_net(page, "Cat", "4", minus=True)
        expect(tally).to_have_text("Off by -1")
        # A fifth line waits for another player, and Save for the nets to add up.
        expect(page.get_by_label("Player 5", exact=True)).to_have_value("")
        expect(save).to_be_disabled()
        for width in (320, 390, 768):
            page.set_viewport_size({"width": width, "height": 844})
            checked(page, width)
            shot(page, f"night-form-off-{width}")
        page.set_viewport_size({"width": 390, "height": 844})
        type_net(page, "Dan", "1")
        expect(tally).to_have_text("Adds up to 0")
        expect(save).to_be_enabled()
        shot(page, "night-form-adds-up")
        save.tap()

        expect(page.get_by_role("status")).to_have_text("Night saved.")
        night = api(url, "GET", f"/api/sessions/{page.url.rsplit('/', 1)[1]}")
        assert (night["totals_only"], night["totals"]) == (
            True,
            {"Ann": 5, "Bob": -2, "Cat": -4, "Dan": 1},
        )
        assert standings(page) == ["1 Ann Winner +5", "2 Dan +1", "3 Bob -2", "4 Cat -4"]
        expect(page.get_by_text("Kept without hands")).to_be_visible()
        for absent in ("Record hand", "Seats", "Add a round"):
            expect(page.get_by_role("link", name=absent)).to_have_count(0)
        at_widths(page, "night", shot)

        page.get_by_role("link", name="Edit", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Edit night")
        expect(tally).to_have_text("Adds up to 0")
        expect(page.get_by_label("Cat's net", exact=True)).to_have_value("-4")
        at_widths(page, "night-edit", shot)
        page.get_by_label("Ann's net", exact=True).fill("6")
        expect(tally).to_have_text("Off by 1")
        expect(save).to_be_disabled()
        # Dan broke even after all: his net goes, an empty net being 0.
        page.get_by_label("Dan's net", exact=True).fill("")
        expect(tally).to_have_text("Adds up to 0")
        save.tap()
        expect(page.get_by_role("status")).to_have_text("Night saved.")
        assert standings(page) == ["1 Ann Winner +6", "2 Dan 0", "3 Bob -2", "4 Cat -4"]
        page.get_by_role("link", name="Changes").tap()
        expect(page.get_by_text("Night changed: Ann 5 → 6, Dan 1 → 0")).to_be_visible()
        at_widths(page, "night-changes", shot)


def test_untapping_a_player_takes_their_line_away(page: Page, tmp_path: Path) -> None:
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        api(url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
        page.goto(f"{url}/sessions/nights/new")
        players = group(page, "Players and their nets")
        for name in ("Ann", "Bob", "Cat"):
            players.get_by_label(name, exact=True).tap()
        type_net(page, "Bob", "3")
        players.get_by_label("Bob", exact=True).tap()
        names = [page.get_by_label(f"Player {n}", exact=True) for n in (1, 2, 3)]
        for field, name in zip(names, ("Ann", "Cat", ""), strict=True):
            expect(field).to_have_value(name)
        expect(page.locator("#tally")).to_have_text("Adds up to 0")
        # A name typed, not tapped, ticks its chip.
        names[2].fill("dan")
        expect(players.get_by_label("Dan", exact=True)).to_be_checked()
