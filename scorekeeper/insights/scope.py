"""Which sessions a read of the history counts: those of a range of days (`dates.DateRange`)
played by some house rules (`RuleFilter`), picked first so that no summary row looks its
session up (`in_scope`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    not_,
    or_,
    select,
)

from .. import rules
from ..sessions.models import Session, SessionPlayer
from .dates import DateRange


@dataclass(frozen=True)
class HouseRule:
    """A house rule sessions can be found by: its label, what keeps the sessions played with
    it, and whether a session's options play it."""

    label: str
    kept: ColumnElement[bool]
    played: Callable[[rules.Options], bool]


def _house_rule(option: rules.Option) -> HouseRule:
    column = getattr(Session, option.name)
    kept = column.is_(not option.default) if option.kind is bool else column != option.default
    return HouseRule(option.about.filter_label, kept, option.played)


# By the key the filters call each.
HOUSE_RULES: dict[str, HouseRule] = {
    option.about.filter_key: _house_rule(option)
    for option in rules.OPTIONS
    if option.about.filter_key
}
NO_HOUSE_RULE = "plain"
NO_HOUSE_RULE_LABEL = "No house rule"


@dataclass(frozen=True)
class RuleFilter:
    """Sessions played with every one of some house rules (keys of HOUSE_RULES), or, when
    `plain`, with none of them; the stake changes no score, so it is not a house rule here."""

    wanted: frozenset[str] = frozenset()
    plain: bool = False

    @property
    def words(self) -> str:
        """Which sessions, in words ("played with bump and schwarz by tricks"); empty for all."""
        if self.plain:
            return f"played with {NO_HOUSE_RULE_LABEL.lower()}"
        labels = [rule.label.lower() for key, rule in HOUSE_RULES.items() if key in self.wanted]
        if not labels:
            return ""
        listed = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
        return f"played with {listed}"

    def session_conditions(self) -> list[ColumnElement[bool]]:
        if self.plain:
            return [not_(or_(*(rule.kept for rule in HOUSE_RULES.values())))]
        return [HOUSE_RULES[key].kept for key in sorted(self.wanted)]


def in_scope(
    dates: DateRange, house: RuleFilter | None, column: Any = SessionPlayer.session_id
) -> list[ColumnElement[bool]]:
    """What keeps only the rows (the summaries, unless `column` names another session id) of
    the sessions in the range and played by the rules: the sessions picked first, so that no
    row looks its session up."""
    conditions = [*dates.session_conditions(), *(house or RuleFilter()).session_conditions()]
    if not conditions:
        return []
    return [column.in_(select(Session.id).where(*conditions))]
