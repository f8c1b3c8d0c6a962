"""Everything in the database as one JSON file, and back.

A backup holds the players, every session with its rules, seats and hands as they were
recorded, and the named rule sets. Restoring replays each hand through the rules engine, so it
checks it again and the stored scores are derived afresh; nothing derived is read from
the file.
"""

from __future__ import annotations

import io
import json
import pickle
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import IO, Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import selectinload

from .. import rules
from ..rules import RuleError
from ..rules.choices import choice
from ..sessions import bulk, events, hand_rows, loading, rows, seasons, writes
from ..sessions.database import database_busy
from ..sessions.errors import Conflict
from ..sessions.events import STAND_INS, stand_ins_of
from ..sessions.extensions import db
from ..sessions.models import (
    Event,
    Player,
    PlayerMerge,
    PlayerRating,
    RuleSet,
    Season,
    Seat,
    Session,
    TrashedSession,
)
from ..sessions.records import (
    director_json,
    hand_input_json,
    iso,
    merge_json,
    options_json,
    payments_json,
)
from ..sessions.renames import PLAYER_ACTIONS
from . import backup_rows, journal
from . import rule_sets as rule_sets_module
from .backup_file import DENSITY_CHECKED_FROM as DENSITY_CHECKED_FROM
from .backup_file import VALUE_MARKS, BackupFile, Streamed, check_density, not_json
from .journal import plural
from .json_in import event_request, hand_request, season_request, session_request

FORMAT = "sheepshead-scorekeeper-backup"
VERSION = 1
CONFLICT = (
    "Someone changed the scorekeeper while the backup was being restored, so nothing was "
    "restored. Try again."
)


# How long a restore leaves the write lock free between batches: a writer of another process
# (a phone's hand, while `flask import-backup` runs) finds it free only when it looks, every
# tenth of a millisecond, so without a pause the next batch would nearly always go first. On a
# busy machine a waiting writer may not be run for a while: the pause grows with the time the
# batch took (a share of it, up to a limit), as a busy machine makes batches slow.
PAUSE_BETWEEN_BATCHES = 0.005
PAUSE_SHARE_OF_A_BATCH = 0.1
LONGEST_PAUSE = 0.25

# Sessions inserted together by a restore, in one write: each batch is a few statements. A
# batch holds at most HANDS_A_BATCH hands too (a session's hands are never split), and fewer
# when batches run slow, as on a busy machine: as many as the pace so far writes in
# BATCH_SECONDS. So a writer waiting for one batch waits well within LOCK_WAIT_SECONDS.
SESSIONS_A_BATCH = 100
HANDS_A_BATCH = 1_000
BATCH_SECONDS = 0.5
# The largest id or version a backup may give: far below 2**31 - 1 (PostgreSQL's integer, and
# the largest id the routes take), so the ids and versions that come after never run out.
MAX_KEPT = 1_000_000_000
# The times a backup may give, far enough inside what a datetime holds that every time zone
# can show them.
EARLIEST = datetime(2, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)


@dataclass
class Written:
    """What a backup being written holds so far."""

    sessions: int = 0
    hands: int = 0
    players: int = 0
    rule_sets: int = 0
    trashed: int = 0

    def __str__(self) -> str:
        sessions = f"{plural(self.sessions, 'session')} with {plural(self.hands, 'hand')}"
        return listed(
            sessions,
            plural(self.players, "player"),
            plural(self.rule_sets, "rule set") if self.rule_sets else "",
            in_the_trash(self.trashed),
        )


def listed(*parts: str) -> str:
    """'a, b, and c' of the parts given (an empty one left out): what a backup holds."""
    given = [part for part in parts if part]
    return f"{', '.join(given[:-1])}, and {given[-1]}"


def in_the_trash(trashed: int) -> str:
    return f"{plural(trashed, 'session')} in the trash" if trashed else ""


def backup_text(written: Written | None = None) -> Iterator[str]:
    """The backup as JSON text, written as it is read: a session per line, a few sessions in
    memory at a time. `written` counts what it holds as it goes."""
    written = written if written is not None else Written()
    players = [
        {"id": player.id, "name": player.name, "active": player.active}
        for player in db.session.scalars(select(Player).order_by(Player.id))
    ]
    written.players = len(players)
    head = {"format": FORMAT, "version": VERSION, "exported_at": iso(datetime.now(UTC))}
    yield _dumps(head)[:-1] + ',\n"players": ' + _dumps(players) + ',\n"sessions": ['
    for session, hands, settled, changes in _every_session():
        comma = "," if written.sessions else ""
        # "changes" is the last key: their text goes in as it was written.
        kept = _dumps(_session_json(session, hands, settled))
        yield f'{comma}\n{kept[:-1]}, "changes": {changes}}}'
        written.sessions += 1
        written.hands += len(hands)
    rule_sets = [
        rule_sets_module.backup_json(rule_set)
        for rule_set in db.session.scalars(select(RuleSet).order_by(RuleSet.id))
    ]
    written.rule_sets = len(rule_sets)
    yield '\n],\n"rule_sets": ' + _dumps(rule_sets) + ',\n"trash": ['
    trash = db.session.scalars(
        select(TrashedSession).where(TrashedSession.kept()).order_by(TrashedSession.session_id)
    )
    for entry in trash:
        comma = "," if written.trashed else ""
        trashed = {"id": entry.session_id, "deleted_at": iso(entry.deleted_at), **entry.data}
        yield f"{comma}\n{_dumps(trashed)}"
        written.trashed += 1
    events = [
        event_backup_json(event)
        for event in db.session.scalars(
            select(Event).options(selectinload(Event.players)).order_by(Event.id)
        )
    ]
    merges = [
        merge_json(merge)
        for merge in db.session.scalars(
            select(PlayerMerge)
            .where(PlayerMerge.at >= PlayerMerge.kept_since())
            .order_by(PlayerMerge.id)
        )
    ]
    yield '\n],\n"merges": ' + _dumps(merges) + ',\n"events": ' + _dumps(events)
    backed_up = [
        {key: value for key, value in seasons.season_json(season).items() if key != "id"}
        for season in db.session.scalars(select(Season).order_by(Season.id))
    ]
    yield ',\n"seasons": ' + _dumps(backed_up) + "}\n"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _every_session() -> Iterator[tuple[Session, list[dict[str, Any]], rules.Settled, str]]:
    """Every session by id, with its hands, its early payments and the JSON text of its changes
    as the backup writes them: the sessions and their seats loaded a batch at a time, the hands
    and changes read as plain rows, so a long history is read in a few statements a batch."""
    connection = db.session.connection()
    ids = list(db.session.scalars(select(Session.id).order_by(Session.id)))
    names = {
        player_id: name for player_id, name in db.session.execute(select(Player.id, Player.name))
    }
    for start in range(0, len(ids), hand_rows.SESSIONS_AT_A_TIME):
        chosen = ids[start : start + hand_rows.SESSIONS_AT_A_TIME]
        sessions = db.session.scalars(
            select(Session)
            .where(Session.id.in_(chosen))
            .order_by(Session.id)
            .options(selectinload(Session.seats).joinedload(Seat.player), *STAND_INS)
        ).all()
        hands = backup_rows.recorded_hands(connection, chosen, names)
        changes = backup_rows.changes_text(connection, chosen)
        settled = loading.settled_in(chosen)
        for session in sessions:
            yield (
                session,
                hands.get(session.id, []),
                settled.get(session.id, {}),
                changes.get(session.id, "[]"),
            )
        db.session.expunge_all()


