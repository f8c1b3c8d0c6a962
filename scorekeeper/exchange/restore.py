"""A backup brought back: read, checked whole (`backup_checks`, its sessions in
`check_workers`), then written a batch of sessions at a time, so other writers wait for one
batch at most.

Restoring replays each hand through the rules engine, so it checks it again and the stored
scores are derived afresh; nothing derived is read from the file.
"""

from __future__ import annotations

import io
import json
import pickle
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import IO, Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from .. import rules
from ..rules import RuleError
from ..sessions import bulk, event_writes, ratings, rows, season_writes, writes
from ..sessions.database import database_busy, let_waiting_writers_go
from ..sessions.errors import Conflict
from ..sessions.extensions import db
from ..sessions.models import (
    Event,
    Player,
    PlayerMerge,
    PlayerRating,
    Session,
    TrashedSession,
)
from . import journal
from . import rule_sets as rule_sets_module
from .backup import FORMAT, VERSION, in_the_trash, listed
from .backup_checks import (
    EventTables,
    check_rule_sets,
    checked_events,
    checked_merges,
    checked_players,
    checked_seasons,
    created_moment,
    retired,
)
from .backup_file import VALUE_MARKS, BackupFile, Streamed, check_density, not_json
from .check_workers import Checked, checked_sessions
from .journal import plural
from .session_checks import checked_trash, held_already

CONFLICT = (
    "Someone changed the scorekeeper while the backup was being restored, so nothing was "
    "restored. Try again."
)

# Between batches a restore lets the writers waiting for the lock go first
# (`database.let_waiting_writers_go`: a phone's hand, while `flask import-backup` runs). On a
# busy machine a waiting writer may not be run for a while, so it waits for them up to a share
# of the time the batch took (a busy machine makes batches slow), within these limits: writers
# that keep coming hold a restore back that long at most, and one that misses its turn waits
# for one more batch. It always pauses the shortest, which lets the other requests of a gevent
# worker run (Settings' restore runs in one).
SHORTEST_PAUSE = 0.005
PAUSE_SHARE_OF_A_BATCH = 0.1
LONGEST_PAUSE = 0.25

# Sessions inserted together by a restore, in one write: each batch is a few statements. A
# batch holds at most HANDS_A_BATCH hands too (a session's hands are never split), and fewer
# when batches run slow, as on a busy machine: as many as the last batch's pace writes in
# BATCH_SECONDS, but no fewer than FEWEST_HANDS, which the first holds, as the pace is not
# known yet. So a writer waiting for one batch waits well within LOCK_WAIT_SECONDS. Each batch
# costs a commit and a pause besides its rows, so a batch as large as that pace allows is the
# quickest way through.
SESSIONS_A_BATCH = 100
HANDS_A_BATCH = 5_000
FEWEST_HANDS = 100
BATCH_SECONDS = 0.5


def read_backup(raw: bytes | str) -> Any:
    """The JSON of a backup held in memory, or a refusal saying why it can't be read."""
    if isinstance(raw, bytes):
        return BackupFile(io.BytesIO(raw)).whole()
    check_density(len(raw), sum(raw.count(mark) for mark in VALUE_MARKS))
    if raw.startswith("\ufeff"):
        raise not_json("Unexpected UTF-8 BOM (decode using utf-8-sig)", 1, 1)
    return BackupFile(io.BytesIO(raw.encode("utf-8", "surrogatepass")), "utf-8").whole()


def open_backup(file: IO[bytes]) -> Any:
    """The JSON of a backup's file (open for reading, bytes) or a refusal saying why it can't
    be read; its sessions and trash are left in the file, read again as a restore checks them,
    so the file must stay open until the check is done. A file that can't be read twice
    (standard input) is copied to a temporary file first."""
    if not file.seekable():
        copy = tempfile.TemporaryFile()  # noqa: SIM115 (open while the restore reads it)
        shutil.copyfileobj(file, copy)
        file = copy
    return BackupFile(file).data


