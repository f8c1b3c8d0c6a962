"""The ids in addresses: one converter for every route's id, so that an id no row can have is a
404 that says so before the database is asked (PostgreSQL refuses to look up a number past its
integer's range, and SQLite one past its own)."""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import NotFound
from werkzeug.routing import BaseConverter, Map

from ..sessions.models import MAX_ID, is_id


class IdConverter(BaseConverter):
    """`<id(session):session_id>`, `<id(rule_set):rule_set_id>`: a row's id, whole digits. One
    out of range answers "There is no session 99999999999." (or "rule set") rather than
    matching."""

    regex = r"\d+"
    weight = 50
    part_isolating = True

    def __init__(self, url_map: Map, what: str) -> None:
        super().__init__(url_map)
        self.what = what.replace("_", " ")

    def to_python(self, value: str) -> int:
        # The length first: int() refuses thousands of digits.
        if len(value) > len(str(MAX_ID)) or not is_id(int(value)):
            raise NotFound(f"There is no {self.what} {value}.")
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(int(value))
