"""Everything in the database as one JSON file: a backup, written a session at a time.

A backup holds the players, every session with its rules, seats and hands as they were
recorded, and the named rule sets, events, seasons, merges and the trash. `restore` brings one
back; nothing derived is read from the file then.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import rules
from ..sessions import hand_rows, loading, season_writes
from ..sessions.event_writes import STAND_INS, stand_ins_of
from ..sessions.extensions import db
from ..sessions.models import (
    Event,
    Player,
    PlayerMerge,
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
from . import backup_rows
from . import rule_sets as rule_sets_module
from .journal import plural

FORMAT = "sheepshead-scorekeeper-backup"
VERSION = 1


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
        {key: value for key, value in season_writes.season_json(season).items() if key != "id"}
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
