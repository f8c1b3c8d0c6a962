"""Chromium's pages at phone size: the app served to it, the API called beside it, a page's
controls tapped and checked, and what axe-core finds wrong."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import Request, build_opener, urlopen

from flask import Flask
from playwright.sync_api import Locator, Page, expect

from harness.proxy import LoopbackHTTPSHandler
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db

from .access import FAST_HASH
from .api import SEATS

Shot = Callable[..., Path]
WIDTHS = (320, 390, 768)
# How the browser tests launch Chromium: without these, it keeps trying to reach the internet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# A phone: its screen, touch and pixels.
PHONE = {"width": 390, "height": 844}
PHONE_CONTEXT: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
# Names no resolver knows, served on this computer behind an https proxy, each with the root
# certificate of the authority that signed its certificate: the https tests' scores.test.
AT_LOOPBACK: dict[str, Path] = {}
# What this phone still has to send.
UNSENT = "window.outbox.entries()"
# True once the scoresheet has kept its session's record form for opening in place (read anew
# on each try).
FORM_KEPT = """key => {
    window.idbKeyval.get(key).then((kept) => { window.formKept = Boolean(kept); });
    return window.formKept;
}"""
# The three hands a session starts with, unless a test gives others: picker, partner, points.
THREE_HANDS = (("Ann", "Bob", 75), ("Bob", "Cat", 30), ("Cat", "Dan", 95))


@contextmanager
def app_on_new_database(folder: Path) -> Iterator[Flask]:
    """An app with its tables made in a new SQLite database in `folder`."""
    database = folder / "scorekeeper.sqlite3"
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": "b",
            "RATING_RECOMPUTE": "inline",
            "PASSWORD_HASH": FAST_HASH,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


AXE = Path(__file__).parents[1] / "browser" / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[str]:
    """What axe-core finds wrong with the page as it stands, one line a rule and element."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {violation['help']}"
        for violation in results["violations"]
        for node in violation["nodes"]
    ]


@contextmanager
def reached_at_loopback(name: str, root: Path) -> Iterator[None]:
    """`api` reaches https://name at 127.0.0.1, trusting the authority of `root`, while the
    `with` lasts."""
    AT_LOOPBACK[name] = root
    try:
        yield
    finally:
        del AT_LOOPBACK[name]


