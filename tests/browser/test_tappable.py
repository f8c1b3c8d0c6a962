"""Every control of every page is tapped where it is drawn: at the centre of each one, scrolled
as far into view as the page goes, the element a finger hits is the control itself, never the
fixed Save bar or anything else drawn over it. At 320x568, 390x844, 412x915 and 844x390."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from ..helpers.browser import NAMES

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


@pytest.mark.parametrize("name", NAMES)
def test_every_control_is_tapped_where_it_is_drawn(
    page: Page,
    pages: dict[str, str],
    name: str,
) -> None:
    page.goto(pages[name])
    found = []
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{width}x{height}: {covered}" for covered in page.evaluate(COVERED)]
    assert found == []
