"""Counted budgets of the record-hand page: what a phone downloads to record a hand."""

from __future__ import annotations

import gzip
import re

from flask.testing import FlaskClient

from ..helpers.api import Api

MAX_BYTES = 60_000
MAX_GZIPPED_BYTES = 14_000


def page_with_assets(client: FlaskClient, path: str) -> dict[str, bytes]:
    """What a phone downloads for the page on its first visit, as served: the page (its
    stylesheet inside), its scripts, the icon a browser shows, the manifest, and
    the service worker, whose first install takes the rest of what it keeps from the browser's
    cache."""
    html = client.get(path)
    assert html.status_code == 200
    assert 'rel="stylesheet"' not in html.text
    scripts = re.findall(r'<script src="(/[^"]+)"', html.text)
    assert scripts == ["/scripts/record.js"]
    bodies = {path: html.data}
    for asset in [*scripts, "/static/icons/icon-32.png", "/manifest.webmanifest", "/sw.js"]:
        with client.get(asset) as response:
            assert response.status_code == 200
            bodies[asset] = response.data
    return bodies


def test_record_hand_page_fits_the_budget(api: Api, client: FlaskClient) -> None:
    long_names = ["Annabelle", "Bartholomew", "Catherine", "Dominique", "Evangeline"]
    for rules in ({}, {"no_bid": "leaster"}):
        session = api.new_session(rules=rules, players=long_names)
        bodies = page_with_assets(client, f"/sessions/{session['id']}/hands/new")
        assert sum(len(body) for body in bodies.values()) < MAX_BYTES
        gzipped = {url: len(gzip.compress(body)) for url, body in bodies.items()}
        assert sum(gzipped.values()) < MAX_GZIPPED_BYTES, gzipped
