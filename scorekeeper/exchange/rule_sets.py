"""Named rule sets: a group's rules saved once under a name ("Friday rules") to start every new
session with, shared as a link that opens the new-session page with those rules chosen, and as
a QR code of that link."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import segno
from markupsafe import Markup, escape
from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from ..sessions.extensions import db
from ..sessions.models import RuleSet
from ..sessions.records import iso, options_json
from .json_in import rule_options


def rule_set_name(name: str) -> str:
    """A rule set's name as it is kept, or a refusal saying why it can't be one."""
    return rules.checked_name(name, "A rule set's name", rules.MAX_NAME_LENGTH, "name")


def rules_json(given: Any) -> dict[str, Any]:
    """A `rules` object as the API takes it, checked by the engine, with every option named."""
    return options_json(rules.options_from(**rule_options(given)))


def options_of(rule_set: RuleSet) -> rules.Options:
    return rules.options_from(**rule_set.rules)


def listed() -> list[RuleSet]:
    return list(db.session.scalars(select(RuleSet).order_by(RuleSet.name_key, RuleSet.id)))


def named(name: str) -> RuleSet | None:
    return db.session.scalar(select(RuleSet).where(RuleSet.name_key == rules.name_key(name)))


def save(name: str, options: rules.Options) -> RuleSet:
    """A new rule set, inside a roster write (`writes.roster_write`)."""
    name = rule_set_name(name)
    held = named(name)
    if held is not None:
        raise RuleError(
            f"There is a rule set named {held.name} already: choose another name, "
            "or delete that one first.",
            "name",
        )
    rule_set = RuleSet(name=name, name_key=rules.name_key(name), rules=options_json(options))
    db.session.add(rule_set)
    db.session.flush()
    return rule_set


def delete(rule_set_id: int) -> str | None:
    """Delete a rule set, inside a roster write; its name, or None when there is none."""
    rule_set = db.session.get(RuleSet, rule_set_id)
    if rule_set is None:
        return None
    db.session.delete(rule_set)
    return rule_set.name


def new_session_query(options: rules.Options) -> str:
    """The rules as the new-session page takes them in its address: the API's keys in its
    order, booleans as true or false, the stake in cents."""
    return urlencode([(key, _query_value(value)) for key, value in options_json(options).items()])


def _query_value(value: str | bool | int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def qr_svg(text: str) -> Markup:
    """A QR code of `text` as inline SVG, named by it for screen readers, as wide as the page
    lets it be. Dark on white whatever the page's colours, so a phone's camera reads it."""
    svg = segno.make(text, error="m").svg_inline(
        title=text, dark="#000", light="#fff", omitsize=True, svgclass="qr", lineclass=None
    )
    label = escape(text)
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{label}" width="100%" ', 1))


def backup_json(rule_set: RuleSet) -> dict[str, Any]:
    return {"name": rule_set.name, "rules": rule_set.rules, "created_at": iso(rule_set.created_at)}


def add(name: str, given_rules: Any, created_at: datetime) -> bool:
    """A rule set from a backup, checked like a new one, added unless one of its name is here
    already; whether it was added."""
    name = rule_set_name(name)
    checked = rules_json(given_rules)
    if named(name) is not None:
        return False
    db.session.add(
        RuleSet(name=name, name_key=rules.name_key(name), rules=checked, created_at=created_at)
    )
    db.session.flush()
    return True
