"""The players page's list: every player with the sessions they sat in, the hands they played,
when they last played and their total, from the sessions' summaries (`sessions.summary`); and
the merges that can still be undone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from .. import rules
from ..sessions.extensions import db
from ..sessions.models import (
    Player,
    PlayerMerge,
    PlayerRating,
    Session,
    SessionMember,
    SessionPlayer,
    as_utc,
)
from ..sessions.records import iso
from ..sessions.summary import NIGHT
from . import memo, years
from .dates import DateRange
from .scope import in_scope
from .stats import rating_of


@dataclass(frozen=True)
class Listed:
    id: int
    name: str
    active: bool
    sessions: int
    hands: int
    total: int
    last_played: datetime | None
    # How many of their sessions were nights kept without hands.
    nights: int = 0
    # Over the whole history; None before their first rated hand.
    rating: rules.rating.Rating | None = None


@dataclass(frozen=True)
class _Played:
    sessions: int
    last: datetime | None
    hands: int
    total: int
    nights: int

    def then(self, later: _Played) -> _Played:
        """Added up with what the player did after."""
        return _Played(
            self.sessions + later.sessions,
            later.last or self.last,
            self.hands + later.hands,
            self.total + later.total,
            self.nights + later.nights,
        )


def players(search: str = "", player_id: int | None = None) -> list[Listed]:
    """Every player (whose name holds `search`, case ignored; or the one `player_id`), by name."""
    played = memo.kept("played", _played)
    query = (
        select(Player, PlayerRating.mu, PlayerRating.sigma, PlayerRating.hands)
        .outerjoin(PlayerRating, PlayerRating.player_id == Player.id)
        .order_by(Player.name_key, Player.id)
    )
    if player_id is not None:
        query = query.where(Player.id == player_id)
    wanted = search.strip().casefold()
    nothing = _Played(0, None, 0, 0, 0)
    listed = []
    for p, mu, sigma, rated in db.session.execute(query):
        if wanted in p.name.casefold():
            n = played.get(p.id, nothing)
            last = None if n.last is None else as_utc(n.last)
            rating = rating_of(mu, sigma, rated)
            listed.append(
                Listed(p.id, p.name, p.active, n.sessions, n.hands, n.total, last, n.nights, rating)
            )
    return listed


def _played() -> dict[int, _Played]:
    """What each player who sat in a session did: the sessions, the last one's start, the
    hands and total, the nights kept without hands; from each year's (`years`)."""
    of_years = years.each_year(("played each year",), DateRange(), None, _played_in)
    played: dict[int, _Played] = {}
    for year in sorted(of_years):
        for player_id, numbers in of_years[year].items():
            held = played.get(player_id)
            played[player_id] = numbers if held is None else held.then(numbers)
    return played


def _played_in(dates: DateRange) -> dict[int, _Played]:
    sessions = db.session.execute(
        select(SessionMember.player_id, func.count(), func.max(Session.created_at))
        .join(Session, Session.id == SessionMember.session_id)
        .where(*dates.session_conditions())
        .group_by(SessionMember.player_id)
    )
    hands = {
        row[0]: row[1:]
        for row in db.session.execute(
            select(
                SessionPlayer.player_id,
                func.sum(SessionPlayer.hands),
                func.sum(SessionPlayer.total),
                func.count().filter(SessionPlayer.seated == NIGHT),
            )
            .where(*in_scope(dates, None))
            .group_by(SessionPlayer.player_id)
        )
    }
    played = {
        player_id: _Played(count, last, *hands.pop(player_id, (0, 0, 0)))
        for player_id, count, last in sessions
    }
    played.update((player_id, _Played(0, None, *row)) for player_id, row in hands.items())
    return played


def others(player_id: int) -> list[tuple[int, str]]:
    """Every other player's id and name, by name: those a player can be merged into."""
    query = select(Player.id, Player.name).where(Player.id != player_id).order_by(Player.name_key)
    return [(other_id, name) for other_id, name in db.session.execute(query)]


def merges(into: int | None = None) -> list[PlayerMerge]:
    """The merges (into the player `into`) that can still be undone, newest first."""
    query = select(PlayerMerge).where(PlayerMerge.at >= PlayerMerge.kept_since())
    if into is not None:
        query = query.where(PlayerMerge.into_id == into)
    return list(db.session.scalars(query.order_by(PlayerMerge.id.desc())))


def player_json(player: Listed) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "sessions": player.sessions,
        "hands": player.hands,
        "total": player.total,
        "last_played": None if player.last_played is None else iso(player.last_played),
        "active": player.active,
        "nights": player.nights,
        "rating": None if player.rating is None else float(player.rating.shown),
        "rating_provisional": player.rating is None or player.rating.provisional,
    }
