"""Every page at 320, 390 and 768 px in Chromium: one h1, no sideways scrolling, every target at
least 44x44 px, a meta description, and nothing axe-core finds wrong."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page

from ..helpers.browser import NAMES, WIDTHS, Shot, app_on_new_database, axe_violations, serving

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
