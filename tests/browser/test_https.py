"""https, through the proxies the README shows: gunicorn as `make run` serves it (bound to
0.0.0.0, TRUSTED_PROXIES=1), Caddy in front as `make run HTTPS=1` runs it, with its own
certificate authority, under a test name (scores.test), and nginx with the README's block. In
Chromium over https the service worker registers, the app has nothing in the way of installing,
and a session opened once opens and records with no network; Install on a phone offers Caddy's
root. Cookies are Secure and HSTS is sent over https alone; the proxy's X-Forwarded-* are
believed and no one else's; an invite's link names the https address; a request around the
proxy, straight to the app's port, is refused.

Caddy and gunicorn start once for the module. Skipped, saying so, where Caddy isn't found; the
nginx test where nginx isn't."""

from __future__ import annotations

import hashlib
import http.client
import json
import sqlite3
import ssl
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from playwright.sync_api import Browser, BrowserType, Page, expect

from harness.browser import chromium_path
from harness.live_server import SECRET_KEY, Answer, LiveServer
from harness.proxy import (
    Caddy,
    LoopbackHTTPSConnection,
    Nginx,
    caddy_path,
    nginx_path,
    spki_sha256,
)
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db
from scorekeeper.web import hosts

from ..faults.server import FaultServer
from ..helpers.api import SEATS
from ..helpers.browser import (
    CHROMIUM_ARGS,
    PHONE_CONTEXT,
    WIDTHS,
    Shot,
    checked,
    chip,
    reached_at_loopback,
    session_with_hands,
)
from ..helpers.offline import (
    a_session_opened_once_opens_with_no_network,
    hands_saved_offline_arrive_once_in_order,
)

HOST = "scores.test"
# A hand recorded on one phone shows on another within 2 s: with time to spare.
LIVE_WITHIN_S = 2.5
HSTS = "max-age=31536000"
AROUND = (
    "This scorekeeper answers through its https address alone, not at this port: "
    "open it at its https address."
)
# A client's own claims, which no proxy passes on as they are.
FORGED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http"}

pytestmark = pytest.mark.skipif(
    caddy_path() is None,
    reason="No Caddy found: install it (Debian: apt-get install caddy) or set CADDY to its path.",
)


@dataclass
class Served:
    app: LiveServer
    caddy: Caddy
    # The `flask` commands, run in this process on the server's database.
    cli: FlaskCliRunner


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("https")
    for log in ("caddy.log", "gunicorn.log"):
        (folder / log).touch()
    caddy = Caddy(
        caddy=caddy_path() or "caddy", name=HOST, data=folder / "caddy", log=folder / "caddy.log"
    )
    app = FaultServer(
        f"sqlite:///{folder / 'scorekeeper.sqlite3'}",
        host="0.0.0.0",
        env={"TRUSTED_PROXIES": "1", "ALLOWED_HOSTS": HOST, "CA_ROOT": str(caddy.root)},
        log=folder / "gunicorn.log",
    )
    app.fresh_schema()
    app.start()
    try:
        caddy.app_port = app.port
        caddy.start()
        try:
            with reached_at_loopback(HOST, caddy.root), app_on(app.database) as made:
                yield Served(app, caddy, made.test_cli_runner())
        finally:
            caddy.stop()
    finally:
        app.kill()


@contextmanager
def app_on(database: str) -> Iterator[Flask]:
    made = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": SECRET_KEY})
    try:
        yield made
    finally:
        with made.app_context():
            db.engine.dispose()


@pytest.fixture(scope="module")
def base_url(served: Served) -> str:
    return served.caddy.url


def chromium(served: Served) -> dict[str, Any]:
    """Chromium that reaches scores.test at 127.0.0.1 and trusts Caddy's authority, by the key
    of the intermediate that signs the name's certificate: a browser launched for a test has no
    store of its own to install the root in, as a phone has."""
    trusted = spki_sha256(served.caddy.intermediate.read_text(encoding="ascii"))
    return {
        "executable_path": chromium_path(),
        "args": [
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={trusted}",
        ],
    }


@pytest.fixture(scope="module")
def browser(browser_type: BrowserType, served: Served) -> Iterator[Browser]:
    launched = browser_type.launch(**chromium(served))
    yield launched
    launched.close()


@pytest.fixture(scope="module")
def browser_context_args(base_url: str) -> dict[str, Any]:
    return {**PHONE_CONTEXT, "base_url": base_url, "service_workers": "allow"}


def fingerprint(pem: str) -> str:
    der = ssl.PEM_cert_to_DER_cert(pem)
    digest = hashlib.sha256(der).hexdigest().upper()
    return " ".join(digest[i : i + 2] for i in range(0, len(digest), 2))


# What the page tells once the service worker is active, read anew on each try.
WORKER_READY = """() => {
    navigator.serviceWorker.ready.then(() => { window.workerReady = true; });
    return window.workerReady === true;
}"""


