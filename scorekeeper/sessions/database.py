"""Database connections: SQLite's settings, the write lock every write takes first, and a row
looked up by its id or a 404.

A write reads what it decides on only after it holds the lock, so two writers to one session
run one after the other. On SQLite the lock is the database's write lock, taken by
`BEGIN IMMEDIATE` (pysqlite is told to leave transactions to SQLAlchemy, as SQLAlchemy's
documentation recommends, so the BEGIN is really the first statement). On PostgreSQL it is the
session's row, `SELECT ... FOR UPDATE`, or an advisory lock for writes that make new sessions
and players.
"""

from __future__ import annotations

import fcntl
import functools
import sqlite3
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from flask import Flask
from sqlalchemy import Connection, Select, event, text
from sqlalchemy.exc import OperationalError

from .errors import NotFound
from .extensions import db
from .models import is_id

# How long a writer waits for another one (a restore can take a while) before it is told the
# scorekeeper is busy. A phone waits that long for its Save rather than be refused: on a machine
# running five times the work it has CPUs for, forty tables saving at once, or a restore's batch
# and the writers queued before it, took more than 5 s.
LOCK_WAIT_SECONDS = 15
# How long a writer that waited for another of its own process pauses before it tries the lock
# file, and how often a writer waiting for the lock file tries it.
HANDOVER_PAUSE = 0.0003
POLL_INTERVAL = 0.0001
# How often a long job (a restore) between its batches looks whether writers still wait.
COURTESY_POLL = 0.001
# The advisory lock of writes that add sessions or players (PostgreSQL).
ROSTER_LOCK = 0x5EE9
# The advisory lock every write holds shared, and a recompute of the ratings alone while it
# writes them (PostgreSQL): no write is under way meanwhile (`sessions.ratings`).
RATINGS_LOCK = 0x5EEC
# How long a recompute tries to take that lock without queueing before it queues for it: a
# write that holds it shared a while would keep every write after it waiting behind the queue.
RATINGS_TRIES_SECONDS = 5
# What SQLite says when its busy timeout ran out waiting for another writer.
SQLITE_BUSY = ("database is locked", "database is busy")
# PostgreSQL's lock_timeout ran out. Read from the error rather than importing psycopg, which
# costs a SQLite server about 10 MiB of memory.
LOCK_NOT_AVAILABLE = "55P03"


T = TypeVar("T")


def no_such(what: str, row_id: int) -> NoReturn:
    raise NotFound(f"There is no {what} {row_id}.")


def check_id(what: str, row_id: int) -> None:
    """404 for an id no row can have: the database would refuse to look it up."""
    if not is_id(row_id):
        no_such(what, row_id)


def one_or_404(what: str, row_id: int, query: Select[T]) -> T:
    """What `query` selects of the `what` whose id is `row_id` (the row, or a column of it), or
    a 404 saying there is no such `what`."""
    check_id(what, row_id)
    found = db.session.execute(query).unique().scalar_one_or_none()
    if found is None:
        no_such(what, row_id)
    return found


def database_busy(error: OperationalError) -> bool:
    """Another writer held the database past our wait: SQLite's busy timeout or PostgreSQL's
    lock_timeout ran out."""
    if getattr(error.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE:
        return True
    return any(words in str(error.orig).lower() for words in SQLITE_BUSY)


def register_database(app: Flask) -> None:
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_connect)
            database = engine.url.database
            if database and database != ":memory:":
                opens = functools.partial(_open_writer_lock, database)
                event.listen(engine, "connect", opens)
            event.listen(engine, "begin", _sqlite_begin)
            event.listen(engine, "checkin", _release_writer_lock)
            event.listen(engine, "close", _close_writer_lock)


def _sqlite_connect(connection: Any, _record: Any) -> None:
    if isinstance(connection, sqlite3.Connection):
        connection.isolation_level = None
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={LOCK_WAIT_SECONDS * 1000}")
        cursor.close()