def session_backup_json(
    session: Session,
    hands: Sequence[rules.Hand] | None = None,
    settled: rules.Settled | None = None,
) -> dict[str, Any]:
    """The session as a backup (and the trash) keeps it; its `hands` and early payments
    (`settled`) when they were read already, else read from the session."""
    if hands is None:
        hands = [loading.hand_of(row) for row in session.hands]
    if settled is None:
        settled = loading.settled_of(session)
    return _session_json(session, [hand_input_json(hand) for hand in hands], settled)


def _session_json(
    session: Session, hands: list[dict[str, Any]], settled: rules.Settled
) -> dict[str, Any]:
    """`session_backup_json` with its hands as the backup keeps them."""
    table = loading.table_of(session)
    return {
        "id": session.id,
        "name": session.name,
        "created_at": iso(session.created_at),
        "players": list(table.seats),
        "rounds": table.rounds,
        "version": session.version,
        "first_dealer": table.first_dealer,
        "rules": options_json(table.options),
        "hands": hands,
        "ended": table.ended,
        **({"totals_only": True, "totals": loading.nets_of(session)} if table.totals_only else {}),
        "paid": [
            {"player": leaver, **payment}
            for leaver, payments in settled.items()
            for payment in payments_json(payments)
        ],
    } | (
        {}
        if session.event_id is None
        else {"event": {"id": session.event_id, "round": session.event_round,
                        "table": session.event_table}}
    ) | _tournament_json(session)  # fmt: skip


def _tournament_json(session: Session) -> dict[str, Any]:
    """A table's open call for the director and who stands in there for whom, when it has
    them."""
    kept: dict[str, Any] = {}
    if session.director_at is not None:
        kept["director"] = director_json(session)
    if session.event_id is not None and session.stand_ins:
        kept["substitutes"] = [
            {"in": player, "for": owner} for player, owner in stand_ins_of(session).items()
        ]
    return kept


def event_backup_json(event: Event) -> dict[str, Any]:
    """An event as a backup holds it: its settings, its players in check-in order and its
    version; its tables are the sessions that name it."""
    return {
        "id": event.id,
        "name": event.name,
        "date": None if event.day is None else event.day.isoformat(),
        "hands": event.hands,
        "rounds": event.rounds,
        "rules": event.rules,
        "entry": event.entry,
        "places": event.places,
        "round_top": event.round_top,
        "ties": event.ties,
        "seed": event.seed,
        "confirm": event.confirm,
        "apart": event.apart,
        "practice": event.practice,
        "version": event.version,
        "created_at": iso(event.created_at),
        "players": [
            {"name": entry.player.name, "checked_in": entry.checked_in} for entry in event.players
        ],
    }


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