def test_over_https_the_worker_registers_and_nothing_is_in_the_way_of_installing(
    browser_type: BrowserType,
    browser_context_args: dict[str, Any],
    served: Served,
    tmp_path: Path,
) -> None:
    # A profile of its own, as a phone's browser has: a test's usual context is incognito,
    # where nothing installs.
    profile = browser_type.launch_persistent_context(
        tmp_path / "profile", **chromium(served), **browser_context_args
    )
    try:
        worker_and_installing(profile.new_page(), served)
    finally:
        profile.close()


def worker_and_installing(page: Page, served: Served) -> None:
    # Over plain http, where Caddy shows a phone the install page, there is no worker at all.
    page.goto(f"{served.caddy.plain_url}/install")
    expect(page.get_by_role("heading", level=1)).to_have_text("Install on a phone")
    assert page.evaluate("[window.isSecureContext, 'serviceWorker' in navigator]") == [
        False,
        False,
    ]

    page.goto("/")
    assert page.url == f"{served.caddy.url}/"
    assert page.evaluate("window.isSecureContext")
    page.wait_for_function(WORKER_READY)
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}

    # Having seen HSTS, the browser opens the name over https alone, even when told http.
    page.goto(f"http://{HOST}:{served.caddy.https_port}/sessions")
    assert page.url == f"{served.caddy.url}/sessions"


def test_a_session_opened_once_opens_with_no_network_over_https(
    page: Page, base_url: str, shot: Shot
) -> None:
    a_session_opened_once_opens_with_no_network(page, base_url, shot, "https-offline")


def test_hands_saved_offline_arrive_once_in_order_over_https(
    page: Page, base_url: str, shot: Shot
) -> None:
    hands_saved_offline_arrive_once_in_order(page, base_url, shot, "https-offline")


def test_a_hand_shows_on_another_phone_through_the_stream_over_https(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], base_url: str
) -> None:
    """Caddy passes the session's stream on as it comes: the hand shows within 2 s, heard
    from the stream, with no poll."""
    session_id = session_with_hands(base_url, "Streamed over https")
    api_path = f"/api/sessions/{session_id}"
    looked: list[int] = []
    page.on("response", lambda r: r.url.endswith(api_path) and looked.append(r.status))
    page.goto(f"/sessions/{session_id}")
    expect(page.locator("[data-live-by=stream]")).to_be_attached(timeout=20_000)
    page.evaluate(
        """() => document.addEventListener("live:updated", () => { window.liveAt = Date.now(); })"""
    )
    other = browser.new_context(**browser_context_args)
    try:
        phone = other.new_page()
        phone.goto(f"/sessions/{session_id}/hands/new")
        chip(phone, "Picker", "Ann").tap()
        chip(phone, "Partner", "Bob").tap()
        phone.get_by_label("Picking team points").fill("61")
        began = time.time()
        phone.get_by_role("button", name="Save hand").tap()
        expect(page.locator("#hand-4")).to_be_attached(timeout=5000)
    finally:
        other.close()
    delay = page.evaluate("window.liveAt") / 1000 - began
    print(f"hand shown over https after {delay:.2f} s")
    assert delay < LIVE_WITHIN_S
    assert looked == [200]
    expect(page.locator("[data-live-by=stream]")).to_be_attached()


def test_install_on_a_phone_offers_caddy_s_root_and_leads_to_https(
    page: Page, served: Served, shot: Shot, tmp_path: Path
) -> None:
    root = served.caddy.root.read_text(encoding="ascii")
    # Where a phone that trusts nothing yet begins: over plain http.
    here = f"{served.caddy.plain_url}/install"
    page.goto(here)
    expect(page.get_by_role("heading", level=1)).to_have_text("Install on a phone")
    expect(page.get_by_role("img", name=here)).to_be_visible()
    expect(page.locator("code.fingerprint")).to_have_text(fingerprint(root))
    expect(page.get_by_role("heading", name="Android")).to_have_count(2)
    expect(page.get_by_role("heading", name="iPhone")).to_have_count(2)
    expect(page.get_by_role("listitem")).to_have_count(10)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        shot(page, f"https-install-{width}", full_page=True)
        checked(page, width)
    page.set_viewport_size({"width": 390, "height": 844})

    with page.expect_download() as downloading:
        page.get_by_role("link", name="Download the certificate").tap()
    download = downloading.value
    assert download.suggested_filename == "scorekeeper-root.crt"
    download.save_as(tmp_path / "root.crt")
    assert (tmp_path / "root.crt").read_text(encoding="ascii") == root

    page.get_by_role("link", name="Open over https").tap()
    expect(page).to_have_url(f"{served.caddy.url}/")
    page.goto("/install")
    expect(page.get_by_role("img", name=f"{served.caddy.url}/install")).to_be_visible()
    expect(page.get_by_role("link", name="Open over https")).to_have_count(0)


def test_an_invite_s_link_names_the_https_address(page: Page, served: Served) -> None:
    session_id = session_with_hands(served.caddy.url, "Invited over https")
    made = served.caddy.call("POST", f"/api/sessions/{session_id}/invites")
    assert made.status == 201, made.body
    link = made.json()["url"]
    assert link.startswith(f"{served.caddy.url}/invites/{made.json()['id']}.")
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Invited over https")
    assert page.url == f"{served.caddy.url}/sessions/{session_id}"


