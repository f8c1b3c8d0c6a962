"""Configuration: the secret key, the database URL and SQLite's connection settings."""

from __future__ import annotations

import gzip
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.access import state
from scorekeeper.access.models import AccessSetting
from scorekeeper.config import database_url, proxy_addresses, proxy_count
from scorekeeper.exchange.access_bodies import Role
from scorekeeper.sessions.extensions import db

from ..helpers.access import PASSCODE
from ..helpers.api import Api


@pytest.fixture(autouse=True)
def instance(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A throwaway instance folder instead of the checkout's, and no settings from outside."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda _self: str(folder))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'config.sqlite3'}")
    return folder


@pytest.fixture
def sqlite_app() -> Iterator[Flask]:
    app = create_app()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_secret_key_from_the_environment_wins(
    monkeypatch: pytest.MonkeyPatch, instance: Path
) -> None:
    instance.mkdir()
    (instance / "config.py").write_text('SECRET_KEY = "from-config-file"\n')
    (instance / "secret_key").write_text("from-key-file")
    monkeypatch.setenv("SECRET_KEY", "from-environment")
    assert create_app().config["SECRET_KEY"] == "from-environment"
    assert (instance / "secret_key").read_text() == "from-key-file"


def test_secret_key_from_the_environment_writes_no_key_file(
    monkeypatch: pytest.MonkeyPatch, instance: Path
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-environment")
    create_app()
    assert not (instance / "secret_key").exists()


def test_secret_key_is_generated_once_into_the_instance_folder(instance: Path) -> None:
    first = create_app().config["SECRET_KEY"]
    key_file = instance / "secret_key"
    assert key_file.read_text().strip() == first
    assert len(first) >= 32
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert create_app().config["SECRET_KEY"] == first


def test_each_instance_folder_gets_its_own_key(
    monkeypatch: pytest.MonkeyPatch, instance: Path
) -> None:
    first = create_app().config["SECRET_KEY"]
    other = instance.parent / "other-instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda _self: str(other))
    assert create_app().config["SECRET_KEY"] != first
    assert (other / "secret_key").exists()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u:p@db:5432/sk", "postgresql+psycopg://u:p@db:5432/sk"),
        ("postgresql://u:p@db/sk", "postgresql+psycopg://u:p@db/sk"),
        ("postgresql+psycopg://u:p@db/sk", "postgresql+psycopg://u:p@db/sk"),
        ("sqlite:///scorekeeper.sqlite3", "sqlite:///scorekeeper.sqlite3"),
        ("sqlite:////var/data/sk.sqlite3", "sqlite:////var/data/sk.sqlite3"),
        ("sqlite://", "sqlite://"),
    ],
)
def test_database_url(given: str, expected: str) -> None:
    assert database_url(given) == expected


def test_database_url_from_the_environment_is_mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db/sk")
    monkeypatch.setenv("SECRET_KEY", "test")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u:p@db/sk"


def test_default_database_lives_in_the_instance_folder(
    monkeypatch: pytest.MonkeyPatch, instance: Path
) -> None:
    monkeypatch.delenv("DATABASE_URL")
    app = create_app()
    with app.app_context():
        assert db.engine.url.database == str(instance / "scorekeeper.sqlite3")
        db.engine.dispose()


def test_a_sqlite_app_does_not_load_the_postgresql_driver() -> None:
    """psycopg and its libpq cost every SQLite worker and `flask export-backup` about 10 MiB;
    the export's budget is 100 MiB."""
    program = "import sys, scorekeeper; scorekeeper.create_app(); print(sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "'scorekeeper.web.errors'" in loaded
    assert "'psycopg'" not in loaded


@pytest.mark.parametrize(("pragma", "expected"), [("foreign_keys", 1), ("journal_mode", "wal")])
def test_sqlite_connections(sqlite_app: Flask, pragma: str, expected: int | str) -> None:
    with sqlite_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text(f"PRAGMA {pragma}")).scalar() == expected


