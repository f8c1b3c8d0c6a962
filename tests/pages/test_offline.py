"""The service worker and the web app manifest that let a phone keep the app with no network,
and the pages that name them."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path

from flask.testing import FlaskClient

from scorekeeper.web.stylesheet import minified

from ..helpers.api import Api, pick
from ..helpers.images import png_pixels


def test_the_service_worker_is_served_from_the_top_never_from_a_cache(
    client: FlaskClient,
) -> None:
    with client.get("/sw.js") as answer:
        body = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'; script-src")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert body.startswith("// Pages and the API come from the network")
    assert 'const CACHE = "scorekeeper-v' in body
    # Its shell is the scripts of the pages a player opens at the table.
    for path in (
        "/scripts/record.js",
        "/scripts/edit.js",
        "/scripts/sheet.js",
        "/scripts/table.js",
    ):
        assert f'"{path}"' in body
        with client.get(path) as asset:
            assert asset.status_code == 200


def test_a_page_s_scripts_come_in_one_file_answered_304_when_unchanged(
    client: FlaskClient,
) -> None:
    static = Path(client.application.static_folder or "")
    names = ("register.js", "hand_form.js", "vendor/idb-keyval/idb-keyval.js", "outbox.js")
    texts = {name: (static / name).read_text(encoding="utf-8") for name in names}
    # Ours come without their comment lines and indentation, the vendored one as it came.
    parts = [
        text
        if name.startswith("vendor/")
        else re.sub(r"(?m)^[ \t]+", "", re.sub(r"(?m)^[ \t]*//.*\n", "", text))
        for name, text in texts.items()
    ]
    assert "// " not in parts[1].split("\n")[0] and "(() => {" in parts[1]
    answer = client.get("/scripts/record.js")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.get_data(as_text=True) == "\n;\n".join(parts)
    etag = answer.headers["ETag"]
    again = client.get("/scripts/record.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data
    assert client.get("/scripts/nothing.js").status_code == 404


def test_the_scoresheet_links_the_grid_s_stylesheet_just_above_the_chart_and_the_grid(
    api: Api, client: FlaskClient
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    sheet = client.get(f"/sessions/{session_id}").text
    link = re.search(r'<link rel="stylesheet" href="(/styles/grid\.css\?v=([0-9a-f]{16}))">', sheet)
    assert link is not None
    # Below the first screen: after the totals, before the chart.
    assert sheet.index('id="sheet-totals"') < link.start() < sheet.index('<svg class="chart"')
    static = Path(client.application.static_folder or "")
    text = minified((static / "grid.css").read_text(encoding="utf-8"))

    answer = client.get(link[1])
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/css; charset=utf-8"
    assert answer.get_data(as_text=True) == text
    # Its address names its text, so a phone keeps it for good.
    assert link[2] == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"

    # An address of an earlier text gets today's, asked again at every visit.
    stale = client.get("/styles/grid.css?v=0123456789abcdef")
    assert stale.get_data(as_text=True) == text
    assert stale.headers["Cache-Control"] == "no-cache"
    again = client.get("/styles/grid.css", headers={"If-None-Match": stale.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    assert client.get("/styles/nothing.css").status_code == 404
    assert client.get("/styles/style.js").status_code == 404


def test_the_manifest_names_the_app_and_its_icons(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest == {
        "id": "/",
        "name": "Sheepshead Scorekeeper",
        "short_name": "Sheepshead",
        "description": "Keep the score of a Sheepshead game at the card table.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f5ef",
        "theme_color": "#1d6b4c",
        "icons": [
            {"src": f"/static/icons/{name}.png", "sizes": f"{size}x{size}", "type": "image/png",
             "purpose": purpose}
            for name, size, purpose in (
                ("icon-192", 192, "any"),
                ("icon-512", 512, "any"),
                ("icon-maskable-512", 512, "maskable"),
            )
        ],
    }  # fmt: skip
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as file:
            assert file.status_code == 200 and file.mimetype == "image/png"
            width, height, _pixels = png_pixels(file.data)
        assert f"{width}x{height}" == icon["sizes"]


def test_the_maskable_icon_fills_its_square_and_keeps_its_picture_in_the_safe_zone(
    client: FlaskClient,
) -> None:
    """Full bleed: the theme's green, opaque, wherever a phone's mask may cut (outside the
    circle of 40% of the width around the centre); the card lies inside it."""
    with client.get("/static/icons/icon-maskable-512.png") as file:
        size, _height, pixels = png_pixels(file.data)
    green = (0x1D, 0x6B, 0x4C, 255)
    safe = 0.4 * size
    outside = inside = 0
    for y in range(size):
        for x in range(size):
            colour = pixels[y][x]
            if math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) > safe:
                assert colour == green, (x, y, colour)
                outside += 1
            elif colour != green:
                inside += 1
    assert outside > 0.45 * size * size
    # The card covers a good part of the safe zone, not a speck in the middle.
    assert inside > 0.3 * math.pi * safe * safe


def test_the_colours_are_the_stylesheets(client: FlaskClient) -> None:
    with client.get("/static/style.css") as answer:
        style = answer.get_data(as_text=True)
    assert "--bg: #f7f5ef;" in style and "--accent: #1d6b4c;" in style


def test_every_page_names_the_manifest_and_installs_the_worker(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<script src="/static/register.js" defer></script>' in page


def test_the_scoresheet_and_the_record_form_carry_the_outbox(api: Api, client: FlaskClient) -> None:
    session = api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Eve"])["id"]
    sheet = client.get(f"/sessions/{session}").get_data(as_text=True)
    assert f'<section id="outbox" aria-live="polite" data-session="{session}"></section>' in sheet
    assert '<script src="/scripts/sheet.js" defer></script>' in sheet
    form = client.get(f"/sessions/{session}/hands/new").get_data(as_text=True)
    assert '<section id="outbox" aria-live="polite"></section>' in form
    assert '<script src="/scripts/record.js" defer></script>' in form
    assert (
        f'data-session="{session}" data-dealer="Ann" '
        """data-seats='["Ann", "Bob", "Cat", "Dan", "Eve"]' data-out="0">"""
    ) in form