def _open_writer_lock(database: str, _connection: Any, record: Any) -> None:
    """Each connection keeps the lock file open (a flock belongs to an open file), and the file
    a writer holds shared while it waits for the lock. They are closed with the connection, or
    when the pool's record of the connection is dropped unclosed, as an app's pool is when the
    app goes while a request still holds a connection."""
    for key, path in (
        ("writer_lock", _lock_file(database)),
        ("writer_waits", _waits_file(database)),
    ):
        opened = open(path, "a+b")  # noqa: SIM115 (kept open)
        record.info[key] = opened
        weakref.finalize(record, opened.close)


def _lock_file(database: str) -> str:
    return f"{database}.writer-lock"


def _waits_file(database: str) -> str:
    return f"{database}.writer-waits"


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get("write_lock", False)
    if write:
        _take_writer_lock(connection)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class _Turns:
    """Threads of one process that want to write take turns in the order they asked: one at a
    time waits for the lock file, the others wait here without spinning."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: deque[threading.Event] = deque()
        self._busy = False

    def acquire(self, timeout: float) -> bool:
        with self._lock:
            if not self._busy:
                self._busy = True
                return True
            turn = threading.Event()
            self._waiting.append(turn)
        if turn.wait(timeout):
            return True
        with self._lock:
            if turn.is_set():
                return True
            self._waiting.remove(turn)
            return False

    def release(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()
            else:
                self._busy = False


_GATES: dict[str, _Turns] = {}


def _take_writer_lock(connection: Connection) -> None:
    """Writers to one SQLite file, in every process of the server, queue on a lock file beside
    it before BEGIN IMMEDIATE: the next one goes as soon as the lock is free, where SQLite's own
    busy wait sleeps up to 100 ms between tries."""
    info = connection.info
    if "writer_lock" not in info:
        return  # a database in memory: one connection, no other process
    # Shared while it waits, for a long job to see that writers wait (`let_waiting_writers_go`).
    _flock_soon(info["writer_waits"], fcntl.LOCK_SH)
    try:
        _queue_for_the_lock(info)
    finally:
        fcntl.flock(info["writer_waits"], fcntl.LOCK_UN)


def _queue_for_the_lock(info: dict[Any, Any]) -> None:
    gate = _GATES.setdefault(info["writer_lock"].name, _Turns())
    asked = time.monotonic()
    deadline = asked + LOCK_WAIT_SECONDS
    if not gate.acquire(LOCK_WAIT_SECONDS):
        raise _busy()
    info["writer_gate"] = gate
    if time.monotonic() - asked > HANDOVER_PAUSE:
        # Handed over by a writer of this process: let another process's waiting writer go first.
        time.sleep(HANDOVER_PAUSE)
    while True:
        try:
            fcntl.flock(info["writer_lock"], fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                del info["writer_gate"]
                gate.release()
                raise _busy() from None
            time.sleep(POLL_INTERVAL)


def _flock_soon(file: Any, operation: int) -> None:
    """Take `operation` on `file`, held by another only for an instant, without blocking the
    process (a gevent worker serves other requests meanwhile)."""
    while True:
        try:
            fcntl.flock(file, operation | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            time.sleep(POLL_INTERVAL)


def let_waiting_writers_go(longest: float) -> None:
    """Before a long job's next batch (a restore's), wait until no writer of any process waits
    for the write lock, for `longest` seconds at most: writers that waited through one batch go
    before the next, however late a busy machine runs them. SQLite only: PostgreSQL queues its
    lock's waiters in turn."""
    database = db.engine.url.database
    if db.engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return
    deadline = time.monotonic() + longest
    with open(_waits_file(database), "a+b") as waits:
        while time.monotonic() < deadline:
            try:
                fcntl.flock(waits, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                time.sleep(COURTESY_POLL)
                continue
            fcntl.flock(waits, fcntl.LOCK_UN)
            return


def _busy() -> OperationalError:
    return OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))


def _release_writer_lock(_connection: Any, record: Any) -> None:
    """The transaction is over once its connection is back in the pool."""
    gate = record.info.pop("writer_gate", None) if record is not None else None
    if gate is not None:
        fcntl.flock(record.info["writer_lock"], fcntl.LOCK_UN)
        gate.release()


def _close_writer_lock(connection: Any, record: Any) -> None:
    _release_writer_lock(connection, record)
    for key in ("writer_lock", "writer_waits"):
        opened = record.info.pop(key, None) if record is not None else None
        if opened is not None:
            opened.close()


