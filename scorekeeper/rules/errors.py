"""The refusals of the rules engine: a field and a sentence a player understands, and the HTTP
status each kind of refusal is answered with."""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """Input the rules refuse. `field` names the input key at fault, when there is one."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def more(self) -> dict[str, Any]:
        """What a JSON answer holds besides `error` and `field`."""
        return {}


class SessionComplete(RuleError):
    """Every round of the session is played, so no further hand can be recorded."""

    status = 409


class HandsPlayed(RuleError):
    """A change the hands already played rule out (too many for the rounds and seats, or
    scored by the rules it would change)."""

    status = 409


class SettleRefused(RuleError):
    """A player can't be settled early as the session stands (no stake, still seated, settled
    already), or the stake can't change once someone is."""

    status = 409
