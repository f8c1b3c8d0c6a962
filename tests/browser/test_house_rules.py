"""House rules, results by tap, penalty hands and the settle-up in Chromium at phone size (and at
320 and 768 px for the new pages), checked against the API, with axe-core on each page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import (
    WIDTHS,
    Shot,
    Taps,
    api,
    assert_phone_friendly,
    axe_violations,
    chip,
    group,
)


def fits_on_screen(page: Page, target: str) -> None:
    """The control is on the first screen, above the Save bar, and big enough to tap."""
    box = page.locator(target).bounding_box()
    bar = page.locator(".savebar").bounding_box()
    assert box is not None and bar is not None
    assert box["width"] >= 44 and box["height"] >= 44, target
    assert box["y"] + box["height"] <= bar["y"], target


def test_a_usual_hand_is_four_taps_after_record_hand(page: Page, base_url: str, shot: Shot) -> None:
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
    sid = session["id"]
    page.goto(f"/sessions/{sid}")
    page.get_by_role("link", name="Record hand").tap()
    # Nothing needs scrolling: picker, partner and result are above the Save bar.
    for target in ("#picker-chip-3", "#partner-chip-4", "#result .chip >> nth=2"):
        fits_on_screen(page, target)
    shot(page, "record-hand-result")

    taps = Taps()
    taps(chip(page, "Picker", "Cat"))
    taps(chip(page, "Partner", "Dan"))
    taps(chip(page, "Result", "Won"))
    expect(page.locator("#preview")).to_have_text("Cat +2, Dan +1, Ann, Bob, Eve -1")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator("tr.saved")).to_have_count(1)
    assert taps.count == 4
    expect(page.locator("tr.about .summary").first).to_have_text("Cat & Dan, won · Ann dealt")

    (hand,) = api(base_url, "GET", f"/api/sessions/{sid}")["hands"]
    assert (hand["result"], hand["picking_points"]) == ("won", None)
    assert hand["scores"] == {"Ann": -1, "Bob": -1, "Cat": 2, "Dan": 1, "Eve": -1}


def test_typed_points_pick_the_result_and_a_result_that_disagrees_is_said(
    page: Page, base_url: str, shot: Shot
) -> None:
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
    page.goto(f"/sessions/{session['id']}/hands/new")
    chip(page, "Picker", "Bob").tap()
    chip(page, "Partner", "Cat").tap()
    page.get_by_label("Picking team points").fill("95")
    expect(chip(page, "Result", "Won schneider")).to_be_checked()
    page.get_by_label("Opponents' points").fill("70")
    expect(chip(page, "Result", "Lost")).to_be_checked()
    chip(page, "Result", "Won").tap()
    expect(page.locator("#result-live")).to_have_text(
        "The picking team's 50 points mean lost, not won (61 to 90 points)."
    )
    # Said once: the Save bar only points at it.
    expect(page.locator("#preview")).to_have_text("No preview: see the result.")
    shot(page, "record-hand-result-disagrees")
    chip(page, "Result", "Lost").tap()
    expect(page.locator("#result-live")).to_be_hidden()
    expect(page.locator("#preview")).to_have_text("Bob -2, Cat -1, Ann, Dan, Eve +1")

    # A tapped result never flips with the points typed after it: the form says they disagree,
    # and Save is refused with the same sentence, keeping what was typed.
    page.get_by_label("Picking team points").fill("75")
    expect(chip(page, "Result", "Lost")).to_be_checked()
    sentence = "The picking team's 75 points mean won, not lost (31 to 60 points)."
    expect(page.locator("#result-live")).to_have_text(sentence)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_text(sentence)).to_be_visible()
    expect(page.get_by_label("Picking team points")).to_have_value("75")
    expect(chip(page, "Result", "Lost")).to_be_checked()
    assert api(base_url, "GET", f"/api/sessions/{session['id']}")["hands"] == []


def test_a_result_chosen_by_points_goes_with_points_out_of_range(page: Page, base_url: str) -> None:
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0})
    page.goto(f"/sessions/{session['id']}/hands/new")
    chip(page, "Picker", "Bob").tap()
    chip(page, "Partner", "Cat").tap()
    points = page.get_by_label("Picking team points")
    points.fill("13")
    expect(chip(page, "Result", "Lost schneider")).to_be_checked()
    points.fill("130")
    expect(page.locator('input[name="result"]:checked')).to_have_count(0)
    points.fill("")
    expect(page.locator('input[name="result"]:checked')).to_have_count(0)


def test_schwarz_by_tricks_asks_where_it_matters(page: Page, base_url: str) -> None:
    session = api(
        base_url,
        "POST",
        "/api/sessions",
        {"players": SEATS, "rounds": 0, "rules": {"schwarz": "tricks"}},
    )
    page.goto(f"/sessions/{session['id']}/hands/new")
    expect(page.locator("#result-hint")).to_contain_text(
        "Won schwarz only if the opponents took no trick"
    )
    chip(page, "Picker", "Bob").tap()
    chip(page, "Partner", "Cat").tap()
    page.get_by_label("Picking team points").fill("120")
    expect(chip(page, "Result", "Won schwarz")).to_be_checked()
    # The opponents took a trick worth nothing: schneider, not schwarz.
    chip(page, "Result", "Won schneider").tap()
    expect(page.locator("#preview")).to_have_text("Bob +4, Cat +2, Ann, Dan, Eve -2")


def test_a_penalty_hand_is_three_taps(page: Page, base_url: str, shot: Shot) -> None:
    session = api(
        base_url,
        "POST",
        "/api/sessions",
        {"players": SEATS, "rounds": 0, "rules": {"penalties": True, "bump": True}},
    )
    sid = session["id"]
    page.goto(f"/sessions/{sid}/hands/new")
    taps = Taps()
    taps(page.get_by_label("Penalty", exact=True))
    expect(group(page, "Picker")).to_be_hidden()
    expect(group(page, "Result")).to_be_hidden()
    taps(chip(page, "Penalized", "Dan"))
    expect(page.locator("#preview")).to_have_text("Dan -4, 4 others +1")
    shot(page, "record-hand-penalty")
    assert axe_violations(page) == []
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator("tr.saved")).to_have_count(1)
    assert taps.count == 3
    expect(page.locator("tr.about .summary").first).to_have_text("Dan penalized · Ann dealt")
    expect(page.locator(".rules-words")).to_contain_text("bump doubles a loss · penalty hands")
    (hand,) = api(base_url, "GET", f"/api/sessions/{sid}")["hands"]
    assert (hand["kind"], hand["penalized"]) == ("penalty", "Dan")


def test_house_rules_are_a_closed_part_of_the_new_session_form(
    page: Page, base_url: str, shot: Shot
) -> None:
    page.goto("/sessions/new")
    house = page.locator("details.house-rules")
    expect(house).not_to_have_attribute("open", "")
    expect(page.get_by_label("Double on the bump")).to_be_hidden()
    house.locator("summary").tap()
    expect(page.get_by_label("Double on the bump")).to_be_visible()
    # Doublers only matter when a pass re-deals and doubles.
    expect(group(page, "Doublers after everyone passed")).to_be_hidden()
    page.get_by_label("Re-deal and double").check()
    expect(group(page, "Doublers after everyone passed")).to_be_visible()
    for i, name in enumerate(SEATS, start=1):
        page.get_by_label(f"Seat {i}", exact=True).fill(name)
    page.get_by_label("Double on the bump").check()
    page.get_by_label("Stacked on the next pick").check()
    page.get_by_label("By tricks").check()
    page.get_by_label("Multiplier cap").select_option("8")
    page.get_by_label("Penalty hands").check()
    page.get_by_label("Stake a point").fill("0.25")
    house.scroll_into_view_if_needed()
    shot(page, "new-session-house-rules", full_page=True)
    assert_phone_friendly(page)
    assert axe_violations(page) == []
    page.get_by_role("button", name="Start session").tap()
    expect(page.locator(".rules-words")).to_have_text(
        "Rules: Jack of diamonds partner · all pass: re-deal and double · Doublers stack · "
        "bump doubles a loss · cap x8 · schwarz by tricks · penalty hands · $0.25 a point"
    )
    sid = int(page.url.rstrip("/").split("/")[-1])
    assert api(base_url, "GET", f"/api/sessions/{sid}")["rules"] == {
        "partner": "jack_of_diamonds",
        "no_bid": "doubler",
        "cracking": True,
        "blitzing": True,
        "sitting_out": "dealer",
        "bump": True,
        "schwarz": "tricks",
        "doublers": "stack",
        "max_multiplier": 8,
        "penalties": True,
        "stake": 25,
    }


def test_a_share_link_opens_the_form_with_its_rules(page: Page, base_url: str, shot: Shot) -> None:
    page.goto("/sessions/new?partner=called_ace&bump=true&schwarz=tricks&stake=150&cracking=false")
    expect(page.locator("details.house-rules")).to_have_attribute("open", "")
    expect(page.get_by_label("Called ace")).to_be_checked()
    expect(page.get_by_label("Double on the bump")).to_be_checked()
    expect(page.get_by_label("Cracking")).not_to_be_checked()
    expect(page.get_by_label("By tricks")).to_be_checked()
    expect(page.get_by_label("Stake a point")).to_have_value("1.50")
    # Typing four names keeps the link's partner rule rather than the usual one for four.
    for i, name in enumerate(SEATS[:4], start=1):
        page.get_by_label(f"Seat {i}", exact=True).fill(name)
    expect(page.get_by_label("Called ace")).to_be_checked()


def night(base_url: str, stake: int) -> int:
    session = api(
        base_url,
        "POST",
        "/api/sessions",
        {"players": SEATS, "rounds": 0, "name": "Friday at Dan's", "rules": {"stake": stake}},
    )
    sid: int = session["id"]
    for hand in (
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "picking_points": 75},
        {"kind": "pick", "picker": "Cat", "partner": None, "result": "won_schneider",
         "cracked_by": "Eve"},
        {"kind": "pick", "picker": "Dan", "partner": "Eve", "picking_points": 40},
    ):  # fmt: skip
        api(base_url, "POST", f"/api/sessions/{sid}/hands", hand)
    return sid


@pytest.mark.parametrize("width", WIDTHS)
def test_settle_up_page(page: Page, base_url: str, shot: Shot, width: int) -> None:
    sid = night(base_url, 25)
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"/sessions/{sid}")
    page.get_by_role("link", name="Settle up").tap()
    expect(page.get_by_role("heading", name="Settle up", exact=True)).to_be_visible()
    # Totals: Ann -1, Bob -2, Cat +16, Dan -7, Eve -6, at $0.25 a point.
    expect(page.locator(".payments li")).to_have_text(
        ["Ann pays Cat $0.25", "Bob pays Cat $0.50", "Dan pays Cat $1.75", "Eve pays Cat $1.50"]
    )
    shot(page, f"settle-up-{width}", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []

    recap = page.locator("#recap").inner_text()
    assert recap.splitlines() == [
        "Friday at Dan's",
        "Standings: 1. Cat +16, 2. Ann -1, 3. Bob -2, 4. Eve -6, 5. Dan -7",
        "Settle up ($0.25 a point): Ann pays Cat $0.25; Bob pays Cat $0.50; "
        "Dan pays Cat $1.75; Eve pays Cat $1.50",
        "Biggest hand: hand 2, Cat alone, won schneider, cracked by Eve (x2): Cat +16, 4 others -4",
    ]


def test_share_copies_the_recap_where_there_is_no_share_sheet(page: Page, base_url: str) -> None:
    sid = night(base_url, 0)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # A browser without a share sheet, whatever this Chromium has.
    page.add_init_script("delete Navigator.prototype.share")
    page.goto(f"/sessions/{sid}/settle-up")
    expect(page.locator(".payments li").first).to_have_text("Ann pays Cat 1 point")
    page.get_by_role("button", name="Copy the recap").tap()
    expect(page.locator("#share-status")).to_have_text("Recap copied: paste it into a message.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#recap").inner_text()
    assert "Settle up (in points): Ann pays Cat 1 point; Bob pays Cat 2 points" in copied


def test_the_stake_is_set_on_the_settle_up_page(page: Page, base_url: str, shot: Shot) -> None:
    sid = night(base_url, 0)
    page.goto(f"/sessions/{sid}/settle-up")
    page.get_by_label("Stake a point").fill("1.5")
    page.get_by_role("button", name="Set stake").tap()
    expect(page.locator(".flash")).to_have_text("Stake set to $1.50 a point.")
    expect(page.locator(".payments li").first).to_have_text("Ann pays Cat $1.50")
    assert api(base_url, "GET", f"/api/sessions/{sid}")["rules"]["stake"] == 150


@pytest.mark.parametrize("width", WIDTHS)
def test_settle_the_season(page: Page, base_url: str, shot: Shot, width: int) -> None:
    night(base_url, 10)
    page.set_viewport_size({"width": width, "height": 844})
    page.goto("/sessions")
    page.get_by_role("link", name="Settle the season").tap()
    expect(page.get_by_role("heading", name="Settle the season")).to_be_visible()
    expect(page.locator(".payments li").first).to_be_visible()
    shot(page, f"settle-season-{width}", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