def _begin() -> Connection | None:
    """End whatever the request has read so far and begin a write transaction: on SQLite
    holding the database's write lock; on PostgreSQL, its connection, to take row locks."""
    db.session.rollback()
    connection = db.session.connection(execution_options={"write_lock": True})
    if connection.dialect.name != "postgresql":
        return None
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_WAIT_SECONDS}s'"))
    return connection


def begin_write(session_id: int | None) -> None:
    """End whatever the request has read so far and begin a write transaction holding the lock
    for one session (`session_id`) or for adding sessions and players (None); on PostgreSQL
    with the ratings' lock shared, in the same statement."""
    connection = _begin()
    if connection is None:
        return
    shared = {"ratings": RATINGS_LOCK}
    if session_id is None:
        connection.execute(
            text("SELECT pg_advisory_xact_lock(:key), pg_advisory_xact_lock_shared(:ratings)"),
            {"key": ROSTER_LOCK, **shared},
        )
    else:
        connection.execute(
            text(
                "SELECT id, pg_advisory_xact_lock_shared(:ratings) FROM session "
                "WHERE id = :id FOR UPDATE"
            ),
            {"id": session_id, **shared},
        )


def begin_ratings_write() -> None:
    """Begin the write of a recompute of the ratings, when no other write is under way: on
    SQLite holding the database's write lock; on PostgreSQL the ratings' lock alone, tried
    without queueing for `RATINGS_TRIES_SECONDS`, then queued for."""
    connection = _begin()
    if connection is None:
        return
    deadline = time.monotonic() + RATINGS_TRIES_SECONDS
    while time.monotonic() < deadline:
        tried = text("SELECT pg_try_advisory_xact_lock(:key)")
        if connection.execute(tried, {"key": RATINGS_LOCK}).scalar():
            return
        time.sleep(POLL_INTERVAL * 10)
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})


@contextmanager
def ratings_snapshot() -> Iterator[None]:
    """While a recompute's snapshot is taken: on PostgreSQL no write is under way, so that every
    change numbered after the last it holds is one it doesn't (the ratings' lock, held on a
    connection of its own for that moment, tried without queueing first). On SQLite a write
    under way numbers its changes after the last committed already."""
    engine = db.engine
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as connection:
        deadline = time.monotonic() + RATINGS_TRIES_SECONDS
        tried = text("SELECT pg_try_advisory_lock(:key)")
        while not connection.execute(tried, {"key": RATINGS_LOCK}).scalar():
            if time.monotonic() > deadline:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": RATINGS_LOCK})
                break
            time.sleep(POLL_INTERVAL * 10)
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": RATINGS_LOCK})
            connection.commit()


def begin_event_write(event_id: int, roster: bool) -> None:
    """Begin a write to one club event holding its lock: on PostgreSQL the event's row, taken
    after the lock for adding sessions and players when the write adds some (`roster`). The
    row is held `FOR NO KEY UPDATE`, which event writes wait for but a table's write doesn't:
    one that updates its session's row twice checks the row's event (a `KEY SHARE` lock), and
    would wait for an event write that waits for the table's session."""
    if roster:
        begin_write(None)
        connection: Connection | None = db.session.connection()
    else:
        connection = _begin()
    if connection is None or connection.dialect.name != "postgresql":
        return
    if roster:
        connection.execute(
            text("SELECT id FROM event WHERE id = :id FOR NO KEY UPDATE"), {"id": event_id}
        )
        return
    connection.execute(
        text(
            "SELECT id, pg_advisory_xact_lock_shared(:ratings) FROM event WHERE id = :id"
            " FOR NO KEY UPDATE"
        ),
        {"id": event_id, "ratings": RATINGS_LOCK},
    )


def lock_sessions(session_ids: Sequence[int]) -> None:
    """Within a write begun for adding sessions and players, take the locks of these sessions
    too, in the order of their ids (as every writer taking several does)."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql" or not session_ids:
        return
    connection.execute(
        text("SELECT id FROM session WHERE id = ANY(:ids) ORDER BY id FOR UPDATE"),
        {"ids": sorted(session_ids)},
    )