@dataclass(frozen=True)
class _Checked:
    """A session of the backup, checked by the engine; with merge, as the backup gave it, to
    tell whether it is here already."""

    session_id: int
    new: bulk.NewSession
    given: dict[str, Any] | None
    # The event, round and table it is a table of, linked once the event is added.
    link: tuple[int, int, int] | None = None


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
        _check_rule_sets(self.rule_sets)
        self._trash_given = data.get("trash", [])
        if not isinstance(self._trash_given, list | Streamed):
            raise RuleError("This backup is damaged: its trash is not a list.")
        self.trash: list[dict[str, Any]] = []
        self.players = _checked_players(players)
        self.retired = _retired(players)
        self.merges = _checked_merges(data.get("merges", []), self.players)
        self.events = _checked_events(data.get("events", []), self.players)
        self.seasons = _checked_seasons(data.get("seasons", []))
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

    def check(self) -> Iterator[int]:
        """Check every session and its hands through the rules engine, yielding how many
        sessions each batch's worth checked, then the trash; a refusal raises `RuleError`.
        Nothing is written. Each batch's worth of checked sessions goes to a temporary file
        for the batches to write, so memory holds one batch however large the backup."""
        self._checked, self._largest, self._links = -1, 0, []
        self.close()
        trash: list[Any] = []
        given = _sessions_then_trash(self._given, self._trash_given, trash)
        tables = _EventTables(self.events)
        sessions = _checked_sessions(given, self.players, self.keep_ids, tables)
        checked = 0
        self._spill = tempfile.TemporaryFile()  # noqa: SIM115 (read back by the batches)
        try:
            while batch := list(islice(sessions, SESSIONS_A_BATCH)):
                for session in batch:
                    self._largest = max(self._largest, session.session_id)
                    if session.link is not None:
                        self._links.append((session.session_id, session.link))
                pickle.dump(batch, self._spill, pickle.HIGHEST_PROTOCOL)
                checked += len(batch)
                yield len(batch)
            tables.check_whole()
            self.trash = _checked_trash(trash)
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

    def _read_checked(self) -> Iterator[_Checked]:
        """The sessions `check` checked, in order, read back a batch at a time."""
        assert self._spill is not None
        self._spill.seek(0)
        while True:
            try:
                batch: list[_Checked] = pickle.load(self._spill)
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
                most_hands = HANDS_A_BATCH
                ahead = _batched(self._read_checked(), lambda: most_hands)
                for batch, last in _with_last(ahead):
                    first = start == 0
                    if not first:
                        time.sleep(_pause(took))
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
                    except Exception as error:
                        if first and not isinstance(error, SQLAlchemyError):
                            raise
                        raise self._failed(error, start) from error
                    took = time.monotonic() - began
                    most_hands = _hands_in(batch, took)
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
            events.restored_event(event.id, event.fields, event.version, event.at, players)
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

    def _add_sessions(self, batch: list[_Checked]) -> dict[int, int]:
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
                if not checked.new.practice and not _held(checked.given or {})
            ]
        added = bulk.insert_sessions([checked.new for checked in adding])
        versions = dict(zip(added, (checked.new.version for checked in adding), strict=True))
        self.restored = replace(
            self.restored,
            sessions=self.restored.sessions + len(adding),
            hands=self.restored.hands + sum(len(c.new.sheet.results) for c in adding),
            already=self.restored.already + len(batch) - len(adding),
        )
        return versions

    def _finish(self, write: writes.Write, answer: AnswerOf | None) -> None:
        rule_sets = _add_rule_sets(self.rule_sets)
        for fields, created_at in self.seasons:
            seasons.restored_season(fields, created_at)
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


def _check_rule_sets(given: list[Any]) -> None:
    for position, rule_set in enumerate(given, start=1):
        with _at(f"Rule set {position} of the backup"):
            if not isinstance(rule_set, dict) or not isinstance(rule_set.get("name"), str):
                raise RuleError("It has no name.", "name")
            rule_sets_module.rule_set_name(rule_set["name"])
            rule_sets_module.rules_json(rule_set.get("rules"))
            _created_at(rule_set.get("created_at"))


@dataclass(frozen=True)
class _Event:
    id: int
    fields: events.EventFields
    version: int
    at: datetime
    players: list[tuple[str, bool]]


