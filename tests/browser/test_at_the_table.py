"""Saving a hand at the table, in Chromium: Enter saves, a double tap or Back-then-Save makes one
hand, the saved status undoes it and Restore brings it back, a usual hand in five taps, and the
form's Save bar out of the way of every option."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..helpers.api import SEATS
from ..helpers.browser import (
    Shot,
    Taps,
    api,
    at_widths,
    chip,
    drawn_at_its_centre,
    form_kept,
    group,
    totals_on_page,
)

ZERO = dict.fromkeys(SEATS, 0)
BOB_AND_CAT_WIN = {"Ann": -1, "Bob": 2, "Cat": 1, "Dan": -1, "Eve": -1}


# Phones small and large, and one on its side.
SCREENS = ((320, 568), (320, 640), (390, 844), (412, 915), (768, 1024), (844, 390))


def new_session(base_url: str, **rules: str) -> int:
    body = {"players": SEATS, "rounds": 0, "rules": rules}
    return int(api(base_url, "POST", "/api/sessions", body)["id"])


def hands(base_url: str, session_id: int) -> list[dict[str, object]]:
    return list(api(base_url, "GET", f"/api/sessions/{session_id}")["hands"])


def record_form(page: Page, session_id: int, where: str) -> None:
    """The record form: its own page, or opened in place on the scoresheet."""
    if where == "page":
        page.goto(f"/sessions/{session_id}/hands/new")
        return
    page.goto(f"/sessions/{session_id}")
    form_kept(page, session_id)
    page.get_by_role("link", name="Record hand").tap()
    expect(page.locator("main.in-place")).to_be_attached()


def bob_and_cat(page: Page) -> None:
    chip(page, "Picker", "Bob").tap()
    chip(page, "Partner", "Cat").tap()


def test_enter_in_the_points_box_saves(page: Page, base_url: str, shot: Shot) -> None:
    session_id = new_session(base_url)
    page.goto(f"/sessions/{session_id}/hands/new")
    bob_and_cat(page)
    page.get_by_label("Picking team points").fill("75")
    page.get_by_label("Picking team points").press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved.")
    assert page.url.endswith(f"/sessions/{session_id}?saved=1")
    assert totals_on_page(page) == BOB_AND_CAT_WIN
    assert len(hands(base_url, session_id)) == 1
    shot(page, "saved-status")


def test_a_double_tap_on_save_makes_one_hand(page: Page, base_url: str) -> None:
    session_id = new_session(base_url)
    page.goto(f"/sessions/{session_id}/hands/new")
    bob_and_cat(page)
    page.get_by_label("Picking team points").fill("75")
    # Two taps in the same moment, before the first answer comes back.
    page.get_by_role("button", name="Save hand").evaluate(
        "(button) => { button.click(); button.click(); }"
    )
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved.")
    assert len(hands(base_url, session_id)) == 1
    assert totals_on_page(page) == BOB_AND_CAT_WIN


def test_back_then_save_lands_on_the_saved_hand(page: Page, base_url: str) -> None:
    session_id = new_session(base_url)
    page.goto(f"/sessions/{session_id}/hands/new")
    bob_and_cat(page)
    page.get_by_label("Picking team points").fill("75")
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved.")

    page.go_back()
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved.")
    assert page.url.endswith(f"/sessions/{session_id}?saved=1")
    assert len(hands(base_url, session_id)) == 1
    assert totals_on_page(page) == BOB_AND_CAT_WIN
    expect(page.locator("tr.saved")).to_have_count(1)


def test_undo_from_the_status_then_restore(page: Page, base_url: str, shot: Shot) -> None:
    session_id = new_session(base_url)
    page.goto(f"/sessions/{session_id}/hands/new")
    bob_and_cat(page)
    page.get_by_label("Picking team points").fill("75")
    page.get_by_role("button", name="Save hand").tap()
    status = page.get_by_role("status").filter(has_text="Hand 1 saved.")
    status.get_by_role("button", name="Undo", exact=True).tap()

    expect(page.get_by_role("status")).to_have_text("Hand 1 undone.")
    assert totals_on_page(page) == ZERO
    assert hands(base_url, session_id) == []
    shot(page, "undone-restore")
    page.get_by_role("button", name="Restore").tap()
    expect(page.locator("tr.saved")).to_have_count(1)
    assert totals_on_page(page) == BOB_AND_CAT_WIN
    assert len(hands(base_url, session_id)) == 1

    # "Undo last hand" offers Restore too, and the round trip gives the same totals.
    page.get_by_role("button", name="Undo last hand").tap()
    expect(page.get_by_role("status")).to_have_text("Hand 1 undone.")
    assert totals_on_page(page) == ZERO
    page.get_by_role("button", name="Restore").tap()
    expect(page.locator("tr.saved")).to_have_count(1)
    assert totals_on_page(page) == BOB_AND_CAT_WIN


def test_a_usual_hand_is_five_taps_from_the_scoresheet(page: Page, base_url: str) -> None:
    session_id = new_session(base_url)
    page.goto(f"/sessions/{session_id}")
    taps = Taps()
    taps(page.get_by_role("link", name="Record hand"))
    taps(chip(page, "Picker", "Bob"))
    taps(chip(page, "Partner", "Cat"))
    taps(chip(page, "Result", "Won"))
    taps(page.get_by_role("button", name="Save hand"))
    assert taps.count == 5
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved")
    assert totals_on_page(page) == BOB_AND_CAT_WIN
    assert hands(base_url, session_id)[0]["result"] == "won"


def test_a_forced_pick_never_offers_the_dealer_as_partner(
    page: Page, base_url: str, shot: Shot
) -> None:
    session_id = new_session(base_url, no_bid="forced_pick")
    page.goto(f"/sessions/{session_id}/hands/new")
    chip(page, "Partner", "Ann").tap()  # Ann deals the first hand
    page.get_by_label("Everyone passed").tap()
    expect(chip(page, "Partner", "Ann")).to_be_hidden()
    expect(chip(page, "Partner", "Ann")).not_to_be_checked()
    expect(page.locator("#cleared")).to_have_text(
        "Partner Ann cleared: Ann picked, so can't be their own partner."
    )
    shot(page, "forced-pick-partner")
    chip(page, "Partner", "Bob").tap()
    chip(page, "Result", "Lost").tap()
    page.get_by_role("button", name="Save hand").tap()
    # The form has two statuses of its own (what was cleared, the preview): the scoresheet first.
    expect(page).to_have_url(f"{base_url}/sessions/{session_id}?saved=1")
    expect(page.get_by_role("status")).to_contain_text("Hand 1 saved.")
    (hand,) = hands(base_url, session_id)
    assert (hand["picker"], hand["partner"], hand["result"]) == ("Ann", "Bob", "lost")


def test_the_save_bar_never_covers_an_option(page: Page, base_url: str, shot: Shot) -> None:
    session_id = new_session(base_url, no_bid="leaster")
    page.goto(f"/sessions/{session_id}/hands/new")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        bar = page.locator(".savebar").bounding_box()
        assert bar is not None
        # In landscape the bar is slim: well under half the screen.
        assert bar["height"] <= height * 0.3, (width, bar)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for option in page.locator(
            ".hand-form .chip, .hand-form input[type=text], .hand-form select, .hand-form a.btn"
        ).all():
            if not option.is_visible():
                continue
            option.scroll_into_view_if_needed()
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            box = option.bounding_box()
            assert box is not None
            if box["y"] + box["height"] > bar["y"]:
                # Scrolled as far as the page goes, the option sits above the bar.
                raise AssertionError(f"{option} under the Save bar at {width}x{height}")
        shot(page, f"record-hand-bottom-{width}x{height}")


def test_cancel_and_delete_are_tapped_where_they_are_drawn_and_cancel_saves_nothing(
    page: Page, base_url: str, shot: Shot
) -> None:
    session_id = new_session(base_url)
    api(base_url, "POST", f"/api/sessions/{session_id}/hands",
        {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 75})  # fmt: skip
    version = api(base_url, "GET", f"/api/sessions/{session_id}")["version"]
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/sessions/{session_id}/hands/new")
        assert drawn_at_its_centre(page, "Cancel"), (width, height)
        page.goto(f"/sessions/{session_id}/hands/1/edit")
        assert drawn_at_its_centre(page, "Delete"), (width, height)
        assert drawn_at_its_centre(page, "Cancel"), (width, height)
        shot(page, f"edit-hand-bottom-{width}x{height}")
        cancel = page.get_by_role("link", name="Cancel", exact=True).bounding_box()
        assert cancel is not None
        page.mouse.click(cancel["x"] + cancel["width"] / 2, cancel["y"] + cancel["height"] / 2)
        expect(page).to_have_url(f"{base_url}/sessions/{session_id}")
    assert api(base_url, "GET", f"/api/sessions/{session_id}")["version"] == version


def test_another_dealer_on_an_edit_clears_the_crack_it_rules_out(
    page: Page, base_url: str, shot: Shot
) -> None:
    session_id = new_session(base_url)
    api(base_url, "POST", f"/api/sessions/{session_id}/hands",
        {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 75,
         "cracked_by": "Dan"})  # fmt: skip
    page.goto(f"/sessions/{session_id}/hands/1/edit")
    expect(chip(page, "Cracked by", "Dan")).to_be_checked()
    page.get_by_label("Dealer").select_option("Cat")
    expect(page.locator("#cleared")).to_have_text(
        "Cracked by Dan cleared: with Cat dealing, Dan bids before Bob, and only a later "
        "bidder can crack."
    )
    expect(page.get_by_text("Bidding: Dan → Eve → Ann → Bob → Cat")).to_be_visible()
    expect(chip(page, "Cracked by", "Dan")).not_to_be_checked()
    shot(page, "edit-dealer-cleared")
    page.get_by_role("button", name="Save hand").tap()
    expect(page).to_have_url(f"{base_url}/sessions/{session_id}?saved=1")
    (hand,) = hands(base_url, session_id)
    assert (hand["dealer"], hand["cracked_by"], hand["multiplier"]) == ("Cat", None, 1)


NO_PARTNER = "Say who the partner was, or that the picker went alone."
FORTY_FIVE = "The picking team's 45 points mean lost, not won (61 to 90 points)."


@pytest.mark.parametrize("where", ["page", "in place"])
def test_a_refusal_beside_a_field_goes_when_that_field_changes(
    page: Page, base_url: str, shot: Shot, where: str
) -> None:
    session_id = new_session(base_url)
    record_form(page, session_id, where)
    chip(page, "Picker", "Bob").tap()
    chip(page, "Result", "Won").tap()
    page.get_by_role("button", name="Save hand").tap()
    partner = group(page, "Partner")
    expect(partner).to_have_accessible_description(NO_PARTNER)
    expect(page.locator("#partner-error")).to_have_text(NO_PARTNER)
    # Said once: the Save bar points at it.
    expect(page.locator("#preview")).to_have_text("No preview: see above.")
    if where == "page":
        at_widths(page, "record-hand-refused", shot)

    chip(page, "Partner", "Alone").tap()
    expect(page.locator("#preview")).to_have_text("Bob +4, 4 others -1")
    expect(page.locator("#partner-error")).to_have_count(0)
    assert partner.get_attribute("aria-describedby") is None
    expect(page.locator(".hand-form .error")).to_have_count(0)
    page.get_by_role("button", name="Save hand").tap()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
    (hand,) = hands(base_url, session_id)
    assert (hand["picker"], hand["partner"], hand["result"]) == ("Bob", None, "won")


def test_a_refusal_at_the_points_goes_when_they_are_typed_again_on_an_edit(
    page: Page, base_url: str
) -> None:
    session_id = new_session(base_url)
    api(base_url, "POST", f"/api/sessions/{session_id}/hands",
        {"kind": "pick", "picker": "Bob", "partner": "Cat", "picking_points": 75})  # fmt: skip
    page.goto(f"/sessions/{session_id}/hands/1/edit")
    points = page.get_by_label("Picking team points")
    points.fill("119")
    page.get_by_role("button", name="Save hand").tap()
    refusal = "Picking team points can't be 119: no set of cards is worth exactly 1 point."
    expect(page.locator("#picking_points-error")).to_have_text(refusal)
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(points).to_have_accessible_description(refusal)

    points.fill("91")
    expect(page.locator("#picking_points-error")).to_have_count(0)
    assert points.get_attribute("aria-invalid") is None
    assert points.get_attribute("aria-describedby") is None
    expect(page.locator("#preview")).to_have_text("Bob +4, Cat +2, Ann, Dan, Eve -2")


@pytest.mark.parametrize("where", ["page", "in place"])
def test_a_refused_result_is_said_once_at_the_result(
    page: Page, base_url: str, shot: Shot, where: str
) -> None:
    session_id = new_session(base_url)
    record_form(page, session_id, where)
    bob_and_cat(page)
    chip(page, "Result", "Won").tap()
    page.get_by_label("Picking team points").fill("45")
    page.get_by_role("button", name="Save hand").tap()
    # The refused form's preview has answered, and points to the result.
    expect(page.locator("#preview")).to_have_text("No preview: see the result.")
    result = group(page, "Result")
    expect(result.get_by_text(FORTY_FIVE)).to_have_count(1)
    expect(result).to_have_accessible_description(FORTY_FIVE)
    shot(page, f"record-hand-refused-result-{where.replace(' ', '-')}")

    # Points that agree with Won take the refusal away.
    page.get_by_label("Picking team points").fill("75")
    expect(page.locator("#preview")).to_have_text("Bob +2, Cat +1, Ann, Dan, Eve -1")
    expect(result.locator(".error, .live-error:visible")).to_have_count(0)
