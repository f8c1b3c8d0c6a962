"""Everything in the database as one JSON file, and back.

A backup holds the players, every session with its rules, seats and hands as they were
recorded, and the named rule sets. Restoring replays each hand through the store, so the rules
engine checks it again and the stored scores are derived afresh; nothing derived is read from
the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, text

from . import rule_sets as rule_sets_module
from . import rules, store
from .api.parse import hand_request, session_request
from .extensions import db
from .json_format import hand_input_json, iso, options_json
from .models import Player, RuleSet, Session
from .rules import RuleError

FORMAT = "sheepshead-scorekeeper-backup"
VERSION = 1
CONFLICT = (
    "Someone changed the scorekeeper while the backup was being restored, so nothing was "
    "restored. Try again."
)


# Sessions inserted together by a restore: each batch is a few statements.
SESSIONS_A_BATCH = 100


@dataclass
class Written:
    """What a backup being written holds so far."""

    sessions: int = 0
    hands: int = 0
    players: int = 0
    rule_sets: int = 0

    def __str__(self) -> str:
        sessions = f"{_plural(self.sessions, 'session')} with {_plural(self.hands, 'hand')}"
        players = _plural(self.players, "player")
        if self.rule_sets:
            return f"{sessions}, {players}, and {_plural(self.rule_sets, 'rule set')}"
        return f"{sessions}, and {players}"


def backup_text(written: Written | None = None) -> Iterator[str]:
    """The backup as JSON text, written as it is read: a session per line, a few sessions in
    memory at a time. `written` counts what it holds as it goes."""
    written = written if written is not None else Written()
    players = [
        {"id": player.id, "name": player.name}
        for player in db.session.scalars(select(Player).order_by(Player.id))
    ]
    written.players = len(players)
    head = {"format": FORMAT, "version": VERSION, "exported_at": iso(datetime.now(UTC))}
    yield _dumps(head)[:-1] + ',\n"players": ' + _dumps(players) + ',\n"sessions": ['
    for session in store.every_session(Session.id):
        comma = "," if written.sessions else ""
        yield f"{comma}\n{_dumps(session_backup_json(session))}"
        written.sessions += 1
        written.hands += len(session.hands)
    rule_sets = [
        rule_sets_module.backup_json(rule_set)
        for rule_set in db.session.scalars(select(RuleSet).order_by(RuleSet.id))
    ]
    written.rule_sets = len(rule_sets)
    yield '\n],\n"rule_sets": ' + _dumps(rule_sets) + "}\n"


def export_backup() -> dict[str, Any]:
    """The backup as the JSON object a reader gets."""
    result: dict[str, Any] = json.loads("".join(backup_text()))
    return result


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def session_backup_json(session: Session) -> dict[str, Any]:
    table = store.table_of(session)
    return {
        "id": session.id,
        "name": session.name,
        "created_at": iso(session.created_at),
        "players": list(table.seats),
        "rounds": table.rounds,
        "version": session.version,
        "first_dealer": table.first_dealer,
        "rules": options_json(table.options),
        "hands": [hand_input_json(store.hand_of(row)) for row in session.hands],
    }


def read_backup(raw: bytes | str) -> Any:
    """The JSON of a backup file, or a refusal saying why it can't be read."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise RuleError(
            f"This file is damaged or not a backup: it is not valid JSON "
            f"(line {error.lineno}, column {error.colno}: {error.msg})."
        ) from None
    except (UnicodeDecodeError, RecursionError):
        raise RuleError("This file is damaged or not a backup: it is not JSON text.") from None


@dataclass(frozen=True)
class Restored:
    sessions: int
    hands: int
    players: int
    already: int = 0
    rule_sets: int = 0

    def __str__(self) -> str:
        sessions = f"{_plural(self.sessions, 'session')} with {_plural(self.hands, 'hand')}"
        players = _plural(self.players, "new player")
        if self.rule_sets:
            restored = f"{sessions}, {players}, and {_plural(self.rule_sets, 'rule set')}"
        else:
            restored = f"{sessions}, and {players}"
        if self.already:
            held = "was" if self.already == 1 else "were"
            restored += f" ({_plural(self.already, 'session')} {held} here already)"
        return restored