def _checked_events(given: Any, players: dict[int, str]) -> list[_Event]:
    """The backup's events, their settings checked as the API checks a new event's, each
    player of the backup's players listed once."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its events are not a list.")
    keys = {rules.name_key(name) for name in players.values()}
    checked: dict[int, _Event] = {}
    for position, event in enumerate(given, start=1):
        with _at(f"Event {position} of the backup"):
            if not isinstance(event, dict) or not isinstance(event.get("players"), list):
                raise RuleError("An event has its settings and a list of its players.")
            event_id = _record_id(event.get("id"))
            if event_id in checked:
                raise RuleError(f"The id {event_id} is given to two events.", "id")
            entrants: list[tuple[str, bool]] = []
            listed: set[str] = set()
            for entrant in event["players"]:
                if (
                    not isinstance(entrant, dict)
                    or set(entrant) != {"name", "checked_in"}
                    or not isinstance(entrant["checked_in"], bool)
                    or not isinstance(entrant["name"], str)
                    or rules.name_key(entrant["name"]) not in keys
                ):
                    raise RuleError(
                        "Its players each have a name among the backup's players and "
                        "whether they are checked in.",
                        "players",
                    )
                key = rules.name_key(entrant["name"])
                if key in listed:
                    raise RuleError(
                        f"{entrant['name'].strip()} is listed twice among its players.",
                        "players",
                    )
                listed.add(key)
                entrants.append((entrant["name"], entrant["checked_in"]))
            fields = event_request(event)
            events.check_settings(fields)
            checked[event_id] = _Event(
                id=event_id,
                fields=fields,
                version=_version(event.get("version", 1)),
                at=_created_at(event.get("created_at")),
                players=entrants,
            )
    return list(checked.values())


class _EventTables:
    """The tables of the backup's events, as its sessions claim them: each a table of an event
    the backup holds, in a round the event plays, and no two the same table; once every
    session is through (`check_whole`), each event's rounds drawn are 1, 2, ... and each
    round's tables 1, 2, ..., none missing, as draws make them. Only the claims are kept: an
    event, round and table with the session that claimed it."""

    def __init__(self, events: list[_Event]) -> None:
        self._events = {event.id: event for event in events}
        self._claimed: dict[tuple[int, int, int], int] = {}

    def practice(self, event_id: int) -> bool:
        """Whether the event is a practice event (a table claimed it already)."""
        return bool(self._events[event_id].fields.practice)

    def claim(self, session_id: int, link: tuple[int, int, int]) -> None:
        event_id, round_number, table = link
        event = self._events.get(event_id)
        if event is None:
            raise RuleError(
                f"Session {session_id} is a table of event {event_id}, which is not among the "
                "backup's events."
            )
        rounds = event.fields.rounds or 0
        if rounds and round_number > rounds:
            raise RuleError(
                f"Session {session_id} is a table of round {round_number} of event "
                f"{event_id}, which plays {plural(rounds, 'round')}."
            )
        other = self._claimed.setdefault(link, session_id)
        if other != session_id:
            raise RuleError(
                f"Session {other} and session {session_id} are both round {round_number}, "
                f"table {table} of event {event_id}."
            )

    def check_whole(self) -> None:
        rounds: dict[int, set[int]] = {}
        tables: dict[tuple[int, int], set[int]] = {}
        for event_id, round_number, table in self._claimed:
            rounds.setdefault(event_id, set()).add(round_number)
            tables.setdefault((event_id, round_number), set()).add(table)
        for event_id, drawn in sorted(rounds.items()):
            missing = _first_missing(drawn)
            if missing is not None:
                raise RuleError(
                    f"Event {event_id} has tables in round {max(drawn)} but none in round "
                    f"{missing}."
                )
            # The prizes of an event of as many rounds as are drawn are checked for those drawn.
            with _at(f"Event {event_id}"):
                events.check_settings(self._events[event_id].fields, max(drawn))
        for (event_id, round_number), held in sorted(tables.items()):
            missing = _first_missing(held)
            if missing is not None:
                raise RuleError(
                    f"Round {round_number} of event {event_id} has table {max(held)} but no "
                    f"table {missing}."
                )


def _first_missing(numbers: set[int]) -> int | None:
    """The first of 1, 2, ... up to the largest of `numbers` that they leave out."""
    if len(numbers) == max(numbers):
        return None
    return min(set(range(1, max(numbers))) - numbers)


def _checked_merges(given: Any, players: dict[int, str]) -> list[dict[str, Any]]:
    """The backup's merges that can be undone, as the columns of `PlayerMerge` rows: each of a
    player no longer among the backup's players into another, who is among them or was merged
    into another later, and none dated in the future."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its merges are not a list.")
    merges: list[dict[str, Any]] = []
    ids: set[int] = set()
    # The merge of each player merged away.
    later: dict[int, int] = {}
    for position, merge in enumerate(given, start=1):
        with _at(f"Merge {position} of the backup"):
            keys = {"id", "at", "player", "name", "active", "into", "sessions", "trashed"}
            if not isinstance(merge, dict) or set(merge) != keys:
                raise RuleError(f"A merge has {_or(sorted(keys)).replace(' or ', ' and ')}.")
            if not isinstance(merge["active"], bool):
                raise RuleError("Its active flag must be true or false.", "active")
            for key in ("sessions", "trashed"):
                if not isinstance(merge[key], list):
                    raise RuleError(f"Its {key} must be a list of ids.", key)
            merges.append(
                {
                    "id": _record_id(merge["id"]),
                    "at": _moment(merge["at"], "at"),
                    "player_id": _record_id(merge["player"]),
                    "name": rules.player_name(merge["name"], "name"),
                    "active": merge["active"],
                    "into_id": _record_id(merge["into"]),
                    "sessions": [_record_id(i) for i in merge["sessions"]],
                    "trashed": [_record_id(i) for i in merge["trashed"]],
                }
            )
            _check_merge(merges[-1], ids, later, players)
            ids.add(merges[-1]["id"])
            later[merges[-1]["player_id"]] = merges[-1]["id"]
    # Merged into a player merged later, a merge's other player is no longer listed.
    for position, merge in enumerate(merges, start=1):
        into = merge["into_id"]
        if into not in players and later.get(into, 0) <= merge["id"]:
            with _at(f"Merge {position} of the backup"):
                raise RuleError(
                    f"It merges {merge['name']} into player {into}, who is neither among the "
                    "backup's players nor merged into another by a later merge.",
                    "into",
                )
    return merges


# How far ahead of this server's clock the one a backup was made by may be.
CLOCKS_APART = timedelta(days=1)


def _check_merge(
    merge: dict[str, Any], ids: set[int], merged: dict[int, int], players: dict[int, str]
) -> None:
    """A merge against the backup's players and the merges before it: their `ids`, and the
    players they `merged` away."""
    player = merge["player_id"]
    if merge["id"] in ids:
        raise RuleError(f"The id {merge['id']} is given to two merges.", "id")
    if merge["into_id"] == player:
        raise RuleError(f"It merges player {player} into themselves.", "into")
    if player in players:
        raise RuleError(
            f"It merges player {player} away, but {players[player]} is still among the backup's "
            f"players as player {player}.",
            "player",
        )
    if player in merged:
        raise RuleError(f"Player {player} is merged away by two merges.", "player")
    if merge["at"] > datetime.now(UTC) + CLOCKS_APART:
        raise RuleError(f"It is dated {iso(merge['at'])}, in the future.", "at")


def _checked_seasons(given: Any) -> list[tuple[seasons.SeasonFields, datetime]]:
    """The backup's seasons, checked as the API checks a new one; a backup made before seasons
    were kept has none. One whose name is here already is not added."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its seasons are not a list.")
    checked = []
    for position, season in enumerate(given, start=1):
        with _at(f"Season {position} of the backup"):
            if not isinstance(season, dict):
                raise RuleError("A season has its name, days, house rules and fewest hands.")
            fields = season_request(season)
            seasons.checked(fields)
            checked.append((fields, _created_at(season.get("created_at"))))
    return checked


def _add_rule_sets(given: list[Any]) -> int:
    """Add the backup's rule sets whose names are not here yet; return how many."""
    return sum(
        rule_sets_module.add(
            rule_set["name"], rule_set.get("rules"), _created_at(rule_set.get("created_at"))
        )
        for rule_set in given
    )


@contextmanager
def _at(where: str) -> Iterator[None]:
    """Say where in the backup a refusal comes from: "Session 3, hand 7: ..."."""
    try:
        yield
    except RuleError as error:
        raise RuleError(f"{where}: {error.message}", error.field) from None


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


