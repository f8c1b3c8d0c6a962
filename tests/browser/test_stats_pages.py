"""A season of sessions, then the leaderboard and a player page at phone size, light and dark."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Page, expect
from sqlalchemy import select, update

from harness.threaded_server import serving
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, Session

from ..helpers.api import pick
from ..helpers.browser import (
    Shot,
    api,
    app_on_new_database,
    assert_phone_friendly,
    at_widths,
    axe_violations,
)
from ..helpers.tables import FIRST_SEATS, HANDS

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


# The links of the lists on these pages are tapped too.
LIST_LINKS = ".back a, .ranking a, .player-sessions a, input"


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
    assert_phone_friendly(page, LIST_LINKS)

    # The club's leader: the server's database may hold other tests' players too.
    club = page.get_by_role("link", name=re.compile(f"^({'|'.join(CLUB)})$"))
    leader = page.locator("table.ranking").first.locator("tbody tr").filter(has=club).first
    name = leader.locator("th a").inner_text()
    leader.locator("th a").tap()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    assert page.url.endswith(f"/players/{ids[name]}")
    points = page.locator('svg.chart[aria-label$="season total"] polyline').get_attribute("points")
    points = points or ""
    sessions = page.locator("table.player-sessions tbody tr")
    played = page.locator("table.player-stats tr", has_text="Sessions played").locator("td")
    # From 0, then a point after each of the season's 12 weeks at most; the last 50 listed.
    assert 0 < int(played.inner_text()) <= 12
    assert len(points.split()) == int(played.inner_text()) + 1
    assert sessions.count() == min(int(played.inner_text()), 50)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"player-{scheme}", full_page=True)
    assert_phone_friendly(page, LIST_LINKS)

    # A range with no sessions of this player, then a date the page can't read. The filters
    # open with a tap.
    expect(page.get_by_label("From")).to_be_hidden()
    page.get_by_text("Dates and house rules").tap()
    page.get_by_label("From").fill("2030-01-01")
    page.get_by_role("button", name="Show").tap()
    expect(page.get_by_text(f"{name} has no hands in these dates.")).to_be_visible()
    page.goto(f"/players/{ids['Greta']}?from=2026-02-30")
    expect(page.get_by_role("alert")).to_have_text(
        "From: “2026-02-30” is not a date. A date is written like 2026-11-21."
    )
    shot(page, "player-bad-date")
    assert_phone_friendly(page, LIST_LINKS)


def test_player_page_of_a_table_that_changes(page: Page, tmp_path: Path, shot: Shot) -> None:
    """Six seated, Gus arrives, Dan leaves (tests/any_table.py): Gus's numbers by table size,
    and Dan's session still listed after he left. On a scorekeeper of its own, so that no other
    test's Gus or Dan counts."""
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        session = api(url, "POST", "/api/sessions", {"players": FIRST_SEATS, "rounds": 1})
        for seats, hand in HANDS:
            if seats is not None:
                api(url, "PATCH", f"/api/sessions/{session['id']}", {"players": seats})
            api(url, "POST", f"/api/sessions/{session['id']}/hands", hand)
        with own.app_context():
            ids = {name: id_ for name, id_ in db.session.execute(select(Player.name, Player.id))}

        page.goto(f"{url}/players/{ids['Gus']}")
        expect(page.get_by_role("heading", name="By table size")).to_be_visible()
        sizes = page.locator("table.player-sizes tbody tr")
        expect(sizes).to_have_count(2)
        expect(sizes.nth(0)).to_have_text(re.compile(r"6\s*2\s*2 100%\s*\+2\.50\s*0 of 0"))
        expect(sizes.nth(1)).to_have_text(re.compile(r"7\s*1\s*1 100%\s*\+8\.00\s*1 of 1"))
        shot(page, "player-by-table-size", full_page=True)
        assert_phone_friendly(page, LIST_LINKS)
        assert axe_violations(page) == []

        page.goto(f"{url}/players/{ids['Dan']}")
        expect(page.locator("table.player-sessions tbody tr")).to_have_count(1)
        expect(page.locator("table.player-stats")).to_contain_text("Hands played4")


HOUSE_NIGHT: list[dict[str, Any]] = [
    {"kind": "pick", "picker": "Ann", "partner": "Bob", "result": "lost"},
    {"kind": "pass"},
    {"kind": "pass"},
    {"kind": "penalty", "penalized": "Dan"},
    pick("Bob", "Cat", 95, cracked_by="Dan", recracked=True),
    pick("Cat", None, 120, result="won_schneider"),
    pick("Eve", "Ann", 10, result="lost_schwarz"),
]


