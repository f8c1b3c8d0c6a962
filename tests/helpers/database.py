"""The test databases and the apps on them: the backends every storage test runs on, databases
made beside them and copies of them, another app on the same database, and the statements a
request sends."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, delete, insert, make_url, select, text

from harness.database import counted_statements
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, Session

# Every storage and API test runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])

Fresh = Callable[..., Flask]

# Each database's app in turn, with its backend's name (`each_app`).
EachApp = Callable[[], Iterator[tuple[str, Flask]]]


class NewApp(Protocol):
    """An app on an emptied database, for as long as the `with` lasts (the `new_app` fixture)."""

    def __call__(self, database: str, csrf: bool = False) -> AbstractContextManager[Flask]: ...


def database_url(backend: str, folder: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{folder / 'test.sqlite3'}"
    return os.environ["TEST_DATABASE_URL"]


def named_beside(url: str, name: str) -> str:
    """The address of a database beside `url`'s, named after it and `name`: a SQLite file in the
    same folder, or a PostgreSQL database on the same server. Nothing is made."""
    given = make_url(url)
    if given.get_backend_name() == "sqlite":
        path = Path(given.database or "")
        return f"sqlite:///{path.with_name(f'{path.stem}_{name}.sqlite3')}"
    own = given.set(database=f"{given.database}_{name}")
    return own.render_as_string(hide_password=False)


def database_beside(url: str, name: str) -> str:
    """A database of its own beside `url`'s (`named_beside`): a PostgreSQL one is made if it is
    not there yet, a SQLite file when it is first opened."""
    own = make_url(named_beside(url, name))
    if own.get_backend_name() == "sqlite":
        return own.render_as_string(hide_password=False)
    engine = create_engine(make_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            exists = connection.scalar(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own.database}
            )
            if not exists:
                connection.execute(text(f'CREATE DATABASE "{own.database}"'))
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)


def remake_database(url: str, name: str, template: str | None = None) -> None:
    """Drop the database `name` (its connections cut) and create it again, empty or as a copy of
    `template`, through the server's maintenance database."""
    maintenance = make_url(url).set(database="postgres")
    engine = create_engine(maintenance, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            copy = f' TEMPLATE "{template}"' if template else ""
            connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    finally:
        engine.dispose()


@contextmanager
def app_of(config: dict[str, Any]) -> Iterator[Flask]:
    """An app made with `config` on its database as it is, its connections let go of when the
    `with` ends."""
    app = create_app(config)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def second_worker(first: Flask) -> AbstractContextManager[Flask]:
    """Another app on the same database, as a second server worker (or the server restarted)
    is."""
    return app_of(dict(first.config))


def copy_through_sqlite(source: Path, target: Path) -> None:
    """The SQLite database `source` copied over `target` page by page through SQLite (its backup
    API): an app still connected to `target` sees the copy."""
    with closing(sqlite3.connect(source)) as original, closing(sqlite3.connect(target)) as copy:
        original.backup(copy)


def copied_database(built: str, name: str) -> str:
    """A copy of the database `built`, made afresh beside it under `name`: a SQLite file copied
    through SQLite, or a PostgreSQL database made from it as a template (no one connected to
    it)."""
    copy = make_url(named_beside(built, name))
    if copy.get_backend_name() == "sqlite":
        source, target = Path(make_url(built).database or ""), Path(copy.database or "")
        for stale in (target, *(target.with_name(target.name + end) for end in ("-wal", "-shm"))):
            stale.unlink(missing_ok=True)
        copy_through_sqlite(source, target)
    else:
        assert copy.database is not None
        remake_database(built, copy.database, make_url(built).database)
    return copy.render_as_string(hide_password=False)


@dataclass(frozen=True)
class Kept:
    """What an app's database holds at a moment, to be put back into it once emptied (`kept`,
    `put_back`): for SQLite a copy of the file beside it; for PostgreSQL every table's rows and
    where each sequence stands."""

    copy: str | None = None
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    sequences: dict[str, tuple[int, bool]] = field(default_factory=dict)


def kept(app: Flask, name: str) -> Kept:
    database = app.config["SQLALCHEMY_DATABASE_URI"]
    if make_url(database).get_backend_name() == "sqlite":
        return Kept(copy=copied_database(database, name))
    with app.app_context():
        rows = {
            table.name: [dict(row) for row in db.session.execute(select(table)).mappings()]
            for table in db.metadata.sorted_tables
        }
        stands = db.session.execute(
            text(
                "SELECT schemaname || '.' || sequencename, coalesce(last_value, 1), "
                "last_value IS NOT NULL FROM pg_sequences WHERE schemaname = current_schema()"
            )
        )
        sequences = {name: (value, called) for name, value, called in stands}
        db.session.rollback()
    return Kept(rows=rows, sequences=sequences)


def put_back(app: Flask, what: Kept) -> None:
    """The rows `kept` read put back into the app's database in place of what it holds: SQLite's
    file copied over through SQLite, so that the app's connections see it; PostgreSQL's tables
    emptied and filled with the tables' triggers off (a trigger counts the history's writes as
    sessions come and go), and each sequence set where it stood."""
    database = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if what.copy is not None:
        copy_through_sqlite(Path(make_url(what.copy).database or ""), Path(database.database or ""))
        return
    with app.app_context():
        connection = db.session.connection()
        tables = db.metadata.sorted_tables
        for table in tables:
            connection.execute(text(f'ALTER TABLE "{table.name}" DISABLE TRIGGER USER'))
        for table in reversed(tables):
            connection.execute(delete(table))
        for table in tables:
            if what.rows[table.name]:
                connection.execute(insert(table), what.rows[table.name])
            connection.execute(text(f'ALTER TABLE "{table.name}" ENABLE TRIGGER USER'))
        for sequence, (value, called) in what.sequences.items():
            connection.execute(
                text("SELECT setval(:sequence, :value, :called)"),
                {"sequence": sequence, "value": value, "called": called},
            )
        db.session.commit()


T = TypeVar("T")

# What each `built_once` wrote, by database and name, with what its build gave back.
BUILT: dict[tuple[str, str], tuple[Kept, Any]] = {}


def built_once(app: Flask, name: str, build: Callable[[], T]) -> T:
    """The rows `build` writes into the app's emptied database, written once a process for each
    database and `name`, and put back (`put_back`) for each test after; `build`'s value is kept
    with them."""
    key = (app.config["SQLALCHEMY_DATABASE_URI"], name)
    if key in BUILT:
        what, value = BUILT[key]
        put_back(app, what)
        return cast(T, value)
    value = build()
    BUILT[key] = kept(app, name), value
    return value


def player_ids(app: Flask) -> dict[str, int]:
    """Each player's id, by name."""
    with app.app_context():
        return {p.name: p.id for p in db.session.scalars(select(Player))}


def statements(app: Flask, request: Callable[[], int], expected: int) -> int:
    """Statements sent to the database while `request` runs once (its answer's status is
    `expected`); the BEGIN, COMMIT and ROLLBACK around them are not counted."""
    sent, status = counted_statements(app, request)
    assert status == expected
    return sent


def statements_for(app: Flask, client: FlaskClient, path: str) -> int:
    """Statements sent to the database while answering one GET, after a warm-up GET."""
    assert client.get(path).status_code == 200
    return statements(app, lambda: client.get(path).status_code, 200)


def dated(app: Flask, session_id: int, day: str) -> None:
    """The session started at 8 pm UTC on `day` (YYYY-MM-DD)."""
    with app.app_context():
        session = db.session.get(Session, session_id)
        assert session is not None
        session.created_at = datetime.fromisoformat(day).replace(hour=20, tzinfo=UTC)
        db.session.commit()