def _record_id(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_KEPT:
        raise RuleError(f"Its id must be a whole number from 1 to {MAX_KEPT}.", "id")
    return value


def _checked_players(players: list[Any]) -> dict[int, str]:
    """The backup's players, checked: their names by their ids."""
    keys: set[str] = set()
    checked: dict[int, str] = {}
    for position, player in enumerate(players, start=1):
        with _at(f"Player {position} of the backup"):
            if not isinstance(player, dict) or not isinstance(player.get("name"), str):
                raise RuleError("It has no name.", "name")
            name = rules.player_name(player["name"], "name")
            player_id = _record_id(player.get("id"))
            if rules.name_key(name) in keys:
                raise RuleError(f"{name} is listed twice.", "name")
            if player_id in checked:
                raise RuleError(f"The id {player_id} is given to two players.", "id")
        keys.add(rules.name_key(name))
        checked[player_id] = name
    return checked


def _retired(players: list[Any]) -> set[int]:
    """The ids of the backup's retired players (`"active": false`; a backup made before players
    could retire has every player active)."""
    retired = set()
    for position, player in enumerate(players, start=1):
        active = player.get("active", True)
        if not isinstance(active, bool):
            with _at(f"Player {position} of the backup"):
                raise RuleError("Its active flag must be true or false.", "active")
        if not active:
            retired.add(_record_id(player.get("id")))
    return retired


def _sessions_then_trash(
    sessions: Iterable[Any], trash: Iterable[Any], kept: list[Any]
) -> Iterator[Any]:
    """The backup's sessions, one at a time, and once they are through, its trash in `kept`: of
    a backup's file, read along with them in one walk through it."""
    if (
        isinstance(sessions, Streamed)
        and isinstance(trash, Streamed)
        and sessions.file is trash.file
    ):
        for streamed, item in sessions.file.items(sessions, trash):
            if streamed is sessions:
                yield item
            else:
                kept.append(item)
        return
    yield from sessions
    kept.extend(trash)


def _checked_sessions(
    sessions: Iterable[Any], players: dict[int, str], keep_ids: bool, tables: _EventTables
) -> Iterator[_Checked]:
    """Each session of the backup with its hands, checked by the engine, in turn."""
    keys = {rules.name_key(name) for name in players.values()}
    ids: set[int] = set()
    for position, given in enumerate(sessions, start=1):
        with _at(f"Session {position} of the backup"):
            if not isinstance(given, dict):
                raise RuleError("It is not a JSON object.")
            session_id = _record_id(given.get("id"))
        with _at(f"Session {session_id}"):
            if session_id in ids:
                raise RuleError(f"The id {session_id} is given to two sessions.", "id")
            ids.add(session_id)
            for name in given.get("players") or ():
                if isinstance(name, str) and rules.name_key(name) not in keys:
                    raise RuleError(
                        f"{name} is seated but not among the backup's players.", "players"
                    )
            for substitute in given.get("substitutes") or ():
                named = substitute.values() if isinstance(substitute, dict) else ()
                for name in named:
                    if isinstance(name, str) and rules.name_key(name) not in keys:
                        raise RuleError(
                            f"{name} sits in at the table but is not among the backup's players.",
                            "substitutes",
                        )
        new = checked_session(given, session_id if keep_ids else None, f"Session {session_id}")
        if new.event is not None:
            tables.claim(session_id, new.event)
            new = replace(new, practice=tables.practice(new.event[0]))
        # A table's link to its event is made once the event is added, with the last batch;
        # merged into sessions here, the backup's events are not added, its tables kept alone.
        link = new.event if keep_ids else None
        kept = replace(new, event=None)
        if not keep_ids:
            kept = replace(kept, director=None, stand_ins={})
        yield _Checked(session_id, kept, None if keep_ids else given, link)


def add_session(given: dict[str, Any], session_id: int | None, where: str) -> Session:
    """A session as a backup holds it, with its hands, checked and added (see
    `checked_session`)."""
    [added] = bulk.insert_sessions([checked_session(given, session_id, where)])
    return loading.session_or_404(added)


# What a backup's session holds besides a session's input.
TABLE_KEYS = ("paid", "changes", "event", "director", "substitutes")


def checked_session(given: dict[str, Any], session_id: int | None, where: str) -> bulk.NewSession:
    """A session as a backup holds it, with its hands, each checked again by the rules engine;
    refusals say `where` they come from."""
    if given.get("totals_only", False) is not False:
        return _checked_night(given, session_id, where)
    with _at(where):
        recorded = given.get("hands")
        if not isinstance(recorded, list):
            raise RuleError("It has no list of hands.", "hands")
        ended = given.get("ended", False)
        if not isinstance(ended, bool):
            raise RuleError("Its ended must be true or false.", "ended")
        request = session_request({k: v for k, v in given.items() if k not in TABLE_KEYS})
        event = _event_link(given.get("event"))
        table = rules.new_table(
            list(request.players), request.rounds, request.first_dealer, request.options
        )
        name = rules.session_name(request.name)
        created_at = _created_at(given.get("created_at"))
        version = _version(given.get("version", 1))
    hands: list[rules.Hand] = []
    for number, hand in enumerate(recorded, start=1):
        with _at(f"{where}, hand {number}"):
            hands.append(_checked_hand(table, hands, hand))
    sheet = rules.score_sheet(replace(table, ended=ended), hands)
    confirmed = []
    for number, (hand, result) in enumerate(zip(recorded, sheet.results, strict=True), start=1):
        with _at(f"{where}, hand {number}"):
            confirmed.append(_confirmer(hand.get("confirmed_by"), result, number))
    with _at(where):
        settled = _settled(given.get("paid", []), sheet)
        director = _director(given.get("director"))
        stand_ins = _stand_ins(given.get("substitutes", []))
        if event is None and (director is not None or stand_ins):
            raise RuleError("Only a table of an event calls the director or has substitutes.")
    return bulk.NewSession(
        name=name,
        created_at=created_at,
        version=version,
        sheet=sheet,
        session_id=session_id,
        settled=settled,
        changes=_checked_changes(given.get("changes", []), where),
        event=event,
        confirmed=confirmed if any(confirmed) else (),
        director=director,
        stand_ins=stand_ins,
    )


def _confirmer(given: Any, result: rules.HandResult, number: int) -> str | None:
    """Who confirmed a backup's hand: a player of the side that did not pick, or None."""
    if given is None:
        return None
    if not isinstance(given, str):
        raise RuleError("Its confirmed_by must be a player's name or null.", "confirmed_by")
    return rules.check_confirmer(result, number, given)


def _director(given: Any) -> tuple[datetime, str] | None:
    """A table's open call for the director as a backup keeps it (`{"note", "at"}`), or None."""
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) != {"note", "at"}:
        raise RuleError("Its call for the director has a note and a time.", "director")
    if not isinstance(given["note"], str):
        raise RuleError("Its call for the director's note must be text.", "director")
    return _moment(given["at"], "director"), rules.check_note(given["note"])