def test_cookies_are_secure_and_hsts_is_sent_over_https_alone(served: Served) -> None:
    secure = served.caddy.call("GET", "/sessions/new")
    assert secure.status == 200
    assert secure.header("strict-transport-security") == HSTS
    cookie = secure.header("set-cookie") or ""
    assert cookie.startswith("session=") and "; Secure" in cookie and "; HttpOnly" in cookie
    plain = served.caddy.call_plain("GET", "/install")
    assert plain.status == 200 and plain.header("strict-transport-security") is None
    # Anything else over plain http is sent to https.
    moved = served.caddy.call_plain("GET", "/sessions/new")
    assert moved.status == 302
    assert moved.header("location") == f"{served.caddy.url}/sessions/new"


def wrong_tries_from(served: Served, send: Callable[..., Answer]) -> list[str]:
    """The address the app counts a wrong API token from, sent by `send` with FORGED headers,
    with access on for the while."""
    database = Path(served.app.database.removeprefix("sqlite:///"))
    on = served.cli.invoke(args=["access", "set-passcode", "--passcode", "Sheep-1234"])
    assert on.exit_code == 0, on.output
    try:
        wrong = {**FORGED, "Authorization": "Bearer 1.wrong"}
        answer = send("POST", "/api/sessions", body={"players": SEATS}, headers=wrong)
        assert answer.status == 401, answer.body
        with sqlite3.connect(database) as connection:
            rows = connection.execute("SELECT address FROM sign_in_failure").fetchall()
            connection.execute("DELETE FROM sign_in_failure")
        return [address for (address,) in rows]
    finally:
        off = served.cli.invoke(args=["access", "off"])
        assert off.exit_code == 0, off.output


def straight_to(address: str, port: int, headers: dict[str, str]) -> Answer:
    connection = http.client.HTTPConnection(address, port, timeout=10)
    try:
        connection.request("GET", "/api/sessions", headers=headers)
        response = connection.getresponse()
        return Answer(response.status, dict(response.getheaders()), response.read())
    finally:
        connection.close()


def test_forwarded_headers_are_believed_from_the_proxy_alone(served: Served) -> None:
    # Through Caddy a client's own claims give way to what Caddy saw: https, from 127.0.0.1.
    answer = served.caddy.call("GET", "/sessions/new", headers=FORGED)
    assert answer.header("strict-transport-security") == HSTS
    assert "; Secure" in (answer.header("set-cookie") or "")
    assert wrong_tries_from(served, served.caddy.call) == ["127.0.0.1"]

    # Around the proxy, straight to the app's port, whatever the request claims: refused.
    lan = hosts.lan_address()
    assert not hosts.is_loopback(lan), "the test needs this computer's network address"
    claiming = {**FORGED, "X-Forwarded-Proto": "https"}
    for address, headers in (("127.0.0.1", {}), (lan, {}), (lan, claiming)):
        around = straight_to(address, served.app.port, headers)
        assert around.status == 421, (address, headers)
        assert json.loads(around.body) == {"error": AROUND}


def first_message(port: int, root: Path, path: str) -> bytes:
    """What a stream at `path` says first, read as it comes: within seconds, or never when a
    proxy buffers it (it speaks again only 20 s later)."""
    trusting = ssl.create_default_context(cafile=str(root))
    connection = LoopbackHTTPSConnection(HOST, port, context=trusting, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        assert answer.status == 200
        said = b""
        while b"data: " not in said:
            said += answer.read1()
        return said
    finally:
        connection.close()


@pytest.mark.skipif(
    nginx_path() is None,
    reason="No nginx found: install it (Debian: apt-get install nginx-light) or set NGINX.",
)
def test_the_readme_s_nginx_block_serves_the_app_over_https(served: Served, tmp_path: Path) -> None:
    certificate, key = served.caddy.certificate
    nginx = Nginx(
        nginx=nginx_path() or "nginx",
        folder=tmp_path,
        name=HOST,
        app_port=served.app.port,
        certificate=certificate,
        key=key,
        root=served.caddy.root,
        log=tmp_path / "nginx.log",
    )
    tested = nginx.check()
    assert tested.returncode == 0, tested.stderr
    assert "syntax is ok" in tested.stderr and "test is successful" in tested.stderr
    nginx.start()
    try:
        answer = nginx.call("GET", "/sessions/new", headers=FORGED)
        assert answer.status == 200
        assert answer.header("strict-transport-security") == HSTS
        assert "; Secure" in (answer.header("set-cookie") or "")
        assert wrong_tries_from(served, nginx.call) == ["127.0.0.1"]
        session_id = session_with_hands(served.caddy.url, "Through nginx", hands=())
        made = nginx.call("POST", f"/api/sessions/{session_id}/invites")
        assert made.status == 201, made.body
        assert made.json()["url"].startswith(f"{nginx.url}/invites/")
        # nginx passes the session's stream on as it comes, held back by no buffer.
        assert first_message(nginx.port, served.caddy.root, f"/sessions/{session_id}/live") == (
            b"retry: 2000\n\ndata: 1\n\n"
        )
    finally:
        nginx.stop()
