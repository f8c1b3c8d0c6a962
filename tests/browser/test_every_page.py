"""Every page at 320, 390 and 768 px in Chromium: one h1, no sideways scrolling, every target at
least 44x44 px, a meta description, and nothing axe-core finds wrong."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.request import urlopen

import pytest
from flask import Flask
from playwright.sync_api import Page
from sqlalchemy import select

from scorekeeper import rules
from scorekeeper.exchange import rule_sets as saved_rule_sets
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player

from .conftest import app_on_new_database, axe_violations, serving
from .test_table import SEATS, Shot, api

WIDTHS = (320, 390, 768)

# Targets smaller than 44x44 px, as WCAG 2.5.8 allows only for a link inside a sentence of
# running text (its "inline" exception): a link in a paragraph with words of its own around it.
# A checkbox or radio inside its label counts as the label, which is the target a finger hits.
SMALL_TARGETS = """
() => {
  const shown = (el) => {
    if (el.type === "hidden") return false;
    const style = getComputedStyle(el);
    return el.getClientRects().length > 0 && style.visibility !== "hidden";
  };
  const inline = (el) => {
    if (el.tagName !== "A") return false;
    const block = el.parentElement;
    const inText = ["P", "LI", "TD", "SPAN"].includes(block.tagName);
    if (!inText || getComputedStyle(el).display !== "inline") return false;
    const own = [...block.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent.trim()).join("");
    return own.length > 0;
  };
  const small = [];
  for (const el of document.querySelectorAll("a, button, input, select, summary, label.option")) {
    if (!shown(el) || inline(el)) continue;
    const target = (el.type === "checkbox" || el.type === "radio") && el.closest("label") || el;
    const box = target.getBoundingClientRect();
    if (box.width < 44 - 0.01 || box.height < 44 - 0.01) {
      const name = (el.textContent || el.name || "").trim().slice(0, 30);
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${name}" ${size}`);
    }
  }
  return small;
}
"""


def session_with_hands(base_url: str) -> dict[str, Any]:
    session = api(
        base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0, "name": "Pages"}
    )
    for picker, partner, points in (("Ann", "Bob", 75), ("Bob", "Cat", 30), ("Cat", "Dan", 95)):
        api(
            base_url,
            "POST",
            f"/api/sessions/{session['id']}/hands",
            {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points},
        )
    return session


@pytest.fixture(scope="module")
def pages(base_url: str, live_app: Flask) -> dict[str, str]:
    """Each page's name and path, with a session of three hands, a rule set and a deleted
    session to show."""
    session = session_with_hands(base_url)
    thrown = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 1})
    api(base_url, "DELETE", f"/api/sessions/{thrown['id']}")
    with live_app.app_context():
        rule_set_id = saved_rule_sets.save("Pages house rules", rules.Options()).id
        player_id = db.session.scalars(select(Player.id).where(Player.name == "Ann")).one()
    sid = session["id"]
    staked = session_with_hands(base_url)
    api(base_url, "PATCH", f"/api/sessions/{staked['id']}", {"rules": {"stake": 25}})
    api(base_url, "PATCH", f"/api/sessions/{staked['id']}", {"players": SEATS[1:]})
    ended = session_with_hands(base_url)
    api(base_url, "PATCH", f"/api/sessions/{ended['id']}", {"ended": True})
    return {
        "home": "/",
        "sessions": "/sessions",
        "new-session": "/sessions/new",
        "scoresheet": f"/sessions/{sid}",
        "record-hand": f"/sessions/{sid}/hands/new",
        "edit-hand": f"/sessions/{sid}/hands/2/edit",
        "delete-hand": f"/sessions/{sid}/hands/2/delete",
        "delete-session": f"/sessions/{sid}/delete",
        "seats": f"/sessions/{sid}/seats",
        "seats-after-a-leaver": f"/sessions/{staked['id']}/seats",
        "ended-scoresheet": f"/sessions/{ended['id']}",
        "rename-rounds": f"/sessions/{sid}/edit",
        "settle-up": f"/sessions/{sid}/settle-up",
        "season-settle-up": "/settle-up",
        "changes": f"/sessions/{sid}/changes",
        "leaderboard": "/leaderboard",
        "player": f"/players/{player_id}",
        "rule-sets": "/rule-sets",
        "share": f"/rule-sets/{rule_set_id}/share",
        "settings": "/settings",
        "import": "/sessions/import",
        "trash": "/trash",
        "not-found": "/no-such-page",
    }


def check_at_widths(page: Page, name: str, shot: Shot) -> list[str]:
    found: list[str] = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        shot(page, f"every-{name}-{width}", full_page=True)
        where = f"{name} at {width}"
        if (scroll := page.evaluate("document.documentElement.scrollWidth")) > width:
            found.append(f"{where}: {scroll} px wide")
        if (h1s := page.locator("h1").count()) != 1:
            found.append(f"{where}: {h1s} h1")
        found += [f"{where}: small {small}" for small in page.evaluate(SMALL_TARGETS)]
        found += [f"{where}: axe {v}" for v in axe_violations(page)]
    description = page.locator('meta[name="description"]')
    if description.count() != 1 or not description.get_attribute("content"):
        found.append(f"{name}: no meta description")
    return found


NAMES = [
    "home", "sessions", "new-session", "scoresheet", "record-hand", "edit-hand", "delete-hand",
    "delete-session", "seats", "seats-after-a-leaver", "ended-scoresheet", "rename-rounds",
    "settle-up", "season-settle-up", "changes", "leaderboard",
    "player", "rule-sets", "share", "settings", "import", "trash", "not-found",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_every_page_at_every_width(
    page: Page, pages: dict[str, str], name: str, shot: Shot
) -> None:
    page.goto(pages[name])
    assert check_at_widths(page, name, shot) == []


@pytest.fixture(scope="module")
def guarded_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with app_on_new_database(tmp_path_factory.mktemp("every-page")) as app, serving(app) as url:
        result = app.test_cli_runner().invoke(
            args=["access", "set-passcode", "--role", "scorer", "--passcode", "Sheep-1234"]
        )
        assert result.exit_code == 0, result.output
        yield url


def test_the_sign_in_page_at_every_width(page: Page, guarded_url: str, shot: Shot) -> None:
    page.goto(f"{guarded_url}/sign-in")
    assert check_at_widths(page, "sign-in", shot) == []


def test_the_favicon_is_an_icon_file(base_url: str) -> None:
    with urlopen(base_url + "/favicon.ico") as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/vnd.microsoft.icon"
        icon = response.read()
    # An .ico header: reserved 0, type 1 (icon), then how many images it holds.
    assert icon[:4] == b"\x00\x00\x01\x00" and int.from_bytes(icon[4:6], "little") == 3
    for name in ("icon-32.png", "icon-192.png", "icon-512.png"):
        with urlopen(f"{base_url}/static/icons/{name}") as response:
            assert response.status == 200 and len(response.read()) > 400, name