def _stand_ins(given: Any) -> dict[str, str]:
    """Who stands in at a table for whom, as a backup keeps it (`[{"in", "for"}]`)."""
    if not isinstance(given, list):
        raise RuleError("Its substitutes must be a list.", "substitutes")
    stand_ins: dict[str, str] = {}
    for substitute in given:
        if (
            not isinstance(substitute, dict)
            or set(substitute) != {"in", "for"}
            or not all(isinstance(name, str) for name in substitute.values())
        ):
            raise RuleError("A substitute has the names in and for, and nothing else.")
        player = rules.player_name(substitute["in"], "substitutes")
        owner = rules.player_name(substitute["for"], "substitutes")
        if rules.name_key(player) == rules.name_key(owner) or player in stand_ins:
            raise RuleError(
                f"{player} sits in for another player once, not for themselves.", "substitutes"
            )
        stand_ins[player] = owner
    return stand_ins


def _checked_night(given: dict[str, Any], session_id: int | None, where: str) -> bulk.NewSession:
    """A night kept without hands as a backup holds it: its nets checked as `POST
    /api/sessions` checks them, and no hands."""
    with _at(where):
        if given["totals_only"] is not True:
            raise RuleError("Its totals_only must be true or false.", "totals_only")
        if given.get("hands", []) != []:
            raise RuleError("A night kept without hands has no hands.", "hands")
        nets = rules.check_night(given.get("totals"))
        players = given.get("players")
        if players is not None and players != list(nets):
            raise RuleError("Its players are the players of its totals, in order.", "players")
        if given.get("event") is not None or given.get("paid", []) != []:
            raise RuleError("A night kept without hands is no event's table and pays nobody early.")
        return bulk.NewSession(
            name=rules.session_name(_text_or_empty(given.get("name"))),
            created_at=_created_at(given.get("created_at")),
            version=_version(given.get("version", 1)),
            sheet=rules.night_sheet(nets),
            session_id=session_id,
            changes=_checked_changes(given.get("changes", []), where),
        )