@pytest.mark.parametrize(("given", "expected"), [(" € ", "€"), ("CHF", "CHF"), ("$", "$")])
def test_currency_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, given: str, expected: str
) -> None:
    monkeypatch.setenv("CURRENCY", given)
    assert create_app().config["CURRENCY"] == expected


@pytest.mark.parametrize("given", ["EUROS", "\t"])
def test_a_currency_that_is_not_a_symbol_is_refused(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("CURRENCY", given)
    with pytest.raises(ValueError, match="CURRENCY must be a symbol such as"):
        create_app()


def test_money_is_in_dollars_by_default() -> None:
    assert create_app().config["CURRENCY"] == "$"


def test_a_passcode_is_kept_as_a_scrypt_hash_by_default(sqlite_app: Flask) -> None:
    with sqlite_app.app_context():
        db.create_all()
        state.set_passcode(PASSCODE, Role.SCORER)
        setting = db.session.get(AccessSetting, state.SETTING_ID)
        assert setting is not None and setting.passcode_hash is not None
        assert setting.passcode_hash.startswith("scrypt:")
        assert state.passcode_matches(PASSCODE)
        assert not state.passcode_matches(PASSCODE + "x")


def test_pages_styles_and_scripts_go_compressed_and_the_api_does_not(
    sqlite_app: Flask,
) -> None:
    with sqlite_app.app_context():
        db.create_all()
    client = sqlite_app.test_client()
    paths = ("/", "/static/style.css", "/static/hand_form.js", "/sw.js", "/styles/grid.css")
    for path in paths:
        with client.get(path, headers={"Accept-Encoding": "gzip"}) as response:
            assert response.headers["Content-Encoding"] == "gzip", path
            assert "Accept-Encoding" in response.headers["Vary"]
            with client.get(path) as plain:
                assert gzip.decompress(response.data) == plain.data
                assert len(response.data) < len(plain.data) * 0.6
    with client.get("/static/style.css") as plain:
        assert "Content-Encoding" not in plain.headers
    with client.get("/api/sessions", headers={"Accept-Encoding": "gzip, br"}) as api:
        assert api.status_code == 200 and "Content-Encoding" not in api.headers


def test_a_page_a_refusal_answers_with_goes_compressed_and_keeps_its_status(
    client: FlaskClient, api: Api
) -> None:
    """flask-compress leaves a non-2xx answer as it is; a page not found, or a form sent again
    with what was wrong, goes compressed like the page it stands in for."""
    missing = "/sessions/999"
    with client.get(missing, headers={"Accept-Encoding": "gzip"}) as response:
        assert (response.status_code, response.headers["Content-Encoding"]) == (404, "gzip")
        with client.get(missing) as plain:
            assert plain.status_code == 404 and "Content-Encoding" not in plain.headers
            assert gzip.decompress(response.data) == plain.data
            assert len(response.data) < len(plain.data) * 0.3
    form = f"/sessions/{api.new_session()['id']}/hands/new"
    with client.post(form, data={}, headers={"Accept-Encoding": "gzip"}) as response:
        assert response.status_code == 409
        assert response.headers["Content-Encoding"] == "gzip"
        assert b"<h1>Hand 1</h1>" in gzip.decompress(response.data)
    with client.get("/api/sessions/999", headers={"Accept-Encoding": "gzip"}) as api_refusal:
        assert api_refusal.status_code == 404 and "Content-Encoding" not in api_refusal.headers


def seen_by_the_app(app: Flask) -> tuple[str | None, bool]:
    """The address and https-ness the app sees of a request forwarded by a proxy."""
    seen: list[tuple[str | None, bool]] = []

    @app.get("/whoami")
    def whoami() -> str:
        seen.append((request.remote_addr, request.is_secure))
        return ""

    with app.app_context():
        db.create_all()
    forwarded = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    assert app.test_client().get("/whoami", headers=forwarded).status_code == 200
    with app.app_context():
        db.engine.dispose()
    return seen[0]


def test_behind_trusted_proxies_a_phone_is_known_by_its_forwarded_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    assert seen_by_the_app(create_app()) == ("203.0.113.7", True)


def test_without_trusted_proxies_forwarded_headers_are_not_believed() -> None:
    assert seen_by_the_app(create_app()) == ("127.0.0.1", False)


FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
AROUND = (
    "This scorekeeper answers through its https address alone, not at this port: "
    "open it at its https address."
)


@contextmanager
def app_made(**config: Any) -> Iterator[Flask]:
    app = create_app()
    app.config.update(config)
    with app.app_context():
        db.create_all()
    try:
        yield app
    finally:
        with app.app_context():
            db.engine.dispose()


@pytest.mark.parametrize(
    ("peer", "headers", "status"),
    [
        ("127.0.0.1", FORWARDED, 200),
        ("::1", FORWARDED, 200),
        ("127.0.0.1", {}, 421),
        ("127.0.0.1", {"X-Forwarded-For": "203.0.113.7"}, 421),
        ("192.0.2.30", FORWARDED, 421),
        ("192.0.2.30", {}, 421),
    ],
)
def test_behind_a_proxy_only_the_proxy_on_this_computer_is_answered(
    monkeypatch: pytest.MonkeyPatch, peer: str, headers: dict[str, str], status: int
) -> None:
    """A request that went around the proxy (straight to the app's port, from another computer,
    or without the proxy's headers) is a 421, however it dresses up as the proxy."""
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    with app_made() as app:
        client = app.test_client()
        seen = {"REMOTE_ADDR": peer}
        api = client.get("/api/sessions", headers=headers, environ_base=seen)
        page = client.get("/", headers=headers, environ_base=seen)
    assert (api.status_code, page.status_code) == (status, status)
    if status == 421:
        assert api.json == {"error": AROUND}
        assert page.mimetype == "text/html" and AROUND in page.text


@pytest.mark.parametrize(
    ("peer", "headers", "status"),
    [
        ("10.0.0.5", FORWARDED, 200),
        ("10.0.1.7", FORWARDED, 200),
        ("127.0.0.1", FORWARDED, 200),
        ("10.0.0.5", {}, 421),
        ("10.0.0.6", FORWARDED, 421),
        ("192.0.2.30", FORWARDED, 421),
    ],
)
def test_a_proxy_on_another_computer_is_answered_from_its_address_alone(
    monkeypatch: pytest.MonkeyPatch, peer: str, headers: dict[str, str], status: int
) -> None:
    """Servers on several computers behind one proxy: PROXY_ADDRESSES names where it connects
    from; a request from anywhere else, or without its headers, still went around it."""
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    monkeypatch.setenv("PROXY_ADDRESSES", " 10.0.0.5, 10.0.1.0/24 ")
    with app_made() as app:
        assert app.config["PROXY_ADDRESSES"] == ["10.0.0.5/32", "10.0.1.0/24"]
        seen = {"REMOTE_ADDR": peer}
        answer = app.test_client().get("/api/sessions", headers=headers, environ_base=seen)
    assert answer.status_code == status


@pytest.mark.parametrize("given", ["proxy.lan", "10.0.0.300", "10.0.0.0/33"])
def test_proxy_addresses_must_be_addresses_or_networks(given: str) -> None:
    with pytest.raises(ValueError, match="PROXY_ADDRESSES must be the addresses of the proxies"):
        proxy_addresses(f"10.0.0.5,{given}")


def test_a_server_on_this_computer_alone_or_with_no_proxy_answers_every_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    around = {"REMOTE_ADDR": "127.0.0.1"}
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    with app_made(LISTENS_ON_NETWORK=False) as app:
        assert app.test_client().get("/api/sessions", environ_base=around).status_code == 200
    monkeypatch.delenv("TRUSTED_PROXIES")
    with app_made() as app:
        elsewhere = {"REMOTE_ADDR": "192.0.2.30"}
        assert app.test_client().get("/api/sessions", environ_base=elsewhere).status_code == 200


@pytest.mark.parametrize("given", ["yes", "-1", "6", ""])
def test_trusted_proxies_must_be_a_small_count(given: str) -> None:
    with pytest.raises(ValueError, match="TRUSTED_PROXIES must be how many proxies"):
        proxy_count(given)