def test_house_rules_filters_penalties_and_the_penalty_mark(
    page: Page, tmp_path: Path, shot: Shot
) -> None:
    """The house rules night of tests/exchange/test_csv_export.py beside a night by the seed's
    rules: the sessions list by house rules, a player's penalties and card points left out, and
    the penalty hand marked on the running totals. On a scorekeeper of its own."""
    rules = {"no_bid": "doubler", "bump": True, "schwarz": "tricks", "doublers": "stack",
             "max_multiplier": 8, "penalties": True, "stake": 25}  # fmt: skip
    seats = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        api(url, "POST", "/api/sessions", {"name": "Seed", "players": seats, "rounds": 1})
        night = api(url, "POST", "/api/sessions",
                    {"name": "House", "players": seats, "rounds": 0, "rules": rules})  # fmt: skip
        for hand in HOUSE_NIGHT:
            api(url, "POST", f"/api/sessions/{night['id']}/hands", hand)
        with own.app_context():
            ids = {name: id_ for name, id_ in db.session.execute(select(Player.name, Player.id))}

        page.goto(f"{url}/sessions")
        page.get_by_text("Dates and house rules").tap()
        page.get_by_label("Bump").check()
        page.get_by_label("Penalty hands").check()
        page.get_by_role("button", name="Show").tap()
        expect(page.locator("ul.sessions li")).to_have_count(1)
        expect(page.locator("ul.sessions li")).to_contain_text(
            "Bump · Schwarz by tricks · Stacked doublers · Multiplier cap x8 · Penalty hands"
        )
        expect(page.get_by_label("Bump")).to_be_checked()
        shot(page, "sessions-by-house-rules", full_page=True)
        assert_phone_friendly(page, LIST_LINKS)
        assert axe_violations(page) == []
        page.get_by_label("No house rule").check()
        page.get_by_role("button", name="Show").tap()
        expect(page.get_by_role("alert")).to_have_text(
            "“No house rule” can't go with Bump, Penalty hands: untick one."
        )
        page.get_by_label("Bump").uncheck()
        page.get_by_label("Penalty hands").uncheck()
        page.get_by_role("button", name="Show").tap()
        expect(page.locator("ul.sessions li")).to_have_count(1)
        expect(page.locator("ul.sessions li a")).to_have_text("Seed")

        page.goto(f"{url}/players/{ids['Dan']}?penalties=y")
        expect(page.locator("table.player-stats")).to_contain_text("Penalties1 hand")
        expect(page.get_by_text("All sessions, played with penalty hands")).to_be_visible()
        page.goto(f"{url}/players/{ids['Ann']}")
        expect(page.locator("table.player-stats")).to_contain_text(
            "0 picks with points · 1 recorded by result only, left out"
        )
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            shot(page, f"player-house-rules-{scheme}", full_page=True)
        assert_phone_friendly(page, LIST_LINKS)
        assert axe_violations(page) == []

        page.emulate_media(color_scheme="light")
        page.goto(f"{url}/sessions/{night['id']}")
        dot = page.locator("svg.chart g[data-name='Dan'] circle")
        expect(dot).to_have_count(1)
        expect(dot.locator("title")).to_have_text("Hand 4: penalty, Dan -4")
        box = dot.bounding_box()
        assert box is not None and box["width"] >= 5
        chart = page.locator("svg.chart")
        expect(chart).to_have_attribute(
            "aria-label", "Running totals, hand by hand. Hand 4: penalty, Dan -4."
        )
        chart.scroll_into_view_if_needed()
        shot(page, "chart-penalty-mark")
        assert axe_violations(page) == []


# The rating's worked example of RULES.md, played twenty times: every regular rated after it.
WORKED: list[dict[str, Any]] = [
    pick("Ann", "Bob", 75),
    pick("Cat", None, 45),
    pick("Dan", "Eve", 91),
    {"kind": "leaster", "winner": "Bob"},
    pick("Eve", "Ann", 30),
]


def test_the_rating_on_the_leaderboard_and_a_player_page(
    page: Page, tmp_path: Path, shot: Shot
) -> None:
    """Five regulars with 100 rated hands and more, Fay with 3 (provisional): the ranking by
    rating and a player's rating and its chart, at every width, light and dark. On a
    scorekeeper of its own."""
    leasters = {"no_bid": "leaster"}
    with app_on_new_database(tmp_path) as own, serving(own) as url:
        regulars = api(url, "POST", "/api/sessions",
                       {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 0,
                        "rules": leasters})  # fmt: skip
        for hand in WORKED * 20:
            api(url, "POST", f"/api/sessions/{regulars['id']}/hands", hand)
        later = api(url, "POST", "/api/sessions",
                    {"players": ["Ann", "Bob", "Cat", "Dan", "Fay"], "rounds": 0,
                     "rules": leasters})  # fmt: skip
        for hand in (pick("Fay", "Ann", 80), pick("Bob", None, 40), pick("Cat", "Fay", 95)):
            api(url, "POST", f"/api/sessions/{later['id']}/hands", hand)

        page.goto(f"{url}/leaderboard")
        heading = page.get_by_role("heading", name="By rating")
        expect(heading).to_be_visible()
        rows = page.locator("table.ranking").last.locator("tbody tr")
        expect(rows).to_have_count(6)
        expect(rows.first.locator("td.place")).to_have_text("1")
        expect(rows.last).to_contain_text("Fay")
        expect(rows.last).to_contain_text("provisional, 3 rated hands")
        expect(rows.last.locator("td.place")).to_have_text("")
        heading.scroll_into_view_if_needed()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            shot(page, f"leaderboard-rating-{scheme}", full_page=True)
        page.emulate_media(color_scheme="light")
        at_widths(page, "leaderboard-rating", shot)
        assert_phone_friendly(page, LIST_LINKS)

        rows.first.locator("th a").tap()
        expect(page.get_by_role("heading", name="Rating")).to_be_visible()
        expect(page.locator("p.rating-now")).to_contain_text("rated hands, over every session")
        chart = page.locator('svg.chart[aria-label$="rating"]')
        expect(chart).to_be_visible()
        # From 0.0, then after each of the two sessions.
        points = chart.locator("polyline").get_attribute("points") or ""
        assert len(points.split()) == 3
        chart.scroll_into_view_if_needed()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            shot(page, f"player-rating-{scheme}", full_page=True)
        page.emulate_media(color_scheme="light")
        at_widths(page, "player-rating", shot)
        assert_phone_friendly(page, LIST_LINKS)

        page.goto(f"{url}/leaderboard")
        page.locator("table.ranking").last.locator("tbody tr").last.locator("th a").tap()
        expect(page.locator("p.rating-now")).to_contain_text("provisional: 3 of 100 rated hands")
        at_widths(page, "player-rating-provisional", shot)