def _text_or_empty(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RuleError("Its name must be text.", "name")
    return value


def _event_link(given: Any) -> tuple[int, int, int] | None:
    """The event, round and table a session is a table of; None for a session of its own."""
    if given is None:
        return None
    keys = ("id", "round", "table")
    if not isinstance(given, dict) or set(given) != set(keys):
        raise RuleError("Its event names the event's id, the round and the table.", "event")
    for key in keys:
        if not _is_whole(given[key]):
            raise RuleError(
                f"Its event's {key} must be a whole number from 1 to {MAX_KEPT}.", "event"
            )
    return given["id"], given["round"], given["table"]


def _checked_trash(given: Iterable[Any]) -> list[dict[str, Any]]:
    """The backup's trash, each deleted session checked as a restore from the trash will add
    it, as the rows of the trash here; those deleted too long ago to be kept are left out."""
    entries: list[dict[str, Any]] = []
    for position, entry in enumerate(given, start=1):
        with _at(f"Trashed session {position} of the backup"):
            if not isinstance(entry, dict) or set(entry) != {
                "id",
                "deleted_at",
                "session",
                "version",
                "changes",
            }:
                raise RuleError(
                    "A trashed session has an id, deleted_at, session, version and changes, "
                    "and nothing else."
                )
            session_id = _record_id(entry["id"])
            if session_id in (e["session_id"] for e in entries):
                raise RuleError(f"The id {session_id} is given to two trashed sessions.", "id")
            deleted_at = _moment(entry["deleted_at"], "deleted_at")
            _version(entry["version"])
            if not isinstance(entry["session"], dict):
                raise RuleError("Its session is not a JSON object.", "session")
        where = f"Trashed session {session_id}"
        new = checked_session(entry["session"], None, where)
        if new.event is not None:
            event, round_number, table = new.event
            with _at(where):
                raise RuleError(
                    f"It is table {table} of round {round_number} of event {event}, but a "
                    "table of an event is never deleted.",
                    "event",
                )
        _checked_changes(entry["changes"], where)
        if deleted_at >= TrashedSession.kept_since():
            data = {key: entry[key] for key in ("session", "version", "changes")}
            entries.append({"session_id": session_id, "deleted_at": deleted_at, "data": data})
    return entries


def _checked_changes(given: Any, where: str) -> list[dict[str, Any]]:
    """A session's changes as a backup holds them (`change_json`, oldest first), checked so that
    its Changes page can tell each change and an Undo can read it: as the columns of `Change`
    rows. Undo checks a hand it brings back with the rules, as it does every hand."""
    with _at(where):
        if not isinstance(given, list):
            raise RuleError("Its changes must be a list.", "changes")
    changes = []
    for position, change in enumerate(given, start=1):
        with _at(f"{where}, change {position}"):
            changes.append(_checked_change(change))
    return changes


def _checked_change(change: Any) -> dict[str, Any]:
    if not isinstance(change, dict) or set(change) != {"at", "action", "number", "before", "after"}:
        raise RuleError("A change has an at, action, number, before and after, and nothing else.")
    at = _moment(change["at"], "at")
    action, number, before, after = (change[key] for key in ("action", "number", "before", "after"))
    if number is None:
        if action in PLAYER_ACTIONS:
            _check_player_change(before, after)
            return {"at": at, "action": action, "number": None, "before": before, "after": after}
        if action not in writes.SESSION_ACTIONS:
            actions = (*writes.SESSION_ACTIONS, *PLAYER_ACTIONS)
            raise RuleError(f"Its action must be {_or(actions)}.", "action")
        if action in writes.NOT_UNDONE:
            _check_table_change(action, before, after)
        else:
            _check_session_change(before, after)
    else:
        if not _is_whole(number):
            raise RuleError(f"Its number must be a whole number from 1 to {MAX_KEPT}.", "number")
        if action not in writes.HAND_ACTIONS:
            raise RuleError(f"Its action must be {_or(writes.HAND_ACTIONS)}.", "action")
        if before is None and after is None:
            raise RuleError("A change to a hand has the hand before it or after it.", "before")
        for key, hand in (("before", before), ("after", after)):
            if hand is not None:
                with _at(f"The hand {key} it"):
                    _check_hand_json(hand, number)
    return {"at": at, "action": action, "number": number, "before": before, "after": after}


def _check_player_change(before: Any, after: Any) -> None:
    """A player renamed, merged into another or merged back: both sides `{"name": ...}`."""
    for side in (before, after):
        if not isinstance(side, dict) or set(side) != {"name"} or not isinstance(side["name"], str):
            raise RuleError('A change to a player has {"name": ...} before and after it.', "before")
        rules.player_name(side["name"], "before")


def _check_table_change(action: str, before: Any, after: Any) -> None:
    """A change to a table of an event: the director called (the call after it) or answered
    (the call before it), or a substitute seated (`{"out", "in", "for"}` after it)."""
    if action == "substitute":
        if (
            before is not None
            or not isinstance(after, dict)
            or set(after) != {"out", "in", "for"}
            or not all(isinstance(name, str) for name in after.values())
        ):
            raise RuleError('A substitute seated has {"out", "in", "for"} after it.', "after")
        return
    call, other = (after, before) if action == "call-director" else (before, after)
    if other is not None or _director(call) is None:
        raise RuleError("A call for the director has the call on one side and null on the other.")


def _check_session_change(before: Any, after: Any) -> None:
    """A change to the session itself: ended or reopened, both sides `{"ended": ...}`; a night
    kept without hands changed, both sides `{"name", "created_at", "totals"}`; or a player
    settled early or taken back, one side the settlement, the other null."""
    if any(isinstance(side, dict) and "totals" in side for side in (before, after)):
        for side in (before, after):
            if not isinstance(side, dict) or set(side) != {"name", "created_at", "totals"}:
                raise RuleError(
                    'A change to a night has {"name", "created_at", "totals"} before and after it.',
                    "before",
                )
            rules.session_name(_text_or_empty(side["name"]))
            _moment(side["created_at"], "before")
            rules.check_night(side["totals"], "before")
        return
    if any(isinstance(side, dict) and "ended" in side for side in (before, after)):
        for side in (before, after):
            if (
                not isinstance(side, dict)
                or set(side) != {"ended"}
                or not isinstance(side["ended"], bool)
            ):
                raise RuleError('Ending a session changes {"ended": true or false}.', "before")
        return
    if (before is None) == (after is None):
        raise RuleError("Settling a player early has the settlement before it or after it.")
    settlement = before if after is None else after
    if (
        not isinstance(settlement, dict)
        or set(settlement) != {"player", "payments"}
        or not isinstance(settlement["player"], str)
        or not isinstance(settlement["payments"], list)
    ):
        raise RuleError("A settlement has a player and a list of payments, and nothing else.")
    leaver = settlement["player"]
    for payment in settlement["payments"]:
        if not isinstance(payment, dict) or set(payment) != {"from", "to", "amount"}:
            raise RuleError("A payment has a from, to and amount, and nothing else.")
        _amount(payment["amount"])
        sides = (payment["from"], payment["to"])
        if not all(isinstance(side, str) for side in sides) or leaver not in sides:
            raise RuleError(f"A payment of {leaver}'s settlement runs between them and another.")


def _settled(paid: Any, sheet: rules.Sheet) -> dict[str, tuple[rules.Payment, ...]]:
    """A backup's early payments (`paid`), by the player each settled, checked against the
    session: players it names, the leaver paying or paid, and only with a stake."""
    if not isinstance(paid, list):
        raise RuleError("Its paid must be a list of payments.", "paid")
    if paid and not sheet.table.options.stake:
        raise RuleError("It has payments made early but no stake.", "paid")
    named = {rules.name_key(name): name for name in sheet.named}
    settled: dict[str, tuple[rules.Payment, ...]] = {}
    for given in paid:
        if not isinstance(given, dict) or set(given) != {"player", "from", "to", "amount"}:
            raise RuleError(
                "A payment made early has a player, from, to and amount, and nothing else.",
                "paid",
            )
        leaver, payer, payee = (
            named.get(rules.name_key(given[key])) if isinstance(given[key], str) else None
            for key in ("player", "from", "to")
        )
        amount = given["amount"]
        if leaver is None or payer is None or payee is None:
            raise RuleError("A payment made early names a player not of the session.", "paid")
        if leaver not in (payer, payee) or payer == payee:
            raise RuleError(
                "A payment made early runs between the player it settled and another.", "paid"
            )
        _amount(amount)
        settled[leaver] = (*settled.get(leaver, ()), rules.Payment(payer, payee, amount))
    return settled


def _amount(value: Any) -> int:
    if not _is_whole(value):
        raise RuleError(
            f"A payment made early is a whole number of cents from 1 to {MAX_KEPT}.", "paid"
        )
    return int(value)


def _is_whole(value: Any) -> bool:
    """A whole number from 1 to MAX_KEPT."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_KEPT


def _is_score(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_KEPT


def _or(words: Sequence[str]) -> str:
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def _version(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_KEPT:
        raise RuleError(f"Its version must be a whole number from 0 to {MAX_KEPT}.", "version")
    return value


def _held(given: dict[str, Any]) -> bool:
    """Whether a session with the same start time, name, table and hands is here already."""
    try:
        started = _created_at(given.get("created_at"))
    except RuleError:
        return False
    name = given.get("name")
    if not isinstance(name, str):
        return False
    alike = db.session.scalars(
        select(Session)
        .where(Session.created_at == started, Session.name == name)
        .options(*loading.WHOLE_SESSION)
    )
    wanted = _comparable(given)
    return any(_comparable(session_backup_json(session)) == wanted for session in alike)


def _comparable(session: dict[str, Any]) -> str:
    # A backup from before sessions could end or settle a leaver has neither key. A session's
    # changes are how it came to be as it is, not part of what it is.
    given = {"ended": False, "paid": []} | session
    return json.dumps(
        {k: v for k, v in given.items() if k not in ("id", "version", "changes")}, sort_keys=True
    )


def _created_at(value: Any) -> datetime:
    return _moment(value, "created_at")


def _moment(value: Any, field: str) -> datetime:
    """An ISO 8601 time, in UTC; one without a time zone is UTC, as every stored time is."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleError(
            f"Its {field} must be a date and time in ISO 8601, such as 2024-03-01T19:30:00+00:00.",
            field,
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        raise RuleError(
            f"Its {field} must be a time from the year {EARLIEST.year} to the year "
            f"{LATEST.year - 1}.",
            field,
        )
    return utc


def _checked_hand(table: rules.Table, before: list[rules.Hand], hand: Any) -> rules.Hand:
    """A backup's hand checked by the rules as the next after `before`."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    recorded = hand_request(hand)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    last = before[-1] if before else None
    return rules.next_hand(
        table, len(before), last, recorded.entry, recorded.dealer, recorded.seats
    )


# The parts of a hand's JSON (`hand_json`) that were derived, not recorded, each with the check
# its value passes; those named in `LATER_PARTS` are missing from hands kept before they were.
DERIVED_PARTS: dict[str, Callable[[Any], bool]] = {
    "number": _is_whole,
    "multiplier": _is_whole,
    "doubled": lambda value: isinstance(value, bool),
    "bumped": lambda value: isinstance(value, bool),
    "players": _is_names,
    "seats": _is_names,
    "sitting_out": _is_names,
    "scores": lambda value: isinstance(value, dict) and all(map(_is_score, value.values())),
    "confirmed_by": lambda value: value is None or isinstance(value, str),
}
LATER_PARTS = ("bumped", "players", "seats", "sitting_out", "confirmed_by")


def _check_hand_json(hand: Any, number: int) -> None:
    """A hand as a session's changes keep it (`hand_json`): what was recorded, as the API takes a
    hand, and what was derived from it, each of its kind."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    recorded = hand_request(hand)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    rules.kind_of(recorded.entry.kind)
    for blitz in recorded.entry.blitzes:
        choice(rules.Blitz, blitz, "A blitz", "blitzes")
    if recorded.entry.result is not None:
        choice(rules.Result, recorded.entry.result, "The result", "result")
    for key, holds in DERIVED_PARTS.items():
        if key not in hand and key in LATER_PARTS:
            continue
        if key not in hand or not holds(hand[key]):
            raise RuleError(f"Its {key} is missing or not what a hand holds.", key)
    if hand["number"] != number:
        raise RuleError(f"It is numbered {hand['number']}, not {number}.", "number")


def _batched(
    sessions: Iterable[_Checked], most_hands: Callable[[], int]
) -> Iterator[list[_Checked]]:
    """The sessions a batch at a time: SESSIONS_A_BATCH of them, or fewer holding at most
    `most_hands()` hands (a session of more is a batch of its own); one empty batch for none."""
    batch: list[_Checked] = []
    hands = 0
    for session in sessions:
        count = len(session.new.sheet.results)
        if batch and (len(batch) == SESSIONS_A_BATCH or hands + count > most_hands()):
            yield batch
            batch, hands = [], 0
        batch.append(session)
        hands += count
    yield batch


def _with_last(batches: Iterator[list[_Checked]]) -> Iterator[tuple[list[_Checked], bool]]:
    """Each batch, and whether it is the last."""
    held = next(batches)
    for batch in batches:
        yield held, False
        held = batch
    yield held, True


def _hands_in(batch: list[_Checked], took: float) -> int:
    """The most hands a batch holds after `batch`, which took `took` seconds (see
    BATCH_SECONDS)."""
    hands = sum(len(session.new.sheet.results) for session in batch)
    if hands == 0 or took <= 0:
        return HANDS_A_BATCH
    return max(1, min(HANDS_A_BATCH, int(hands * BATCH_SECONDS / took)))


def _pause(took: float) -> float:
    """The pause after a batch that took `took` seconds (see PAUSE_BETWEEN_BATCHES)."""
    return min(max(PAUSE_BETWEEN_BATCHES, PAUSE_SHARE_OF_A_BATCH * took), LONGEST_PAUSE)
