"""Every page at 320, 390 and 768 px in Chromium: one h1, no sideways scrolling, every target at
least 44x44 px, a meta description, and nothing axe-core finds wrong. And every control of every
page is tapped where it is drawn: at the centre of each one, scrolled as far into view as the
page goes, the element a finger hits is the control itself, never the fixed Save bar or anything
else drawn over it. At 320x568, 390x844, 412x915 and 844x390."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page

from harness.threaded_server import serving

from ..helpers.browser import NAMES, WIDTHS, Shot, app_on_new_database, axe_violations

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

# The screens every control is tapped on.
SCREENS = ((320, 568), (390, 844), (412, 915), (844, 390))

# Each shown control scrolled to the middle of the screen (or as near as the page scrolls), and
# what `elementFromPoint` finds at its centre. A checkbox or radio drawn as its label is tapped
# on the label; text hidden for screen readers only (1 px) is no target.
COVERED = """
() => {
  const covered = [];
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  for (const control of document.querySelectorAll(controls)) {
    const boxed = ["checkbox", "radio", "file"].includes(control.type);
    const drawn = (boxed && control.closest("label")) || control;
    if (!drawn.checkVisibility({ visibilityProperty: true })) continue; // in a closed fold, say
    drawn.scrollIntoView({ block: "center", inline: "center" });
    const box = drawn.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit && (drawn.contains(hit) || control.contains(hit))) continue;
    const name = (drawn.textContent || control.name || "").trim().slice(0, 30);
    const over = hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : "nothing";
    covered.push(`${control.tagName.toLowerCase()} "${name}" under ${over}`);
  }
  return covered;
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


def covered_controls(page: Page) -> list[str]:
    found = []
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{width}x{height}: {covered}" for covered in page.evaluate(COVERED)]
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_page_at_every_width(
    page: Page, pages: dict[str, str], name: str, shot: Shot
) -> None:
    page.goto(pages[name])
    assert check_at_widths(page, name, shot) == []
    assert covered_controls(page) == []


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
