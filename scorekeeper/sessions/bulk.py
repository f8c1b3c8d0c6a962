"""Sessions inserted in bulk, a statement or two a table however many there are: a restore, the
trash giving a session back, a CSV import."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Dialect, Table, func, insert, select, text
from sqlalchemy.types import TypeEngine

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


@dataclass(frozen=True)
class SessionRows:
    """A checked session as the rows `insert_sessions` writes, but for the ids it hands out (of
    the session, if not given, and of its hands): made ahead of the write by `session_rows`,
    even in another process, so that the write only sends them. The hands', their players' and
    the changes' values are as the database's driver takes them."""

    session: dict[str, Any]
    seats: list[dict[str, Any]]
    # Each hand's values (HAND_COLUMNS), with its players' (HAND_PLAYER_COLUMNS).
    hands: list[tuple[Sequence[Any], list[Sequence[Any]]]]
    paid: list[dict[str, Any]]
    stand_ins: list[dict[str, Any]]
    changes: list[Sequence[Any]]
    # Whether it makes the ratings stale: it has hands, or is a night's nets.
    rated: bool


# The columns of the values of `SessionRows`, each row's own id and its owner's left out.
HAND_COLUMNS = (
    "number", "multiplier", "dealer_id", "kind", "picker_id", "partner_id", "called_card",
    "forced", "picking_points", "cracked_by_id", "recracked", "black_blitz", "red_blitz",
    "winner_id", "seated", "result", "penalized_id", "confirmed_by_id",
)  # fmt: skip
HAND_PLAYER_COLUMNS = (
    "player_id", "played", "score", "won", "schneidered", "seat", "points", "tricks",
)  # fmt: skip
CHANGE_COLUMNS = ("at", "action", "number", "before", "after")


def insert_sessions(sessions: Sequence[NewSession | SessionRows]) -> list[int]:
    """Insert checked sessions (or their rows, made ahead) with their seats, hands and the
    hands' players, scored, their early payments and their changes: a statement or two a table
    however many sessions there are. Returns their ids, in order. The rows made ahead name
    their players by the ids they have here."""
    if not sessions:
        return []
    news = [new for new in sessions if isinstance(new, NewSession)]
    ids = player_ids(names_in(news)) if news else {}
    dialect = db.session.get_bind().dialect
    made = [
        new if isinstance(new, SessionRows) else session_rows(new, ids, dialect) for new in sessions
    ]
    session_ids = _insert_session_rows(made)
    db.session.execute(
        insert(Seat.__table__),
        [
            {"session_id": session_id, **seat}
            for session_id, rows in zip(session_ids, made, strict=True)
            for seat in rows.seats
        ],
    )
    if any(rows.rated for rows in made):
        ratings.changed()
    count = sum(len(rows.hands) for rows in made)
    hand_ids: Sequence[int] = _new_ids(Hand.__table__, count) if count else ()
    if count:
        numbered = iter(hand_ids)
        hands: list[list[Any]] = []
        players: list[list[Any]] = []
        for session_id, rows in zip(session_ids, made, strict=True):
            for values, seats in rows.hands:
                hand_id = next(numbered)
                hands.append([hand_id, session_id, *values])
                players.extend([hand_id, *seat] for seat in seats)
        _insert_rows(Hand.__table__, ("id", "session_id", *HAND_COLUMNS), hands)
        _insert_rows(HandPlayer.__table__, ("hand_id", *HAND_PLAYER_COLUMNS), players)
    paid = [
        {"session_id": session_id, **payment}
        for session_id, rows in zip(session_ids, made, strict=True)
        for payment in rows.paid
    ]
    if paid:
        db.session.execute(insert(EarlyPayment.__table__), paid)
    stand_ins = [
        {"session_id": session_id, **stand_in}
        for session_id, rows in zip(session_ids, made, strict=True)
        for stand_in in rows.stand_ins
    ]
    if stand_ins:
        db.session.execute(insert(StandIn.__table__), stand_ins)
    _insert_rows(
        Change.__table__,
        ("session_id", *CHANGE_COLUMNS),
        [
            [session_id, *change]
            for session_id, rows in zip(session_ids, made, strict=True)
            for change in rows.changes
        ],
    )
    summary.add(session_ids, (min(hand_ids), max(hand_ids)) if hand_ids else None)
    return session_ids


def session_rows(new: NewSession, ids: dict[str, int], dialect: Dialect) -> SessionRows:
    """The rows of a checked session, its players by their ids (`ids`, by name), the values
    sent as `dialect` takes them (`insert_sessions`)."""
    table = new.sheet.table
    results = new.sheet.results
    hand_values_of = _preparer(Hand.__table__, HAND_COLUMNS, dialect)
    player_values_of = _preparer(HandPlayer.__table__, HAND_PLAYER_COLUMNS, dialect)
    hands = []
    for (number, result), confirmer in zip(
        enumerate(results, start=1), new.confirmed or [None] * len(results), strict=True
    ):
        hand = result.hand
        values = {
            "number": number,
            "multiplier": result.multiplier,
            **hand_values(hand, ids),
            "confirmed_by_id": None if confirmer is None else ids[confirmer],
        }
        seats = [
            player_values_of(
                {
                    "player_id": ids[player],
                    "played": player in result.players,
                    "score": result.scores[player],
                    "won": player in result.winners,
                    "schneidered": player in result.schneidered,
                    **seat_values(hand, seat, player),
                }
            )
            for seat, player in enumerate(hand.seats)
        ]
        hands.append((hand_values_of(values), seats))
    change_values_of = _preparer(Change.__table__, CHANGE_COLUMNS, dialect)
    return SessionRows(
        session=_session_row(new, ids),
        seats=[
            {
                "position": position,
                "player_id": ids[player],
                "net": new.sheet.totals[player] if table.totals_only else None,
            }
            for position, player in enumerate(table.seats)
        ],
        hands=hands,
        paid=[
            {
                "leaver_id": ids[leaver],
                "payer_id": ids[payment.payer],
                "payee_id": ids[payment.payee],
                "amount": payment.amount,
            }
            for leaver, payments in new.settled.items()
            for payment in payments
        ],
        stand_ins=[
            {"player_id": ids[player], "stands_for_id": ids[owner]}
            for player, owner in new.stand_ins.items()
        ],
        changes=[change_values_of(change) for change in new.changes],
        rated=bool(results) or table.totals_only,
    )


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


def _preparer(
    table: Table, columns: Sequence[str], dialect: Dialect
) -> Callable[[Mapping[str, Any]], Sequence[Any]]:
    """A row's values of `columns` (two or more) as the column's type sends each in an INSERT,
    for `_insert_rows`: picked in one step, then each sent as its type needs, if any does."""
    pick = operator.itemgetter(*columns)
    sent = [
        (at, send)
        for at, column in enumerate(columns)
        if (send := _sender(table.c[column].type, dialect)) is not None
    ]
    if not sent:
        return pick

    def prepared(row: Mapping[str, Any]) -> list[Any]:
        values = list(pick(row))
        for at, send in sent:
            values[at] = send(values[at])
        return values

    return prepared


def _sender(kind: TypeEngine[Any], dialect: Dialect) -> Callable[[Any], Any] | None:
    """How a value of a column of `kind` is sent. A flag is the engine's bool already, which
    SQLAlchemy's own check would look at again for every row of a restore: sent as it is
    (SQLite's driver stores it as 1 or 0, as SQLAlchemy would)."""
    if isinstance(kind, Boolean):
        return None
    return kind.dialect_impl(dialect).bind_processor(dialect)


def _insert_rows(table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Insert rows of values of `columns`, each as the column's type sends it (`_preparer`): on
    PostgreSQL by COPY, many times quicker than an INSERT of many rows for the tables of hands
    and changes; on SQLite by the driver's own `executemany`, which spares the rows the work
    SQLAlchemy does for each of its parameters."""
    if not rows:
        return
    connection = db.session.connection()
    dialect = connection.dialect
    driver = connection.connection.driver_connection
    assert driver is not None
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(column) for column in columns)
    if dialect.name == "postgresql":
        statement = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
        return
    marks = ", ".join("?" for _ in columns)
    driver.executemany(f"INSERT INTO {quote(table.name)} ({names}) VALUES ({marks})", rows)


def _session_row(new: NewSession, ids: dict[str, int]) -> dict[str, Any]:
    """A session's row, with the id given, if one is."""
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
            (n for n, r in enumerate(new.sheet.results, start=1) if r.hand.seats != table.seats),
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
    return row


def _insert_session_rows(made: Sequence[SessionRows]) -> list[int]:
    """The session rows, with the ids given or new ones."""
    rows = [dict(rows.session) for rows in made]
    session_table = Session.__table__
    given = [row for row in rows if "id" in row]
    if given:
        db.session.execute(insert(session_table), given)
    new = [row for row in rows if "id" not in row]
    if new:
        new_ids = db.session.scalars(
            insert(session_table).returning(session_table.c.id, sort_by_parameter_order=True),
            new,
        ).all()
        for row, session_id in zip(new, new_ids, strict=True):
            row["id"] = session_id
    return [row["id"] for row in rows]
