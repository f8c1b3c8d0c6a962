"""Club events in the database: an event made, changed, its players checked in and out, and
its rounds drawn, each table an ordinary session. Every number comes from the rules engine
(`rules.event_draw` and `rules.event_standings`); `event_reads` reads an event back.

Every write to an event runs inside `event_write`, which in one transaction takes the event's
lock (and, for a write that adds sessions or players, the lock for adding them first), answers
a repeated write key with its first answer, refuses a stale `If-Match`, lets the caller write,
bumps the event's version and keeps the answer under the key.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import selectinload

from .. import rules
from ..rules.choices import choice
from . import loading, rows
from .database import begin_event_write, check_id, lock_sessions, one_or_404
from .errors import Conflict, NotFound, VersionMismatch
from .extensions import db
from .models import (
    Event,
    EventPlayer,
    Hand,
    HandPlayer,
    Player,
    Session,
    StandIn,
    utcnow,
)
from .records import options_json
from .writes import SessionWrite, Write, check_key, transaction

# A seed is shown and typed: at most six digits, as every number of the API.
MAX_SEED = 999_999
MAX_ENTRY = 999_999

# More places than players would never be paid; this many is plenty for any club.
MAX_PLACES = 100
EVENT_NAME = "An event's name"


@dataclass(frozen=True)
class EventFields:
    """An event's settings as a request gives them, their types checked; None: not given."""

    name: str | None = None
    date: date | None = None
    hands: int | None = None
    rounds: int | None = None
    rules: dict[str, Any] | None = None
    entry: int | None = None
    places: list[int] | None = None
    round_top: int | None = None
    ties: str | None = None
    seed: int | None = None
    confirm: bool | None = None
    apart: list[list[str]] | None = None
    practice: bool | None = None

    def given(self) -> set[str]:
        return {f.name for f in fields(self) if getattr(self, f.name) is not None}


def _whole(value: int, low: int, high: int, label: str, name: str) -> int:
    if not low <= value <= high:
        raise rules.whole_number_error(label, low, high, name)
    return value


def _settings(event: Event, given: EventFields, drawn: int) -> None:
    """Set what is given on `event`, each value checked by the engine; `drawn` rounds are
    drawn already."""
    if given.name is not None:
        event.name = rules.checked_name(
            given.name, EVENT_NAME, rules.MAX_SESSION_NAME_LENGTH, "name"
        )
    if given.date is not None:
        event.day = given.date
    if given.hands is not None:
        rules.check_hands(given.hands)
        event.hands = given.hands
    if given.rounds is not None:
        if not 0 <= given.rounds <= rules.MAX_ROUNDS:
            raise rules.rounds_error()
        if given.rounds and given.rounds < drawn:
            raise Conflict(f"{drawn} rounds are drawn already, more than {given.rounds}.", "rounds")
        event.rounds = given.rounds
    if given.rules is not None:
        current = options_json(rules.options_from(**(event.rules or {})))
        event.rules = options_json(rules.options_from(**(current | given.rules)))
    if given.entry is not None:
        event.entry = _whole(given.entry, 0, MAX_ENTRY, "The entry fee in cents", "entry")
    if given.seed is not None:
        event.seed = _whole(given.seed, 0, MAX_SEED, "The seed", "seed")
    if given.places is not None:
        if len(given.places) > MAX_PLACES:
            raise rules.RuleError(f"Prizes go to at most {MAX_PLACES} places.", "places")
        event.places = list(given.places)
    if given.round_top is not None:
        event.round_top = given.round_top
    if given.ties is not None:
        event.ties = choice(rules.Ties, given.ties, "Ties", "ties").value
    if given.confirm is not None:
        event.confirm = given.confirm
    if given.apart is not None:
        event.apart = _spelled(rules.check_apart(given.apart))
    rules.check_prizes(event.places, event.round_top, event.rounds or drawn)


