"""Access in the tests: a passcode set, a phone signed in with it, an API token's header, and a
phone let in by an invite to one session."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

PASSCODE = "Sheep-1234"
# The hash the tests' own apps keep passcodes and tokens with: one round, where the app's scrypt
# takes a fifth of a second a hash, which was half of the access tests' time. The
# gunicorn servers of the fault tests hash as the app does.
FAST_HASH = "pbkdf2:sha256:1"


def set_passcode(runner: FlaskCliRunner, role: str = "scorer", passcode: str = PASSCODE) -> None:
    args = ["access", "set-passcode", "--role", role, "--passcode", passcode]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output


def signed_in(app: Flask) -> FlaskClient:
    """A fresh phone signed in with PASSCODE."""
    phone = app.test_client()
    assert phone.post("/sign-in", data={"passcode": PASSCODE}).status_code == 303
    return phone


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def invited(app: Flask, owner: FlaskClient, session_id: int, role: str) -> FlaskClient:
    """A fresh phone that has opened the link of an invite to one session."""
    made = owner.post(f"/api/sessions/{session_id}/invites", json={"role": role})
    assert made.status_code == 201, made.json
    phone = app.test_client()
    assert phone.get(urlsplit(made.json["url"]).path).status_code == 303
    return phone
