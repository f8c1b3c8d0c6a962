"""A player's name where the history keeps it: in the sessions' changes and in the trash,
found and rewritten in bulk when a player is renamed, merged into another or merged back.

A change keeps the hands it touched as JSON text (`json.dumps`, so a name is the string token
`json.dumps(name)` in it). A name that can't be mistaken there for anything else (`_plain`) is
found and replaced in that text by the database itself, however many changes hold it; any
other name, and any change whose text holds an escaped quote (a name with a `"` in it: then
a `"` may not bound a string), is read, rewritten and written back in batches.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Text,
    and_,
    bindparam,
    case,
    cast,
    false,
    func,
    or_,
    select,
    update,
)

from .. import rules
from .extensions import db
from .models import Change, TrashedSession, utcnow
from .records import changed

# What a session's changes record of a change to a player, both sides `{"name": ...}`: the
# words of the change, which keep the name it had.
PLAYER_ACTIONS = ("rename", "merge", "unmerge")
# The keys of a hand's or a session's JSON that hold one player's name, a list of names, or
# scores by name; `rules` holds option values, never names.
NAME_KEYS = frozenset({"dealer", *rules.PLAYER_FIELDS, "player", "from", "to", "first_dealer"})
NAME_LIST_KEYS = frozenset({"players", "seats", "sitting_out"})
NAME_MAP_KEYS = frozenset({"scores"})
# The strings a change holds besides names: its keys and a hand's words (kind, result,
# blitzes) are lower case; a called card is one of these.
CALLED_CARDS = frozenset(card for cards in rules.CALLED_CARDS.values() for card in cards)
# A `"` in a change's text that is part of a string, not a string's bound.
ESCAPED_QUOTE = '\\"'
BATCH = 1000


def renamed(value: Any, old: str, new: str, key: str | None = None) -> Any:
    """JSON `value` with the player `old` named `new` wherever a name of a player is kept."""
    if isinstance(value, dict):
        if key in NAME_MAP_KEYS:
            return {new if name == old else name: score for name, score in value.items()}
        return {k: v if k == "rules" else renamed(v, old, new, k) for k, v in value.items()}
    if isinstance(value, list):
        if key in NAME_LIST_KEYS:
            return [new if name == old else name for name in value]
        return [renamed(item, old, new) for item in value]
    if key in NAME_KEYS and value == old:
        return new
    return value


def names_in(value: Any, key: str | None = None) -> Iterator[str]:
    """Every name of a player JSON `value` keeps, where `renamed` would rename it."""
    if isinstance(value, dict):
        if key in NAME_MAP_KEYS:
            yield from value
            return
        for k, v in value.items():
            if k != "rules":
                yield from names_in(v, k)
    elif isinstance(value, list):
        if key in NAME_LIST_KEYS:
            yield from value
            return
        for item in value:
            yield from names_in(item)
    elif key in NAME_KEYS and isinstance(value, str):
        yield value


def _plain(name: str) -> bool:
    """Whether the name's JSON string, found in a change's text without escaped quotes, is
    always this player's name: it holds no quote or backslash (so the string ends where the
    name does), doesn't begin as the text after a string's end does (`, ` `: ` `]` `}`, so the
    string begins where the name does), and is none of the other strings a change holds."""
    return (
        '"' not in name
        and "\\" not in name
        and name[0] not in ",:]}"
        and not (name.isascii() and name == name.lower())
        and name not in CALLED_CARDS
    )


def _text(column: Any) -> ColumnElement[str]:
    return cast(column, Text)


def _holds(column: Any, part: str) -> ColumnElement[bool]:
    """Whether the JSON text of `column` holds `part`, case counted."""
    if _dialect() == "postgresql":
        return func.strpos(_text(column), part) > 0
    return func.instr(_text(column), part) > 0


def _dialect() -> str:
    return db.session.get_bind().dialect.name


def _chunks(ids: Collection[int] | None) -> Iterator[list[ColumnElement[bool]]]:
    """The conditions that pick the changes of `ids` a bounded number at a time (all at once
    for every session, None)."""
    if ids is None:
        yield []
        return
    ordered = sorted(ids)
    for start in range(0, len(ordered), BATCH):
        yield [Change.session_id.in_(ordered[start : start + BATCH])]


def _naming(name: str, within: list[ColumnElement[bool]]) -> list[ColumnElement[bool]]:
    """The changes that may name the player: all the database can tell."""
    token = json.dumps(name)
    return [
        Change.action.not_in(PLAYER_ACTIONS),
        or_(_holds(Change.before, token), _holds(Change.after, token)),
        *within,
    ]


def _sure(column: Any, name: str) -> ColumnElement[bool]:
    """Whether `column` of a change names the player, as the database tells it (never, for a
    name that isn't `_plain`)."""
    if not _plain(name):
        return false()
    return and_(_holds(column, json.dumps(name)), ~_holds(column, ESCAPED_QUOTE))


def _doubtful(column: Any, name: str) -> ColumnElement[bool]:
    """Whether `column` of a change may name the player where `_sure` can't tell."""
    held = _holds(column, json.dumps(name))
    return and_(held, _holds(column, ESCAPED_QUOTE)) if _plain(name) else held


def sessions_naming(name: str, among: Collection[int] | None = None) -> set[int]:
    """The sessions (of `among`, or any) whose changes name the player `name`."""
    sure = or_(_sure(Change.before, name), _sure(Change.after, name))
    found: set[int] = set()
    unsure: list[int] = []
    for within in _chunks(among):
        query = (
            select(Change.session_id, func.max(case((sure, 1), else_=0)))
            .where(*_naming(name, within))
            .group_by(Change.session_id)
        )
        for session_id, named in db.session.execute(query):
            (found.add(session_id) if named else unsure.append(session_id))
    for within in _chunks(unsure):
        for change in _read([*_naming(name, within)]):
            if change.session_id not in found and name in _names_of(change):
                found.add(change.session_id)
    return found


def _names_of(change: Any) -> set[str]:
    return {*names_in(change.before), *names_in(change.after)}


def _read(where: list[ColumnElement[bool]]) -> Iterator[Any]:
    """The id, session, before and after of each change `where` says, a batch at a time."""
    last = 0
    while True:
        rows = db.session.execute(
            select(Change.id, Change.session_id, Change.before, Change.after)
            .where(*where, Change.id > last)
            .order_by(Change.id)
            .limit(BATCH)
        ).all()
        yield from rows
        if len(rows) < BATCH:
            return
        last = rows[-1].id


def rewrite_changes(old: str, new: str, among: Collection[int] | None = None) -> None:
    """Name `new` where the changes of the sessions `among` (or of every session) name `old`;
    the changes to players keep the names they were made with."""
    table = Change.__table__
    tokens = json.dumps(old), json.dumps(new)
    replaced = {
        column.key: case(
            (_sure(column, old), _as_json(func.replace(_text(column), *tokens))),
            else_=column,
        )
        for column in (Change.before, Change.after)
    }
    doubtful = or_(_doubtful(Change.before, old), _doubtful(Change.after, old))
    for within in _chunks(among):
        if _plain(old):
            sure = or_(_sure(Change.before, old), _sure(Change.after, old))
            db.session.execute(update(table).where(*_naming(old, within), sure).values(replaced))
        _rewrite_read([*_naming(old, within), doubtful], old, new)


def _as_json(text: ColumnElement[str]) -> ColumnElement[Any]:
    # SQLite keeps JSON as its text (and a cast to JSON would make it a number).
    return cast(text, JSON) if _dialect() == "postgresql" else text


def _rewrite_read(where: list[ColumnElement[bool]], old: str, new: str) -> None:
    table = Change.__table__
    statement = (
        update(table)
        .where(table.c.id == bindparam("change_id"))
        .values(
            before=bindparam("new_before", type_=Change.before.type),
            after=bindparam("new_after", type_=Change.after.type),
        )
    )
    batch: list[dict[str, Any]] = []
    for change in _read(where):
        before = renamed(change.before, old, new)
        after = renamed(change.after, old, new)
        if (before, after) != (change.before, change.after):
            batch.append({"change_id": change.id, "new_before": before, "new_after": after})
        if len(batch) == BATCH:
            db.session.execute(statement, batch)
            batch = []
    if batch:
        db.session.execute(statement, batch)


def trashed_naming(name: str) -> list[TrashedSession]:
    """The sessions in the trash that name the player `name`: seated, at a hand, paid, or in
    their changes."""
    query = select(TrashedSession).where(
        TrashedSession.kept(), _holds(TrashedSession.data, json.dumps(name))
    )
    return [
        entry
        for entry in db.session.scalars(query.order_by(TrashedSession.session_id))
        if name in set(names_in(entry.data))
    ]


def rewrite_trash(ids: Collection[int], action: str, old: str, new: str) -> None:
    """Name `new` where the sessions `ids` in the trash name `old`, and record the change to
    the player in their changes, as a live session's: the trash restores them as they would
    be had they never left."""
    if not ids:
        return
    at = utcnow()
    for entry in db.session.scalars(
        select(TrashedSession).where(
            TrashedSession.kept(), TrashedSession.session_id.in_(sorted(ids))
        )
    ):
        if old not in set(names_in(entry.data)):
            continue
        data = renamed(entry.data, old, new)
        data["version"] += 1
        data["changes"].append(player_change(at, action, old, new))
        entry.data = data


def player_change(at: datetime, action: str, old: str, new: str) -> dict[str, Any]:
    """A change to a player as a session's changes keep it."""
    return changed(at, action, None, {"name": old}, {"name": new})
