"""Browser tests: real Chromium at phone size against a live server of the app."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.sessions.extensions import db

SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


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
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
        # Only the offline tests install the service worker, whose background fetches would
        # otherwise be cut off as each test closes its browser.
        "service_workers": "block",
    }


@contextmanager
def app_on_new_database(folder: Path) -> Iterator[Flask]:
    """An app with its tables made in a new SQLite database in `folder`."""
    database = folder / "scorekeeper.sqlite3"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SECRET_KEY": "b"})
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app and database for the browser tests; each test starts sessions of its own."""
    with app_on_new_database(tmp_path_factory.mktemp("browser")) as app:
        yield app


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """The app served on a free local port, in a thread; yields its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="session")
def base_url(live_app: Flask) -> Iterator[str]:
    with serving(live_app) as url:
        yield url


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Any:
    """Save a phone-size screenshot of the page under tests/browser/screenshots/."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page: Any, name: str, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


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
