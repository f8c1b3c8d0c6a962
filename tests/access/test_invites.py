"""Inviting a phone to one session: a link that opens the session and, with access on, signs the
phone in for that session alone, as scorer or reader, until it expires or is revoked; and API
tokens made for one session from the command line."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select, update
from werkzeug.test import TestResponse

from scorekeeper.access import invites
from scorekeeper.access.models import ApiToken, Invite, InviteSignIn
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import as_utc, utcnow
from scorekeeper.web import hosts

from ..helpers.access import PASSCODE, bearer, set_passcode, signed_in
from ..helpers.api import SEATS, Api, pick
from ..helpers.pages import Page

LAN = "192.168.1.20"
HAND = pick("Ann", "Bob", 70)


@pytest.fixture(autouse=True)
def on_a_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosts, "lan_address", lambda: LAN)


def two_sessions(api: Api) -> tuple[int, int]:
    return api.new_session()["id"], api.new_session()["id"]


def invite(client: FlaskClient, session_id: int, status: int = 201, **body: Any) -> Any:
    response = client.post(f"/api/sessions/{session_id}/invites", json=body)
    assert response.status_code == status, response.json
    return response.json


def opened(app: Flask, url: str) -> FlaskClient:
    """A fresh phone that has opened an invite's link."""
    phone = app.test_client()
    path = url.removeprefix(f"http://{LAN}")
    response = phone.get(path)
    assert response.status_code == 303, response.text
    return phone


def expire_invites(app: Flask) -> None:
    with app.app_context():
        db.session.execute(update(Invite).values(expires_at=utcnow() - timedelta(seconds=1)))
        db.session.commit()


def invite_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Invite)) or 0


def invite_sign_ins(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(InviteSignIn)) or 0


def assert_refused(response: TestResponse) -> None:
    assert response.status_code == 403, response.text


def assert_sent_to_sign_in(response: TestResponse) -> None:
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/sign-in")


# --- Making an invite


def test_an_invite_answers_its_url_role_and_expiry(client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    before = utcnow()
    made = invite(client, session_id)
    assert set(made) == {"id", "url", "role", "expires"}
    assert made["role"] == "scorer"
    assert re.fullmatch(rf"http://{re.escape(LAN)}/invites/\d+\.[\w-]+", made["url"])
    expires = datetime.fromisoformat(made["expires"])
    assert expires.utcoffset() == timedelta(0)
    assert timedelta(hours=12) <= expires - before <= timedelta(hours=12, minutes=1)
    reader = invite(client, session_id, role="reader", hours=1)
    assert reader["role"] == "reader"
    assert datetime.fromisoformat(reader["expires"]) - before <= timedelta(hours=1, minutes=1)
    assert reader["url"] != made["url"]


def test_the_url_keeps_a_name_other_phones_reach(app: Flask, client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    on_lan = client.post(f"/api/sessions/{session_id}/invites", headers={"Host": f"{LAN}:5000"})
    assert on_lan.json["url"].startswith(f"http://{LAN}:5000/invites/")
    on_port = client.post(
        f"/api/sessions/{session_id}/invites", environ_overrides={"SERVER_PORT": "5000"}
    )
    assert on_port.json["url"].startswith(f"http://{LAN}:5000/invites/")
    app.config["LISTENS_ON_NETWORK"] = False
    alone = invite(client, session_id)
    assert alone["url"].startswith("http://localhost/invites/")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"hours": 0}, "hours"),
        ({"hours": 73}, "hours"),
        ({"hours": 1.5}, "hours"),
        ({"hours": "12"}, "hours"),
        ({"hours": True}, "hours"),
        ({"role": "owner"}, "role"),
        ({"role": 1}, "role"),
    ],
)
def test_a_wrong_role_or_hours_is_refused(
    client: FlaskClient, api: Api, body: dict[str, Any], field: str
) -> None:
    session_id = api.new_session()["id"]
    refused = invite(client, session_id, 400, **body)
    assert refused["field"] == field
    assert refused["error"].endswith(".")


def test_an_unknown_session_has_no_invites(client: FlaskClient) -> None:
    assert invite(client, 9, 404)["error"] == "There is no session 9."


