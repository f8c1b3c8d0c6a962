"""Browser tests: real Chromium at phone size against a live server of the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from sqlalchemy import select

from harness.browser import chromium_path
from harness.threaded_server import serving
from scorekeeper import rules
from scorekeeper.exchange import rule_sets as saved_rule_sets
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player

from ..helpers.api import SEATS
from ..helpers.browser import (
    CHROMIUM_ARGS,
    EVENT_PLAYERS,
    PHONE_CONTEXT,
    api,
    app_on_new_database,
    event_drawn,
    session_with_hands,
)

SCREENSHOTS = Path(__file__).parent / "screenshots"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if chromium_path() is None:
        skip = pytest.mark.skip(
            reason="No Chromium found: install it (Debian: apt-get install chromium) "
            "or set CHROMIUM to its path."
        )
        for item in items:
            if "browser" in item.path.parts:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path(),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        **PHONE_CONTEXT,
        # Only the offline tests install the service worker, whose background fetches would
        # otherwise be cut off as each test closes its browser.
        "service_workers": "block",
    }


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app and database for the browser tests; each test starts sessions of its own."""
    with app_on_new_database(tmp_path_factory.mktemp("browser")) as app:
        yield app


@pytest.fixture(scope="session")
def base_url(live_app: Flask) -> Iterator[str]:
    with serving(live_app) as url:
        yield url


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Any:
    """Save a phone-size screenshot of the page under tests/browser/screenshots/, a pixel of the
    image for each CSS pixel: the phone draws at twice that, and a full page at its own pixels
    took a screenshot two to three times as long to make and to encode."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page: Any, name: str, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, scale="css")
        return path

    return take


@pytest.fixture(scope="module")
def pages(base_url: str, live_app: Flask) -> dict[str, str]:
    """Each page's name and path, with a session of three hands, a rule set and a deleted
    session to show."""
    sid = session_with_hands(base_url, "Pages")
    thrown = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 1})
    api(base_url, "DELETE", f"/api/sessions/{thrown['id']}")
    with live_app.app_context():
        rule_set_id = saved_rule_sets.save("Pages house rules", rules.Options()).id
        player_id = db.session.scalars(select(Player.id).where(Player.name == "Ann")).one()
    staked = session_with_hands(base_url, "Pages")
    api(base_url, "PATCH", f"/api/sessions/{staked}", {"rules": {"stake": 25}})
    api(base_url, "PATCH", f"/api/sessions/{staked}", {"players": SEATS[1:]})
    ended = session_with_hands(base_url, "Pages")
    api(base_url, "PATCH", f"/api/sessions/{ended}", {"ended": True})
    checking_in = api(
        base_url,
        "POST",
        "/api/events",
        {"name": "Pages night", "seed": 3, "apart": [["Ann", "Bob"], ["Cat", "Dan"]]},
    )
    for name in EVENT_PLAYERS[:7]:
        api(base_url, "POST", f"/api/events/{checking_in['id']}/players", {"name": name})
    prizes = {"hands": 5, "rounds": 2, "entry": 1000, "places": [50, 20, 10], "round_top": 5}
    event = event_drawn(base_url, "Pages event", **prizes)
    for table in event["draws"][0]["tables"]:
        seats = table["seats"]
        hand = {"kind": "pick", "picker": seats[1], "partner": seats[2], "picking_points": 75}
        api(base_url, "POST", f"/api/sessions/{table['session']}/hands", hand)
    practice = event_drawn(base_url, "Pages rehearsal", hands=1, practice=True)
    finished = practice["draws"][0]["tables"][0]
    api(base_url, "POST", f"/api/events/{practice['id']}/rounds/1/practice-hands", {})
    practice = event_drawn(base_url, "Pages rehearsal", hands=1, practice=True)
    season = api(
        base_url,
        "POST",
        "/api/seasons",
        {"name": f"Pages season {sid}", "first_day": "2000-01-01", "last_day": "2099-12-31"},
    )
    api(base_url, "PATCH", f"/api/seasons/{season['id']}", {"min_hands": 5})
    night = api(base_url, "POST", "/api/sessions",
                {"played_on": "2010-12-29", "name": "Pages night",
                 "totals": {"Ann": 5, "Bob": -2, "Cat": -3, "Dan": 0}})  # fmt: skip
    shared = {
        f"shared-{kind}": urlsplit(api(base_url, "POST", "/api/shares", {key: target})["url"]).path
        for kind, key, target in (
            ("season", "season", season["id"]),
            ("event", "event", event["id"]),
            ("session", "session", sid),
            ("night", "session", night["id"]),
        )
    }
    return {
        **shared,
        "share-results": f"/seasons/{season['id']}/share",
        "shared-gone": "/shared/1.no-such-secret",
        "home": "/",
        "sessions": "/sessions",
        "new-session": "/sessions/new",
        "scoresheet": f"/sessions/{sid}",
        "record-hand": f"/sessions/{sid}/hands/new",
        "edit-hand": f"/sessions/{sid}/hands/2/edit",
        "delete-hand": f"/sessions/{sid}/hands/2/delete",
        "delete-session": f"/sessions/{sid}/delete",
        "seats": f"/sessions/{sid}/seats",
        "seats-after-a-leaver": f"/sessions/{staked}/seats",
        "ended-scoresheet": f"/sessions/{ended}",
        "rename-rounds": f"/sessions/{sid}/edit",
        "settle-up": f"/sessions/{sid}/settle-up",
        "season-settle-up": "/settle-up",
        "changes": f"/sessions/{sid}/changes",
        "leaderboard": "/leaderboard",
        "players": "/players",
        "player": f"/players/{player_id}",
        "player-sessions": f"/players/{player_id}/sessions",
        "rule-sets": "/rule-sets",
        "share": f"/rule-sets/{rule_set_id}/share",
        "settings": "/settings",
        "import": "/sessions/import",
        "import-nights": "/nights/import",
        "trash": "/trash",
        "not-found": "/no-such-page",
        "events": "/events",
        "new-event": "/events/new",
        "event": f"/events/{checking_in['id']}",
        "draw-round": f"/events/{checking_in['id']}/draw",
        "round-tables": f"/events/{event['id']}/rounds/1",
        "event-board": f"/events/{event['id']}/board",
        "event-results": f"/events/{event['id']}/results",
        "edit-event": f"/events/{event['id']}/edit",
        "event-standings": f"/events/{event['id']}/standings",
        "practice-event": f"/events/{practice['id']}",
        "delete-event": f"/events/{practice['id']}/delete",
        "finished-table": f"/sessions/{finished['session']}",
        "seasons": "/seasons",
        "season": f"/seasons/{season['id']}",
        "edit-season": f"/seasons/{season['id']}/edit",
        "delete-season": f"/seasons/{season['id']}/delete",
        "install": "/install",
        "new-night": "/sessions/nights/new",
        "night": f"/sessions/{night['id']}",
        "edit-night": f"/sessions/{night['id']}/night",
        "night-settle-up": f"/sessions/{night['id']}/settle-up",
    }
