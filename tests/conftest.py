from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from itertools import count
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from sqlalchemy import make_url, text
from xdist.scheduler import LoadScopeScheduling

from scorekeeper import create_app
from scorekeeper.insights import memo
from scorekeeper.sessions.extensions import db

from .faults.server import copy_schema
from .helpers.access import FAST_HASH
from .helpers.api import Api
from .helpers.database import (
    BACKENDS,
    EachApp,
    Fresh,
    NewApp,
    database_beside,
    database_url,
)

# Timings belong in bench/: no example fails for being slow on a busy machine.
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")

# The tests that serve pages to Chromium or run a gunicorn server measure how it answers in
# time: under pytest-xdist (`make test`) they run one after another, never two browsers or two
# servers at once. On SQLite alone the browser tests take one worker and the server tests the
# other, the rest filling in (454 s for the suite where one worker for both took 628 s); with
# PostgreSQL too, where the server tests are twice as many, beside the browsers they took half
# as long again, so both kinds share one worker while the other takes the rest.
SERIAL = ("tests/browser/", "tests/faults/")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScopeScheduling:
    return SerialLiveTests(config, log)


class SerialLiveTests(LoadScopeScheduling):
    """Each test a scope of its own, but the browser and server tests one scope each (one
    together when PostgreSQL is tested too)."""

    def _split_scope(self, nodeid: str) -> str:
        kind = next((kind for kind in SERIAL if nodeid.startswith(kind)), None)
        if kind is None:
            return nodeid
        return "serial" if "postgresql" in BACKENDS else kind


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (`-n 2`) each worker empties and fills a PostgreSQL database of its
    own, made beside TEST_DATABASE_URL's and named after it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("TEST_DATABASE_URL")
    if worker and url:
        os.environ["TEST_DATABASE_URL"] = database_beside(url, worker)


# A test's SQLite database lives in memory-backed storage where there is one: its commits then
# skip the fsync a disk makes them wait for, which was most of what they cost.
MEMORY = Path("/dev/shm")


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test's database: for SQLite, a file in a folder of this process's, the same for
    every test, so that its app is made once (`app`); each test empties it."""
    if request.param != "sqlite":
        return database_url(request.param, tmp_path)
    return database_url(request.param, sqlite_folder())


@functools.cache
def sqlite_folder() -> Path:
    folder = Path(tempfile.mkdtemp(dir=MEMORY if MEMORY.is_dir() else None))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def app_config(database: str, csrf: bool = False) -> dict[str, Any]:
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": database,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": csrf,
        # A change to the history has the ratings recomputed before its request ends.
        "RATING_RECOMPUTE": "inline",
        "PASSWORD_HASH": FAST_HASH,
    }


@contextmanager
def fresh_app(database: str, csrf: bool = False) -> Iterator[Flask]:
    """An app on an emptied database."""
    app = create_app(app_config(database, csrf))
    with app.app_context():
        empty_tables(database)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


# The PostgreSQL databases whose tables this process made, each with what empties them from then
# on: a DELETE a table and its ids started again, in one round trip. That takes a fraction of the
# time dropping and making them again does, and a third of a TRUNCATE's on tables this small.
MADE_HERE: dict[str, str] = {}


def empty_tables(database: str) -> None:
    """The app's tables, made afresh or emptied, their ids starting from 1 again. A SQLite
    database is a copy of the one `flask db upgrade` made once a process. Tests that drop
    everything (migrations, fault servers) leave no tables to empty: they are made again."""
    memo.forget()
    url = make_url(database)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        copy_schema(Path(url.database))
        return
    if database in MADE_HERE:
        try:
            driver = db.session.connection().connection.driver_connection
            assert driver is not None
            driver.execute(MADE_HERE[database])
            db.session.commit()
            return
        except psycopg.errors.UndefinedTable:
            db.session.rollback()
    db.drop_all()
    db.create_all()
    if make_url(database).get_backend_name() == "postgresql":
        sequences = db.session.execute(
            text(
                "SELECT sequence_name, start_value FROM information_schema.sequences "
                "WHERE sequence_schema = current_schema()"
            )
        ).all()
        db.session.rollback()
        # setval, not ALTER SEQUENCE ... RESTART: a restart gives the sequence a new file,
        # about 10 ms a test for the 17 of them.
        starts = ", ".join(f"""setval('"{name}"', {start}, false)""" for name, start in sequences)
        MADE_HERE[database] = "; ".join(
            [
                *(f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)),
                f"SELECT {starts}",
            ]
        )


# The app of each test database, CSRF on or off, with the config it was made with: making an app
# compiles every route, a good part of a small test's time, so it is made once and each test gets
# it back on emptied tables, its config as made.
HELD: dict[tuple[str, bool], tuple[Flask, dict[str, Any]]] = {}


@contextmanager
def held_app(database: str, csrf: bool = False) -> Iterator[Flask]:
    if (database, csrf) not in HELD:
        made = create_app(app_config(database, csrf))
        HELD[database, csrf] = made, dict(made.config)
    app, config = HELD[database, csrf]
    with app.app_context():
        empty_tables(database)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        app.config.clear()
        app.config.update(config)


@pytest.fixture
def app(database: str) -> Iterator[Flask]:
    with held_app(database) as app:
        yield app


@pytest.fixture
def each_app(tmp_path: Path) -> Iterator[EachApp]:
    """Each database's app in turn, on emptied tables as `app`'s: for a test that sends the
    same requests to every database, its cases made once."""
    with ExitStack() as held:

        def apps() -> Iterator[tuple[str, Flask]]:
            for backend in BACKENDS:
                folder = sqlite_folder() if backend == "sqlite" else tmp_path
                yield backend, held.enter_context(held_app(database_url(backend, folder)))

        yield apps


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.fixture
def fresh(database: str) -> Iterator[Fresh]:
    """Make a second app on an empty database: another SQLite file beside the first, or for
    PostgreSQL the same database emptied, so call it only once the source is exported. Each is
    held as `app` is: on PostgreSQL, a test's second app is its first one."""
    numbers = count()
    with ExitStack() as apps:

        def make(csrf: bool = False) -> Flask:
            url = database
            if database.startswith("sqlite"):
                beside = Path(make_url(database).database or "").parent
                url = f"sqlite:///{beside / f'restored-{next(numbers)}.sqlite3'}"
            return apps.enter_context(held_app(url, csrf))

        yield make


@pytest.fixture(scope="session")
def new_app() -> NewApp:
    """fresh_app, for a test that makes an app of its own: with CSRF on, or on a database of
    its own."""
    return fresh_app
