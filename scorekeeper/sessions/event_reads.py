"""Club events read from the database: an event whole, its standings, round leaders and
prizes from its tables' sessions (every number from the rules engine,
`rules.event_standings`), the list of events and the recent ones, and each as the API's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from .. import rules
from . import loading
from .database import one_or_404
from .event_writes import event_or_404, event_tables, stand_ins_of
from .extensions import db
from .models import (
    Event,
    EventPlayer,
    Hand,
    HandPlayer,
    Player,
    Seat,
    Session,
    as_utc,
)
from .records import director_json, iso, options_json


@dataclass(frozen=True)
class TableRead:
    """A table's session as the event shows it: its table now, its hand count, and each
    player's total, hands won and whether they played, as the hands' stored scores give them."""

    session: Session
    table: rules.Table
    hands: int
    result: rules.TableResult

    @property
    def to_confirm(self) -> int:
        """How many of its hands wait to be confirmed (none unless the event asks)."""
        return self.result.to_confirm

    @property
    def stand_ins(self) -> dict[str, str]:
        return dict(self.result.stand_ins)

    @property
    def complete(self) -> bool:
        return self.table.is_complete(self.hands)

    @property
    def hands_to_play(self) -> int:
        return self.table.rounds * len(self.table.seats)


@dataclass(frozen=True)
class EventRead:
    """An event with its tables' sessions and its results as they stand."""

    event: Event
    tables: list[TableRead]
    results: rules.EventResults
    rounds: int

    @property
    def complete(self) -> bool:
        """Every round drawn and played, and every hand confirmed where the event asks."""
        event = self.event
        return bool(
            event.rounds
            and self.rounds >= event.rounds
            and all(table.complete for table in self.tables)
            and not self.results.provisional
        )

    @property
    def calls(self) -> list[TableRead]:
        """The tables calling the director, the earliest call first."""
        calling = [(t.session.director_at, t) for t in self.tables]
        ordered = sorted(
            ((as_utc(at), t.session.id, t) for at, t in calling if at is not None),
            key=lambda call: call[:2],
        )
        return [t for _at, _id, t in ordered]


def _table_sums(event_id: int) -> dict[int, dict[str, tuple[int, int, bool]]]:
    """For each table session of the event, each player's total, hands won and whether they
    played a hand, summed from the hands' stored scores (which `flask check` holds to the
    rules engine) rather than replayed."""
    rows = db.session.execute(
        select(
            Hand.session_id,
            Player.name,
            func.sum(HandPlayer.score),
            func.count().filter(HandPlayer.won),
            func.count().filter(HandPlayer.played),
        )
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .join(Player, Player.id == HandPlayer.player_id)
        .join(Session, Session.id == Hand.session_id)
        .where(Session.event_id == event_id)
        .group_by(Hand.session_id, Player.name)
    )
    sums: dict[int, dict[str, tuple[int, int, bool]]] = {}
    for session_id, name, total, won, played in rows:
        sums.setdefault(session_id, {})[name] = (int(total), int(won), played > 0)
    return sums


def read_event(event: Event) -> EventRead:
    """The event, its tables and its results, in a fixed number of statements however many
    tables and hands it has."""
    counts = {
        session_id: (count, waiting)
        for session_id, count, waiting in db.session.execute(
            select(
                Hand.session_id,
                func.count(),
                func.count().filter(Hand.confirmed_by_id.is_(None)),
            )
            .join(Session, Session.id == Hand.session_id)
            .where(Session.event_id == event.id)
            .group_by(Hand.session_id)
        )
    }
    sums = _table_sums(event.id)
    tables = []
    for session in event_tables(event.id):
        table = loading.table_of(session)
        players = sums.get(session.id, {})
        named = {seat: (0, 0, False) for seat in table.seats} | players
        count, waiting = counts.get(session.id, (0, 0))
        result = rules.TableResult(
            {name: total for name, (total, _won, _played) in named.items()},
            {name: won for name, (_total, won, _played) in named.items()},
            frozenset(name for name, (_total, _won, played) in named.items() if played),
            stand_ins_of(session),
            waiting if event.confirm else 0,
        )
        tables.append(TableRead(session, table, count, result))
    drawn = max((t.session.event_round or 0 for t in tables), default=0)
    by_round: list[list[rules.TableResult]] = [[] for _ in range(drawn)]
    for read in tables:
        by_round[(read.session.event_round or 1) - 1].append(read.result)
    results = rules.event_results(
        by_round,
        checked_in=[p.player.name for p in event.players if p.checked_in],
        ties=rules.Ties(event.ties),
        seed=event.seed,
        entry=event.entry,
        places=event.places,
        round_top=event.round_top,
        rounds=event.rounds,
    )
    return EventRead(event, tables, results, drawn)


def read_event_or_404(event_id: int) -> EventRead:
    return read_event(event_or_404(event_id))


def event_version(event_id: int) -> int:
    return one_or_404("event", event_id, select(Event.version).where(Event.id == event_id))


def list_events() -> list[dict[str, Any]]:
    """Every event's summary, newest first."""
    events = db.session.scalars(
        select(Event)
        .order_by(Event.created_at.desc(), Event.id.desc())
        .options(selectinload(Event.players).joinedload(EventPlayer.player))
    ).all()
    drawn = dict(
        db.session.execute(
            select(Session.event_id, func.max(Session.event_round))
            .where(Session.event_id.is_not(None))
            .group_by(Session.event_id)
        ).all()
    )
    return [event_summary(event, drawn.get(event.id) or 0) for event in events]


