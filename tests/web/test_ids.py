"""Ids in addresses: one past what the database can hold is a 404 with a sentence, on every
route, page or API, and changes nothing."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.sessions.models import MAX_ID

from ..helpers.api import Api, pick

TOO_LARGE = [str(MAX_ID + 1), "99999999999999999999", "9" * 5000]


@pytest.mark.parametrize("value", TOO_LARGE)
@pytest.mark.parametrize(
    ("method", "path", "what"),
    [
        ("GET", "/api/sessions/{}", "session"),
        ("PATCH", "/api/sessions/{}", "session"),
        ("POST", "/api/sessions/{}/hands", "session"),
        ("DELETE", "/api/sessions/{}/hands/1", "session"),
        ("POST", "/api/trash/{}/restore", "deleted session"),
        ("GET", "/sessions/{}", "session"),
        ("GET", "/sessions/{}/settle-up", "session"),
        ("POST", "/sessions/{}/hands/new", "session"),
        ("POST", "/trash/{}/restore", "deleted session"),
        ("GET", "/players/{}", "player"),
        ("GET", "/rule-sets/{}/share", "rule set"),
        ("GET", "/rule-sets/{}/delete", "rule set"),
        ("POST", "/rule-sets/{}/delete", "rule set"),
    ],
)
def test_an_id_too_large_for_the_database_is_a_404_with_a_sentence(
    api: Api, client: FlaskClient, method: str, path: str, what: str, value: str
) -> None:
    session = api.new_session()
    api.record(session["id"], **pick("Ann", "Bob", 75))
    before = api.session(session["id"])
    response = client.open(path.format(value), method=method, json={"kind": "pass"})
    assert response.status_code == 404
    sentence = f"There is no {what} {value}."
    if path.startswith("/api/"):
        assert response.json == {"error": sentence}
    else:
        assert sentence in response.text
    assert api.session(session["id"]) == before


def test_every_id_in_an_address_goes_through_the_id_converter(app: Flask) -> None:
    """Only hand and round numbers and change indexes, which never reach the database as ids,
    are plain numbers."""
    for rule in app.url_map.iter_rules():
        for converter, name in re.findall(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", rule.rule):
            if name.endswith("_id"):
                assert converter == "id", rule.rule
            elif converter == "int":
                assert name in ("number", "round", "index"), rule.rule


def test_the_largest_id_is_looked_up(client: FlaskClient) -> None:
    for path in (f"/api/sessions/{MAX_ID}", f"/players/{MAX_ID}", f"/sessions/{MAX_ID}"):
        response = client.get(path)
        assert response.status_code == 404
        assert f"{MAX_ID}." in response.text


PLACEHOLDER = re.compile(r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>")


@pytest.mark.parametrize("value", [str(2**31), "99999999999999999999"])
def test_every_route_answers_an_id_too_large_with_a_404(
    app: Flask, api: Api, client: FlaskClient, value: str
) -> None:
    """Every route with an id, found in the app's URL map so that a new one is held too: the
    id too large, any hand number or change index 1."""
    session = api.new_session()
    api.record(session["id"], **pick("Ann", "Bob", 75))
    before = api.session(session["id"])
    tried = 0
    for rule in app.url_map.iter_rules():
        found = PLACEHOLDER.findall(rule.rule)
        whats = [what.replace("_", " ") for converter, what, _ in found if converter == "id"]
        if not whats:
            continue
        path = PLACEHOLDER.sub(lambda m: value if m[1] == "id" else "1", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            response = client.open(path, method=method, json={"kind": "pass"})
            assert response.status_code == 404, (method, path)
            assert f"There is no {whats[0]} {value}." in response.text, (method, path)
            tried += 1
    assert tried > 20
    assert api.session(session["id"]) == before
