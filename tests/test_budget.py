"""Counted budgets of the record-hand page: what a phone downloads to record a hand."""

from __future__ import annotations

import gzip
import re

from flask.testing import FlaskClient

from .helpers import Api

MAX_BYTES = 60_000
MAX_GZIPPED_BYTES = 15_000


def page_with_assets(client: FlaskClient, path: str) -> list[bytes]:
    """The page's HTML and every stylesheet and script it links, as served."""
    html = client.get(path)
    assert html.status_code == 200
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html.text)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    bodies = [html.data]
    for asset in assets:
        with client.get(asset) as response:
            assert response.status_code == 200
            bodies.append(response.data)
    return bodies


def test_record_hand_page_fits_the_budget(api: Api, client: FlaskClient) -> None:
    long_names = ["Annabelle", "Bartholomew", "Catherine", "Dominique", "Evangeline"]
    for rules in ({}, {"no_bid": "leaster"}):
        session = api.new_session(rules=rules, players=long_names)
        bodies = page_with_assets(client, f"/sessions/{session['id']}/hands/new")
        assert sum(len(body) for body in bodies) < MAX_BYTES
        assert sum(len(gzip.compress(body)) for body in bodies) < MAX_GZIPPED_BYTES