def test_the_same_idempotency_key_answers_the_same_invite(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = api.new_session()["id"]
    path = f"/api/sessions/{session_id}/invites"
    headers = {"Idempotency-Key": "invite-1"}
    first = client.post(path, json={"role": "reader"}, headers=headers)
    again = client.post(path, json={"role": "reader"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert invite_count(app) == 1
    other = client.post(path, json={"role": "scorer"}, headers=headers)
    assert other.status_code == 409
    assert other.json["field"] == "Idempotency-Key"


# --- Opening the link


def test_with_access_off_the_link_opens_the_session(client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    made = invite(client, session_id)
    phone_path = made["url"].removeprefix(f"http://{LAN}")
    response = client.get(phone_path)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/sessions/{session_id}"


def test_an_invited_scorer_records_there_and_nowhere_else(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner)
    made = invite(signed_in(app), session_id)
    phone = opened(app, made["url"])
    sheet = phone.get(f"/sessions/{session_id}")
    assert sheet.status_code == 200
    shown = Page(sheet.text).text
    assert "Record hand" in shown and "Invite a phone" not in shown
    assert "Delete session" not in shown and "Leaderboard" not in shown
    assert f'class="home" href="/sessions/{session_id}"' in sheet.text
    assert phone.get(f"/sessions/{session_id}/hands/new").status_code == 200
    recorded = phone.post(f"/api/sessions/{session_id}/hands", json=HAND)
    assert recorded.status_code == 201, recorded.json
    page_hand = phone.post(
        f"/sessions/{session_id}/hands/new",
        data={
            "number": "2",
            "kind": "pick",
            "picker": "Cat",
            "partner": "Dan",
            "picking_points": "75",
        },
    )
    assert page_hand.status_code in (302, 303), page_hand.text
    assert len(Api(phone).session(session_id)["hands"]) == 2
    for path in (f"/sessions/{other}", "/sessions/new", "/settings", "/players", "/"):
        assert_refused(phone.get(path))
    assert_refused(phone.get(f"/api/sessions/{other}"))
    assert_refused(phone.get("/api/sessions"))
    assert_refused(phone.post("/api/sessions", json={"players": SEATS, "rounds": 0}))
    assert_refused(phone.post(f"/api/sessions/{other}/hands", json=HAND))
    assert_refused(phone.delete(f"/api/sessions/{session_id}"))
    assert_refused(phone.post(f"/api/sessions/{session_id}/invites", json={}))
    assert_refused(phone.get(f"/sessions/{session_id}/invite"))
    assert phone.get(f"/api/sessions/{other}").json["error"].startswith("This phone or token")


def test_an_invited_reader_only_looks(app: Flask, runner: FlaskCliRunner, api: Api) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner, role="reader")
    made = invite(signed_in(app), session_id, role="reader")
    phone = opened(app, made["url"])
    sheet = phone.get(f"/sessions/{session_id}")
    assert sheet.status_code == 200
    shown = Page(sheet.text).text
    for control in ("Record hand", "Undo last hand", "Edit", "Delete", "Session", "Sessions"):
        assert control not in shown.split(), control
    assert "Changes" in shown and "Settle up" in shown
    elsewhere = phone.get(f"/sessions/{other}")
    assert f'href="/sessions/{session_id}">Back to the session' in elsewhere.text
    assert phone.get(f"/sessions/{session_id}/table").status_code == 200
    assert phone.get(f"/api/sessions/{session_id}").status_code == 200
    assert_refused(phone.post(f"/api/sessions/{session_id}/hands", json=HAND))
    assert_refused(phone.post(f"/sessions/{session_id}/hands/new", data={"kind": "passed"}))
    assert_refused(phone.get(f"/sessions/{other}"))
    assert_refused(phone.get("/sessions/new"))
    assert_refused(phone.get(f"/api/sessions/{other}"))


def test_a_phone_signed_in_by_an_invite_makes_no_invites(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    anyone = app.test_client()
    assert anyone.post(f"/api/sessions/{session_id}/invites", json={}).status_code == 401
    made = invite(signed_in(app), session_id)
    phone = opened(app, made["url"])
    assert_refused(phone.post(f"/api/sessions/{session_id}/invites", json={}))
    assert_refused(phone.delete(f"/api/sessions/{session_id}/invites/{made['id']}"))


# --- Expiry and revoking


def test_an_expired_invite_opens_nothing_and_its_phones_are_refused(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    made = invite(signed_in(app), session_id)
    phone = opened(app, made["url"])
    expire_invites(app)
    assert phone.get(f"/api/sessions/{session_id}").status_code == 401
    assert_sent_to_sign_in(phone.get(f"/sessions/{session_id}"))
    assert phone.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401
    late = app.test_client()
    gone = late.get(made["url"].removeprefix(f"http://{LAN}"))
    assert gone.status_code == 410
    assert "expired" in gone.text
    assert late.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401


def test_revoking_signs_its_phones_out_at_once(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    owner = signed_in(app)
    made = invite(owner, session_id)
    phone = opened(app, made["url"])
    assert phone.get(f"/api/sessions/{session_id}").status_code == 200
    path = f"/api/sessions/{session_id}/invites/{made['id']}"
    assert owner.delete(path).status_code == 204
    assert owner.delete(path).status_code == 404
    assert phone.get(f"/api/sessions/{session_id}").status_code == 401
    assert_sent_to_sign_in(phone.get(f"/sessions/{session_id}"))
    assert app.test_client().get(made["url"].removeprefix(f"http://{LAN}")).status_code == 404
    assert invite_count(app) == 0


def test_the_invite_sheet_revokes(app: Flask, runner: FlaskCliRunner, api: Api) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    owner = signed_in(app)
    made = invite(owner, session_id, role="reader")
    phone = opened(app, made["url"])
    sheet = owner.get(f"/sessions/{session_id}/invite")
    assert "As viewer, until" in sheet.text
    revoked = owner.post(f"/sessions/{session_id}/invites/{made['id']}/revoke")
    assert revoked.status_code == 303
    assert "Invite revoked" in owner.get(revoked.headers["Location"]).text
    assert phone.get(f"/api/sessions/{session_id}").status_code == 401


@pytest.mark.parametrize("token", ["1.nothing", "x", "99999999999999999999.a"])
def test_an_unknown_link_says_so_and_signs_nothing_in(
    app: Flask, runner: FlaskCliRunner, api: Api, token: str
) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    invite(signed_in(app), session_id)
    phone = app.test_client()
    response = phone.get(f"/invites/{token}")
    assert response.status_code == 404
    assert "<h1>" in response.text
    assert "unknown" in response.text
    assert not response.headers.getlist("Set-Cookie")
    assert phone.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401


# --- The pages


def test_the_scoresheet_menu_leads_to_the_invite_sheet(client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    sheet = client.get(f"/sessions/{session_id}")
    assert f'href="/sessions/{session_id}/invite">Invite a phone</a>' in sheet.text
    page = client.get(f"/sessions/{session_id}/invite")
    assert page.status_code == 200
    assert "<h1>Invite a phone</h1>" in page.text
    assert "As scorer" in page.text and "As viewer" in page.text


def test_the_invite_sheet_shows_the_link_and_its_code(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = api.new_session()["id"]
    made = client.post(f"/sessions/{session_id}/invite", data={"role": "reader", "hours": "3"})
    assert made.status_code == 200
    link = re.search(r'<a id="invite-link" href="([^"]+)">', made.text)
    assert link is not None and link[1].startswith(f"http://{LAN}/invites/")
    assert '<svg role="img"' in made.text
    assert "Revoke" in made.text
    assert "As viewer, until" in made.text
    with app.app_context():
        row = db.session.scalars(select(Invite)).one()
        assert row.role == "reader"
        left = as_utc(row.expires_at) - utcnow()
        assert timedelta(hours=2, minutes=59) < left <= timedelta(hours=3)


def test_the_invite_sheet_made_again_with_its_key_makes_one_invite(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = api.new_session()["id"]
    form = {"role": "scorer", "hours": "12", "write_key": "k" * 20}
    first = client.post(f"/sessions/{session_id}/invite", data=form)
    again = client.post(f"/sessions/{session_id}/invite", data=form)
    link = re.compile(r'<a id="invite-link" href="([^"]+)">')
    assert link.findall(first.text) == link.findall(again.text) != []
    assert invite_count(app) == 1


def test_the_invite_sheet_refuses_hours_out_of_range(client: FlaskClient, api: Api) -> None:
    session_id = api.new_session()["id"]
    refused = client.post(f"/sessions/{session_id}/invite", data={"role": "scorer", "hours": "99"})
    assert refused.status_code == 400
    assert "1 to 72" in refused.text
    assert 'aria-invalid="true"' in refused.text


def test_the_table_view_shows_a_code_to_follow(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    table = client.get(f"/sessions/{session_id}/table")
    assert 'class="tv-code"' in table.text
    assert f'aria-label="http://{LAN}/sessions/{session_id}/table"' in table.text
    set_passcode(runner, role="reader")
    screen = signed_in(app)
    shown = screen.get(f"/sessions/{session_id}/table")
    code = re.search(rf'aria-label="(http://{re.escape(LAN)}/invites/[^"]+)"', shown.text)
    assert code is not None
    assert "viewer" in shown.text
    # The same screen shows the same code, until it has less than an hour left.
    assert code[1] in screen.get(f"/sessions/{session_id}/table").text
    assert invite_count(app) == 1
    phone = opened(app, code[1])
    assert phone.get(f"/sessions/{session_id}/table").status_code == 200
    assert_refused(phone.post(f"/api/sessions/{session_id}/hands", json=HAND))


# --- Tokens for one session


def create_token(runner: FlaskCliRunner, *args: str) -> str:
    result = runner.invoke(args=["access", "create-token", *args])
    assert result.exit_code == 0, result.output
    assert "It is shown only now" in result.output
    return str(result.output.splitlines()[-1])


def test_a_scoped_scorer_token_writes_its_session_alone(
    client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner)
    token = bearer(create_token(runner, "table 1", "--session", str(session_id)))
    recorded = client.post(f"/api/sessions/{session_id}/hands", json=HAND, headers=token)
    assert recorded.status_code == 201
    assert client.get(f"/api/sessions/{session_id}", headers=token).status_code == 200
    assert_refused(client.post(f"/api/sessions/{other}/hands", json=HAND, headers=token))
    assert_refused(client.get(f"/api/sessions/{other}", headers=token))
    assert_refused(client.get("/api/sessions", headers=token))
    new = {"players": SEATS, "rounds": 0}
    assert_refused(client.post("/api/sessions", json=new, headers=token))
    assert_refused(client.post(f"/api/sessions/{session_id}/invites", json={}, headers=token))
    assert client.get(f"/api/sessions/{other}").status_code == 200


def test_a_scoped_reader_token_reads_its_session_alone(
    client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner, role="reader")
    token = bearer(
        create_token(runner, "tv", "--session", str(session_id), "--role", "reader", "--hours", "2")
    )
    assert client.get(f"/api/sessions/{session_id}", headers=token).status_code == 200
    assert_refused(client.post(f"/api/sessions/{session_id}/hands", json=HAND, headers=token))
    assert_refused(client.get(f"/api/sessions/{other}", headers=token))


def test_an_expired_scoped_token_is_refused_as_a_wrong_one(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    set_passcode(runner)
    token = bearer(create_token(runner, "short", "--session", str(session_id), "--hours", "1"))
    with app.app_context():
        row = db.session.scalars(select(ApiToken)).one()
        assert row.session_id == session_id and row.role == "scorer"
        left = as_utc(row.expires_at) - utcnow()
        assert timedelta(minutes=59) < left <= timedelta(hours=1)
        row.expires_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    refused = client.post(f"/api/sessions/{session_id}/hands", json=HAND, headers=token)
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == "Bearer"
    assert client.get(f"/api/sessions/{session_id}", headers=token).status_code == 401


def test_an_unscoped_token_still_reaches_everything(
    client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner, role="reader")
    token = bearer(create_token(runner, "scripts"))
    for target in (session_id, other):
        response = client.post(f"/api/sessions/{target}/hands", json=HAND, headers=token)
        assert response.status_code == 201
    assert client.get("/api/sessions", headers=token).status_code == 200


@pytest.mark.parametrize(
    "args",
    [
        ["x", "--role", "reader"],
        ["x", "--hours", "3"],
        ["x", "--session", "1", "--hours", "73"],
        ["x", "--session", "1", "--hours", "0"],
        ["x", "--session", "1", "--role", "owner"],
        ["x", "--session", "2"],
    ],
)
def test_create_token_refuses_a_wrong_scope(
    app: Flask, runner: FlaskCliRunner, api: Api, args: list[str]
) -> None:
    api.new_session()
    result = runner.invoke(args=["access", "create-token", *args])
    assert result.exit_code != 0
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(ApiToken)) == 0


def test_status_names_a_tokens_session(runner: FlaskCliRunner, api: Api) -> None:
    session_id = api.new_session()["id"]
    create_token(runner, "tv", "--session", str(session_id), "--role", "reader")
    listed = runner.invoke(args=["access", "status"]).output
    assert f"  tv (created {utcnow():%Y-%m-%d}, session {session_id} as reader)" in listed


# --- With access off, an invite still limits the phone that opens it


def complete_session(api: Api) -> int:
    """A session of one round, played out: its sheet offers Add a round."""
    session_id = api.new_session(rounds=1)["id"]
    for picker, partner in zip(SEATS, SEATS[1:] + SEATS[:1], strict=True):
        api.record(session_id, **pick(picker, partner, 70))
    return session_id


def test_with_access_off_an_invited_viewer_only_looks_at_its_session(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = complete_session(api)
    other = api.new_session()["id"]
    made = invite(client, session_id, role="reader")
    phone = opened(app, made["url"])
    sheet = phone.get(f"/sessions/{session_id}")
    assert sheet.status_code == 200
    shown = Page(sheet.text).text
    for control in ("Edit", "Delete", "Session", "Sessions", "Undo"):
        assert control not in shown.split(), control
    assert "Add a round" not in shown and "Invite a phone" not in shown
    assert "Settle up" in shown
    assert phone.get(f"/sessions/{session_id}/table").status_code == 200
    assert phone.get(f"/api/sessions/{session_id}").status_code == 200
    changes = Page(phone.get(f"/sessions/{session_id}/changes").text).text
    assert "Restore" not in changes.split()
    settle = Page(phone.get(f"/sessions/{session_id}/settle-up").text).text
    assert "Set stake" not in settle
    assert_refused(phone.post(f"/sessions/{session_id}/rounds", data={}))
    assert_refused(phone.post(f"/sessions/{session_id}/settle-up", data={"stake": "1"}))
    assert_refused(phone.post(f"/sessions/{session_id}/undo", data={"number": "5"}))
    for form in ("hands/new", "hands/1/edit", "hands/1/delete", "edit", "seats"):
        assert_refused(phone.get(f"/sessions/{session_id}/{form}"))
    assert_refused(phone.post(f"/sessions/{session_id}/hands/new", data={"kind": "passed"}))
    assert_refused(phone.post(f"/api/sessions/{session_id}/hands", json=HAND))
    assert_refused(phone.put(f"/api/sessions/{session_id}/hands/1", json=HAND))
    assert_refused(phone.delete(f"/api/sessions/{session_id}/hands/5"))
    assert_refused(phone.patch(f"/api/sessions/{session_id}", json={"name": "Mine"}))
    assert_refused(phone.delete(f"/api/sessions/{session_id}"))
    for path in (f"/sessions/{other}", "/sessions/new", "/settings", "/players", "/"):
        assert_refused(phone.get(path))
    assert_refused(phone.get(f"/api/sessions/{other}"))
    assert_refused(phone.get("/api/sessions"))
    assert_refused(phone.post("/api/sessions", json={"players": SEATS, "rounds": 0}))
    assert_refused(phone.get(f"/sessions/{session_id}/invite"))
    assert_refused(phone.post(f"/api/sessions/{session_id}/invites", json={}))
    after = api.session(session_id)
    assert len(after["hands"]) == 5 and after["name"] == ""
    assert len(client.get("/api/sessions").json["sessions"]) == 2


def test_with_access_off_an_invited_scorer_records_there_alone(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id, other = two_sessions(api)
    made = invite(client, session_id)
    phone = opened(app, made["url"])
    shown = Page(phone.get(f"/sessions/{session_id}").text).text
    assert "Record hand" in shown and "Invite a phone" not in shown
    assert f"/sessions/{session_id}/hands/new" in phone.get(f"/sessions/{session_id}").text
    assert phone.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 201
    assert_refused(phone.post(f"/api/sessions/{other}/hands", json=HAND))
    assert_refused(phone.delete(f"/api/sessions/{session_id}"))
    for path in (f"/sessions/{other}", "/sessions/new", "/settings", "/"):
        assert_refused(phone.get(path))
    assert_refused(phone.get(f"/sessions/{session_id}/invite"))
    assert len(api.session(session_id)["hands"]) == 1
    assert api.session(other)["hands"] == []


def test_with_access_off_an_invite_ends_when_it_expires_or_is_revoked(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = api.new_session()["id"]
    made = invite(client, session_id, role="reader")
    revoked = opened(app, made["url"])
    expired = opened(app, invite(client, session_id, role="reader")["url"])
    assert revoked.get(f"/api/sessions/{session_id}").status_code == 200
    assert client.delete(f"/api/sessions/{session_id}/invites/{made['id']}").status_code == 204
    expire_invites(app)
    # Revoking took its phone's sign-in with it; the expired invite's goes with the next invite.
    assert invite_sign_ins(app) == 1
    invite(client, session_id)
    assert invite_sign_ins(app) == 0
    for phone in (revoked, expired):
        # Ended, the invite does not leave the phone free to change anything.
        assert phone.get(f"/api/sessions/{session_id}").status_code == 401
        assert phone.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401
        assert_sent_to_sign_in(phone.get(f"/sessions/{session_id}"))
        page = phone.get("/sign-in")
        assert "The invite this phone was signed in with" in page.text
        assert 'action="/sign-out"' in page.text
    assert api.session(session_id)["hands"] == []
    # Signed out, the phone is like any other on the network.
    assert revoked.post("/sign-out").status_code == 303
    assert revoked.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 201


def test_the_page_s_live_stream_leaves_the_invite_ended_message_to_the_page(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    """The page watching the session opens its stream again as the phone goes to sign in:
    refused, the stream shows nothing, and leaves the message for the sign-in page."""
    session_id = api.new_session()["id"]
    made = invite(client, session_id, role="reader")
    phone = opened(app, made["url"])
    assert client.delete(f"/api/sessions/{session_id}/invites/{made['id']}").status_code == 204
    assert_sent_to_sign_in(phone.get(f"/sessions/{session_id}"))
    stream = phone.get(f"/sessions/{session_id}/live", headers={"Accept": "text/event-stream"})
    assert stream.status_code == 401
    page = phone.get(f"/sign-in?next=/sessions/{session_id}")
    assert "has expired or was revoked" in page.text


def test_with_access_off_signing_out_ends_the_invite(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id, other = two_sessions(api)
    phone = opened(app, invite(client, session_id, role="reader")["url"])
    cookie = phone.get_cookie("session")
    assert cookie is not None
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert_refused(copy.get(f"/sessions/{other}"))
    sheet = phone.get(f"/sessions/{session_id}")
    assert 'action="/sign-out"' in sheet.text
    assert phone.post("/sign-out").status_code == 303
    # The phone is now like any phone on the network; a copy of its cookie is refused.
    assert phone.get(f"/sessions/{other}").status_code == 200
    assert phone.post(f"/api/sessions/{other}/hands", json=HAND).status_code == 201
    assert_sent_to_sign_in(copy.get(f"/sessions/{other}"))
    assert copy.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401
    assert invite_sign_ins(app) == 0


def test_with_access_off_the_invite_sheet_says_the_network_stays_open(
    client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    words = Page(client.get(f"/sessions/{session_id}/invite").text).text
    assert "anyone on this Wi-Fi can still open the scorekeeper" in words
    set_passcode(runner)
    assert client.post("/sign-in", data={"passcode": PASSCODE}).status_code == 303
    words = Page(client.get(f"/sessions/{session_id}/invite").text).text
    assert "anyone on this Wi-Fi" not in words


# --- Signing out


def test_signing_out_ends_an_invite_opened_while_signed_in(
    app: Flask, runner: FlaskCliRunner, api: Api
) -> None:
    session_id, other = two_sessions(api)
    set_passcode(runner, role="reader")
    phone = signed_in(app)
    made = invite(phone, session_id)
    assert phone.get(made["url"].removeprefix(f"http://{LAN}")).status_code == 303
    # Signed in with the passcode too, the phone reaches everything.
    assert phone.get(f"/api/sessions/{other}").status_code == 200
    cookie = phone.get_cookie("session")
    assert cookie is not None
    assert phone.post("/sign-out").status_code == 303
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    for signed_out in (phone, copy):
        assert signed_out.get(f"/api/sessions/{session_id}").status_code == 401
        assert signed_out.post(f"/api/sessions/{session_id}/hands", json=HAND).status_code == 401
        assert_sent_to_sign_in(signed_out.get(f"/sessions/{session_id}"))
    # The invite itself holds: its link still opens the session on another phone.
    assert opened(app, made["url"]).get(f"/api/sessions/{session_id}").status_code == 200


# --- Times in the phone's own clock


def test_an_invite_s_expiry_is_a_time_the_phone_writes_as_the_board_does(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, api: Api
) -> None:
    session_id = api.new_session()["id"]
    made = invite(client, session_id, role="reader")
    sheet = client.post(f"/sessions/{session_id}/invite", data={"role": "scorer", "hours": "2"})
    day = r'<time datetime="([^"]+)" data-clock="day">\w{3} \d\d:\d\d</time>'
    times = re.findall(day, sheet.text)
    with app.app_context():
        expiries = {row.id: as_utc(row.expires_at) for row in db.session.scalars(select(Invite))}
    # The new invite's heading, then the open invites' list, newest first.
    assert [datetime.fromisoformat(t) for t in times] == [expiries[2], expiries[2], expiries[1]]
    assert datetime.fromisoformat(made["expires"]) == expiries[1]
    assert 'aria-labelledby="revoke-1 invite-1"' in sheet.text
    # The sheet's, the board's and the table view's scripts all write times with one script.
    clock = Path(app.static_folder or "", "clock.js").read_text(encoding="utf-8")
    assert "new Intl.DateTimeFormat(undefined" in clock
    board = Path(app.static_folder or "", "board.js").read_text(encoding="utf-8")
    assert "toLocaleTimeString" not in board and 'dataset.clock = "time"' in board
    for bundle in ("invite", "board", "table", "sheet", "cards"):
        assert "new Intl.DateTimeFormat(undefined" in client.get(f"/scripts/{bundle}.js").text
    assert '<script src="/scripts/invite.js" defer></script>' in sheet.text
    set_passcode(runner, role="reader")
    screen = signed_in(app)
    table = screen.get(f"/sessions/{session_id}/table").text
    until = r'\(viewer, until <time datetime="[^"]+" data-clock="time">\d\d:\d\d</time>\)'
    assert re.search(until, table)


def test_an_invite_revoked_as_its_link_opens_signs_nothing_in(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = api.new_session()["id"]
    made = invite(client, session_id)
    with app.app_context():
        read_before = db.session.get(Invite, made["id"])
        assert read_before is not None
        db.session.expunge(read_before)
    assert client.delete(f"/api/sessions/{session_id}/invites/{made['id']}").status_code == 204
    # The link was read just before the invite was revoked.
    monkeypatch.setattr(invites, "invite_of", lambda token: read_before)
    phone = app.test_client()
    response = phone.get(made["url"].removeprefix(f"http://{LAN}"))
    assert response.status_code == 404
    assert "unknown or was revoked" in response.text
    assert not response.headers.getlist("Set-Cookie")
    assert phone.get(f"/sessions/{api.new_session()['id']}").status_code == 200
    assert invite_sign_ins(app) == 0
