"""A new name that looks like a player's, tapped through in Chromium at 320 and 390 px wide: New
session and the Seats page say so at the seats, keep what was typed, and seat the name once its
box is ticked; the box is a target a thumb hits, and axe finds nothing wrong."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..helpers.browser import Shot, api, checked, seat

# Names no other browser test seats, so that the live server's other players look like none.
PLAYERS = ["Orrin", "Tamsin", "Hollis", "Vesper", "Quill"]
# Orrin spelt with a Cyrillic O, and Quill with a capital I for the l.
CYRILLIC_ORRIN = "\u041errin"
QUILL_WITH_AN_I = "QuiIl"


@pytest.mark.parametrize("width", [320, 390])
def test_a_look_alike_is_seated_only_once_confirmed(
    page: Page, base_url: str, shot: Shot, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    name = f"names-{width}"
    players = [f"{player}{width}" for player in PLAYERS]
    api(base_url, "POST", "/api/sessions", {"players": players, "rounds": 0})

    page.goto("/sessions/new")
    typed = [f"{CYRILLIC_ORRIN}{width}", *players[1:4], f"Wren{width}"]
    for number, player in enumerate(typed, start=1):
        seat(page, number).fill(player)
    page.get_by_role("button", name="Start session").tap()
    look_alike = (
        f"{typed[0]} looks like {players[0]}, who has played here, "
        "but holds U+041E (cyrillic capital letter o). "
        f"Choose {players[0]}, "
        f"or confirm {typed[0]} as a new player."
    )
    expect(page.locator(".players .error")).to_have_text(look_alike)
    assert [seat(page, n).input_value() for n in range(1, 6)] == typed
    box = page.get_by_label(f"Confirm {typed[0]} as a new player")
    expect(box).not_to_be_checked()
    box.scroll_into_view_if_needed()
    shot(page, f"{name}-new-session-look-alike")
    checked(page, width)
    box.tap()
    page.get_by_role("button", name="Start session").tap()
    expect(page.locator(".next .deal")).to_have_text(f"{typed[0]} deals hand 1")
    session_id = int(page.url.rstrip("/").split("/")[-1])

    page.get_by_role("link", name="Seats").tap()
    arriving = f"{QUILL_WITH_AN_I}{width}"
    page.get_by_label("Name").fill(arriving)
    page.get_by_role("button", name="Sits down").tap()
    expect(page.locator("#seats-error")).to_have_text(
        f"{arriving} looks like {players[4]}, who has played here, "
        "but holds U+0049 (latin capital letter i). "
        f"Choose {players[4]}, "
        f"or confirm {arriving} as a new player."
    )
    shot(page, f"{name}-seats-look-alike", full_page=True)
    checked(page, width)
    page.get_by_label(f"Confirm {arriving} as a new player").tap()
    page.get_by_role("button", name="Save seats").tap()
    expect(page.get_by_text("Seats changed.")).to_be_visible()
    session = api(base_url, "GET", f"/api/sessions/{session_id}")
    assert session["players"] == [*typed, arriving]
