"""The rules engine's entries as the engine tests write them, for five seats unless told: a
table, a pick, a leaster, a sheet played in turn, a hand scored, a refusal and its sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.rules import (
    HandInput,
    HandResult,
    Options,
    RuleError,
    Sheet,
    Table,
    score_hand,
    score_sheet,
    validate_hand,
)

SEATS = ("Ann", "Bob", "Cat", "Dan", "Eve")
PASS = HandInput(kind="pass")


def table(seats: tuple[str, ...] = SEATS, **options: Any) -> Table:
    return Table(seats=seats, options=Options(**options))


def pick(
    picker: str | None,
    partner: str | None = None,
    picking_points: int | None = None,
    **fields: Any,
) -> HandInput:
    """A pick with the picking team's points; alone unless a partner is named."""
    return HandInput(
        kind="pick", picker=picker, partner=partner, picking_points=picking_points, **fields
    )


def leaster(winner: str | None, **fields: Any) -> HandInput:
    return HandInput(kind="leaster", winner=winner, **fields)


def by_seat(*values: int, seats: tuple[str, ...] = SEATS) -> dict[str, int]:
    return dict(zip(seats, values, strict=True))


def score(at: Table, entry: HandInput, dealer: str = "Eve", doublers: int = 0) -> HandResult:
    return score_hand(at, validate_hand(at, dealer, entry), doublers)


def play(at: Table, *entries: HandInput) -> Sheet:
    """The sheet of a session whose hands are dealt in turn from the first dealer."""
    hands = []
    dealer = at.first_dealer
    for entry in entries:
        hands.append(validate_hand(at, dealer, entry))
        dealer = at.dealer_after(dealer)
    return score_sheet(at, hands)


def assert_sentence(message: str) -> None:
    """A refusal reads as one sentence a player understands, with no template leftovers."""
    assert message[:1].isupper() or message[:1].isdigit(), message
    assert message.endswith("."), message
    assert "None" not in message and "{" not in message, message
    assert not re.search(r"\ba [aeiou]", message), message


def rule_error(at: Table, entry: HandInput, dealer: str = "Eve") -> RuleError:
    """The engine's refusal of `entry` dealt by `dealer` at `at`."""
    with pytest.raises(RuleError) as caught:
        validate_hand(at, dealer, entry)
    return caught.value


def refusal(at: Table, entry: HandInput, dealer: str = "Eve") -> RuleError:
    """The engine's refusal of `entry`, in one sentence a player understands."""
    error = rule_error(at, entry, dealer)
    assert_sentence(error.message)
    return error
