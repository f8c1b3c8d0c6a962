"""A database emptied of everything, whatever made it; the statements a request sends it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask
from sqlalchemy import MetaData, create_engine, event

from scorekeeper.sessions.extensions import db

T = TypeVar("T")


def drop_everything(url: str) -> None:
    """Every table, alembic_version included, whether the models know it or not."""
    engine = create_engine(url)
    try:
        tables = MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
    finally:
        engine.dispose()


def counted_statements(app: Flask, run: Callable[[], T]) -> tuple[int, T]:
    """How many statements `run` sends the app's database (BEGIN, COMMIT and ROLLBACK not
    counted), and what it returned."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        result = run()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(sent), result
