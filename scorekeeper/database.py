"""Database connection settings that SQLite needs on every connection."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from sqlalchemy import event

from .extensions import db


def register_database(app: Flask) -> None:
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