def import_backup(
    data: Any, merge: bool = False, progress: Callable[[int], object] = lambda done: None
) -> Restored:
    """Load a backup, inside a roster write (`writes.roster_write`), or refuse it; the write
    then commits all of it or nothing.

    Into an empty database, ids and creation times are kept, so every session reads exactly as
    it did. With `merge`, a database that already holds sessions takes the backup's sessions as
    new ones, and its players are matched by name, case ignored; a session that is already here
    (the same start time and the same hands) is not added again. Rule sets are matched by name
    either way: one whose name is here already is not added. A backup made before rule sets
    were kept has none. `progress` is told of each session of the backup as it is dealt with.
    """
    players, sessions = _contents(data)
    given_rule_sets = data.get("rule_sets", [])
    if not isinstance(given_rule_sets, list):
        raise RuleError("This backup is damaged: its rule sets are not a list.")
    held_sessions, held_players = _counts()
    if (held_sessions or held_players) and not merge:
        raise RuleError(
            f"This scorekeeper already holds {_plural(held_sessions, 'session')} and "
            f"{_plural(held_players, 'player')}. Restore a backup into an empty one, "
            "or merge it into what is here."
        )
    keep_ids = not (held_sessions or held_players)
    player_keys = _add_players(players, keep_ids)
    added, hands = _add_sessions(sessions, player_keys, keep_ids, progress)
    if keep_ids:
        _move_sequences_past_ids()
    new_players = _counts()[1] - held_players
    return Restored(
        sessions=added,
        hands=hands,
        players=new_players,
        already=len(sessions) - added,
        rule_sets=_add_rule_sets(given_rule_sets),
    )


def _add_rule_sets(given: list[Any]) -> int:
    """Add the backup's rule sets whose names are not here yet; return how many."""
    added = 0
    for position, rule_set in enumerate(given, start=1):
        with _at(f"Rule set {position} of the backup"):
            if not isinstance(rule_set, dict) or not isinstance(rule_set.get("name"), str):
                raise RuleError("It has no name.", "name")
            created_at = _created_at(rule_set.get("created_at"))
            added += rule_sets_module.add(rule_set["name"], rule_set.get("rules"), created_at)
    return added


@contextmanager
def _at(where: str) -> Iterator[None]:
    """Say where in the backup a refusal comes from: "Session 3, hand 7: ..."."""
    try:
        yield
    except RuleError as error:
        raise RuleError(f"{where}: {error.message}", error.field) from None


def _contents(data: Any) -> tuple[list[Any], list[Any]]:
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
    if not isinstance(players, list) or not isinstance(sessions, list):
        raise RuleError("This backup is damaged: it needs a list of players and of sessions.")
    return players, sessions


def _counts() -> tuple[int, int]:
    return (
        db.session.scalar(select(func.count(Session.id))) or 0,
        db.session.scalar(select(func.count(Player.id))) or 0,
    )


