"""A season of sessions, then the leaderboard and a player page at phone size, light and dark."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Page, expect
from sqlalchemy import select, update

from scorekeeper.extensions import db
from scorekeeper.models import Player, Session

from ..any_table import FIRST_SEATS, HANDS
from ..helpers import pick
from .conftest import axe_violations
from .test_table import api

Shot = Callable[..., Path]
CLUB = ["Greta", "Hank", "Irma", "Jules", "Kurt", "Lena", "Milo", "Nora"]
POINTS = [0, 20, 35, 45, 55, 60, 61, 70, 75, 80, 88, 91, 95, 100, 120]


def season_hands(seats: list[str], no_bid: str, rng: random.Random) -> list[dict[str, Any]]:
    """Ten hands a table might play: picks with partners or alone, cracks, leasters."""
    hands = []
    for number in range(10):
        dealer = number % 5
        order = seats[dealer + 1 :] + seats[: dealer + 1]
        if no_bid == "leaster" and rng.random() < 0.2:
            hands.append({"kind": "leaster", "winner": rng.choice(seats)})
            continue
        picker = rng.choice(order)
        partner = None if rng.random() < 0.2 else rng.choice([p for p in seats if p != picker])
        hand = pick(picker, partner, rng.choice(POINTS))
        after = order[order.index(picker) + 1 :]
        if after and rng.random() < 0.15:
            hand["cracked_by"] = rng.choice(after)
        hands.append(hand)
    return hands


def play_season(base_url: str, live_app: Flask) -> dict[str, int]:
    rng = random.Random(7)
    start = datetime(2026, 1, 9, 19, tzinfo=UTC)
    for week in range(12):
        seats = rng.sample(CLUB, 5)
        no_bid = rng.choice(["forced_pick", "leaster"])
        session = api(base_url, "POST", "/api/sessions",
                      {"players": seats, "rounds": 2, "rules": {"no_bid": no_bid}})  # fmt: skip
        for hand in season_hands(seats, no_bid, rng):
            api(base_url, "POST", f"/api/sessions/{session['id']}/hands", hand)
        with live_app.app_context():
            db.session.execute(
                update(Session)
                .where(Session.id == session["id"])
                .values(created_at=start + timedelta(weeks=week))
            )
            db.session.commit()
    with live_app.app_context():
        players = db.session.scalars(select(Player).where(Player.name.in_(CLUB)))
        return {player.name: player.id for player in players}


def assert_phone_friendly(page: Page) -> None:
    """No sideways scrolling, and every button, field and link in a list big enough to tap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    targets = ".btn, input, .back a, .ranking a, .player-sessions a"
    for control in page.locator(targets).all():
        if control.is_visible():
            box = control.bounding_box()
            assert box is not None and box["height"] >= 44, control


def test_leaderboard_and_player_page(
    page: Page, base_url: str, live_app: Flask, shot: Shot
) -> None:
    ids = play_season(base_url, live_app)

    page.goto("/leaderboard?min_picks=3")
    expect(page.get_by_role("heading", name="By total")).to_be_visible()
    totals = page.locator("table.ranking").first.locator("tbody tr")
    assert totals.count() >= len(CLUB)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"leaderboard-{scheme}", full_page=True)
    assert_phone_friendly(page)

    leader = page.locator("table.ranking").first.locator("tbody tr").first
    name = leader.locator("th a").inner_text()
    leader.locator("th a").tap()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    if name in ids:
        assert page.url.endswith(f"/players/{ids[name]}")
    points = page.locator("svg.chart polyline").get_attribute("points") or ""
    sessions = page.locator("table.player-sessions tbody tr")
    assert len(points.split()) == sessions.count() > 0
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"player-{scheme}", full_page=True)
    assert_phone_friendly(page)

    # A range with no sessions of this player, then a date the page can't read.
    page.get_by_label("From").fill("2030-01-01")
    page.get_by_role("button", name="Show").tap()
    expect(page.get_by_text(f"{name} has no hands in these dates.")).to_be_visible()
    page.goto(f"/players/{ids['Greta']}?from=2026-02-30")
    expect(page.get_by_role("alert")).to_have_text(
        "From: “2026-02-30” is not a date. A date is written like 2026-11-21."
    )
    shot(page, "player-bad-date")
    assert_phone_friendly(page)


def test_player_page_of_a_table_that_changes(
    page: Page, base_url: str, live_app: Flask, shot: Shot
) -> None:
    """Six seated, Gus arrives, Dan leaves (tests/any_table.py): Gus's numbers by table size,
    and Dan's session still listed after he left."""
    session = api(base_url, "POST", "/api/sessions", {"players": FIRST_SEATS, "rounds": 1})
    for seats, hand in HANDS:
        if seats is not None:
            api(base_url, "PATCH", f"/api/sessions/{session['id']}", {"players": seats})
        api(base_url, "POST", f"/api/sessions/{session['id']}/hands", hand)
    with live_app.app_context():
        ids = {
            name: player_id
            for name, player_id in db.session.execute(select(Player.name, Player.id))
        }

    page.goto(f"/players/{ids['Gus']}")
    expect(page.get_by_role("heading", name="By table size")).to_be_visible()
    sizes = page.locator("table.player-sizes tbody tr")
    expect(sizes).to_have_count(2)
    expect(sizes.nth(0)).to_have_text(re.compile(r"6\s*2\s*2 100%\s*\+2\.50\s*0 of 0"))
    expect(sizes.nth(1)).to_have_text(re.compile(r"7\s*1\s*1 100%\s*\+8\.00\s*1 of 1"))
    shot(page, "player-by-table-size", full_page=True)
    assert_phone_friendly(page)
    assert axe_violations(page) == []

    page.goto(f"/players/{ids['Dan']}")
    expect(page.locator("table.player-sessions tbody tr")).to_have_count(1)
    expect(page.locator("table.player-stats")).to_contain_text("Hands played4")
