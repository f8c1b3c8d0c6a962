"""The refusals of stored sessions: a request the data as it stands now can't take."""

from __future__ import annotations

from typing import Any

from ..rules import RuleError


class Conflict(RuleError):
    """The request can't be done as the data stands now."""

    status = 409


class VersionMismatch(RuleError):
    """The request was made from an older version of the session."""

    status = 412

    def __init__(self, given: str, current: int, what: str = "session") -> None:
        super().__init__(
            f"The {what} is at version {current} now, not {given}: it has changed since. "
            "Reload it and try again.",
            "version",
        )
        self.current = current

    def more(self) -> dict[str, Any]:
        return {"version": self.current}


class NotFound(RuleError):
    """No such row, or nothing of that name: every 404 the app gives, but the one a URL that
    no row can have gets while it is routed (`web.ids`, where routing needs werkzeug's own)."""

    status = 404
