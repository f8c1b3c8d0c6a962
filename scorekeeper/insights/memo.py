"""Reads over many sessions of a league's history (every player's totals over a range, each
year's champion, a player's season, partners, opponents and best and worst nights, a range's
settle-up), kept in each process until the history changes, so that a page viewed again
between two writes doesn't read them again: they are immutable, and shared.

Whether the history changed is read at every use from one row, the history's writes as the
database counts them (`models.HistoryWrites`): every session added or removed and every bump of
a session's version counts one, and every write to a session bumps its version: a hand, an
edit, its seats, and a player renamed or merged in the sessions naming them. So the same count
is the same history, and what is kept for it is still true. A transaction that wrote reads
afresh and keeps nothing: what it sees is not yet, and may never be, the history. An answer
made of parts, each of its own sessions (each year's totals), is kept with each part's own
stamp instead (`kept_in_parts`), so a write reads again only the part it changed. What changes
without touching a session (a player's name or rating alone) is for the caller to read afresh
beside what is kept. A database emptied or replaced under a running process can come back to a
count seen before: `forget` is for whatever does that.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, event, select
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession

from ..sessions.extensions import db
from ..sessions.models import HistoryWrites

T = TypeVar("T")
P = TypeVar("P", bound=Hashable)

# Answers kept by a process for each database, the latest used: a leaderboard keeps two, a
# player's page five (the season of a player with 11,700 sessions holds a point a day, about
# 1 MB), so a few dozen pages viewed in turn.
KEPT = 32

_kept: WeakKeyDictionary[Engine, OrderedDict[Hashable, tuple[Hashable, Any]]] = WeakKeyDictionary()
_guard = threading.Lock()
# What a transaction found: (a reference to the transaction, the history's writes), or
# (a reference to the transaction, None) once it wrote.
_STAMP = "history stamp"


def stamp() -> int | None:
    """The history's writes, read once a transaction; None once the transaction wrote."""
    session = db.session()
    held = session.info.get(_STAMP)
    transaction = session.get_transaction()
    if held is not None and transaction is not None and held[0]() is transaction:
        return held[1]  # type: ignore[no-any-return]
    writes = session.scalar(select(HistoryWrites.writes)) or 0
    session.info[_STAMP] = (weakref.ref(session.get_transaction()), writes)
    return writes


def _wrote(session: OrmSession) -> None:
    transaction = session.get_transaction()
    if transaction is not None:
        session.info[_STAMP] = (weakref.ref(transaction), None)


@event.listens_for(OrmSession, "after_flush")
def _flushed(session: OrmSession, _context: Any) -> None:
    _wrote(session)


@event.listens_for(OrmSession, "do_orm_execute")
def _executed(state: ORMExecuteState) -> None:
    if not state.is_select:
        _wrote(state.session)


def kept(key: Hashable, read: Callable[[], T]) -> T:
    """What `read` answers for the history now, read again only when the history changed
    since it was last kept under `key`."""
    now = stamp()
    if now is None:
        return read()
    found = _found(key)
    if found is not None and found[0] == now:
        return found[1]  # type: ignore[no-any-return]
    answer = read()
    _keep(key, now, answer)
    return answer


def kept_in_parts(key: Hashable, parts: Mapping[P, Hashable], read: Callable[[P], T]) -> dict[P, T]:
    """What `read` answers for each of `parts` (a year, say), given the stamp of the sessions
    it reads (their count, versions added up and largest id, say); kept under `key` together,
    and each read again only when its own stamp changed."""
    if stamp() is None:
        return {part: read(part) for part in parts}
    found = _found(key)
    held: dict[P, tuple[Hashable, T]] = {} if found is None else found[1]
    now = {
        part: held[part]
        if part in held and held[part][0] == part_stamp
        else (part_stamp, read(part))
        for part, part_stamp in parts.items()
    }
    _keep(key, None, now)
    return {part: answer for part, (_, answer) in now.items()}


def _found(key: Hashable) -> tuple[Hashable, Any] | None:
    with _guard:
        answers = _kept.setdefault(db.engine, OrderedDict())
        found = answers.get(key)
        if found is not None:
            answers.move_to_end(key)
        return found


def _keep(key: Hashable, now: Hashable, answer: Any) -> None:
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
