"""The pages under their Content-Security-Policy in Chromium: nothing blocked, and the hand
form's rules that moved from an inline style into the stylesheet still apply."""

from __future__ import annotations

import json
from typing import Any
from urllib.request import Request, urlopen

from playwright.sync_api import ConsoleMessage, Page, expect

from ..helpers.browser import Shot


def api(base_url: str, path: str, body: dict[str, Any]) -> Any:
    request = Request(
        base_url + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urlopen(request) as response:
        return json.loads(response.read())


def test_pages_show_no_csp_violation(page: Page, base_url: str, shot: Shot) -> None:
    session = api(
        base_url, "/api/sessions", {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0}
    )
    sid = session["id"]
    api(
        base_url,
        f"/api/sessions/{sid}/hands",
        {"kind": "pick", "picker": "Cat", "partner": "Dan", "picking_points": 75},
    )
    violations: list[str] = []

    def watch(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            violations.append(message.text)

    page.on("console", watch)
    page.on("pageerror", lambda error: violations.append(str(error)))
    for path in (f"/sessions/{sid}", f"/sessions/{sid}/hands/new", "/sessions"):
        response = page.goto(base_url + path)
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    shot(page, "csp-sessions")

    # The record form: its script runs (the live preview), and picking Eve (third to bid after
    # the dealer Bob) hides Eve as partner and the cracks of Eve and the earlier bidders.
    page.goto(base_url + f"/sessions/{sid}/hands/new")
    page.get_by_role("group", name="Picker").get_by_label("Eve", exact=True).tap()
    partner = page.get_by_role("group", name="Partner")
    expect(partner.get_by_label("Eve", exact=True)).to_be_hidden()
    expect(partner.get_by_label("Dan", exact=True)).to_be_visible()
    cracks = page.get_by_role("group", name="Cracked by")
    for hidden in ("Cat", "Dan", "Eve"):
        expect(cracks.get_by_label(hidden, exact=True)).to_be_hidden()
    for shown in ("Ann", "Bob"):
        expect(cracks.get_by_label(shown, exact=True)).to_be_visible()
    partner.get_by_label("Dan", exact=True).tap()
    page.locator("#picking_points").fill("61")
    expect(page.locator("#preview")).not_to_be_empty()
    shot(page, "csp-record-hand")
    assert violations == []
