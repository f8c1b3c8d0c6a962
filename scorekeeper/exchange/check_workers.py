"""A backup's sessions checked by the rules engine for a restore, in worker processes when it
is given some (both CPUs of a small server), each session made into the rows its write sends:
the restore's check. The workers take the sessions in turn, a few at a time (each read from the
backup's file by the worker, when it is left there), and what they find is taken in the
backup's order, so a refusal is the one a check in order would give."""

from __future__ import annotations

import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from multiprocessing.pool import AsyncResult
from typing import IO, Any

from sqlalchemy import Dialect

from .. import rules
from ..rules import RuleError
from ..sessions import bulk
from . import session_checks
from .backup_checks import EventTables, located, record_id
from .backup_file import Span, Streamed

# Sessions a worker checks at a time (a task), and the most tasks handed out and not yet taken
# back, for each worker: enough to keep it busy, few enough to keep memory small.
SESSIONS_A_TASK = 8
TASKS_AHEAD = 4


@dataclass(frozen=True)
class Checked:
    """A session of the backup, checked by the engine, to write: its rows, made with its
    players' ids when the restore keeps them, else the session (`bulk.insert_sessions` takes
    either); with merge, as the backup gave it, to tell whether it is here already."""

    session_id: int
    written: bulk.NewSession | bulk.SessionRows
    hands: int
    version: int
    practice: bool
    given: dict[str, Any] | None
    # The event, round and table it is a table of, linked once the event is added.
    link: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class _Plan:
    """What checking a session needs to know of the whole backup."""

    keys: frozenset[str]
    keep_ids: bool
    # The backup's players' ids, by their names' keys, when the restore keeps them.
    ids: Mapping[str, int]
    practice: frozenset[int]
    dialect: Dialect
    # How a session left in the backup's file is read from where it lies (None: none is).
    read: Callable[[Span], Any] | None


@dataclass(frozen=True)
class _Found:
    """What checking one session found: a refusal before its id is known to be new (`early`)
    or after; else its id and the event table it claims."""

    session_id: int = 0
    early: RuleError | None = None
    late: RuleError | None = None
    claim: tuple[int, int, int] | None = None


def checked_sessions(
    sessions: Iterable[Any] | Streamed,
    players: dict[int, str],
    keep_ids: bool,
    tables: EventTables,
    spill: IO[bytes],
    dialect: Dialect,
    workers: int = 0,
) -> Iterator[tuple[int, tuple[int, int, int] | None]]:
    """Check each session of the backup with its hands, in turn, pickling what will be written
    to `spill` (lists of `Checked`, in order); yield each session's id, with the event table it
    claims, as it is taken; refuse the first session the check refuses."""
    plan = _Plan(
        keys=frozenset(rules.name_key(name) for name in players.values()),
        keep_ids=keep_ids,
        ids={rules.name_key(name): player_id for player_id, name in players.items()},
        practice=frozenset(e for e in tables.ids() if tables.practice(e)),
        dialect=dialect,
        read=sessions.file.item if isinstance(sessions, Streamed) else None,
    )
    numbered = enumerate(sessions.spans() if isinstance(sessions, Streamed) else sessions, start=1)
    # Checked here, a session is a task: each is taken as soon as it is checked.
    size = SESSIONS_A_TASK if workers > 0 else 1
    tasks = iter(lambda: list(islice(numbered, size)), [])
    ids: set[int] = set()
    for found, blob in _in_workers(plan, tasks, workers):
        for one in found:
            if one.early is not None:
                raise one.early
            with located(f"Session {one.session_id}"):
                if one.session_id in ids:
                    raise RuleError(f"The id {one.session_id} is given to two sessions.", "id")
            ids.add(one.session_id)
            if one.late is not None:
                raise one.late
            if one.claim is not None:
                tables.claim(one.session_id, one.claim)
        spill.write(blob)
        yield from ((one.session_id, one.claim) for one in found)


def _in_workers(
    plan: _Plan, tasks: Iterator[list[tuple[int, Any]]], workers: int
) -> Iterator[tuple[list[_Found], bytes]]:
    """Each task's sessions checked, in order: in this process, or in `workers` processes
    forked from it (which see `plan` as it is, unpickled)."""
    if workers < 1:
        for task in tasks:
            yield _check_task(plan, task)
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_start_worker, initargs=(plan,)) as pool:
        pending: deque[AsyncResult[tuple[list[_Found], bytes]]] = deque()
        for task in tasks:
            pending.append(pool.apply_async(_check_in_worker, (task,)))
            if len(pending) >= TASKS_AHEAD * workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


_PLAN: _Plan | None = None


def _start_worker(plan: _Plan) -> None:
    global _PLAN
    _PLAN = plan


def _check_in_worker(task: list[tuple[int, Any]]) -> tuple[list[_Found], bytes]:
    assert _PLAN is not None
    return _check_task(_PLAN, task)


def _check_task(plan: _Plan, task: list[tuple[int, Any]]) -> tuple[list[_Found], bytes]:
    """A task's sessions checked, up to the first refused: what was found of each, and those
    checked, pickled."""
    found: list[_Found] = []
    checked: list[Checked] = []
    for position, given in task:
        try:
            if plan.read is not None:
                given = plan.read(given)
            session_id = _session_id(position, given)
        except RuleError as error:
            found.append(_Found(early=error))
            break
        try:
            one, claim = _checked(plan, session_id, given)
        except RuleError as error:
            found.append(_Found(session_id, late=error))
            break
        found.append(_Found(session_id, claim=claim))
        checked.append(one)
    return found, pickle.dumps(checked, pickle.HIGHEST_PROTOCOL)


def _session_id(position: int, given: Any) -> int:
    with located(f"Session {position} of the backup"):
        if not isinstance(given, dict):
            raise RuleError("It is not a JSON object.")
        return record_id(given.get("id"))


def _checked(
    plan: _Plan, session_id: int, given: dict[str, Any]
) -> tuple[Checked, tuple[int, int, int] | None]:
    """A session checked by the engine, and the event table it claims, if any."""
    with located(f"Session {session_id}"):
        for name in given.get("players") or ():
            if isinstance(name, str) and rules.name_key(name) not in plan.keys:
                raise RuleError(f"{name} is seated but not among the backup's players.", "players")
        for substitute in given.get("substitutes") or ():
            named = substitute.values() if isinstance(substitute, dict) else ()
            for name in named:
                if isinstance(name, str) and rules.name_key(name) not in plan.keys:
                    raise RuleError(
                        f"{name} sits in at the table but is not among the backup's players.",
                        "substitutes",
                    )
    keep_ids = plan.keep_ids
    new = session_checks.checked_session(
        given, session_id if keep_ids else None, f"Session {session_id}"
    )
    claim = new.event
    if claim is not None:
        new = replace(new, practice=claim[0] in plan.practice)
    # A table's link to its event is made once the event is added, with the last batch;
    # merged into sessions here, the backup's events are not added, its tables kept alone.
    kept = replace(new, event=None)
    if not keep_ids:
        kept = replace(kept, director=None, stand_ins={})
    written: bulk.NewSession | bulk.SessionRows = kept
    names = bulk.names_in([kept])
    if keep_ids and all(rules.name_key(name) in plan.ids for name in names):
        ids = {name: plan.ids[rules.name_key(name)] for name in names}
        written = bulk.session_rows(kept, ids, plan.dialect)
    checked = Checked(
        session_id=session_id,
        written=written,
        hands=len(new.sheet.results),
        version=new.version,
        practice=new.practice,
        given=None if keep_ids else given,
        link=claim if keep_ids else None,
    )
    return checked, claim