def _spelled(pairs: Sequence[tuple[str, str]]) -> list[list[str]]:
    """The pairs, each name spelled as the player's when one is named so."""
    keys = {rules.name_key(name) for pair in pairs for name in pair}
    known: dict[str, str] = {
        key: name
        for key, name in db.session.execute(
            select(Player.name_key, Player.name).where(Player.name_key.in_(keys))
        )
    }
    return [[known.get(rules.name_key(name), name) for name in pair] for pair in pairs]


def rename_apart(old: str, new: str) -> None:
    """Name `new` where the pairs an event keeps apart named `old` (case ignored), bumping
    each such event's version; a pair left naming one player twice, as a merge may leave it,
    goes."""
    key = rules.name_key(old)
    for event in db.session.scalars(select(Event).order_by(Event.id)):
        if not any(rules.name_key(name) == key for pair in event.apart for name in pair):
            continue
        renamed = [
            [new if rules.name_key(name) == key else name for name in pair] for pair in event.apart
        ]
        event.apart = [
            pair for pair in renamed if rules.name_key(pair[0]) != rules.name_key(pair[1])
        ]
        event.version += 1


def _event(given: EventFields, **columns: Any) -> Event:
    """An event with `columns` and its settings `given`, checked by the engine, the rest at
    their defaults, added to the database session."""
    event = _defaults(**columns)
    event.practice = bool(given.practice)
    _settings(event, given, 0)
    db.session.add(event)
    return event


def _defaults(**columns: Any) -> Event:
    return Event(
        name="",
        hands=rules.DEFAULT_HANDS,
        rounds=0,
        rules=options_json(rules.options_from()),
        entry=0,
        places=[],
        round_top=0,
        ties=rules.Ties.SHARE.value,
        confirm=False,
        apart=[],
        practice=False,
        **columns,
    )


def check_settings(given: EventFields, drawn: int = 0) -> None:
    """Refuse the settings `given` as a new event's are refused, or an event's with `drawn`
    rounds drawn already; nothing is added."""
    _settings(_defaults(), given, drawn)


def new_event(given: EventFields) -> Event:
    """Add an event, the seed drawn at random unless given, without committing."""
    event = _event(given, seed=secrets.randbelow(MAX_SEED + 1), version=1, created_at=utcnow())
    db.session.flush()
    return event


def restored_event(
    event_id: int,
    given: EventFields,
    version: int,
    created_at: datetime,
    players: Sequence[tuple[int, bool]],
) -> Event:
    """Add an event a backup held, under its id, its settings checked as a new event's are,
    with its players (ids, and whether checked in) in their order, without committing."""
    event = _event(given, id=event_id, seed=0, version=version, created_at=created_at)
    event.players = [
        EventPlayer(player_id=player_id, position=position, checked_in=checked_in)
        for position, (player_id, checked_in) in enumerate(players, start=1)
    ]
    return event


def event_or_404(event_id: int) -> Event:
    return one_or_404(
        "event",
        event_id,
        select(Event)
        .where(Event.id == event_id)
        .options(selectinload(Event.players).joinedload(EventPlayer.player)),
    )


def event_tables(event_id: int) -> list[Session]:
    """The event's table sessions by round and table, with their seats and who stands in
    there for whom, in a fixed number of statements."""
    return list(
        db.session.scalars(
            select(Session)
            .where(Session.event_id == event_id)
            .order_by(Session.event_round, Session.event_table)
            .options(loading.WHOLE_SESSION[0], *STAND_INS)
        )
    )


STAND_INS = (
    selectinload(Session.stand_ins).joinedload(StandIn.player),
    selectinload(Session.stand_ins).joinedload(StandIn.stands_for),
)


def stand_ins_of(session: Session) -> dict[str, str]:
    """Who stands in at a table for whom, by name."""
    return {s.player.name: s.stands_for.name for s in session.stand_ins}


def _rounds_drawn(tables: Sequence[Session]) -> int:
    return max((table.event_round or 0 for table in tables), default=0)