@dataclass(frozen=True)
class Restored:
    sessions: int
    hands: int
    players: int
    already: int = 0
    rule_sets: int = 0
    trashed: int = 0

    def __str__(self) -> str:
        sessions = f"{plural(self.sessions, 'session')} with {plural(self.hands, 'hand')}"
        restored = listed(
            sessions,
            plural(self.players, "new player"),
            plural(self.rule_sets, "rule set") if self.rule_sets else "",
            in_the_trash(self.trashed),
        )
        if self.already:
            held = "was" if self.already == 1 else "were"
            restored += f" ({plural(self.already, 'session')} {held} here already)"
        return restored


# What a restore answers under its write key, made of what it restored: a status and a body.
AnswerOf = Callable[[Restored], tuple[int, Any]]


class RestoreUndone(RuleError):
    """A batch failed, and what the batches before it added was taken out again."""


class Restore:
    """A backup, checked whole before anything is written: its structure, players and rule sets
    when made, then (`check`) every session with every hand through the rules engine, so that a
    refused backup changes nothing. `batches` then writes it, each batch of sessions its own
    short roster write, so other writers wait for one batch at most, never for the whole
    restore.

    Into an empty database, ids and creation times are kept, so every session reads exactly as
    it did. With `merge`, a database that already holds sessions takes the backup's sessions as
    new ones, and its players are matched by name, case ignored; a session that is already here
    (the same start time, name and hands) is not added again. Rule sets are matched by name
    either way: one whose name is here already is not added. A backup made before rule sets
    were kept has none.
    """

    def __init__(self, data: Any, merge: bool = False) -> None:
        """Check at once what takes no time: the backup's shape, its players and rule sets,
        and that it may go into this database, once a restore that was cut short is undone
        (refused while another restore is under way). `check` then checks the sessions."""
        players, self._given = _contents(data)
        self.rule_sets = data.get("rule_sets", [])
        if not isinstance(self.rule_sets, list):
            raise RuleError("This backup is damaged: its rule sets are not a list.")
        check_rule_sets(self.rule_sets)
        self._trash_given = data.get("trash", [])
        if not isinstance(self._trash_given, list | Streamed):
            raise RuleError("This backup is damaged: its trash is not a list.")
        self.trash: list[dict[str, Any]] = []
        self.players = checked_players(players)
        self.retired = retired(players)
        self.merges = checked_merges(data.get("merges", []), self.players)
        self.events = checked_events(data.get("events", []), self.players)
        self.seasons = checked_seasons(data.get("seasons", []))
        # What undoing a restore that was cut short took out, if there was one.
        self.undone = journal.undo_cut_short()
        held_sessions, held_players = _counts()
        # No read stays open through the check: each batch reads again under the lock.
        db.session.rollback()
        if (held_sessions or held_players) and not merge:
            refusal = _not_empty(held_sessions, held_players)
            raise RuleError(f"{self.undone} {refusal.message}" if self.undone else refusal.message)
        self.merge = merge
        self.keep_ids = not (held_sessions or held_players)
        # What the check found: how many sessions it went through, the largest id, and the
        # sessions that are tables of an event, each with its link.
        self._checked = -1
        self._largest = 0
        self._links: list[tuple[int, tuple[int, int, int]]] = []
        self._spill: IO[bytes] | None = None
        self.restored = Restored(sessions=0, hands=0, players=0)
        self._players_added = 0

    @property
    def total(self) -> int:
        """How many sessions the backup holds."""
        return len(self._given)

    def check(self, workers: int = 0) -> Iterator[int]:
        """Check every session and its hands through the rules engine (in `workers` processes
        of their own, if any), yielding how many sessions each batch's worth checked, then the
        trash; a refusal raises `RuleError`. Nothing is written. What each session's write
        sends goes to a temporary file for the batches to write, so memory holds a few
        sessions however large the backup."""
        self._checked, self._largest, self._links = -1, 0, []
        self.close()
        tables = EventTables(self.events)
        self._spill = tempfile.TemporaryFile()  # noqa: SIM115 (read back by the batches)
        dialect = db.session.get_bind().dialect
        sessions = checked_sessions(
            self._given, self.players, self.keep_ids, tables, self._spill, dialect, workers
        )
        checked = 0
        try:
            while batch := list(islice(sessions, SESSIONS_A_BATCH)):
                for session_id, claim in batch:
                    self._largest = max(self._largest, session_id)
                    if claim is not None and self.keep_ids:
                        self._links.append((session_id, claim))
                checked += len(batch)
                yield len(batch)
            tables.check_whole()
            self.trash = checked_trash(self._trash_given)
        except BaseException:
            self.close()
            raise
        self._checked = checked

    def close(self) -> None:
        """Let go of the sessions `check` keeps for the batches, which let go of them when
        done: for a backup checked and not written."""
        if self._spill is not None:
            self._spill.close()
            self._spill = None

    def _read_checked(self) -> Iterator[Checked]:
        """The sessions `check` checked, in order, read back a batch at a time."""
        assert self._spill is not None
        self._spill.seek(0)
        while True:
            try:
                batch: list[Checked] = pickle.load(self._spill)
            except EOFError:
                return
            yield from batch

    def batches(
        self, key: str | None = None, digest: str = "", answer: AnswerOf | None = None
    ) -> Iterator[int]:
        """Write the backup a batch at a time, yielding how many of its sessions each batch
        dealt with; `restored` then says what was added. The first batch adds the players, the
        last the rule sets and, under the write key `key`, what `answer` makes of `restored`.
        A batch that fails takes out what the earlier ones added, and raises `RestoreUndone`.
        Each batch keeps the restore's journal in its own transaction, and the whole run holds
        the lock of a running restore (see `journal`): a restore a crash cuts short is undone
        later, and while one runs another is refused. Only a backup that `check` went through
        whole is written."""
        if self._checked != self.total:
            raise RuntimeError("The backup's sessions are not checked yet.")
        start = 0
        try:
            with journal.running() as undone:
                if undone is not None:
                    # Another restore, started alongside this one, was cut short meanwhile.
                    raise Conflict(f"{undone} Nothing of this backup is restored: start again.")
                took = 0.0
                # The most hands the next batch holds, as the last batch's pace says.
                most = [FEWEST_HANDS]
                for batch in _batched(self._read_checked(), lambda: most[0]):
                    first, last = start == 0, start + len(batch) == self.total
                    if not first:
                        time.sleep(SHORTEST_PAUSE)
                        let_waiting_writers_go(_pause(took) - SHORTEST_PAUSE)
                    began = time.monotonic()
                    try:
                        with writes.roster_write(key if first or last else None, digest) as write:
                            if first:
                                players = self._add_players()
                                self._players_added = len(players)
                                journal.begin(self.merge, self.total, players)
                            journal.record(self._add_sessions(batch), len(batch))
                            if last:
                                self._finish(write, answer)
                                journal.end()
                            else:
                                ratings.recompute_later()
                    except Exception as error:
                        if first and not isinstance(error, SQLAlchemyError):
                            raise
                        raise self._failed(error, start) from error
                    took = time.monotonic() - began
                    most[0] = _hands_in(batch, took)
                    start += len(batch)
                    yield len(batch)
        finally:
            self.close()

    def _add_players(self) -> list[int]:
        """Add the backup's players, or find them by name; return the ids of those added."""
        held_sessions, held_players = _counts()
        if self.keep_ids and (held_sessions or held_players):
            raise Conflict(CONFLICT)
        names = list(self.players.values())
        if self.keep_ids:
            for player_id, name in self.players.items():
                key = rules.name_key(name)
                active = player_id not in self.retired
                rating = PlayerRating()
                db.session.add(
                    Player(id=player_id, name=name, name_key=key, active=active, rating=rating)
                )
            db.session.flush()
            # So that a session or player added while the restore runs takes none of its ids.
            # A merge undone brings its player back under their id, and finds its sessions by
            # theirs: ids no new player or session may take either.
            merged = [merge["player_id"] for merge in self.merges]
            bulk.reserve_ids(Player.__table__, max([*self.players, *merged, 0]))
            bulk.reserve_ids(Session.__table__, self._largest_session())
            return list(self.players)
        here = set(db.session.scalars(select(Player.id)))
        players = rows.players_named(names)
        db.session.flush()
        added = [player for player in players if player.id not in here]
        retired = {rules.name_key(self.players[i]) for i in self.retired}
        for player in added:
            player.active = player.name_key not in retired
        return [player.id for player in added]

    def _largest_session(self) -> int:
        """The largest id of the backup's sessions, those in its trash and those its merges
        name included."""
        named: list[int] = [
            i for merge in self.merges for i in (*merge["sessions"], *merge["trashed"])
        ]
        return max(self._largest, *self._trash_ids(), *named, 0)

    def _add_events(self) -> None:
        """Add the backup's events under their ids, with their players, and link their tables'
        sessions to them: with the last batch, so that a restore cut short leaves no event."""
        if not self.events:
            return
        by_name = {rules.name_key(name): player_id for player_id, name in self.players.items()}
        for event in self.events:
            players = [(by_name[rules.name_key(name)], on) for name, on in event.players]
            event_writes.restored_event(event.id, event.fields, event.version, event.at, players)
        db.session.flush()
        bulk.reserve_ids(Event.__table__, max(event.id for event in self.events))
        links = [
            {"at": session_id, "event": e, "round": r, "table": t}
            for session_id, (e, r, t) in self._links
        ]
        if links:
            db.session.execute(
                update(Session.__table__)
                .where(Session.__table__.c.id == bindparam("at"))
                .values(
                    event_id=bindparam("event"),
                    event_round=bindparam("round"),
                    event_table=bindparam("table"),
                ),
                links,
            )

    def _add_sessions(self, batch: list[Checked]) -> dict[int, int]:
        """Add the batch's sessions that are not here yet, deciding under the write's lock;
        return their ids, each with its version."""
        if self.keep_ids:
            wanted = [checked.session_id for checked in batch]
            if db.session.scalar(select(func.count()).where(Session.id.in_(wanted))):
                raise Conflict(CONFLICT)
            adding = batch
        else:
            # A practice event's made-up hands stay with it: merged alone, they would count.
            adding = [
                checked
                for checked in batch
                if not checked.practice and not held_already(checked.given or {})
            ]
        added = bulk.insert_sessions([checked.written for checked in adding])
        versions = dict(zip(added, (checked.version for checked in adding), strict=True))
        self.restored = replace(
            self.restored,
            sessions=self.restored.sessions + len(adding),
            hands=self.restored.hands + sum(checked.hands for checked in adding),
            already=self.restored.already + len(batch) - len(adding),
        )
        return versions

    def _finish(self, write: writes.Write, answer: AnswerOf | None) -> None:
        rule_sets = _add_rule_sets(self.rule_sets)
        for fields, created_at in self.seasons:
            season_writes.restored_season(fields, created_at)
        if self.keep_ids:
            self._add_events()
            # Merged into other sessions and players, the ids a merge names are not these.
            db.session.add_all(PlayerMerge(**merge) for merge in self.merges)
        self.restored = replace(
            self.restored,
            players=self._players_added,
            rule_sets=rule_sets,
            trashed=self._add_trash(),
        )
        if answer is not None:
            write.answered(*answer(self.restored))

    def _add_trash(self) -> int:
        """Put the backup's trash in the trash here, each session under its id; merged, one
        whose id the trash here holds already is added under a new id, unless it is the same.
        Return how many were added."""
        held = {
            entry.session_id: entry.data
            for entry in db.session.scalars(
                select(TrashedSession).where(TrashedSession.session_id.in_(self._trash_ids()))
            )
        }
        largest = db.session.scalar(select(func.max(TrashedSession.session_id))) or 0
        added = []
        for entry in self.trash:
            if entry["session_id"] in held:
                if held[entry["session_id"]] == entry["data"]:
                    continue
                largest += 1
                entry = entry | {"session_id": largest}
            added.append(entry)
        if added:
            db.session.execute(insert(TrashedSession.__table__), added)
        return len(added)

    def _trash_ids(self) -> list[int]:
        return [entry["session_id"] for entry in self.trash]

    def _failed(self, error: Exception, start: int) -> RuleError:
        """What a batch that failed raises, saying why: the first wrote nothing; what the
        batches before a later one added is taken out again (`journal.undo`), as
        `RestoreUndone`."""
        why = self._why(error, start)
        if start == 0:
            return RuleError(why if why == CONFLICT else f"{why} Nothing was restored.")
        try:
            undone = journal.undo()
        except Exception:
            return RestoreUndone(
                f"{why} Taking out what the restore had added failed too: "
                f"{plural(self.restored.sessions, 'session')} of the backup are still here, "
                "until the server's next start or `flask --app scorekeeper check --repair` "
                "takes them out."
            )
        if undone.kept:
            if why == CONFLICT:
                why = "Someone changed the scorekeeper while the backup was being restored."
            return RestoreUndone(
                f"{why} What the restore had added is taken out again, {undone.except_kept()}."
            )
        if why == CONFLICT:
            return RestoreUndone(why)
        return RestoreUndone(
            f"{why} What the restore had added is taken out again: nothing was restored."
        )

    def _why(self, error: Exception, start: int) -> str:
        """Why the batch from session `start` failed, in a sentence."""
        if isinstance(error, RuleError):
            return error.message
        if isinstance(error, IntegrityError):
            return CONFLICT
        if isinstance(error, OperationalError) and database_busy(error):
            return "The database was busy with another write for too long."
        return f"The database failed at session {start + 1} of {self.total}."