def api(base_url: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = Request(base_url + path, data=data, method=method,
                      headers={"Content-Type": "application/json"})  # fmt: skip
    root = AT_LOOPBACK.get(urlsplit(base_url).hostname or "")
    opened = (
        urlopen(request) if root is None else build_opener(LoopbackHTTPSHandler(root)).open(request)
    )
    with opened as response:
        return json.loads(response.read() or b"null")


class Taps:
    """Taps on the phone, counted, to hold recording a usual hand to a few taps."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.tap()
        self.count += 1


def group(page: Page, legend: str) -> Locator:
    return page.get_by_role("group", name=legend)


def chip(page: Page, legend: str, name: str) -> Locator:
    return group(page, legend).get_by_label(name, exact=True)


def save(page: Page) -> None:
    """Tap Save hand and wait for the scoresheet it returns to."""
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("tr.saved")).to_have_count(1)


def totals_on_page(page: Page) -> dict[str, int]:
    rows = page.locator("table.standings tbody tr")
    return {
        rows.nth(i).locator("th").inner_text(): int(rows.nth(i).locator("td.total").inner_text())
        for i in range(rows.count())
    }


def assert_phone_friendly(page: Page, more: str = "") -> None:
    """No sideways scrolling outside the score grid, and every control (and whatever `more`
    selects, such as the links of a list) big enough to tap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    targets = ", ".join(filter(None, (".btn, .chip, .toggle, input[type=text], select", more)))
    assert too_small(page, targets, width=0) == []


# The visible controls `selector` finds that are less than `height` px high or `width` px wide,
# each as the start of its HTML and its size; visible as Playwright has it (a box of some
# size, and not visibility: hidden), measured in one call rather than two for each control.
TOO_SMALL = """([selector, width, height]) => [...document.querySelectorAll(selector)]
    .map((control) => [control, control.getBoundingClientRect()])
    .filter(([control, box]) => box.width > 0 && box.height > 0
        && getComputedStyle(control).visibility !== "hidden")
    .filter(([, box]) => box.width < width || box.height < height)
    .map(([control, box]) =>
        `${control.outerHTML.slice(0, 120)} is ${box.width} x ${box.height} px`)"""


def too_small(page: Page, selector: str, width: int = 44, height: int = 44) -> list[str]:
    """The visible controls `selector` finds that a thumb would miss."""
    found: list[str] = page.evaluate(TOO_SMALL, [selector, width, height])
    return found


# Controls a thumb taps: each at least 44 px high and wide.
TARGETS = (
    ".btn, .chip, .toggle, input[type=text], select, .seats button, .table-seats .move, "
    ".grid .change a"
)


def checked(page: Page, width: int) -> None:
    """No sideways scrolling, every control big enough to tap, and nothing axe finds wrong."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert too_small(page, TARGETS) == []
    assert axe_violations(page) == []


def seat(page: Page, number: int) -> Locator:
    return page.get_by_label(f"Seat {number}", exact=True)


def drawn_at_its_centre(page: Page, name: str) -> bool:
    """Whether the link named `name`, scrolled to the end of the page, is what a tap on its
    centre reaches."""
    link = page.get_by_role("link", name=name, exact=True)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    return bool(
        link.evaluate(
            """link => {
                const box = link.getBoundingClientRect();
                const x = box.x + box.width / 2, y = box.y + box.height / 2;
                return link.contains(document.elementFromPoint(x, y));
            }"""
        )
    )


def hands_of(base_url: str, session_id: int) -> list[tuple[int, str, Any, int]]:
    hands = api(base_url, "GET", f"/api/sessions/{session_id}")["hands"]
    return [(h["number"], h["picker"], h["partner"], h["picking_points"]) for h in hands]


def fill(page: Page, picker: str, partner: str, points: int) -> None:
    chip(page, "Picker", picker).tap()
    chip(page, "Partner", partner).tap()
    page.get_by_label("Picking team points").fill(str(points))


def form_kept(page: Page, session_id: int) -> None:
    """Wait until the scoresheet has kept its record form: Record hand then opens it in place."""
    page.wait_for_function(FORM_KEPT, arg=f"form {session_id}")


def outbox(page: Page) -> Any:
    return page.locator("#outbox")


def at_widths(page: Page, name: str, shot: Shot) -> None:
    """Screenshots at each phone and tablet width; no sideways scrolling at any, and nothing
    axe-core finds wrong."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"{name}-{width}", full_page=True)
        assert axe_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})


NAMES = [
    "home", "sessions", "new-session", "scoresheet", "record-hand", "edit-hand", "delete-hand",
    "delete-session", "seats", "seats-after-a-leaver", "ended-scoresheet", "rename-rounds",
    "settle-up", "season-settle-up", "changes", "leaderboard",
    "players", "player", "player-sessions", "rule-sets", "share", "settings", "import",
    "import-nights", "trash", "not-found",
    "events", "new-event", "event", "draw-round", "round-tables", "event-board", "event-results",
    "edit-event", "event-standings", "practice-event", "delete-event", "finished-table",
    "seasons", "season", "edit-season", "delete-season", "install",
    "new-night", "night", "edit-night", "night-settle-up",
    "share-results", "shared-season", "shared-event", "shared-session", "shared-night",
    "shared-gone",
]  # fmt: skip


def session_with_hands(
    base_url: str, name: str, hands: Sequence[tuple[str, str, int]] = THREE_HANDS
) -> int:
    """A session of SEATS named `name`, with picks of (picker, partner, points); its id."""
    session = api(base_url, "POST", "/api/sessions", {"players": SEATS, "rounds": 0, "name": name})
    for picker, partner, points in hands:
        api(
            base_url,
            "POST",
            f"/api/sessions/{session['id']}/hands",
            {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points},
        )
    return int(session["id"])


# Ten players for a club event: two tables of five.
EVENT_PLAYERS = [*SEATS, "Fay", "Gus", "Hal", "Ivy", "Jon"]


def event_drawn(base_url: str, name: str, **given: Any) -> dict[str, Any]:
    """A new event (`given` as in its POST) with EVENT_PLAYERS checked in and round 1 drawn."""
    event = api(base_url, "POST", "/api/events", {"name": name, "seed": 7, **given})
    for player in EVENT_PLAYERS:
        api(base_url, "POST", f"/api/events/{event['id']}/players", {"name": player})
    drawn: dict[str, Any] = api(base_url, "POST", f"/api/events/{event['id']}/rounds", {})
    return drawn
