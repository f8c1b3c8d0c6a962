"""Finding past sessions: filtered by player, date and house rules, a page at a time, each with
its winner.

Players and winners come from the scores the rules engine stored, summed in the database and
ranked by the engine's standings, so a long history never loads every hand. A session's players
are everyone its totals name (`rules.named_players`): who played a hand of it or is seated now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, Select, and_, func, or_, select
from sqlalchemy.orm import selectinload

from .. import rules
from ..sessions import loading
from ..sessions.extensions import db
from ..sessions.models import Hand, HandPlayer, Player, Seat, Session, SessionPlayer
from .dates import DateRange
from .scope import HOUSE_RULES, RuleFilter

PER_PAGE = 20


@dataclass(frozen=True)
class SessionFilter:
    player: str = ""
    dates: DateRange = field(default_factory=DateRange)
    house: RuleFilter = field(default_factory=RuleFilter)
    # False: sessions of their own alone, no event's tables.
    tables: bool = True


@dataclass(frozen=True)
class SessionRow:
    session: Session
    table: rules.Table
    players: tuple[str, ...]
    hand_count: int
    complete: bool
    winners: tuple[str, ...]
    # Who is ahead, and by what total, once a hand is played (the winners once complete).
    leaders: tuple[str, ...] = ()
    lead: int = 0

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The house rules the session is played with, as the filters name them (the cap with
        its number)."""
        options = self.table.options
        return tuple(
            f"{rule.label} x{options.max_multiplier}" if key == "cap" else rule.label
            for key, rule in HOUSE_RULES.items()
            if rule.played(options)
        )


@dataclass(frozen=True)
class HistoryPage:
    rows: list[SessionRow]
    number: int
    pages: int
    total: int


def _filtered(query: Select[Any], wanted: SessionFilter) -> Select[Any]:
    """The sessions the filter finds; never a table of a practice event."""
    query = query.where(~Session.practice)
    if not wanted.tables:
        query = query.where(Session.event_id.is_(None))
    if wanted.player:
        player = select(Player.id).where(Player.name_key == rules.name_key(wanted.player))
        seated = select(Seat.session_id).where(Seat.player_id.in_(player))
        played = select(SessionPlayer.session_id).where(SessionPlayer.player_id.in_(player))
        query = query.where(Session.id.in_(seated) | Session.id.in_(played))
    return query.where(*wanted.dates.session_conditions(), *wanted.house.session_conditions())


NEWEST_FIRST = (Session.created_at.desc(), Session.id.desc())


def sessions_after(
    wanted: SessionFilter, limit: int, before: int | None = None
) -> tuple[Sequence[Session], bool]:
    """Up to `limit` sessions, newest first, listed after session `before` (from the newest
    when None), and whether more follow. A `before` no longer listed is refused."""
    query = _filtered(select(Session), wanted)
    if before is not None:
        anchor = db.session.scalar(select(Session.created_at).where(Session.id == before))
        if anchor is None:
            raise rules.RuleError(
                f"Session {before} is not listed any more: start again from the first page.",
                "before",
            )
        query = query.where(
            or_(
                Session.created_at < anchor,
                and_(Session.created_at == anchor, Session.id < before),
            )
        )
    sessions = db.session.scalars(
        query.order_by(*NEWEST_FIRST)
        .limit(limit + 1)
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).all()
    return sessions[:limit], len(sessions) > limit


def session_ids(wanted: SessionFilter) -> Select[int]:
    """The ids of the sessions the filter finds, as a select to read them by."""
    return _filtered(select(Session.id), wanted)


def find_sessions(wanted: SessionFilter, number: int = 1, per_page: int = PER_PAGE) -> HistoryPage:
    """Newest first, one page of them."""
    total: int = db.session.scalar(_filtered(select(func.count(Session.id)), wanted)) or 0
    pages = max(1, -(-total // per_page))
    number = min(max(number, 1), pages)
    sessions: Sequence[Session] = db.session.scalars(
        _filtered(select(Session), wanted)
        .order_by(*NEWEST_FIRST)
        .limit(per_page)
        .offset((number - 1) * per_page)
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).all()
    return HistoryPage(rows=rows_for(sessions), number=number, pages=pages, total=total)


@dataclass(frozen=True)
class _Sums:
    name: str
    total: int
    hands_won: int
    played: bool


def rows_for(sessions: Sequence[Session]) -> list[SessionRow]:
    """Each session with its players, hand count and, once complete, its winners (ties
    share; a night's by its nets)."""
    ids = [session.id for session in sessions]
    # Each session's players by the first hand and seat they sat at, as the totals name them.
    first_seat = func.min(Hand.number * rules.MAX_SEATS + HandPlayer.seat)
    sums: dict[int, list[_Sums]] = {}
    for session_id, name, total, won, played in db.session.execute(
        select(
            Hand.session_id,
            Player.name,
            func.sum(HandPlayer.score),
            func.sum(HandPlayer.won.cast(Integer)),
            func.max(HandPlayer.played.cast(Integer)),
        )
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(Hand.session_id.in_(ids))
        .group_by(Hand.session_id, Player.id, Player.name)
        .order_by(Hand.session_id, first_seat)
    ):
        sums.setdefault(session_id, []).append(_Sums(name, int(total), int(won), bool(played)))

    rows = []
    for session in sessions:
        table = loading.table_of(session)
        at_hands = sums.get(session.id, [])
        ordered = [p.name for p in at_hands if p.played or p.name in table.seats]
        players = (*ordered, *(p for p in table.seats if p not in ordered))
        count = session.hand_count
        complete = table.is_complete(count)
        leaders: tuple[str, ...] = ()
        lead = 0
        if session.totals_only:
            standings = rules.night_sheet(loading.nets_of(session)).standings
            leaders = tuple(s.player for s in standings if s.place == 1)
            lead = standings[0].total
        elif count:
            totals = dict.fromkeys(players, 0) | {p.name: p.total for p in at_hands}
            won = dict.fromkeys(players, 0) | {p.name: p.hands_won for p in at_hands}
            standings = rules.standings(players, totals, won)
            leaders = tuple(s.player for s in standings if s.place == 1)
            lead = standings[0].total
        winners = leaders if complete else ()
        rows.append(SessionRow(session, table, players, count, complete, winners, leaders, lead))
    return rows


def in_progress() -> SessionRow | None:
    """The newest session of its own (no event's table) that still has hands to play: not
    complete (`Session.completed`)."""
    session = db.session.scalars(
        select(Session)
        .where(~Session.completed, Session.event_id.is_(None))
        .order_by(*NEWEST_FIRST)
        .limit(1)
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).first()
    return rows_for([session])[0] if session else None
