"""Every hand of many sessions as plain rows, for the downloads that read a long history.

The hands are read a batch of sessions at a time with two Core selects (the `hand` rows, then
their `hand_player` rows), never loaded as objects nor replayed: each hand is the engine's
`rules.Hand` of its row (`loading.hand_of_row`), with the multiplier and the scores the engine
gave it when it was written (`rows.store_scores`; `flask check` holds them to a replay).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Connection, Select, select

from .. import rules
from .extensions import db
from .loading import hand_of_row
from .models import Hand, HandPlayer, Player, Seat, Session

# Sessions read at a time: a few thousand hands, so memory stays small however long the
# history, and the statements few.
SESSIONS_AT_A_TIME = 200

# The columns of a hand's row that hold what was recorded (its seats are its `hand_player`
# rows), in this order.
_HAND = Hand.__table__.c
RECORDED = (
    _HAND.dealer_id, _HAND.kind, _HAND.picker_id, _HAND.partner_id, _HAND.called_card,
    _HAND.forced, _HAND.picking_points, _HAND.cracked_by_id, _HAND.recracked,
    _HAND.black_blitz, _HAND.red_blitz, _HAND.winner_id, _HAND.result, _HAND.penalized_id,
)  # fmt: skip


class SeatScore(NamedTuple):
    """A player seated for a hand: whether they played it (or sat out) and their score."""

    player: str
    played: bool
    score: int


class StoredHand(NamedTuple):
    """A hand as recorded, its multiplier, and its seats in seat order with their scores."""

    number: int
    hand: rules.Hand
    multiplier: int
    seats: tuple[SeatScore, ...]


@dataclass(frozen=True, slots=True)
class SessionHands:
    session_id: int
    created_at: datetime
    name: str
    hands: Sequence[StoredHand]


@contextmanager
def snapshot() -> Iterator[Connection]:
    """A connection whose reads all see the database as it was at the first of them, so that
    a file read a batch at a time is of one moment: PostgreSQL's REPEATABLE READ (SQLite's
    read transaction does so already)."""
    with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():
            yield connection


def players_of(connection: Connection, session_ids: Select[int]) -> list[str]:
    """Everyone seated in these sessions, now or for a hand, by name."""
    seated = select(Seat.player_id).where(Seat.session_id.in_(session_ids))
    at_a_hand = (
        select(HandPlayer.player_id)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(Hand.session_id.in_(session_ids))
    )
    return list(
        connection.scalars(
            select(Player.name)
            .where(Player.id.in_(seated) | Player.id.in_(at_a_hand))
            .order_by(Player.name_key)
        )
    )


def every_hand(
    connection: Connection, session_ids: Select[int], by_id: bool = False
) -> Iterator[SessionHands]:
    """These sessions, oldest first (or by id), each with its hands in order."""
    order = (Session.id,) if by_id else (Session.created_at, Session.id)
    sessions = connection.execute(
        select(Session.id, Session.created_at, Session.name)
        .where(Session.id.in_(session_ids))
        .order_by(*order)
    ).all()
    names = {
        player_id: name for player_id, name in connection.execute(select(Player.id, Player.name))
    }
    for start in range(0, len(sessions), SESSIONS_AT_A_TIME):
        batch = sessions[start : start + SESSIONS_AT_A_TIME]
        hands = _hands_of(connection, [row.id for row in batch], names)
        for session_id, created_at, name in batch:
            yield SessionHands(session_id, created_at, name, hands.get(session_id, []))


def _hands_of(
    connection: Connection, session_ids: list[int], names: dict[int, str]
) -> dict[int, list[StoredHand]]:
    """The sessions' hands in order, by session id."""
    hand, seat = Hand.__table__.c, HandPlayer.__table__.c
    rows = connection.execute(
        select(hand.id, hand.session_id, hand.number, *RECORDED, hand.multiplier)
        .where(hand.session_id.in_(session_ids))
        .order_by(hand.session_id, hand.number)
    ).all()
    seated: dict[int, list[tuple[str, int | None, int | None]]] = {row.id: [] for row in rows}
    scores: dict[int, list[SeatScore]] = {row.id: [] for row in rows}
    for hand_id, player_id, played, score, points, tricks in connection.execute(
        select(seat.hand_id, seat.player_id, seat.played, seat.score, seat.points, seat.tricks)
        .join(Hand.__table__, hand.id == seat.hand_id)
        .where(hand.session_id.in_(session_ids))
        .order_by(seat.hand_id, seat.seat)
    ).all():
        name = names[player_id]
        seated[hand_id].append((name, points, tricks))
        scores[hand_id].append(SeatScore(name, played, score))
    found: dict[int, list[StoredHand]] = {}
    for row in rows:
        stored = StoredHand(
            row.number,
            hand_of_row(row, seated[row.id], names),
            row.multiplier,
            tuple(scores[row.id]),
        )
        found.setdefault(row.session_id, []).append(stored)
    return found
