"""Rule sets in Chromium at phone size: a group's rules saved from Settings, then shared as a
link and a QR code to show across the table."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..helpers.browser import Shot, assert_phone_friendly, axe_violations

QUERY = (
    "partner=called_ace&no_bid=doubler&cracking=true&blitzing=true&sitting_out=dealer"
    "&bump=true&schwarz=tricks&doublers=stack&max_multiplier=8&penalties=false&stake=25"
)
WORDS = (
    "Called ace partner · all pass: re-deal and double · Doublers stack · bump doubles a loss · "
    "cap x8 · schwarz by tricks · "
    "six or more: five play, the dealer and those just before sitting out · $0.25 a point"
)


def assert_clean(page: Page) -> None:
    assert_phone_friendly(page)
    assert axe_violations(page) == []


def test_a_rule_set_saved_and_shown_as_a_qr_code(page: Page, base_url: str, shot: Shot) -> None:
    page.goto("/settings")
    page.get_by_role("link", name="Rule sets", exact=True).tap()
    expect(page.get_by_role("heading", name="Rule sets", level=1)).to_be_visible()
    assert_clean(page)

    page.get_by_label("Name").fill("Friday rules")
    page.get_by_role("group", name="Partner").get_by_label("Called ace").check()
    page.get_by_label("Double on the bump").check()
    # How doublers double is asked only once everyone passing plays one.
    page.get_by_role("group", name="When everyone passes").get_by_label(
        "Re-deal and double"
    ).check()
    page.get_by_role("group", name="Schwarz").get_by_label("By tricks").check()
    page.get_by_role("group", name="Doublers").get_by_label("Stacked on the next pick").check()
    page.get_by_label("Multiplier cap").select_option("8")
    page.get_by_label("Stake a point").fill("0.25")
    shot(page, "rule-sets-form", full_page=True)
    page.get_by_role("button", name="Save rule set").tap()

    expect(page.get_by_role("status")).to_have_text("Friday rules saved.")
    expect(page.get_by_text(WORDS)).to_be_visible()
    use = page.get_by_role("link", name="Use Friday rules")
    assert use.get_attribute("href") == f"/sessions/new?{QUERY}"
    assert_clean(page)
    shot(page, "rule-sets")

    page.get_by_role("link", name="Share Friday rules").tap()
    link = f"{base_url}/sessions/new?{QUERY}"
    expect(page.get_by_role("heading", name="Friday rules", level=1)).to_be_visible()
    expect(page.get_by_label("The link")).to_have_value(link)
    qr = page.get_by_role("img", name=link)
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    # As wide as the phone lets it be, square, and all of it on the screen.
    assert box is not None and 300 <= box["width"] <= 390 and box["width"] == box["height"]
    assert box["y"] + box["height"] <= 844
    assert_clean(page)
    shot(page, "rule-set-share")

    # Without a share sheet, the button copies the link.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("delete Navigator.prototype.share")
    page.reload()
    page.get_by_role("button", name="Copy the link").tap()
    expect(page.get_by_role("status")).to_have_text("Link copied: paste it into a message.")
    assert page.evaluate("navigator.clipboard.readText()") == link

    page.get_by_role("link", name="Use these rules").tap()
    expect(page).to_have_url(link)
    expect(page.get_by_role("heading", name="New session", level=1)).to_be_visible()