def _seats_by_round(tables: Sequence[Session]) -> list[list[tuple[str, ...]]]:
    by_round: list[list[tuple[str, ...]]] = [[] for _ in range(_rounds_drawn(tables))]
    for table in tables:
        by_round[(table.event_round or 1) - 1].append(loading.table_of(table).seats)
    return by_round


def table_name(event_name: str, round_number: int, table: int) -> str:
    """A table's session name: the event's, cut to fit, then its round and table."""
    where = f"round {round_number}, table {table}"
    if not event_name:
        return where.capitalize()
    room = rules.MAX_SESSION_NAME_LENGTH - len(where) - 2
    return f"{event_name[:room].rstrip()}, {where}"


@dataclass(frozen=True)
class PlannedDraw:
    """The next round's draw as it would be made now: its tables' seats in order (the first
    deals first) with each table's plan, the pairs it seats together again, how many pairs
    kept apart are both checked in and how many of those it seats together."""

    round: int
    tables: list[tuple[tuple[str, ...], rules.TablePlan]]
    repeated: int
    kept_apart: int = 0
    together: int = 0


def _planned(event: Event, tables: Sequence[Session], sizes: Sequence[int] | None) -> PlannedDraw:
    """The next round's draw from the players checked in, by the engine with the event's seed:
    the same whether shown first or drawn."""
    number = _rounds_drawn(tables) + 1
    rules.check_prizes(event.places, event.round_top, event.rounds or number)
    players = [p.player.name for p in event.players if p.checked_in]
    options = rules.options_from(**event.rules)
    seated = rules.table_sizes(len(players), sizes, options)
    met = rules.met_pairs(_seats_by_round(tables))
    made = rules.draw(players, seated, event.seed, number, met, event.apart)
    here = {rules.name_key(name) for name in players}
    kept_apart = sum(
        rules.name_key(a) in here and rules.name_key(b) in here for a, b in event.apart
    )
    return PlannedDraw(
        number,
        [(seats, rules.hands_to_play(event.hands, len(seats), options)) for seats in made.tables],
        made.repeats,
        kept_apart,
        made.apart,
    )


def planned_draw(event_id: int, sizes: Sequence[int] | None = None) -> PlannedDraw:
    """The draw the next round would make now, to show before it is made; refused as the draw
    itself would refuse its players or sizes."""
    return _planned(event_or_404(event_id), event_tables(event_id), sizes)


