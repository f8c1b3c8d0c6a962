"""First contentful paint and bytes of the pages a player opens at the table, on a slow phone.

Serves the app as `make run` does (gunicorn, 2 workers x 4 threads) on a fresh temporary SQLite
database with one session of five players and 20 hands, then opens each page in Chromium at
390x844 with slow 4G (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up) and 4x CPU throttling, a
new browser context each time (cold cache), --runs times. Prints, for each page, the median and
max first contentful paint, the requests it made and its bytes with their headers: as they
came over the wire, and as gzip at level 6 would send every body, the service worker's first
install included where the page registers one. With --no-worker the service worker is
blocked, as on a phone reaching `make run` over plain http on the LAN.

The last row, a blank page (a heading and nothing else, from a server in this process), is the
floor under every page's figure here: what the network's round trip and the browser's own start
take on this machine, which no page can go below.

    .venv/bin/python bench/first_paint.py [--runs 5] [--no-worker]
"""

from __future__ import annotations

import argparse
import gzip
import logging
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Response, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.browser import chromium_path
from harness.hands import pick_bodies
from harness.live_server import LiveServer
from harness.threaded_server import serving

SLOW_4G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 750e3 / 8,
}
CPU_SLOWDOWN = 4
PHONE = {"width": 390, "height": 844}
# How long after the load event requests are still counted: the service worker's first
# install fetches what it keeps then.
SETTLE_S = 1.5
BLANK = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
    b'content="width=device-width, initial-scale=1"><title>Blank</title></head><body>'
    b"<h1>Sheepshead</h1></body></html>"
)


@dataclass
class Load:
    fcp_ms: float
    wire: int = 0
    gzipped: int = 0
    urls: list[str] = field(default_factory=list)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-worker", action="store_true", help="block the service worker")
    given = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        served(Path(folder), given.runs, "block" if given.no_worker else "allow")


def served(folder: Path, runs: int, workers: str = "allow") -> None:
    """`run` against gunicorn on a new SQLite database in `folder`."""
    server = LiveServer(f"sqlite:///{folder / 'paint.sqlite3'}")
    server.fresh_schema()
    server.start()
    try:
        run(server, runs, workers)
    finally:
        server.stop()
        server.log.unlink(missing_ok=True)


def run(server: LiveServer, runs: int, workers: str = "allow") -> None:
    session_id = server.new_session()["id"]
    for body in pick_bodies(20):
        server.call("POST", f"/api/sessions/{session_id}/hands", body)
    base = f"http://127.0.0.1:{server.port}"
    pages = {
        "scoresheet": f"{base}/sessions/{session_id}",
        "record form": f"{base}/sessions/{session_id}/hands/new",
        "home": f"{base}/",
    }
    if server.call("GET", f"/sessions/{session_id}/table").status == 200:
        pages["table view"] = f"{base}/sessions/{session_id}/table"
    with serving(blank_app()) as blank:
        pages["blank page"] = f"{blank}/"
        measure(pages, runs, workers)


def measure(pages: dict[str, str], runs: int, workers: str) -> None:
    print(
        f"Chromium {PHONE['width']}x{PHONE['height']}, slow 4G (150 ms, 1.6 Mbit/s down, "
        f"750 kbit/s up), CPU x{CPU_SLOWDOWN}, cold cache, {runs} runs each"
        + ("" if workers == "allow" else ", no service worker")
    )
    print(f"{'page':<12} {'FCP median':>11} {'FCP max':>9} {'requests':>9} {'wire':>9} {'gzip':>9}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        # Run by run, each page in turn: a passing load on the machine weighs on every page alike.
        loads: dict[str, list[Load]] = {name: [] for name in pages}
        for _ in range(runs):
            for name, url in pages.items():
                loads[name].append(load(browser, url, workers))
        for name, measured in loads.items():
            paints = [one.fcp_ms for one in measured]
            last = measured[-1]
            print(
                f"{name:<12} {statistics.median(paints):>8.0f} ms {max(paints):>6.0f} ms "
                f"{len(last.urls):>9} {last.wire:>9,} {last.gzipped:>9,}"
            )
        browser.close()


def load(browser: Browser, url: str, workers: str = "allow") -> Load:
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        service_workers="block" if workers == "block" else "allow",
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    responses: list[Response] = []
    context.on("response", lambda response: responses.append(response))
    page.goto(url, wait_until="load")
    time.sleep(SETTLE_S)
    fcp = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"
    )
    measured = Load(fcp_ms=fcp)
    seen = set()
    for response in responses:
        # What the service worker answered, or a second answer for the same request (the
        # worker's install, from the browser's cache), came over no network.
        key = (response.request.method, response.url)
        if response.from_service_worker or key in seen:
            continue
        # The page's live stream never ends, so its body would never come: it is not what the
        # first paint waits for.
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            continue
        seen.add(key)
        try:
            body = response.body()
        except Exception:  # a redirect or a request the page dropped has no body
            continue
        sizes = response.request.sizes()
        headers = sizes["responseHeadersSize"]
        measured.urls.append(response.url)
        measured.wire += sizes["responseBodySize"] + headers
        measured.gzipped += len(gzip.compress(body, 6)) + headers
    context.close()
    return measured


def blank_app() -> Flask:
    """An app that answers BLANK at /. werkzeug's line for each request it serves would fall
    among the figures."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = Flask(__name__)
    app.add_url_rule("/", "blank", lambda: BLANK)
    return app


if __name__ == "__main__":
    main()
