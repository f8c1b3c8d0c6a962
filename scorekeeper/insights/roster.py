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


def players(search: str = "", player_id: int | None = None) -> list[Listed]:
    """Every player (whose name holds `search`, case ignored; or the one `player_id`), by name."""
    sessions = (
        select(
            SessionMember.player_id,
            func.count().label("sessions"),
            func.max(Session.created_at).label("last"),
        )
        .join(Session, Session.id == SessionMember.session_id)
        .group_by(SessionMember.player_id)
        .subquery()
    )
    hands = (
        select(
            SessionPlayer.player_id,
            func.sum(SessionPlayer.hands).label("hands"),
            func.sum(SessionPlayer.total).label("total"),
            func.count().filter(SessionPlayer.seated == NIGHT).label("nights"),
        )
        .group_by(SessionPlayer.player_id)
        .subquery()
    )
    query = (
        select(
            Player,
            func.coalesce(sessions.c.sessions, 0),
            func.coalesce(hands.c.hands, 0),
            func.coalesce(hands.c.total, 0),
            sessions.c.last,
            func.coalesce(hands.c.nights, 0),
            PlayerRating.mu,
            PlayerRating.sigma,
            PlayerRating.hands,
        )
        .outerjoin(sessions, sessions.c.player_id == Player.id)
        .outerjoin(hands, hands.c.player_id == Player.id)
        .outerjoin(PlayerRating, PlayerRating.player_id == Player.id)
        .order_by(Player.name_key, Player.id)
    )
    if player_id is not None:
        query = query.where(Player.id == player_id)
    wanted = search.strip().casefold()
    return [
        Listed(
            p.id,
            p.name,
            p.active,
            n,
            played,
            total,
            None if last is None else as_utc(last),
            nights,
            rating_of(mu, sigma, rated),
        )
        for p, n, played, total, last, nights, mu, sigma, rated in db.session.execute(query)
        if wanted in p.name.casefold()
    ]


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