def _record_id(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= store.MAX_ID:
        raise RuleError(f"Its id must be a whole number from 1 to {store.MAX_ID}.", "id")
    return value


def _add_players(players: list[Any], keep_ids: bool) -> set[str]:
    """Add the backup's players, or find them by name; return their names' keys."""
    keys: set[str] = set()
    ids: set[int] = set()
    names: list[str] = []
    for position, player in enumerate(players, start=1):
        with _at(f"Player {position} of the backup"):
            if not isinstance(player, dict) or not isinstance(player.get("name"), str):
                raise RuleError("It has no name.", "name")
            name = rules.player_name(player["name"], "name")
            player_id = _record_id(player.get("id"))
            if rules.name_key(name) in keys:
                raise RuleError(f"{name} is listed twice.", "name")
            if player_id in ids:
                raise RuleError(f"The id {player_id} is given to two players.", "id")
        keys.add(rules.name_key(name))
        ids.add(player_id)
        names.append(name)
        if keep_ids:
            db.session.add(Player(id=player_id, name=name, name_key=rules.name_key(name)))
    store.players_named(names)
    return keys


def _add_sessions(
    sessions: list[Any], players: set[str], keep_ids: bool, progress: Callable[[int], object]
) -> tuple[int, int]:
    """Add the backup's sessions that are not here yet, with their hands, a batch at a time;
    return how many sessions and hands were added."""
    ids: set[int] = set()
    batch: list[store.NewSession] = []
    added = hands = 0
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
                if isinstance(name, str) and rules.name_key(name) not in players:
                    raise RuleError(
                        f"{name} is seated but not among the backup's players.", "players"
                    )
            if not keep_ids and _held(given):
                progress(1)
                continue
        batch.append(
            checked_session(given, session_id if keep_ids else None, f"Session {session_id}")
        )
        added += 1
        hands += len(given["hands"])
        if len(batch) == SESSIONS_A_BATCH:
            store.insert_sessions(batch)
            progress(len(batch))
            batch = []
    if batch:
        store.insert_sessions(batch)
        progress(len(batch))
    return added, hands


def add_session(given: dict[str, Any], session_id: int | None, where: str) -> Session:
    """A session as a backup holds it, with its hands, checked and added (see
    `checked_session`)."""
    [added] = store.insert_sessions([checked_session(given, session_id, where)])
    return store.session_or_404(added)


def checked_session(given: dict[str, Any], session_id: int | None, where: str) -> store.NewSession:
    """A session as a backup holds it, with its hands, each checked again by the rules engine;
    refusals say `where` they come from."""
    with _at(where):
        recorded = given.get("hands")
        if not isinstance(recorded, list):
            raise RuleError("It has no list of hands.", "hands")
        request = session_request(given)
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
    return store.NewSession(
        name=name,
        created_at=created_at,
        version=version,
        sheet=rules.score_sheet(table, hands),
        session_id=session_id,
    )


def _version(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= store.MAX_ID:
        raise RuleError(f"Its version must be a whole number from 0 to {store.MAX_ID}.", "version")
    return value


def _held(given: dict[str, Any]) -> bool:
    """Whether a session with the same start time, table and hands is here already."""
    try:
        started = _created_at(given.get("created_at"))
    except RuleError:
        return False
    same_time = db.session.scalars(
        select(Session).where(Session.created_at == started).options(*store.WHOLE_SESSION)
    )
    wanted = _comparable(given)
    return any(_comparable(session_backup_json(session)) == wanted for session in same_time)


def _comparable(session: dict[str, Any]) -> str:
    return json.dumps(
        {k: v for k, v in session.items() if k not in ("id", "version")}, sort_keys=True
    )


def _created_at(value: Any) -> datetime:
    """An ISO 8601 time; one without a time zone is UTC, as every stored time is."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleError(
            "Its created_at must be a date and time in ISO 8601, such as "
            "2024-03-01T19:30:00+00:00.",
            "created_at",
        ) from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _checked_hand(table: rules.Table, before: list[rules.Hand], hand: Any) -> rules.Hand:
    """A backup's hand checked by the rules as the next after `before`."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    recorded = hand_request(hand)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    last = before[-1] if before else None
    return store.next_hand(
        table, len(before), last, recorded.entry, recorded.dealer, recorded.seats
    )


def _move_sequences_past_ids() -> None:
    """PostgreSQL hands out ids from sequences, which rows inserted with their ids don't move."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for model in (Player, Session):
        table = model.__tablename__
        db.session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce(max(id), 0) + 1, false) FROM {table}"
            )
        )
