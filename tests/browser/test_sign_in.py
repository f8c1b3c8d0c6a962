"""Signing in on a phone, in Chromium at 390x844, on a scorekeeper that asks for a passcode."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from harness.threaded_server import serving

from ..helpers.api import SEATS
from ..helpers.browser import Shot, api, app_on_new_database, assert_phone_friendly

PASSCODE = "Sheep-1234"


@pytest.fixture(scope="module")
def guarded_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scorekeeper with a session of one hand, whose changes need the passcode."""
    with app_on_new_database(tmp_path_factory.mktemp("access")) as app, serving(app) as url:
        session = api(url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
        api(
            url,
            "POST",
            f"/api/sessions/{session['id']}/hands",
            {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75},
        )
        result = app.test_cli_runner().invoke(
            args=["access", "set-passcode", "--role", "scorer", "--passcode", PASSCODE]
        )
        assert result.exit_code == 0, result.output
        yield url


def test_a_signed_out_phone_signs_in_to_undo_a_hand(
    page: Page, guarded_url: str, shot: Shot
) -> None:
    page.goto(f"{guarded_url}/sessions/1")
    page.get_by_role("button", name="Undo last hand").tap()

    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    expect(page.get_by_text("What you sent was not saved")).to_be_visible()
    assert page.url == f"{guarded_url}/sign-in?next=/sessions/1"
    assert api(guarded_url, "GET", "/api/sessions/1")["hands"] != []
    assert_phone_friendly(page)
    shot(page, "sign-in")

    page.get_by_label("Passcode").fill("not-the-passcode")
    page.get_by_role("button", name="Sign in").tap()
    expect(page.locator("#passcode-error")).to_have_text(
        "That passcode is wrong. Check it and try again."
    )
    expect(page.get_by_label("Passcode")).to_be_editable()
    assert_phone_friendly(page)
    shot(page, "sign-in-wrong-passcode")

    page.get_by_label("Passcode").fill(PASSCODE)
    page.get_by_role("button", name="Sign in").tap()
    page.wait_for_url(f"{guarded_url}/sessions/1")
    (cookie,) = page.context.cookies()
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    page.get_by_role("button", name="Undo last hand").tap()
    expect(page.get_by_role("button", name="Undo last hand")).to_have_count(0)
    assert api(guarded_url, "GET", "/api/sessions/1")["hands"] == []
    shot(page, "sign-in-done")

    page.goto(f"{guarded_url}/settings")
    page.get_by_role("button", name="Sign out").tap()
    expect(page.get_by_text("Signed out.")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
