"""A restore written down as it goes, so that one a crash cut short is noticed and undone.

A restore (or merge) writes its journal with its first batch and adds to it with each batch
after, in the batch's own transaction: the players it added, and each session it added with the
version it had then. Its last batch deletes the journal. For as long as it writes, the restoring
process holds a lock that the operating system or the database lets go of when the process dies
(SQLite: a lock on a file beside the database; PostgreSQL: an advisory lock on a connection of
its own). So a journal whose lock is free was left by a restore that was cut short: the next
start of the server, `flask check --repair` or the next restore undoes it, as a restore whose
batch failed is undone. A session a phone has written to since it was restored stays, with what
was written.
"""

from __future__ import annotations

import fcntl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from flask import Flask
from sqlalchemy import delete, exists, insert, inspect, select, update

from ..sessions import ratings, writes
from ..sessions.errors import Conflict
from ..sessions.extensions import db
from ..sessions.models import (
    HandPlayer,
    Player,
    RestoredSession,
    RestoreJournal,
    Seat,
    Session,
    as_utc,
)

# The PostgreSQL advisory lock a running restore holds (database.ROSTER_LOCK is 0x5EE9,
# RATINGS_LOCK 0x5EEC, ratings.RECOMPUTE_LOCK 0x5EED).
RESTORE_LOCK = 0x5EEA


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class _Lock:
    """The running restore's lock, held until `release`."""

    def __init__(self, release: Callable[[], None]) -> None:
        self.release = release


def _take_lock() -> _Lock | None:
    """The running restore's lock, or None when another process holds it."""
    engine = db.engine
    if engine.dialect.name == "postgresql":
        # A connection of its own, closed (not pooled) when released: the lock is the
        # connection's, and goes with it.
        connection = engine.raw_connection()
        connection.detach()
        cursor = connection.cursor()
        cursor.execute("SELECT pg_try_advisory_lock(%s)", (RESTORE_LOCK,))
        row = cursor.fetchone()
        connection.commit()
        if row is None or not row[0]:
            connection.close()
            return None

        def release() -> None:
            # Unlocked before closing: a closed connection's backend lets go of its locks only
            # once it has ended, a moment after `close` returns, and a restore that follows at
            # once would find the lock still held.
            try:
                cursor.execute("SELECT pg_advisory_unlock(%s)", (RESTORE_LOCK,))
                connection.commit()
            finally:
                connection.close()

        return _Lock(release)
    database = engine.url.database
    if not database or database == ":memory:":
        return _Lock(lambda: None)
    file = open(f"{database}.restore-lock", "a+b")  # noqa: SIM115 (held until released)
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.close()
        return None
    return _Lock(file.close)


@dataclass(frozen=True)
class Unfinished:
    """A restore whose journal is there: under way, or cut short."""

    started_at: datetime
    merge: bool
    done: int
    total: int
    running: bool

    def __str__(self) -> str:
        started = (
            f"A {'merge' if self.merge else 'restore'} of a backup started "
            f"{as_utc(self.started_at).astimezone(UTC):%Y-%m-%d %H:%M} UTC"
        )
        of = f"{self.done} of {plural(self.total, 'session')}"
        if self.running:
            return f"{started} is under way: {of} written so far."
        return f"{started} was cut short after {of} were written."


def unfinished() -> Unfinished | None:
    """The restore whose journal is there, if any: under way, or cut short."""
    found = _journal(running=False)
    if found is None:
        return None
    lock = _take_lock()
    if lock is None:
        return replace(found, running=True)
    lock.release()
    return found


def _journal(running: bool) -> Unfinished | None:
    journal = db.session.scalar(select(RestoreJournal))
    if journal is None:
        return None
    return Unfinished(journal.started_at, journal.merge, journal.done, journal.total, running)


class RestoreRunning(Conflict):
    """Another process is writing a restore."""


