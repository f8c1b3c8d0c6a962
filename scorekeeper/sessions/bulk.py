"""Sessions inserted in bulk, a statement or two a table however many there are: a restore, the
trash giving a session back, a CSV import."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, func, insert, select, text

from .. import rules
from . import ratings, summary
from .extensions import db
from .models import Change, EarlyPayment, Hand, HandPlayer, Seat, Session, StandIn
from .records import options_json
from .rows import hand_values, player_ids, seat_values


@dataclass(frozen=True)
class NewSession:
    """A session and its hands, every hand checked by the rules engine (`next_hand`), to insert
    in bulk; or a night kept without hands, its sheet the engine's `night_sheet`."""

    name: str
    created_at: datetime
    version: int
    sheet: rules.Sheet
    session_id: int | None = None
    settled: rules.Settled = field(default_factory=dict)
    # Its changes, oldest first: each as a `Change` row's columns but the session's.
    changes: Sequence[dict[str, Any]] = ()
    # What a CSV import came from (`Session.origin`).
    origin: str | None = None
    # The event, round and table it is a table of.
    event: tuple[int, int, int] | None = None
    # At a table of an event: who confirmed each hand (None while it waits; empty: none
    # did), its open call for the director (when and what it says), and who stands in there
    # for whom.
    confirmed: Sequence[str | None] = ()
    director: tuple[datetime, str] | None = None
    stand_ins: Mapping[str, str] = field(default_factory=dict)
    # A table of a practice event: it keeps no summary.
    practice: bool = False


def insert_sessions(sessions: Sequence[NewSession]) -> list[int]:
    """Insert checked sessions with their seats, hands and the hands' players, scored, their
    early payments and their changes: a statement or two a table however many sessions there
    are. Returns their ids, in order."""
    if not sessions:
        return []
    ids = player_ids(names_in(sessions))
    session_ids = _insert_session_rows(sessions, ids)
    db.session.execute(
        insert(Seat.__table__),
        [
            {
                "session_id": session_id,
                "position": position,
                "player_id": ids[player],
                "net": new.sheet.totals[player] if new.sheet.table.totals_only else None,
            }
            for session_id, new in zip(session_ids, sessions, strict=True)
            for position, player in enumerate(new.sheet.table.seats)
        ],
    )
    hand_ids: Sequence[int] = ()
    results = [
        (session_id, number, result, confirmer)
        for session_id, new in zip(session_ids, sessions, strict=True)
        for (number, result), confirmer in zip(
            enumerate(new.sheet.results, start=1),
            new.confirmed or [None] * len(new.sheet.results),
            strict=True,
        )
    ]
    if results or any(new.sheet.table.totals_only for new in sessions):
        ratings.changed()
    if results:
        hand_ids = _new_ids(Hand.__table__, len(results))
        _insert_rows(
            Hand.__table__,
            [
                {
                    "id": hand_id,
                    "session_id": session_id,
                    "number": number,
                    "multiplier": result.multiplier,
                    **hand_values(result.hand, ids),
                    "confirmed_by_id": None if confirmer is None else ids[confirmer],
                }
                for hand_id, (session_id, number, result, confirmer) in zip(
                    hand_ids, results, strict=True
                )
            ],
        )
        _insert_rows(
            HandPlayer.__table__,
            [
                {
                    "hand_id": hand_id,
                    "player_id": ids[player],
                    "played": player in result.players,
                    "score": result.scores[player],
                    "won": player in result.winners,
                    "schneidered": player in result.schneidered,
                    **seat_values(result.hand, seat, player),
                }
                for hand_id, (_, _, result, _) in zip(hand_ids, results, strict=True)
                for seat, player in enumerate(result.hand.seats)
            ],
        )
    paid = [
        {
            "session_id": session_id,
            "leaver_id": ids[leaver],
            "payer_id": ids[payment.payer],
            "payee_id": ids[payment.payee],
            "amount": payment.amount,
        }
        for session_id, new in zip(session_ids, sessions, strict=True)
        for leaver, payments in new.settled.items()
        for payment in payments
    ]
    if paid:
        db.session.execute(insert(EarlyPayment.__table__), paid)
    stand_ins = [
        {"session_id": session_id, "player_id": ids[player], "stands_for_id": ids[owner]}
        for session_id, new in zip(session_ids, sessions, strict=True)
        for player, owner in new.stand_ins.items()
    ]
    if stand_ins:
        db.session.execute(insert(StandIn.__table__), stand_ins)
    changes = [
        {"session_id": session_id, **change}
        for session_id, new in zip(session_ids, sessions, strict=True)
        for change in new.changes
    ]
    _insert_rows(Change.__table__, changes)
    summary.add(session_ids, (min(hand_ids), max(hand_ids)) if hand_ids else None)
    return session_ids