class EventWrite(Write):
    """A write to one event, holding its lock."""

    def __init__(self, event: Event, key: str | None, digest: str) -> None:
        super().__init__(key, digest)
        self.event = event
        self._touched = False
        self._removed = False

    def update(self, given: EventFields) -> None:
        """Change the settings given; `rules`, `entry` and `seed` only before the first draw,
        whether it is a practice event never."""
        if given.practice is not None and given.practice != self.event.practice:
            raise Conflict(
                "A practice event stays one, and a real event real: make a new event instead.",
                "practice",
            )
        drawn = _rounds_drawn(event_tables(self.event.id))
        if drawn:
            changed = [
                name
                for name, now in (
                    ("rules", options_json(rules.options_from(**self.event.rules))),
                    ("entry", self.event.entry),
                    ("seed", self.event.seed),
                )
                if name in given.given() and _changes(name, given, now)
            ]
            if changed:
                raise Conflict(
                    f"A round is drawn already, so the {changed[0]} can't change now.",
                    changed[0],
                )
        _settings(self.event, given, drawn)
        self._touched = True

    def check_in(self, name: str, new_players: Collection[str] = ()) -> None:
        """Check a player in for the next draw: a new name becomes a player (one that looks like
        another player's refused unless among `new_players`)."""
        name = rules.player_name(name, "name")
        (player,) = rows.players_named([name], new_players, "name")
        if player.id is None:
            db.session.flush()
        entry = next((p for p in self.event.players if p.player_id == player.id), None)
        if entry is None:
            position = 1 + max((p.position for p in self.event.players), default=0)
            self.event.players.append(
                EventPlayer(player=player, position=position, checked_in=True)
            )
        elif entry.checked_in:
            return
        else:
            entry.checked_in = True
        self._touched = True

    def check_out(self, name: str) -> None:
        """Leave a player out of later draws; they keep their points."""
        key = rules.name_key(name)
        entry = next((p for p in self.event.players if p.player.name_key == key), None)
        if entry is None:
            raise NotFound(f"{name.strip()} is not a player of event {self.event.id}.", "name")
        if entry.checked_in:
            entry.checked_in = False
            self._touched = True

    def draw_round(self, sizes: Sequence[int] | None) -> int:
        """Draw the next round from the players checked in, into tables of `sizes` (or the
        engine's), each table a new session; refused while a table of the last round is not
        complete. Returns the round's number."""
        event = self.event
        tables = event_tables(event.id)
        drawn = _rounds_drawn(tables)
        if event.rounds and drawn >= event.rounds:
            raise Conflict(f"All {event.rounds} rounds of the event are drawn.", "round")
        last_ids = [table.id for table in tables if table.event_round == drawn]
        # Read again once locked: a table may have ended, reopened or changed seats meanwhile.
        lock_sessions(last_ids)
        last = db.session.scalars(
            select(Session)
            .where(Session.id.in_(last_ids))
            .order_by(Session.event_table)
            .options(*loading.WHOLE_SESSION[:1])
            .execution_options(populate_existing=True)
        ).all()
        counts = dict(
            db.session.execute(
                select(Hand.session_id, func.count(Hand.id))
                .where(Hand.session_id.in_(last_ids))
                .group_by(Hand.session_id)
            ).all()
        )
        for table in last:
            if not loading.table_of(table).is_complete(counts.get(table.id, 0)):
                raise Conflict(
                    f"Table {table.event_table} of round {drawn} is not complete yet: a round "
                    "is drawn once every table of the one before is complete or ended.",
                    "round",
                )
        number = drawn + 1
        for at, (seats, plan) in enumerate(_planned(event, tables, sizes).tables, start=1):
            session = rows.new_session(
                table_name(event.name, number, at),
                seats,
                plan.rounds,
                seats[0],
                plan.options,
                practice=event.practice,
            )
            session.event_id, session.event_round, session.event_table = event.id, number, at
        db.session.flush()
        self._touched = True
        return number

    def substitute(
        self, out: str, player: str, new_players: Collection[str] = ()
    ) -> rules.Substitution:
        """Seat `player` in `out`'s seat at their table of the round drawn last, between hands
        (the rules' `substitute`): an ordinary arrival and leaver at the table, whose scores
        count for the player replaced in the event's standings. A new name becomes a player
        (one that looks like another's refused unless among `new_players`)."""
        tables = event_tables(self.event.id)
        drawn = _rounds_drawn(tables)
        if not drawn:
            raise rules.RuleError(
                f"No round is drawn yet, so {out.strip()} has no seat to leave.", "out"
            )
        current = [table.id for table in tables if table.event_round == drawn]
        lock_sessions(current)
        sessions = db.session.scalars(
            select(Session)
            .where(Session.id.in_(current))
            .order_by(Session.event_table)
            .options(loading.WHOLE_SESSION[0], *STAND_INS)
            .execution_options(populate_existing=True)
        ).all()
        played: dict[int, set[str]] = {session.id: set() for session in sessions}
        for session_id, name in db.session.execute(
            select(Hand.session_id, Player.name)
            .join(HandPlayer, HandPlayer.hand_id == Hand.id)
            .join(Player, Player.id == HandPlayer.player_id)
            .where(Hand.session_id.in_(current), HandPlayer.played)
            .distinct()
        ):
            played[session_id].add(name)
        round_tables = [
            rules.RoundTable(
                loading.table_of(session).seats,
                stand_ins_of(session),
                frozenset(played[session.id]),
            )
            for session in sessions
        ]
        name = rules.player_name(player, "in")
        (sitting, *_others) = rows.players_named([name], new_players, "in")
        if sitting.id is None:
            db.session.flush()
        made = rules.substitute(round_tables, drawn, out, sitting.name)
        session = sessions[made.table]
        table = loading.table_of(session)
        if table.is_complete(session.hand_count):
            raise Conflict(
                f"Table {session.event_table} of round {drawn} is complete: no hand is left "
                "to sit in for.",
                "out",
            )
        write = SessionWrite(session, None, "")
        write.seat_substitute(made.seats, made.out, made.player, made.stands_for)
        kept = next((s for s in session.stand_ins if s.player_id == sitting.id), None)
        if made.stands_for is not None:
            owner = rows.players_named([made.stands_for])[0]
            if kept is None:
                session.stand_ins.append(StandIn(player_id=sitting.id, stands_for_id=owner.id))
            else:
                kept.stands_for_id = owner.id
        write.finish()
        self._touched = True
        return made

    def practice_hands(self, number: int) -> int:
        """Fill every table of round `number` of a practice event with made-up hands until it
        is complete, each hand recorded at its table as a phone records one (`SessionWrite`),
        so the rules engine checks and scores it; return how many were made."""
        event = self.event
        if not event.practice:
            raise Conflict(
                "Only a practice event's tables are filled with made-up hands; this event is "
                "real, so its hands are played.",
                "practice",
            )
        ids = [t.id for t in event_tables(event.id) if t.event_round == number]
        if not ids:
            raise NotFound(f"Event {event.id} has no round {number} drawn.", "round")
        lock_sessions(ids)
        tables = db.session.scalars(
            select(Session)
            .where(Session.id.in_(ids))
            .order_by(Session.event_table)
            .options(*loading.WHOLE_SESSION[:1])
            .execution_options(populate_existing=True)
        ).all()
        made = 0
        for session in tables:
            write = SessionWrite(session, None, "")
            tail = write.tail()
            table = loading.table_of(session)
            if table.is_complete(tail.count):
                continue
            left = table.rounds * len(table.seats) - tail.count
            seed = f"event {event.seed} round {number} table {session.event_table} {tail.count}"
            for entry in rules.made_up_hands(table, tail.next_dealer, left, seed):
                write.record_hand(entry, None)
            write.finish()
            made += left
        self._touched = self._touched or made > 0
        return made

    def delete_event(self) -> None:
        """Delete a practice event whole, its tables' sessions with their hands and history;
        a real event's tables are its standings, so it is refused."""
        event = self.event
        if not event.practice:
            raise Conflict(
                "Only a practice event can be deleted; a real event's tables are its standings, "
                "so they stay.",
                "id",
            )
        ids = [t.id for t in event_tables(event.id)]
        lock_sessions(ids)
        db.session.expunge_all()
        db.session.execute(delete(Session).where(Session.event_id == event.id))
        db.session.execute(delete(EventPlayer).where(EventPlayer.event_id == event.id))
        db.session.execute(delete(Event).where(Event.id == event.id))
        self._removed = True

    def finish(self) -> None:
        if self._removed:
            return
        if self._touched:
            self.event.version += 1
            self._touched = False
        db.session.flush()


def _changes(name: str, given: EventFields, now: Any) -> bool:
    if name == "rules":
        changed: dict[str, Any] = options_json(rules.options_from(**(now | (given.rules or {}))))
        return bool(changed != now)
    return bool(getattr(given, name) != now)


def event_write(
    event_id: int,
    key: str | None = None,
    digest: str = "",
    if_match: str | None = None,
    roster: bool = False,
) -> AbstractContextManager[EventWrite]:
    """A write to one event (`roster`: one that adds sessions or players): see the module's
    docstring."""
    check_id("event", event_id)

    def begin() -> EventWrite:
        begin_event_write(event_id, roster)
        check_key(key, digest)
        event = event_or_404(event_id)
        if if_match is not None and if_match != str(event.version):
            raise VersionMismatch(if_match, event.version, "event")
        return EventWrite(event, key, digest)

    return transaction(begin)
