"""Database connections: SQLite's settings, and the write lock every write takes first.

A write reads what it decides on only after it holds the lock, so two writers to one session
run one after the other. On SQLite the lock is the database's write lock, taken by
`BEGIN IMMEDIATE` (pysqlite is told to leave transactions to SQLAlchemy, as SQLAlchemy's
documentation recommends, so the BEGIN is really the first statement). On PostgreSQL it is the
session's row, `SELECT ... FOR UPDATE`, or an advisory lock for writes that make new sessions
and players.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from sqlalchemy import Connection, event, text

from .extensions import db

# How long a writer waits for another one (a restore can take a while) before it is told the
# scorekeeper is busy.
LOCK_WAIT_SECONDS = 5
# The advisory lock of writes that add sessions or players (PostgreSQL).
ROSTER_LOCK = 0x5EE9


def register_database(app: Flask) -> None:
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)


def _sqlite_connect(connection: Any, _record: Any) -> None:
    if isinstance(connection, sqlite3.Connection):
        connection.isolation_level = None
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={LOCK_WAIT_SECONDS * 1000}")
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get("write_lock", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def begin_write(session_id: int | None) -> None:
    """End whatever the request has read so far and begin a write transaction holding the lock
    for one session (`session_id`) or for adding sessions and players (None)."""
    db.session.rollback()
    connection = db.session.connection(execution_options={"write_lock": True})
    if connection.dialect.name != "postgresql":
        return
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_WAIT_SECONDS}s'"))
    if session_id is None:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ROSTER_LOCK})
    else:
        connection.execute(
            text("SELECT id FROM session WHERE id = :id FOR UPDATE"), {"id": session_id}
        )