def _not_empty(sessions: int, players: int) -> RuleError:
    return RuleError(
        f"This scorekeeper already holds {plural(sessions, 'session')} and "
        f"{plural(players, 'player')}. Restore a backup into an empty one, "
        "or merge it into what is here."
    )


def _add_rule_sets(given: list[Any]) -> int:
    """Add the backup's rule sets whose names are not here yet; return how many."""
    return sum(
        rule_sets_module.add(
            rule_set["name"], rule_set.get("rules"), created_moment(rule_set.get("created_at"))
        )
        for rule_set in given
    )


def _contents(data: Any) -> tuple[list[Any], list[Any] | Streamed]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RuleError(
            f'This file is not a backup of the scorekeeper: it has no "format": "{FORMAT}".'
        )
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RuleError(
            f"This backup is version {json.dumps(version)}, "
            f"and this scorekeeper reads version {VERSION}."
        )
    players, sessions = data.get("players"), data.get("sessions")
    if not isinstance(players, list) or not isinstance(sessions, list | Streamed):
        raise RuleError("This backup is damaged: it needs a list of players and of sessions.")
    return players, sessions


def _counts() -> tuple[int, int]:
    return (
        db.session.scalar(select(func.count(Session.id))) or 0,
        db.session.scalar(select(func.count(Player.id))) or 0,
    )


