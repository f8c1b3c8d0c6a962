"""A database kept and put back (`kept`, `put_back`) holds what it held, row for row, its history's
count of writes too, and its next ids follow on as they would have."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import select

from scorekeeper.sessions.extensions import db

from .helpers.api import Api, pick
from .helpers.database import kept, put_back


def every_row(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    with app.app_context():
        rows = {
            table.name: sorted(map(tuple, db.session.execute(select(table))), key=repr)
            for table in db.metadata.sorted_tables
        }
        db.session.rollback()
    return rows


def test_a_database_put_back_holds_what_it_held(app: Flask, api: Api) -> None:
    emptied = every_row(app)
    empty = kept(app, "empty")
    first = api.new_session(name="Kept")["id"]
    api.record(first, **pick("Ann", "Bob", 75))
    api.client.post("/api/events", json={"name": "Kept night", "rounds": 1})
    held = every_row(app)
    assert held["history_writes"] != []
    keeping = kept(app, "kept")
    put_back(app, empty)
    assert every_row(app) == emptied
    put_back(app, keeping)
    assert every_row(app) == held
    assert api.new_session()["id"] == first + 1
