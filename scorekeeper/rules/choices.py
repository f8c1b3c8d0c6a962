"""Enumerated values (a kind of hand, a result, a blitz, a called card, a rule option) as people
and scripts type them: one rule for all, as for players' names: matched ignoring case and the
spaces around them, kept in the spelling given here."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from typing import TypeVar

from .errors import RuleError

Choice = TypeVar("Choice", bound=StrEnum)


def one_of(given: str, allowed: Sequence[str], label: str, field: str | None) -> str:
    """The allowed value `given` names, or a refusal that lists them all."""
    key = given.strip().casefold()
    for value in allowed:
        if value.casefold() == key:
            return value
    raise RuleError(f"{label} is one of {', '.join(allowed)}.", field)


def choice(kind: type[Choice], given: str, label: str, field: str | None) -> Choice:
    return kind(one_of(given, _values(kind), label, field))


@cache
def _values(kind: type[StrEnum]) -> tuple[str, ...]:
    return tuple(option.value for option in kind)