def _batched(sessions: Iterable[Checked], most_hands: Callable[[], int]) -> Iterator[list[Checked]]:
    """The sessions a batch at a time: SESSIONS_A_BATCH of them, or fewer holding at most
    `most_hands()` hands, asked as the batch is made (a session of more is a batch of its own);
    one empty batch for none."""
    batch: list[Checked] = []
    hands = 0
    for session in sessions:
        count = session.hands
        if batch and (len(batch) == SESSIONS_A_BATCH or hands + count > most_hands()):
            yield batch
            batch, hands = [], 0
        batch.append(session)
        hands += count
    yield batch


def _hands_in(batch: list[Checked], took: float) -> int:
    """The most hands a batch holds after `batch`, which took `took` seconds (see
    BATCH_SECONDS)."""
    hands = sum(session.hands for session in batch)
    if hands == 0 or took <= 0:
        return HANDS_A_BATCH
    return max(FEWEST_HANDS, min(HANDS_A_BATCH, int(hands * BATCH_SECONDS / took)))


def _pause(took: float) -> float:
    """The longest pause after a batch that took `took` seconds (see SHORTEST_PAUSE)."""
    return min(max(SHORTEST_PAUSE, PAUSE_SHARE_OF_A_BATCH * took), LONGEST_PAUSE)
