"""Share links: a link anyone opens from anywhere with no passcode, to one season's standings and
nights, one club event's board and results, or one session's scoresheet, and nothing else: no
link to any other page, no form, noindex, no cookie, its own rate limit; made and revoked through
the write path (the pages' Share results, Settings, and the API), refused to an invited phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.access.guard import OPEN_ENDPOINTS
from scorekeeper.sessions import shares
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import ShareLink, ShareView, utcnow
from scorekeeper.web import hosts, logs

from ..helpers.access import set_passcode, signed_in
from ..helpers.api import SEATS, Api, pick
from ..helpers.database import second_worker
from ..helpers.pages import Page
from ..helpers.seasons import SPRING, record_league

LAN = "192.168.1.20"
LINK = re.compile(rf"http://{re.escape(LAN)}(/shared/(\d+)\.[\w-]+)")
PLAYERS = [*SEATS, "Fay", "Gus", "Hal", "Ivy", "Jon"]


@pytest.fixture(autouse=True)
def on_a_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosts, "lan_address", lambda: LAN)


def share(client: FlaskClient, status: int = 201, **body: Any) -> Any:
    response = client.post("/api/shares", json=body)
    assert response.status_code == status, response.json
    return response.json


def path_of(made: dict[str, Any]) -> str:
    found = LINK.fullmatch(made["url"])
    assert found is not None, made["url"]
    assert found[2] == str(made["id"])
    return found[1]


def a_season(app: Flask, api: Api) -> int:
    record_league(app, api)
    response = api.client.post("/api/seasons", json=SPRING)
    assert response.status_code == 201
    return int(response.json["id"])


def an_event(client: FlaskClient) -> int:
    """An event of ten at $10 a head, its first round drawn and a hand played at each table."""
    body = {"name": "Club night", "hands": 5, "rounds": 2, "entry": 1000, "places": [50, 20, 10]}
    event = client.post("/api/events", json={**body, "round_top": 5, "seed": 3}).json
    for name in PLAYERS:
        assert client.post(f"/api/events/{event['id']}/players", json={"name": name}).status_code
    drawn = client.post(f"/api/events/{event['id']}/rounds", json={})
    assert drawn.status_code == 201, drawn.json
    for table in drawn.json["draws"][0]["tables"]:
        seats = table["seats"]
        hand = pick(seats[1], seats[2], 75)
        assert client.post(f"/api/sessions/{table['session']}/hands", json=hand).status_code == 201
    return int(event["id"])


def a_session(api: Api) -> int:
    session_id = int(api.new_session(name="Friday at Dan's", rounds=1)["id"])
    for hand in (pick("Ann", "Bob", 75), pick("Cat", "Dan", 40)):
        api.record(session_id, **hand)
    return session_id


def link_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(ShareLink)) or 0


def assert_only_itself(response: TestResponse) -> Page:
    """A shared page: noindex, no cookie, no link to anywhere, no form, no script."""
    assert response.mimetype == "text/html"
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "Set-Cookie" not in response.headers
    html = response.text
    assert '<meta name="robots" content="noindex">' in html
    for tag in ("<a ", "<a>", "<form", "<button", "<input", "<script", "<nav", "manifest"):
        assert tag not in html, tag
    assert re.findall(r'(?:href|src|action)="([^"]*)"', html) == ["/static/icons/icon-32.png"]
    assert len(re.findall(r"<h1[ >]", html)) == 1
    return Page(html)


def assert_gone(response: TestResponse) -> None:
    assert response.status_code == 404
    shown = assert_only_itself(response)
    assert "This link is unknown or was revoked." in shown.text


# --- What a link shows


def test_a_season_s_link_shows_its_standings_and_nights_and_nothing_else(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    season_id = a_season(app, api)
    made = share(client, season=season_id)
    assert set(made) == {"id", "url", "kind", "target", "created_at"}
    assert (made["kind"], made["target"]) == ("season", season_id)
    stranger = app.test_client()
    opened = stranger.get(path_of(made))
    assert opened.status_code == 200
    shown = assert_only_itself(opened)
    assert "Sheepshead Shared results, read-only Spring 2026" in shown.text
    assert shown.rows("ranking")[1] == ["1", "Ann", "+3 4 hands +$0.40"]
    season_page = Page(client.get(f"/seasons/{season_id}").text)
    for table in ("ranking", "ranking attendance", "balances"):
        assert shown.rows(table) == season_page.rows(table)
    nights = [" ".join(item) for item in shown.items if "·" in item]
    assert [night.split(" · ")[0] for night in nights] == [
        "Thu 02 Apr 2026 2026-04-02",
        "Tue 10 Mar 2026 2026-03-10",
    ]
    assert "Gus leads with +2" in nights[0]
    assert "Who pays whom" in shown.text
    assert stranger.get_cookie("session") is None


def test_an_event_s_link_shows_its_board_and_results(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    event_id = an_event(client)
    made = share(client, event=event_id)
    opened = app.test_client().get(path_of(made))
    assert opened.status_code == 200
    shown = assert_only_itself(opened)
    assert "Club night" in shown.text and "Round 1 of 2" in shown.text
    assert "Table 1 1/5 hands" in shown.text and "Table 2 1/5 hands" in shown.text
    standings = shown.rows("event-standings")
    assert standings[0] == ["Place", "Player", "R1", "Total", "Prize"]
    assert len(standings) == 1 + len(PLAYERS)
    assert "Who gets paid" in shown.text and "Pot $100.00" in shown.text


def test_a_session_s_link_shows_its_scoresheet(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = a_session(api)
    made = share(client, session=session_id)
    opened = app.test_client().get(path_of(made))
    assert opened.status_code == 200
    shown = assert_only_itself(opened)
    assert "Friday at Dan's" in shown.text and "2 hands played" in shown.text
    totals = api.session(session_id)["totals"]
    rows = shown.rows("standings")[1:]
    assert {row[1]: row[2] for row in rows} == {
        player: f"{total:+d}" if total else "0" for player, total in totals.items()
    }
    assert len(shown.rows("grid")) == 1 + 2 * 2 + 1
    assert "Running totals" in shown.text


def test_a_night_s_link_shows_its_standings_by_net(app: Flask, client: FlaskClient) -> None:
    nets = {"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5}
    made = client.post("/api/sessions", json={"played_on": "2010-12-29", "totals": nets})
    night_id = made.json["id"]
    assert "Share results" in client.get(f"/sessions/{night_id}").text
    opened = app.test_client().get(path_of(share(client, session=night_id)))
    assert opened.status_code == 200
    shown = assert_only_itself(opened)
    assert "Kept without hands" in shown.text
    assert shown.rows("standings")[1:] == [
        ["1", "Mark Winner", "+5"], ["2", "Greg", "0"], ["3", "Dave", "-2"], ["4", "Jacob", "-3"]
    ]  # fmt: skip
    assert "Scoresheet" not in shown.text


def test_a_link_shows_what_its_target_is_now(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = a_session(api)
    path = path_of(share(client, session=session_id))
    api.record(session_id, **pick("Eve", "Ann", 61))
    assert "3 hands played" in Page(app.test_client().get(path).text).text


# --- Links that open nothing


def test_a_revoked_link_a_wrong_secret_and_an_unknown_link_are_404(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = a_session(api)
    made = share(client, session=session_id)
    path = path_of(made)
    stranger = app.test_client()
    assert stranger.get(path).status_code == 200
    link_id, secret = path.removeprefix("/shared/").split(".")
    for wrong in (
        f"/shared/{link_id}.{secret[:-1]}",
        f"/shared/{link_id}.{secret}x",
        f"/shared/{link_id}.",
        f"/shared/{link_id}",
        f"/shared/{int(link_id) + 1}.{secret}",
        f"/shared/99999999999.{secret}",
        f"/shared/0.{secret}",
        "/shared/a.b",
        f"/shared/{link_id}.{'x' * 500}",
    ):
        assert_gone(stranger.get(wrong))
    assert client.delete(f"/api/shares/{made['id']}").status_code == 204
    assert_gone(stranger.get(path))
    assert link_count(app) == 0


def test_deleting_what_a_link_shows_ends_the_link(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    season_id = a_season(app, api)
    session_id = a_session(api)
    season_path = path_of(share(client, season=season_id))
    session_path = path_of(share(client, session=session_id))
    assert client.delete(f"/api/seasons/{season_id}").status_code == 204
    assert client.delete(f"/api/sessions/{session_id}").status_code == 204
    assert_gone(app.test_client().get(season_path))
    assert_gone(app.test_client().get(session_path))
    assert client.get("/api/shares").json == {"shares": []}
    # Back from the trash, the session has no link: a new one is made for it.
    assert client.post(f"/api/trash/{session_id}/restore").status_code == 200
    assert_gone(app.test_client().get(session_path))


@pytest.mark.parametrize("kind", ["season", "event", "session"])
def test_a_link_whose_target_goes_as_it_is_read_is_gone(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The link was found, then what it shows was deleted (with the link) before it was read."""
    path = path_of(share(client, session=a_session(api)))
    gone = ShareLink(kind=kind, **{f"{kind}_id": 999})
    monkeypatch.setattr(shares, "share_of", lambda _token: gone)
    assert_gone(app.test_client().get(path))


