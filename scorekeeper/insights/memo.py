"""Reads over many sessions of a league's history (every player's totals over a range, each
year's champion, a player's season, partners, opponents and best and worst nights, a range's
settle-up), kept in each process until the history changes, so that a page viewed again
between two writes doesn't read them again: they are immutable, and shared.

Whether the history changed is read at every use, in one statement over the sessions alone:
how many there are, the sum of their versions and the largest id (`stamp`). Every write to a
session bumps its version: a hand, an edit, its seats, and a player renamed or merged in the
sessions naming them; a session deleted takes its versions out of the sum and one added, a new
largest id (ids are never reused). So the same stamp is the same history, and what is kept
for it is still true. An answer made of parts, each of its own sessions (each year's totals),
is kept with each part's own stamp instead (`kept_in_parts`), so a write reads again only the
part it changed. What changes without touching a session (a player's name or rating
alone) is for the caller to read afresh beside what is kept. A database emptied or replaced
under a running process can come back to a stamp seen before: `forget` is for whatever does
that.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession

from ..sessions.extensions import db
from ..sessions.models import Session

T = TypeVar("T")
P = TypeVar("P", bound=Hashable)

# Answers kept by a process for each database, the latest used: a leaderboard keeps two, a
# player's page five (the season of a player with 11,700 sessions holds a point a day, about
# 1 MB), so a few dozen pages viewed in turn.
KEPT = 32

Stamp = tuple[int, int, int]

_kept: WeakKeyDictionary[Engine, OrderedDict[Hashable, tuple[Stamp | None, Any]]] = (
    WeakKeyDictionary()
)
_guard = threading.Lock()
# The stamp read in a transaction: (a reference to the transaction, the stamp).
_STAMP = "history stamp"


def stamp() -> Stamp:
    """What says the history changed: the sessions' count, versions added up, largest id.
    Read once a transaction, and again after anything in it wrote."""
    session = db.session()
    held = session.info.get(_STAMP)
    transaction = session.get_transaction()
    if held is not None and transaction is not None and held[0]() is transaction:
        return held[1]  # type: ignore[no-any-return]
    count, versions, largest = session.execute(
        select(func.count(), func.sum(Session.version), func.max(Session.id))
    ).one()
    now = (count, versions or 0, largest or 0)
    session.info[_STAMP] = (weakref.ref(session.get_transaction()), now)
    return now


@event.listens_for(OrmSession, "after_flush")
def _flushed(session: OrmSession, _context: Any) -> None:
    session.info.pop(_STAMP, None)


@event.listens_for(OrmSession, "do_orm_execute")
def _executed(state: ORMExecuteState) -> None:
    if not state.is_select:
        state.session.info.pop(_STAMP, None)


def kept(key: Hashable, read: Callable[[], T]) -> T:
    """What `read` answers for the history now, read again only when the history changed
    since it was last kept under `key`."""
    now = stamp()
    found = _found(key)
    if found is not None and found[0] == now:
        return found[1]  # type: ignore[no-any-return]
    answer = read()
    _keep(key, now, answer)
    return answer


def kept_in_parts(key: Hashable, parts: Mapping[P, Stamp], read: Callable[[P], T]) -> dict[P, T]:
    """What `read` answers for each of `parts` (a year, say), given the stamp of the sessions
    it reads; kept under `key` together, and each read again only when its own stamp
    changed."""
    found = _found(key)
    held: dict[P, tuple[Stamp, T]] = {} if found is None else found[1]
    now = {
        part: held[part]
        if part in held and held[part][0] == part_stamp
        else (part_stamp, read(part))
        for part, part_stamp in parts.items()
    }
    _keep(key, None, now)
    return {part: answer for part, (_, answer) in now.items()}


def _found(key: Hashable) -> tuple[Stamp | None, Any] | None:
    with _guard:
        answers = _kept.setdefault(db.engine, OrderedDict())
        found = answers.get(key)
        if found is not None:
            answers.move_to_end(key)
        return found


def _keep(key: Hashable, now: Stamp | None, answer: Any) -> None:
    with _guard:
        answers = _kept.setdefault(db.engine, OrderedDict())
        answers[key] = (now, answer)
        answers.move_to_end(key)
        while len(answers) > KEPT:
            answers.popitem(last=False)


def forget() -> None:
    """Let go of everything kept for the database."""
    with _guard:
        _kept.pop(db.engine, None)