@dataclass(frozen=True)
class Undone:
    """What undoing a restore took out: its sessions no phone had written to since, and its
    players nothing else seats; and the sessions it kept, which a phone had."""

    sessions: int
    players: int
    kept: list[int]

    def __str__(self) -> str:
        taken = f"{plural(self.sessions, 'session')} and {plural(self.players, 'player')}"
        if not self.kept:
            return f"What it had added is taken out again: {taken}."
        return f"What it had added is taken out again ({taken}), {self.except_kept()}."

    def except_kept(self) -> str:
        one = len(self.kept) == 1
        return (
            f"except {plural(len(self.kept), 'session')} that a phone has changed since "
            f"(id {', '.join(map(str, self.kept))}), kept with {'its' if one else 'their'} "
            "changes"
        )


@contextmanager
def running() -> Iterator[str | None]:
    """Hold the lock of a running restore, undoing first a restore that was cut short: yields
    a sentence saying what was undone, or None. Refused (`RestoreRunning`) while another
    process holds the lock."""
    lock = _take_lock()
    if lock is None:
        under_way = _journal(running=True)
        said = str(under_way) if under_way is not None else "Another restore is under way."
        raise RestoreRunning(f"{said} Try again once it is done.")
    try:
        cut = _journal(running=False)
        yield None if cut is None else f"{cut} {undo()}"
    finally:
        lock.release()


def undo_cut_short() -> str | None:
    """Undo a restore that was cut short, saying what was undone; None when there was none."""
    with running() as undone:
        return undone


def undo_at_start(app: Flask) -> str | None:
    """What a server starting says of a restore cut short, which it undoes, or of one under
    way, which it leaves to finish; None when there is neither (or no tables yet)."""
    with app.app_context():
        try:
            if not inspect(db.engine).has_table(RestoreJournal.__tablename__):
                return None
            return undo_cut_short()
        except RestoreRunning as refusal:
            return str(unfinished() or refusal.message)
        finally:
            db.session.remove()
            db.engine.dispose()


def begin(merge: bool, total: int, players: list[int]) -> None:
    """Write the journal of a restore, in the transaction of its first batch."""
    db.session.add(RestoreJournal(merge=merge, done=0, total=total, players=players))


def record(added: dict[int, int], done: int) -> None:
    """Add a batch's sessions, each with its version, to the journal, in the batch's transaction;
    the batch dealt with `done` of the backup's sessions."""
    if added:
        db.session.execute(
            insert(RestoredSession),
            [{"session_id": key, "version": version} for key, version in added.items()],
        )
    db.session.execute(update(RestoreJournal).values(done=RestoreJournal.done + done))


def end() -> None:
    """The restore is whole, or undone: its journal goes, in the transaction under way."""
    db.session.execute(delete(RestoredSession))
    db.session.execute(delete(RestoreJournal))


def undo() -> Undone:
    """Take out, in one write, the sessions the journal's restore added and the players it added
    that nothing else seats since, and the journal. A session a phone has written to since it
    was added stays, with what was written: a hand recorded meanwhile is never lost. Only for
    the holder of the running restore's lock."""
    with writes.roster_write():
        journal = db.session.scalar(select(RestoreJournal))
        players = journal.players if journal is not None else []
        # Locked, so that no session write lands between this read and the delete.
        now = db.session.execute(
            select(Session.id, Session.version, RestoredSession.version)
            .join(RestoredSession, RestoredSession.session_id == Session.id)
            .with_for_update(of=Session)
        ).all()
        kept = sorted(key for key, version, added in now if version != added)
        if len(kept) < len(now):
            ratings.changed()
        db.session.execute(
            delete(Session).where(
                exists().where(
                    RestoredSession.session_id == Session.id,
                    RestoredSession.version == Session.version,
                )
            ),
            execution_options={"synchronize_session": False},
        )
        taken = db.session.scalars(
            select(Player.id).where(
                Player.id.in_(players),
                ~exists().where(Seat.player_id == Player.id),
                ~exists().where(HandPlayer.player_id == Player.id),
            )
        ).all()
        db.session.execute(delete(Player).where(Player.id.in_(taken)))
        end()
    return Undone(len(now) - len(kept), len(taken), kept)