# --- The rate limit


@pytest.fixture
def one_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit counts views a minute of the clock at a time: its clock stopped at the moment
    the test starts, every view a test counts falls in one minute, even one begun at 59 s."""
    moment = utcnow()
    monkeypatch.setattr(shares, "utcnow", lambda: moment)


@pytest.mark.usefixtures("one_minute")
def test_past_the_limit_an_address_waits_for_the_next_minute(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shares, "MAX_VIEWS", 3)
    path = path_of(share(client, session=a_session(api)))
    stranger = app.test_client()
    here = {"REMOTE_ADDR": "203.0.113.7"}
    assert stranger.get(path, environ_overrides=here).status_code == 200
    # A wrong secret counts too: guessing is as limited as reading.
    assert stranger.get("/shared/1.wrong", environ_overrides=here).status_code == 404
    assert stranger.get(path, environ_overrides=here).status_code == 200
    refused = stranger.get(path, environ_overrides=here)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    shown = assert_only_itself(refused)
    assert "Too many views" in shown.text
    assert f"Try again in {refused.headers['Retry-After']} seconds." in shown.text
    elsewhere = {"REMOTE_ADDR": "198.51.100.9"}
    assert stranger.get(path, environ_overrides=elsewhere).status_code == 200


@pytest.mark.usefixtures("one_minute")
def test_the_limit_holds_across_server_workers(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shares, "MAX_VIEWS", 4)
    path = path_of(share(client, session=a_session(api)))
    with second_worker(app) as second:
        one, two = app.test_client(), second.test_client()
        for phone in (one, two, one, two):
            assert phone.get(path).status_code == 200
        assert one.get(path).status_code == 429
        assert two.get(path).status_code == 429


def test_views_of_minutes_gone_are_purged(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shares, "MAX_VIEWS", 1)
    path = path_of(share(client, session=a_session(api)))
    with app.app_context():
        db.session.add(ShareView(address="127.0.0.1", minute=1, views=99))
        db.session.commit()
    assert app.test_client().get(path).status_code == 200
    with app.app_context():
        minutes = db.session.scalars(select(ShareView.minute)).all()
    assert len(minutes) == 1 and minutes[0] > 1


# --- Nothing else through it


def every_request(app: Flask, token: str) -> Iterator[tuple[str, str, str]]:
    """Every route but the open ones and the shared page itself, with each of its methods, its
    address made from 1 for every value it names: (method, path, endpoint)."""
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if rule.endpoint in OPEN_ENDPOINTS:
                continue
            values = {name: token if name == "token" else 1 for name in rule.arguments}
            path = url_for(rule.endpoint, **values)
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                yield method, path, rule.endpoint


def assert_refused_to_a_stranger(response: TestResponse, api: bool) -> None:
    if api:
        assert response.status_code == 401, response.text
    else:
        assert response.status_code == 303, response.text
        assert response.headers["Location"].startswith("/sign-in")


def test_with_reading_guarded_the_link_opens_and_nothing_else_does(
    app: Flask, runner: FlaskCliRunner, api: Api, client: FlaskClient
) -> None:
    season_id = a_season(app, api)
    event_id = an_event(client)
    session_id = a_session(api)
    made = [share(client, **{kind: target}) for kind, target in (
        ("season", season_id), ("event", event_id), ("session", session_id)
    )]  # fmt: skip
    set_passcode(runner, role="reader")
    stranger = app.test_client()
    for link in made:
        opened = stranger.get(path_of(link))
        assert opened.status_code == 200
        assert_only_itself(opened)
    assert stranger.get_cookie("session") is None
    token = path_of(made[2]).removeprefix("/shared/")
    asked = 0
    for method, path, endpoint in every_request(app, token):
        if endpoint == "pages.shared_page":
            assert stranger.open(path, method=method).status_code in (200, 405)
            continue
        response = stranger.open(path, method=method, json={} if "/api/" in path else None)
        assert_refused_to_a_stranger(response, path.startswith("/api/"))
        asked += 1
    assert asked > 100


def test_with_changes_guarded_the_link_opens_and_every_write_is_refused(
    app: Flask, runner: FlaskCliRunner, api: Api, client: FlaskClient
) -> None:
    session_id = a_session(api)
    made = share(client, session=session_id)
    set_passcode(runner, role="scorer")
    stranger = app.test_client()
    assert stranger.get(path_of(made)).status_code == 200
    token = path_of(made).removeprefix("/shared/")
    writes = [(m, p) for m, p, e in every_request(app, token) if m != "GET"]
    assert len(writes) > 50
    for method, path in writes:
        response = stranger.open(path, method=method, json={} if "/api/" in path else None)
        if path.startswith("/shared/"):
            assert response.status_code == 405
            continue
        assert_refused_to_a_stranger(response, path.startswith("/api/"))
    assert_refused_to_a_stranger(stranger.post(path_of(made)), api=False)
    assert len(api.session(session_id)["hands"]) == 2
    assert link_count(app) == 1


def test_opening_a_link_leaves_a_phone_s_cookie_as_it_was(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = a_session(api)
    set_passcode(runner)
    owner = signed_in(app)
    made = share(owner, session=session_id)
    cookie = owner.get_cookie("session")
    assert cookie is not None
    opened = owner.get(path_of(made))
    assert opened.status_code == 200
    assert "Set-Cookie" not in opened.headers
    assert owner.get_cookie("session") == cookie
    assert owner.post("/api/shares", json={"session": session_id}).status_code == 201


def test_an_invited_phone_opens_links_but_makes_or_revokes_none(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = a_session(api), a_session(api)
    set_passcode(runner)
    owner = signed_in(app)
    made = share(owner, session=other)
    invite = owner.post(f"/api/sessions/{session_id}/invites", json={}).json
    phone = app.test_client()
    assert phone.get(invite["url"].removeprefix(f"http://{LAN}")).status_code == 303
    sheet = phone.get(f"/sessions/{session_id}")
    assert sheet.status_code == 200 and "Share results" not in sheet.text
    assert phone.get(path_of(made)).status_code == 200
    for response in (
        phone.post("/api/shares", json={"session": session_id}),
        phone.get("/api/shares"),
        phone.delete(f"/api/shares/{made['id']}"),
        phone.get(f"/sessions/{session_id}/share"),
        phone.post(f"/sessions/{session_id}/share", data={"write_key": "k" * 20}),
        phone.post(f"/shares/{made['id']}/revoke", data={"back": "/settings"}),
        phone.get("/settings"),
    ):
        assert response.status_code == 403, response.text
    assert link_count(app) == 1
    # Still the one session alone, after the link.
    assert phone.get(f"/sessions/{other}").status_code == 403


# --- Making and revoking on the pages


def test_share_results_on_each_page_makes_a_link_with_its_qr_code_copy_and_revoke(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    season_id = a_season(app, api)
    event_id = an_event(client)
    session_id = a_session(api)
    for page, sheet in (
        (f"/seasons/{season_id}", f"/seasons/{season_id}/share"),
        (f"/events/{event_id}", f"/events/{event_id}/share"),
        (f"/sessions/{session_id}", f"/sessions/{session_id}/share"),
    ):
        shown = client.get(page).text
        assert f'<form method="post" action="{sheet}" class="actions share-results">' in shown
        key = {"write_key": f"share-results-from-{page.replace('/', '-')}"}
        made = client.post(sheet, data=key)
        assert made.status_code == 200
        found = LINK.search(made.text)
        assert found is not None
        assert '<svg role="img"' in made.text and 'class="qr"' in made.text
        assert "data-copy-only" in made.text and ">Copy</button>" in made.text
        assert f'action="/shares/{found[2]}/revoke"' in made.text
        # The same form sent again shows the same link, made once.
        again = client.post(sheet, data=key)
        assert LINK.search(again.text)[0] == found[0]  # type: ignore[index]
        assert app.test_client().get(found[1]).status_code == 200
        assert "1 share link" in client.get(page).text
    assert link_count(app) == 3
    assert {link["kind"] for link in client.get("/api/shares").json["shares"]} == {
        "season",
        "event",
        "session",
    }


def test_revoke_on_the_sheet_ends_the_link(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = a_session(api)
    sheet = f"/sessions/{session_id}/share"
    made = client.post(sheet, data={"write_key": "make-it-once-please"})
    found = LINK.search(made.text)
    assert found is not None
    revoke = {"write_key": "revoke-it-once-please", "back": sheet}
    revoked = client.post(f"/shares/{found[2]}/revoke", data=revoke)
    assert revoked.status_code == 302 and revoked.location == sheet
    assert "Link revoked: it opens nothing now." in client.get(sheet).text
    assert_gone(app.test_client().get(found[1]))
    again = client.post(f"/shares/{found[2]}/revoke", data=revoke)
    assert again.status_code == 302 and again.location == sheet
    other = client.post(f"/shares/{found[2]}/revoke", data={"write_key": "another-key-altogether"})
    assert other.location == "/settings"
    assert "That link was revoked already." in client.get("/settings").text
    away = client.post(f"/shares/{found[2]}/revoke", data={"back": "https://example.org/"})
    assert away.location == "/settings"


def test_settings_lists_every_link_with_what_it_shows_and_revoke(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    assert "None: nothing is shared." in client.get("/settings").text
    season_id = a_season(app, api)
    session_id = a_session(api)
    event_id = an_event(client)
    first = share(client, season=season_id)
    share(client, session=session_id)
    share(client, event=event_id)
    shown = Page(client.get("/settings").text)
    listed = [" ".join(item) for item in shown.items if "made" in item]
    assert len(listed) == 3
    assert listed[0].startswith("Event Club night , its board and results made ")
    assert listed[1].startswith("Session Friday at Dan's , its scoresheet made ")
    assert listed[2].startswith("Season Spring 2026 , its standings and nights made ")
    revoked = client.post(f"/shares/{first['id']}/revoke", data={"back": "/settings"})
    assert revoked.status_code == 302 and revoked.location == "/settings"
    assert "Spring 2026" not in client.get("/settings").text
    assert_gone(app.test_client().get(path_of(first)))


def test_making_a_link_needs_a_sign_in_when_changes_are_guarded(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = a_session(api)
    set_passcode(runner)
    anyone = app.test_client()
    assert anyone.post("/api/shares", json={"session": session_id}).status_code == 401
    refused = anyone.post(f"/sessions/{session_id}/share", data={"write_key": "k" * 20})
    assert refused.status_code == 303 and refused.location.startswith("/sign-in")
    assert link_count(app) == 0
    assert share(signed_in(app), session=session_id)["kind"] == "session"


# --- The API


def test_the_api_lists_and_revokes_links(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = a_session(api)
    first = share(client, session=session_id)
    second = share(client, session=session_id)
    assert first["url"] != second["url"]
    listed = client.get("/api/shares").json["shares"]
    assert listed == [
        {key: made[key] for key in ("id", "kind", "target", "created_at")}
        for made in (second, first)
    ]
    assert client.delete(f"/api/shares/{first['id']}").status_code == 204
    gone = client.delete(f"/api/shares/{first['id']}")
    assert gone.status_code == 404
    assert gone.json["error"] == f"There is no share link {first['id']}."
    assert [link["id"] for link in client.get("/api/shares").json["shares"]] == [second["id"]]


def test_the_same_idempotency_key_makes_one_link(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = a_session(api)
    headers = {"Idempotency-Key": "share-1"}
    first = client.post("/api/shares", json={"session": session_id}, headers=headers)
    again = client.post("/api/shares", json={"session": session_id}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert link_count(app) == 1
    other = client.post("/api/shares", json={"season": 1}, headers=headers)
    assert other.status_code == 409
    revoke = {"Idempotency-Key": "revoke-1"}
    path = f"/api/shares/{first.json['id']}"
    assert client.delete(path, headers=revoke).status_code == 204
    assert client.delete(path, headers=revoke).status_code == 204
    assert link_count(app) == 0


@pytest.mark.parametrize(
    ("body", "field", "error"),
    [
        ({}, None, 'Say what to share: {"season": id}, {"event": id} or {"session": id}.'),
        ({"season": 1, "event": 1}, None, "Say what to share"),
        ({"player": 1}, "player", "There is no field called player here."),
        ({"season": "1"}, "season", "The season's id must be a whole number from 1 to"),
        ({"event": True}, "event", "The event's id must be a whole number"),
        ({"session": None}, "session", "The session's id must be a whole number"),
        ({"session": 0}, "session", "The session's id must be a whole number"),
        ({"session": -1}, "session", "The session's id must be a whole number"),
        ({"session": 1.5}, "session", "The session's id must be a whole number"),
        ({"season": 99}, "season", "There is no season 99."),
        ({"event": 99}, "event", "There is no event 99."),
        ({"session": 99}, "session", "There is no session 99."),
    ],
)
def test_what_to_share_is_refused_with_a_sentence(
    client: FlaskClient, body: dict[str, Any], field: str | None, error: str
) -> None:
    refused = share(client, 400, **body)
    assert refused.get("field") == field
    assert refused["error"].startswith(error)


@contextmanager
def behind_a_proxy(app: Flask) -> Iterator[Flask]:
    proxied = create_app(
        {**app.config, "TRUSTED_PROXIES": 1, "ALLOWED_HOSTS": ["scores.example.org"]}
    )
    try:
        yield proxied
    finally:
        with proxied.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_url_has_the_https_name_behind_a_proxy_else_the_network_address(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = a_session(api)
    on_lan = share(client, session=session_id)
    assert LINK.fullmatch(on_lan["url"])
    with behind_a_proxy(app) as proxied:
        forwarded = {
            "Host": "scores.example.org",
            "X-Forwarded-For": "203.0.113.7",
            "X-Forwarded-Proto": "https",
        }
        phone = proxied.test_client()
        made = phone.post("/api/shares", json={"session": session_id}, headers=forwarded)
        assert made.status_code == 201, made.json
        url = made.json["url"]
        assert re.fullmatch(rf"https://scores\.example\.org/shared/{made.json['id']}\.[\w-]+", url)
        opened = phone.get(url.removeprefix("https://scores.example.org"), headers=forwarded)
        assert opened.status_code == 200
        assert "Set-Cookie" not in opened.headers
        sheet = phone.post(
            f"/sessions/{session_id}/share", data={"write_key": "k" * 20}, headers=forwarded
        )
        assert 'value="https://scores.example.org/shared/' in sheet.text


def test_the_logs_keep_no_share_link_s_secret() -> None:
    assert logs.mask("GET /shared/3.s3cr3t-x_Y HTTP/1.1") == "GET /shared/3.*** HTTP/1.1"
    assert logs.mask("/sign-in?next=%2Fshared%2F3%2Es3cr3t") == "/sign-in?next=%2Fshared%2F3%2E***"
    assert logs.mask("DELETE /api/shares/3 HTTP/1.1") == "DELETE /api/shares/3 HTTP/1.1"