def names_in(sessions: Sequence[NewSession]) -> list[str]:
    """Every player the sessions name, in the order they first sit: a hand's seats, then the
    seats now."""
    names: dict[str, None] = {}
    for new in sessions:
        for result in new.sheet.results:
            names.update(dict.fromkeys(result.hand.seats))
        names.update(dict.fromkeys(new.sheet.table.seats))
        for player, owner in new.stand_ins.items():
            names.update(dict.fromkeys((player, owner)))
    return list(names)


def _new_ids(table: Table, count: int) -> Sequence[int]:
    """`count` ids for new rows of `table`, inside a write: PostgreSQL's sequence hands them out;
    on SQLite the write holds the database's lock, so the ids past the largest are free."""
    if db.session.get_bind().dialect.name == "postgresql":
        return db.session.scalars(
            text(
                f"SELECT nextval(pg_get_serial_sequence('{table.name}', 'id')) "
                "FROM generate_series(1, :count)"
            ),
            {"count": count},
        ).all()
    largest = db.session.scalar(select(func.max(table.c.id))) or 0
    return range(largest + 1, largest + 1 + count)


def reserve_ids(table: Table, largest: int) -> None:
    """Hand out only ids above `largest` for new rows of `table` from now on (a restore that
    keeps a backup's ids reserves them all with its first batch), never moving the next id back:
    an id is never handed out twice. Inside a roster write, which no other new session or
    player passes."""
    if db.session.get_bind().dialect.name == "postgresql":
        sequence = f"pg_get_serial_sequence('{table.name}', 'id')::regclass"
        db.session.execute(
            text(
                f"SELECT setval({sequence}, :largest) "
                f"WHERE :largest > coalesce(pg_sequence_last_value({sequence}), 0)"
            ),
            {"largest": largest},
        )
        return
    # SQLite's AUTOINCREMENT hands out ids past the one sqlite_sequence holds for the table.
    named = {"table": table.name, "largest": largest}
    held = db.session.scalar(text("SELECT seq FROM sqlite_sequence WHERE name = :table"), named)
    if held is None:
        db.session.execute(
            text("INSERT INTO sqlite_sequence (name, seq) VALUES (:table, :largest)"), named
        )
    elif held < largest:
        db.session.execute(
            text("UPDATE sqlite_sequence SET seq = :largest WHERE name = :table"), named
        )


def _insert_rows(table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert rows that all name the same columns, each value sent as the column's type sends it
    in an INSERT: on PostgreSQL by COPY, many times quicker than an INSERT of many rows for the
    tables of hands and changes; on SQLite by the driver's own `executemany`, which spares the
    rows the work SQLAlchemy does for each of its parameters."""
    if not rows:
        return
    connection = db.session.connection()
    dialect = connection.dialect
    columns = list(rows[0])
    sent = {
        column: processor
        for column in columns
        if (processor := table.c[column].type.dialect_impl(dialect).bind_processor(dialect))
    }
    values = (
        [sent[column](row[column]) if column in sent else row[column] for column in columns]
        for row in rows
    )
    driver = connection.connection.driver_connection
    assert driver is not None
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(column) for column in columns)
    if dialect.name == "postgresql":
        statement = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in values:
                copy.write_row(row)
        return
    marks = ", ".join("?" for _ in columns)
    driver.executemany(f"INSERT INTO {quote(table.name)} ({names}) VALUES ({marks})", values)


def _insert_session_rows(sessions: Sequence[NewSession], ids: dict[str, int]) -> list[int]:
    """The session rows, with the ids given or new ones."""
    rows = []
    for new in sessions:
        table = new.sheet.table
        row = {
            "name": new.name,
            "created_at": new.created_at,
            "rounds": table.rounds,
            "first_dealer_id": ids[table.first_dealer],
            "version": new.version,
            "ended": table.ended,
            "totals_only": table.totals_only,
            "seats_since": max(
                (
                    n
                    for n, r in enumerate(new.sheet.results, start=1)
                    if r.hand.seats != table.seats
                ),
                default=0,
            ),
            "origin": new.origin,
            "director_at": None if new.director is None else new.director[0],
            "director_note": None if new.director is None else new.director[1],
            "practice": new.practice,
            "hand_count": len(new.sheet.results),
            "completed": table.is_complete(len(new.sheet.results)),
            **options_json(table.options),
        }
        if new.event is not None:
            row["event_id"], row["event_round"], row["event_table"] = new.event
        if new.session_id is not None:
            row["id"] = new.session_id
        rows.append(row)
    session_table = Session.__table__
    given = [row for row in rows if "id" in row]
    if given:
        db.session.execute(insert(session_table), given)
    made = [row for row in rows if "id" not in row]
    if made:
        new_ids = db.session.scalars(
            insert(session_table).returning(session_table.c.id, sort_by_parameter_order=True),
            made,
        ).all()
        for row, session_id in zip(made, new_ids, strict=True):
            row["id"] = session_id
    return [row["id"] for row in rows]
