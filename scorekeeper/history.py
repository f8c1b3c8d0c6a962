"""Finding past sessions: filtered by player and date, a page at a time, each with its winner.

Winners come from the scores the rules engine stored, summed in the database and ranked by the
engine's standings, so a long history never loads every hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, Select, func, select
from sqlalchemy.orm import selectinload

from . import rules, store
from .extensions import db
from .models import Hand, HandPlayer, Player, Seat, Session
from .stats import DateRange

PER_PAGE = 20


@dataclass(frozen=True)
class SessionFilter:
    player: str = ""
    dates: DateRange = field(default_factory=DateRange)


@dataclass(frozen=True)
class SessionRow:
    session: Session
    table: rules.Table
    hand_count: int
    complete: bool
    winners: tuple[str, ...]


@dataclass(frozen=True)
class HistoryPage:
    rows: list[SessionRow]
    number: int
    pages: int
    total: int


def _filtered(query: Select[Any], wanted: SessionFilter) -> Select[Any]:
    if wanted.player:
        seated = (
            select(Seat.session_id)
            .join(Player, Player.id == Seat.player_id)
            .where(Player.name_key == rules.name_key(wanted.player))
        )
        query = query.where(Session.id.in_(seated))
    return query.where(*wanted.dates.session_conditions())


def find_sessions(wanted: SessionFilter, number: int = 1, per_page: int = PER_PAGE) -> HistoryPage:
    """Newest first, one page of them."""
    total: int = db.session.scalar(_filtered(select(func.count(Session.id)), wanted)) or 0
    pages = max(1, -(-total // per_page))
    number = min(max(number, 1), pages)
    sessions: Sequence[Session] = db.session.scalars(
        _filtered(select(Session), wanted)
        .order_by(Session.created_at.desc(), Session.id.desc())
        .limit(per_page)
        .offset((number - 1) * per_page)
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).all()
    return HistoryPage(rows=rows_for(sessions), number=number, pages=pages, total=total)


def rows_for(sessions: Sequence[Session]) -> list[SessionRow]:
    """Each session with its hand count and, once complete, its winners (ties share)."""
    ids = [session.id for session in sessions]
    counts: dict[int, int] = {
        session_id: count
        for session_id, count in db.session.execute(
            select(Hand.session_id, func.count(Hand.id))
            .where(Hand.session_id.in_(ids))
            .group_by(Hand.session_id)
        )
    }
    sums: dict[int, dict[int, tuple[int, int]]] = {}
    for session_id, player_id, total, won in db.session.execute(
        select(
            Hand.session_id,
            HandPlayer.player_id,
            func.sum(HandPlayer.score),
            func.sum(func.cast(HandPlayer.won, Integer)),
        )
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(Hand.session_id.in_(ids))
        .group_by(Hand.session_id, HandPlayer.player_id)
    ):
        sums.setdefault(session_id, {})[player_id] = (int(total), int(won))

    rows = []
    for session in sessions:
        table = store.table_of(session)
        count = counts.get(session.id, 0)
        complete = table.is_complete(count)
        winners: tuple[str, ...] = ()
        if complete:
            by_player = sums.get(session.id, {})
            totals = {s.player.name: by_player.get(s.player_id, (0, 0))[0] for s in session.seats}
            won = {s.player.name: by_player.get(s.player_id, (0, 0))[1] for s in session.seats}
            standings = rules.standings(table.seats, totals, won)
            winners = tuple(s.player for s in standings if s.place == 1)
        rows.append(SessionRow(session, table, count, complete, winners))
    return rows


def in_progress() -> SessionRow | None:
    """The newest session that still has hands to play."""
    hands = select(func.count(Hand.id)).where(Hand.session_id == Session.id).scalar_subquery()
    seats = select(func.count()).where(Seat.session_id == Session.id).scalar_subquery()
    session = db.session.scalars(
        select(Session)
        .where((Session.rounds == 0) | (hands < Session.rounds * seats))
        .order_by(Session.created_at.desc(), Session.id.desc())
        .limit(1)
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).first()
    return rows_for([session])[0] if session else None
