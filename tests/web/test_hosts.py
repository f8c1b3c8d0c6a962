"""Trusted hosts: a write that reaches the app under a name it is not served at (DNS rebinding)
is refused, and links made for other phones never carry that name."""

from __future__ import annotations

import html
import re
import socket

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.exchange import rule_sets
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import utcnow
from scorekeeper.web import hosts

from ..helpers.api import Api, pick
from ..helpers.database import NewApp

EVIL = "rebind.attacker.example"
SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def as_evil(port: str = "") -> dict[str, str]:
    host = EVIL + port
    return {"Host": host, "Origin": f"http://{host}"}


def session_count(client: FlaskClient) -> int:
    return len(client.get("/api/sessions").json["sessions"])  # type: ignore[index]


def test_an_api_write_under_another_name_is_a_403_that_changes_nothing(
    client: FlaskClient, api: Api
) -> None:
    session = api.new_session()
    for path, body in (
        ("/api/sessions", {"players": SEATS, "rounds": 0}),
        (f"/api/sessions/{session['id']}/hands", pick("Ann", "Bob", 75)),
    ):
        for port in ("", ":5000"):
            response = client.post(path, json=body, headers=as_evil(port))
            assert response.status_code == 403
            assert response.json == {
                "error": f"This scorekeeper is not served at {EVIL}{port}, so the change was "
                "refused. Open it at its own address; a server reached by that name lists it in "
                "ALLOWED_HOSTS."
            }
    assert session_count(client) == 1
    assert api.session(session["id"])["hands"] == []


def test_a_form_under_another_name_is_an_html_403(client: FlaskClient) -> None:
    data = {"players-0": "Ann", "players-1": "Bob", "players-2": "Cat", "rounds": "0"}
    response = client.post("/sessions/new", data=data, headers=as_evil())
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert f"not served at {EVIL}" in response.text
    assert session_count(client) == 0


def test_reading_under_another_name_is_allowed(client: FlaskClient) -> None:
    assert client.get("/api/sessions", headers=as_evil()).status_code == 200


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:5000", "127.0.0.1:5000", "192.168.1.20:5000", "[::1]:5000",
     "phone.localhost", socket.gethostname(), f"{socket.gethostname()}.local"],
)  # fmt: skip
def test_addresses_localhost_and_this_computers_names_may_write(
    client: FlaskClient, host: str
) -> None:
    response = client.post(
        "/api/sessions", json={"players": SEATS, "rounds": 0}, headers={"Host": host}
    )
    assert response.status_code == 201, response.json


def test_allowed_hosts_names_the_server_behind_a_proxy(
    database: str, monkeypatch: pytest.MonkeyPatch, new_app: NewApp
) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " Scores.Club.example , other.example")
    with new_app(database) as app:
        assert {"scores.club.example", "other.example", "localhost"} <= set(
            app.config["ALLOWED_HOSTS"]
        )
        client = app.test_client()
        headers = {"Host": "scores.club.example", "Origin": "https://scores.club.example"}
        answer = client.post(
            "/api/sessions",
            json={"players": SEATS, "rounds": 0},
            headers=headers,
            base_url="https://scores.club.example",
        )
        assert answer.status_code == 201
        assert client.post("/api/sessions", json={}, headers=as_evil()).status_code == 403


@pytest.mark.parametrize("host", ["", "a b", "[::1", ":80", "ex ample.com:x"])
def test_a_host_that_is_no_name_is_untrusted_and_never_a_500(app: Flask, host: str) -> None:
    with app.test_request_context():
        assert not hosts.is_trusted(host)
    response = app.test_client().post(
        "/api/sessions", json={"players": SEATS, "rounds": 0}, headers={"Host": host}
    )
    assert response.status_code in (400, 403)


def share_link(app: Flask, headers: dict[str, str]) -> str:
    with app.app_context():
        rule_sets.add("Friday rules", {"partner": "called_ace"}, utcnow())
        db.session.commit()
    page = app.test_client().get("/rule-sets/1/share", headers=headers)
    assert page.status_code == 200
    link = re.search(r'id="link" value="(http[^"]+)"', page.text)
    assert link is not None, page.text
    return html.unescape(link[1])


def test_a_share_link_never_carries_an_untrusted_name(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosts, "lan_address", lambda: "192.168.1.20")
    link = share_link(app, {"Host": EVIL + ":5000"})
    assert EVIL not in link
    assert link.startswith("http://192.168.1.20/sessions/new?partner=called_ace")
    served = app.test_client().get(
        "/rule-sets/1/share", headers={"Host": EVIL}, environ_overrides={"SERVER_PORT": "5000"}
    )
    assert "http://192.168.1.20:5000/sessions/new?" in served.text
    assert "http://localhost/sessions/new?" in app.test_client().get("/rule-sets/1/share").text


def test_lan_address_is_an_address() -> None:
    assert hosts.is_ip_address(hosts.lan_address())