@dataclass(frozen=True)
class TableLine:
    """A table of an event's round as a list shows it: its number, session, hands played of
    those it plays, and whether it is complete (or ended)."""

    number: int
    session_id: int
    hands: int
    hands_to_play: int
    complete: bool


@dataclass(frozen=True)
class RecentEvent:
    """An event as the home page lists it: its rounds drawn, the tables of the last one, and
    when it last had a table made (or was made)."""

    event: Event
    rounds: int
    tables: list[TableLine]
    last: datetime


def recent_events(limit: int) -> list[RecentEvent]:
    """The `limit` events with the latest tables made (or made themselves), latest first, each
    with its last round's tables from their stored hand counts: a few statements however many
    tables they have."""
    latest = (
        select(Session.event_id, func.max(Session.created_at).label("last"))
        .where(Session.event_id.is_not(None))
        .group_by(Session.event_id)
        .subquery()
    )
    last = func.coalesce(latest.c.last, Event.created_at)
    chosen = db.session.execute(
        select(Event, last)
        .outerjoin(latest, latest.c.event_id == Event.id)
        .order_by(last.desc(), Event.id.desc())
        .limit(limit)
    ).all()
    if not chosen:
        return []
    ids = [event.id for event, _last in chosen]
    drawn_round = (
        select(Session.event_id, func.max(Session.event_round).label("drawn"))
        .where(Session.event_id.in_(ids))
        .group_by(Session.event_id)
        .subquery()
    )
    drawn = dict(db.session.execute(select(drawn_round.c.event_id, drawn_round.c.drawn)).all())
    last_round = (Session.event_id.in_(ids), Session.event_round == drawn_round.c.drawn)
    rows = db.session.execute(
        select(
            Session.event_id,
            Session.event_table,
            Session.id,
            Session.hand_count,
            Session.rounds,
            Session.completed,
        )
        .join(drawn_round, drawn_round.c.event_id == Session.event_id)
        .where(*last_round)
        .order_by(Session.event_id, Session.event_table)
    ).all()
    seated = dict(
        db.session.execute(
            select(Seat.session_id, func.count())
            .where(Seat.session_id.in_([row.id for row in rows]))
            .group_by(Seat.session_id)
        ).all()
    )
    tables: dict[int, list[TableLine]] = {}
    for event_id, number, session_id, count, rounds, complete in rows:
        tables.setdefault(event_id or 0, []).append(
            TableLine(number or 0, session_id, count, rounds * seated.get(session_id, 0), complete)
        )
    return [
        RecentEvent(event, drawn.get(event.id) or 0, tables.get(event.id, []), as_utc(at))
        for event, at in chosen
    ]


def event_summary(event: Event, drawn: int) -> dict[str, Any]:
    return {
        "id": event.id,
        "name": event.name,
        "date": None if event.day is None else event.day.isoformat(),
        "created_at": iso(event.created_at),
        "hands": event.hands,
        "rounds": event.rounds,
        "rounds_drawn": drawn,
        "players": [p.player.name for p in event.players if p.checked_in],
        "practice": event.practice,
        "version": event.version,
    }


def _money(value: int | None, entry: int) -> int | None:
    return value if entry else None


def event_json(read: EventRead) -> dict[str, Any]:
    """The event as API.md shows it."""
    event, results = read.event, read.results
    draws: list[dict[str, Any]] = [{"round": n, "tables": []} for n in range(1, read.rounds + 1)]
    for table in read.tables:
        seats = list(table.table.seats)
        draws[(table.session.event_round or 1) - 1]["tables"].append(
            {
                "table": table.session.event_table,
                "session": table.session.id,
                "seats": seats,
                "hands": table.hands,
                "hands_to_play": table.hands_to_play,
                "complete": table.complete,
                "to_confirm": table.to_confirm,
                "substitutes": [
                    {"in": player, "for": owner} for player, owner in table.stand_ins.items()
                ],
            }
        )
    standings = []
    for standing in results.standings:
        shown: dict[str, Any] = {
            "player": standing.player,
            "place": standing.place,
            "total": standing.total,
            "rounds": list(standing.rounds),
            "hands_won": standing.hands_won,
            "prize": _money(standing.prize, event.entry),
            "round_prizes": _money(standing.round_prizes, event.entry),
            "paid": _money(standing.paid, event.entry),
            "provisional": results.provisional,
            "substitutes": list(standing.substitutes),
        }
        if standing.by_lot:
            shown["by_lot"] = True
        standings.append(shown)
    summary = event_summary(event, read.rounds)
    del summary["players"], summary["rounds_drawn"]
    return {
        **summary,
        "rules": options_json(rules.options_from(**event.rules)),
        "entry": event.entry,
        "places": list(event.places),
        "round_top": event.round_top,
        "ties": event.ties,
        "seed": event.seed,
        "confirm": event.confirm,
        "apart": [list(pair) for pair in event.apart],
        "players": [{"name": p.player.name, "checked_in": p.checked_in} for p in event.players],
        "draws": draws,
        "standings": standings,
        "round_leaders": [
            {
                "round": leader.round,
                "players": list(leader.players),
                "total": leader.total,
                "prize": _money(leader.prize, event.entry),
            }
            for leader in results.round_leaders
        ],
        "played": results.played,
        "pot": _money(results.pot, event.entry),
        "paid": _money(results.paid, event.entry),
        "house": _money(results.house, event.entry),
        "complete": read.complete,
        "provisional": results.provisional,
        "calls": [
            {
                "table": call.session.event_table,
                "round": call.session.event_round,
                "session": call.session.id,
                **(director_json(call.session) or {}),
            }
            for call in read.calls
        ],
    }
