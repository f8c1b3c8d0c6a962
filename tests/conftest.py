from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.extensions import db

from .helpers import Api

# Every storage and API test runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def database_url(backend: str, folder: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{folder / 'test.sqlite3'}"
    return os.environ["TEST_DATABASE_URL"]


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, tmp_path)


@contextmanager
def fresh_app(database: str, csrf: bool = False) -> Iterator[Flask]:
    """An app on an emptied database, emptied again afterwards."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": csrf,
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


@contextmanager
def second_worker(first: Flask) -> Iterator[Flask]:
    """Another app on the same database, as a second server worker (or the server restarted)
    is."""
    second = create_app(dict(first.config))
    try:
        yield second
    finally:
        with second.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(database: str) -> Iterator[Flask]:
    with fresh_app(database) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)
