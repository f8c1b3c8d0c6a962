"""Optional access: off by default; a passcode for pages, bearer tokens for the API, and a limit
on wrong tries kept in the database so that every server worker counts the same tries."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select
from werkzeug.security import check_password_hash
from werkzeug.test import TestResponse

from scorekeeper.access.models import AccessSetting, ApiToken, SignIn, SignInFailure
from scorekeeper.sessions.extensions import db

from ..helpers.access import PASSCODE, bearer, set_passcode
from ..helpers.api import SEATS, Api, pick
from ..helpers.database import second_worker

NEW_SESSION = {
    **{f"seat_{seat}": name for seat, name in enumerate(SEATS, start=1)},
    "first_dealer": "0",
    "rounds": "1",
    "partner": "jack_of_diamonds",
    "no_bid": "forced_pick",
}


def invoke(runner: FlaskCliRunner, *args: str, input: str | None = None) -> Any:
    return runner.invoke(args=["access", *args], input=input)


def create_token(runner: FlaskCliRunner, name: str = "scripts") -> str:
    result = invoke(runner, "create-token", name)
    assert result.exit_code == 0, result.output
    return str(result.output.splitlines()[-1])


def assert_unauthorized(response: TestResponse, error: str) -> None:
    assert response.status_code == 401
    assert response.json == {"error": error}
    assert response.headers["WWW-Authenticate"] == "Bearer"


NO_TOKEN = (
    "This scorekeeper needs an API token for that: send the header Authorization: Bearer <token>."
)
WRONG_TOKEN = "That API token is wrong or has been revoked."
TOO_MANY = "Too many wrong passcodes or tokens from this address."


def sign_in(client: FlaskClient, passcode: str = PASSCODE, next: str = "/") -> TestResponse:
    return client.post(f"/sign-in?next={next}", data={"passcode": passcode})


def session_cookie(response: TestResponse) -> str:
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    return cookie


# --- Off by default


def test_access_is_off_by_default(client: FlaskClient, runner: FlaskCliRunner) -> None:
    created = client.post("/api/sessions", json={"players": SEATS, "rounds": 0})
    assert created.status_code == 201
    session_id = created.json["id"]
    assert (
        client.post(f"/api/sessions/{session_id}/hands", json=pick("Ann", "Bob", 75)).status_code
        == 201
    )
    assert client.post("/sessions/new", data=NEW_SESSION).status_code == 302
    assert client.get("/api/sessions").status_code == 200

    status = invoke(runner, "status")
    assert status.exit_code == 0
    off, hint, tokens = status.output.splitlines()
    assert (off, tokens) == (
        "Access is off: anyone on the network can change the scores.",
        "API tokens: none.",
    )
    # The `flask` beside this Python, as a new user's PATH has none.
    flask, command = hint.removeprefix("To ask for a passcode, run: ").split(" ", 1)
    assert command == "--app scorekeeper access set-passcode --role scorer"
    assert Path(flask).name == "flask" and os.access(flask, os.X_OK), flask
    assert f"<code>{flask} --app scorekeeper access" in client.get("/settings").text
    page = client.get("/sign-in")
    assert "No passcode is set" in page.text
    assert "Sign out" not in client.get("/settings").text


# --- Role scorer: writes need a sign-in or a token, reading stays open


def test_scorer_role_guards_every_api_write(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    api.record(session_id, **pick("Ann", "Bob", 75))
    set_passcode(runner)
    token = create_token(runner)

    assert client.get("/api/sessions").status_code == 200
    assert client.get(f"/api/sessions/{session_id}").status_code == 200
    assert client.get(f"/sessions/{session_id}").status_code == 200
    assert client.get(f"/sessions/{session_id}/export.csv").status_code == 200

    writes: list[tuple[str, str, Any, int]] = [
        ("POST", "/api/sessions", {"players": SEATS, "rounds": 1}, 201),
        ("POST", f"/api/sessions/{session_id}/hands", pick("Cat", "Dan", 80), 201),
        ("PUT", f"/api/sessions/{session_id}/hands/1", pick("Ann", "Bob", 45), 200),
        ("PATCH", f"/api/sessions/{session_id}", {"name": "Guarded"}, 200),
        ("DELETE", f"/api/sessions/{session_id}/hands/2", None, 204),
    ]
    for number, (method, path, body, _status) in enumerate(writes):
        # Each from its own address, to stay under the limit on wrong tries.
        sent = {"method": method, "json": body, "environ_base": {"REMOTE_ADDR": f"10.0.0.{number}"}}
        assert_unauthorized(client.open(path, **sent), NO_TOKEN)
        assert_unauthorized(client.open(path, **sent, headers=bearer(token + "x")), WRONG_TOKEN)
        assert_unauthorized(client.open(path, **sent, headers=bearer("not-a-token")), WRONG_TOKEN)
        # A scheme other than Bearer is no token at all.
        basic = {"Authorization": "Basic YTpi"}
        assert_unauthorized(client.open(path, **sent, headers=basic), NO_TOKEN)
    after_refusals = api.session(session_id)
    assert [hand["picking_points"] for hand in after_refusals["hands"]] == [75]
    assert after_refusals["name"] == ""
    assert len(client.get("/api/sessions").json["sessions"]) == 1

    for method, path, body, status in writes:
        response = client.open(path, method=method, json=body, headers=bearer(token))
        assert response.status_code == status, (method, path, response.json)
    guarded = api.session(session_id)
    assert guarded["name"] == "Guarded"
    assert [hand["picking_points"] for hand in guarded["hands"]] == [45]


def test_scorer_role_sends_page_writes_to_sign_in(
    client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    assert client.get("/sessions/new").status_code == 200

    refused = client.post(
        "/sessions/new", data=NEW_SESSION, headers={"Referer": "http://localhost/sessions/new"}
    )
    assert refused.status_code == 303
    assert refused.location == "/sign-in?next=/sessions/new"
    assert client.get("/api/sessions").json == {"sessions": []}
    # The phone is told that what it sent was not saved.
    page = client.get(refused.location)
    assert "What you sent was not saved" in page.text

    # Without a Referer of this site, back to the start.
    elsewhere = client.post(
        "/sessions/new", data=NEW_SESSION, headers={"Referer": "https://evil.example/x"}
    )
    assert elsewhere.location == "/sign-in?next=/"


def test_sign_in_page(client: FlaskClient, runner: FlaskCliRunner) -> None:
    set_passcode(runner)
    page = client.get("/sign-in?next=/sessions/new")
    assert page.status_code == 200
    assert re.search(r"<h1>Sign in</h1>", page.text)
    assert '<label for="passcode">Passcode</label>' in page.text
    assert re.search(r'<input type="password" id="passcode" name="passcode"', page.text)
    assert '<button type="submit" class="btn primary wide">Sign in</button>' in page.text

    wrong = sign_in(client, "wrong-passcode", next="/sessions/new")
    assert wrong.status_code == 200
    assert "That passcode is wrong. Check it and try again." in wrong.text
    assert 'aria-invalid="true"' in wrong.text
    assert '<button type="submit" class="btn primary wide">Sign in</button>' in wrong.text
    assert client.post("/sessions/new", data=NEW_SESSION).status_code == 303

    right = sign_in(client, next="/sessions/new")
    assert right.status_code == 303
    assert right.location == "/sessions/new"
    created = client.post("/sessions/new", data=NEW_SESSION)
    assert created.status_code == 302
    assert created.location.startswith("/sessions/")
    # The page's cookie works on the API of the same site too.
    assert client.post("/api/sessions", json={"players": SEATS, "rounds": 0}).status_code == 201
    assert len(client.get("/api/sessions").json["sessions"]) == 2


def test_sign_in_cookie_is_signed_http_only_lax_and_lasts_30_days(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=30)
    before = datetime.now(UTC)
    cookie = session_cookie(sign_in(client))
    parts = [part.strip() for part in cookie.split(";")]
    assert "HttpOnly" in parts
    assert "SameSite=Lax" in parts
    (expires,) = [p.removeprefix("Expires=") for p in parts if p.startswith("Expires=")]
    lifetime = parsedate_to_datetime(expires) - before
    assert timedelta(days=30) - timedelta(seconds=5) <= lifetime <= timedelta(days=30, seconds=5)

    # A cookie that was not signed with the app's key signs nobody in.
    forged = app.test_client()
    value = cookie.split(";")[0].removeprefix("session=")
    forged.set_cookie("session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert forged.post("/api/sessions", json={"players": SEATS, "rounds": 0}).status_code == 401


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", "x"],
)
def test_sign_in_goes_only_to_local_pages(
    client: FlaskClient, runner: FlaskCliRunner, target: str
) -> None:
    set_passcode(runner)
    response = client.post("/sign-in", query_string={"next": target}, data={"passcode": PASSCODE})
    assert response.status_code == 303
    assert response.location == "/"


def test_sign_out_from_the_settings_page(client: FlaskClient, runner: FlaskCliRunner) -> None:
    set_passcode(runner)
    settings = client.get("/settings").text
    assert "Sign out" not in settings
    assert 'href="/sign-in?next=/settings"' in settings

    sign_in(client)
    assert "Sign out" in client.get("/settings").text
    signed_out = client.post("/sign-out")
    assert signed_out.status_code == 303
    assert signed_out.location == "/settings"
    assert "Signed out." in client.get("/settings").text
    assert client.post("/api/sessions", json={"players": SEATS, "rounds": 0}).status_code == 401


def test_signing_out_refuses_a_copy_of_the_cookie_too(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    value = session_cookie(sign_in(client)).split(";")[0].removeprefix("session=")
    copy = app.test_client()
    copy.set_cookie("session", value)
    body = {"players": SEATS, "rounds": 0}
    assert copy.post("/api/sessions", json=body).status_code == 201
    assert client.post("/sign-out").status_code == 303
    assert_unauthorized(copy.post("/api/sessions", json=body), NO_TOKEN)
    assert copy.post("/sessions/new", data=NEW_SESSION).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(SignIn)) == 0


def test_a_sign_in_older_than_30_days_no_longer_holds(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    sign_in(client)
    body = {"players": SEATS, "rounds": 0}
    assert client.post("/api/sessions", json=body).status_code == 201
    with app.app_context():
        row = db.session.scalars(select(SignIn)).one()
        row.created_at = datetime.now(UTC) - timedelta(days=30, minutes=1)
        db.session.commit()
    assert_unauthorized(client.post("/api/sessions", json=body), NO_TOKEN)


# --- Role reader: reading needs it too


def test_reader_role_guards_reading(client: FlaskClient, runner: FlaskCliRunner, api: Api) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner, role="reader")
    token = create_token(runner)

    for path in ("/api/sessions", f"/api/sessions/{session_id}"):
        assert_unauthorized(client.get(path), NO_TOKEN)
        assert_unauthorized(client.get(path, headers=bearer("1.wrong")), WRONG_TOKEN)
        assert client.get(path, headers=bearer(token)).status_code == 200
    for path in ("/", f"/sessions/{session_id}", f"/sessions/{session_id}/export.csv", "/settings"):
        response = client.get(path)
        assert response.status_code == 303
        assert response.location == f"/sign-in?next={path}"
    # A script may fetch a page's CSV with its token.
    assert (
        client.get(f"/sessions/{session_id}/export.csv", headers=bearer(token)).status_code == 200
    )
    assert client.get("/sign-in").status_code == 200
    open_to_all = ("/static/style.css", "/sw.js", "/manifest.webmanifest", "/scripts/record.js")
    for path in (*open_to_all, "/styles/grid.css"):
        with client.get(path) as answer:
            assert answer.status_code == 200, path

    assert "anything is shown or changed" in client.get("/sign-in").text
    sign_in(client)
    assert client.get("/").status_code == 200
    assert client.get("/api/sessions").status_code == 200


def test_reading_closes_as_soon_as_the_reader_role_is_set(
    client: FlaskClient, runner: FlaskCliRunner
) -> None:
    assert client.get("/api/sessions").status_code == 200
    set_passcode(runner, role="reader")
    assert client.get("/api/sessions").status_code == 401
    assert invoke(runner, "off").exit_code == 0
    assert client.get("/api/sessions").status_code == 200


def test_another_worker_closes_reading_at_once(app: Flask) -> None:
    with second_worker(app) as second:
        reader = second.test_client()
        assert reader.get("/api/sessions").status_code == 200
        set_passcode(app.test_cli_runner(), role="reader")
        # Every request reads the setting afresh, in every worker.
        assert reader.post("/api/sessions", json={}).status_code == 401
        assert reader.get("/api/sessions").status_code == 401


# --- Tokens, new passcodes, off


def test_revoked_token_is_refused_at_once(client: FlaskClient, runner: FlaskCliRunner) -> None:
    set_passcode(runner)
    token = create_token(runner, "scoreboard")
    other = create_token(runner, "phone")
    body = {"players": SEATS, "rounds": 0}
    for _ in range(2):  # the second answer comes from the cache of verified tokens
        assert client.post("/api/sessions", json=body, headers=bearer(token)).status_code == 201

    revoked = invoke(runner, "revoke-token", "scoreboard")
    assert revoked.exit_code == 0
    assert revoked.output == 'Token "scoreboard" revoked.\n'
    assert_unauthorized(client.post("/api/sessions", json=body, headers=bearer(token)), WRONG_TOKEN)
    assert client.post("/api/sessions", json=body, headers=bearer(other)).status_code == 201

    # A new token that takes the revoked one's id does not let the old one in.
    again = create_token(runner, "scoreboard")
    assert_unauthorized(client.post("/api/sessions", json=body, headers=bearer(token)), WRONG_TOKEN)
    assert client.post("/api/sessions", json=body, headers=bearer(again)).status_code == 201


def test_new_passcode_signs_every_phone_out(app: Flask, runner: FlaskCliRunner) -> None:
    set_passcode(runner)
    phone, other_phone = app.test_client(), app.test_client()
    sign_in(phone)
    sign_in(other_phone)
    body = {"players": SEATS, "rounds": 0}
    assert phone.post("/api/sessions", json=body).status_code == 201

    set_passcode(runner, passcode="Another-5678")
    for client in (phone, other_phone):
        assert_unauthorized(client.post("/api/sessions", json=body), NO_TOKEN)
        assert client.post("/sessions/new", data=NEW_SESSION).status_code == 303
    assert sign_in(phone).status_code == 200  # the old passcode is wrong now
    assert sign_in(phone, "Another-5678").status_code == 303
    assert phone.post("/api/sessions", json=body).status_code == 201


def test_access_off_opens_everything_and_on_again_needs_a_new_sign_in(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    sign_in(client)
    off = invoke(runner, "off")
    assert off.exit_code == 0
    assert off.output.startswith("Access is off: anyone on the network can read and change")
    stranger = app.test_client()
    assert stranger.post("/api/sessions", json={"players": SEATS, "rounds": 0}).status_code == 201

    set_passcode(runner)
    assert client.post("/api/sessions", json={"players": SEATS, "rounds": 0}).status_code == 401


# --- Too many wrong tries


def wrong_token(client: FlaskClient) -> TestResponse:
    return client.post("/api/sessions", json={"players": SEATS, "rounds": 0}, headers=bearer("1.x"))


def assert_too_many(response: TestResponse) -> int:
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert response.json == {"error": f"{TOO_MANY} Try again in {wait} seconds."}
    return wait


def test_eleventh_wrong_token_within_a_minute_is_429(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    token = create_token(runner)
    for _ in range(10):
        assert wrong_token(client).status_code == 401
    assert_too_many(wrong_token(client))
    # A right token from that address waits too, so guessing can't go on.
    assert_too_many(client.post("/api/sessions", json={}, headers=bearer(token)))
    # Requests that try no passcode or token are answered as always.
    assert client.get("/api/sessions").status_code == 200
    assert_unauthorized(client.post("/api/sessions", json={}), NO_TOKEN)

    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.1.2.3"
    assert wrong_token(elsewhere).status_code == 401
    body = {"players": SEATS, "rounds": 0}
    assert elsewhere.post("/api/sessions", json=body, headers=bearer(token)).status_code == 201


def test_wrong_passcodes_count_too_and_the_page_says_wait(
    client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    for _ in range(5):
        assert "That passcode is wrong" in sign_in(client, "nope-nope").text
    for _ in range(5):
        assert wrong_token(client).status_code == 401
    refused = sign_in(client)
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert refused.mimetype == "text/html"
    assert f"Try again in {wait} seconds." in refused.text


def test_the_limit_holds_across_server_workers(app: Flask) -> None:
    with second_worker(app) as second:
        set_passcode(app.test_cli_runner())
        one, two = app.test_client(), second.test_client()
        for client in (one, two) * 5:
            assert wrong_token(client).status_code == 401
        assert_too_many(wrong_token(one))
        assert_too_many(wrong_token(two))
        page = sign_in(two)
        assert page.status_code == 429
        assert 1 <= int(page.headers["Retry-After"]) <= 60


def test_wrong_tries_older_than_a_minute_no_longer_count_and_an_hour_are_purged(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    long_ago = datetime.now(UTC) - timedelta(seconds=61)
    over_an_hour = datetime.now(UTC) - timedelta(minutes=61)
    with app.app_context():
        db.session.add_all(SignInFailure(address="127.0.0.1", at=long_ago) for _ in range(10))
        db.session.add_all(SignInFailure(address="10.0.0.9", at=over_an_hour) for _ in range(5))
        db.session.commit()
    assert wrong_token(client).status_code == 401
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(SignInFailure)) == 11

    # The wait ends when the oldest of the last ten wrong tries is a minute old.
    recent = datetime.now(UTC) - timedelta(seconds=30)
    with app.app_context():
        db.session.add_all(SignInFailure(address="127.0.0.1", at=recent) for _ in range(9))
        db.session.commit()
    wait = assert_too_many(wrong_token(client))
    assert 29 <= wait <= 31


def test_a_hundred_wrong_tries_an_hour_from_every_address_stop_every_address(
    app: Flask, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    token = create_token(runner)
    half_an_hour_ago = datetime.now(UTC) - timedelta(minutes=30)
    with app.app_context():
        db.session.add_all(
            SignInFailure(address=f"10.0.{n // 200}.{n % 200}", at=half_an_hour_ago)
            for n in range(99)
        )
        db.session.commit()
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "10.9.9.9"
    assert wrong_token(newcomer).status_code == 401
    for phone in (newcomer, app.test_client()):
        refused = phone.post("/api/sessions", json={}, headers=bearer(token))
        assert refused.status_code == 429
        wait = int(refused.headers["Retry-After"])
        assert 29 * 60 <= wait <= 30 * 60 + 1
        assert refused.json == {
            "error": "Too many wrong passcodes or tokens were tried within the hour. Try again "
            "in 30 minutes; phones signed in already go on."
        }
        page = sign_in(phone)
        assert page.status_code == 429
        assert "Try again in 30 minutes" in page.text
    assert "100 wrong tries within the last hour" in invoke(runner, "status").output


def test_a_right_passcode_or_token_is_not_counted_as_wrong(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    set_passcode(runner)
    token = create_token(runner)
    for _ in range(12):
        assert sign_in(client).status_code == 303
        assert client.post("/sign-out").status_code == 303
    body = {"players": SEATS, "rounds": 0}
    other = app.test_client()
    for _ in range(12):
        assert other.post("/api/sessions", json=body, headers=bearer(token)).status_code == 201
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(SignInFailure)) == 0


# --- The command line


def test_create_token_prints_it_once_on_the_last_line_and_stores_a_hash(
    app: Flask, runner: FlaskCliRunner
) -> None:
    result = invoke(runner, "create-token", "scoreboard")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    token = lines[-1]
    assert re.fullmatch(r"\d+\.[A-Za-z0-9_-]{40,}", token)
    assert all(token not in line for line in lines[:-1])
    with app.app_context():
        (row,) = db.session.scalars(select(ApiToken)).all()
        assert row.name == "scoreboard"
        secret = token.partition(".")[2]
        assert secret not in row.secret_hash and token not in row.secret_hash
        assert row.secret_hash.startswith(f"{app.config['PASSWORD_HASH']}$")
        assert check_password_hash(row.secret_hash, secret)

    twice = invoke(runner, "create-token", "scoreboard")
    assert twice.exit_code == 1
    assert twice.output == (
        'Error: A token named "scoreboard" already exists: '
        "revoke it first or choose another name.\n"
    )
    unknown = invoke(runner, "revoke-token", "nobody")
    assert unknown.exit_code == 1
    assert unknown.output == 'Error: No token is named "nobody".\n'

    invoke(runner, "create-token", "another")
    status = invoke(runner, "status").output.splitlines()
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert status[-3:] == [
        "API tokens:",
        f"  another (created {today})",
        f"  scoreboard (created {today})",
    ]


def test_set_passcode_prompts_twice_hidden_and_stores_a_hash(
    app: Flask, runner: FlaskCliRunner
) -> None:
    result = invoke(runner, "set-passcode", "--role", "reader", input=f"{PASSCODE}\n{PASSCODE}\n")
    assert result.exit_code == 0, result.output
    assert PASSCODE not in result.output
    assert result.output.startswith("Passcode: \nRepeat for confirmation: \nPasscode set.")
    with app.app_context():
        setting = db.session.scalars(select(AccessSetting)).one()
        assert setting.role == "reader"
        assert setting.passcode_hash is not None and PASSCODE not in setting.passcode_hash
        assert check_password_hash(setting.passcode_hash, PASSCODE)
    assert invoke(runner, "status").output.startswith(
        "Access is on. Reading and changing the scores need a sign-in or an API token"
    )

    mismatch = invoke(runner, "set-passcode", input="abcdef1\nabcdef2\nabcdef1\nabcdef1\n")
    assert mismatch.exit_code == 0
    assert "Error: The two entered values do not match." in mismatch.output
    short = invoke(runner, "set-passcode", "--passcode", "abcde")
    assert short.exit_code == 1
    assert short.output == "Error: A passcode needs at least 6 characters.\n"
    with app.app_context():
        assert db.session.scalars(select(AccessSetting)).one().role == "scorer"
