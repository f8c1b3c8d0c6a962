"""The stored records: players, sessions with their seats and rules, and hands.

Scores are derived by the rules engine. `Hand.multiplier` and the `HandPlayer` scores are
stored copies for fast queries, rewritten with every change to a session's hands.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ColumnElement,
    Double,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy import event as sa_event
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..rules import CARD_POINTS_TOTAL
from ..rules.rating import MU, SIGMA
from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """A stored time, in UTC: SQLite hands back naive times, all of them UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


# For the tables whose ids an address names: SQLite hands out an id once only, as PostgreSQL's
# sequences do, so an id that named a deleted row never names another.
NEVER_REUSED = {"sqlite_autoincrement": True}


# The largest id a row can have: PostgreSQL's `integer`.
MAX_ID = 2**31 - 1


def is_id(value: int) -> bool:
    return 0 < value <= MAX_ID


class Player(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # The name compared case-insensitively; unique, so "ann" and "Ann" are one player.
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    # A retired player keeps everything but is not offered for a new session.
    active: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    # Made with the player, so that a hand's write always finds its players' ratings to lock.
    rating: Mapped[PlayerRating | None] = relationship(
        cascade="all, delete-orphan", passive_deletes=True
    )


class Session(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (
        Index("ix_session_created_at_id", "created_at", "id"),
        Index("ix_session_completed_created_at_id", "completed", "created_at", "id"),
        # An event's tables, and the sessions of no event newest first.
        Index("ix_session_event_id_created_at_id", "event_id", "created_at", "id"),
        NEVER_REUSED,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)
    rounds: Mapped[int]
    first_dealer_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    partner: Mapped[str] = mapped_column(String(20))
    no_bid: Mapped[str] = mapped_column(String(20))
    cracking: Mapped[bool]
    blitzing: Mapped[bool]
    sitting_out: Mapped[str] = mapped_column(String(10), default="dealer", server_default="dealer")
    bump: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    schwarz: Mapped[str] = mapped_column(String(10), default="points", server_default="points")
    doublers: Mapped[str] = mapped_column(String(10), default="queue", server_default="queue")
    max_multiplier: Mapped[int] = mapped_column(default=0, server_default="0")
    penalties: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # Cents per point, for the settle-up.
    stake: Mapped[int] = mapped_column(default=0, server_default="0")
    # How many hands came before the seats now were taken: every later hand has these seats.
    seats_since: Mapped[int] = mapped_column(default=0, server_default="0")
    # Ended early: complete with the hands it has, until it is reopened.
    ended: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # A night kept without hands: complete with none, each player's net on their seat.
    totals_only: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # A table of a practice event: it keeps no summary, so no list, total or statistic counts it.
    practice: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # Kept by every write from the hands and seats (`summary`), so that lists of
    # sessions never count hands: how many it has, and whether it is complete with them.
    hand_count: Mapped[int] = mapped_column(default=0, server_default="0")
    completed: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # Grows with every write to the session; the API's ETag.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # For a session imported from a hands CSV, the file's SHA-256, so the same file twice makes
    # one session.
    origin: Mapped[str | None] = mapped_column(String(64), index=True)
    # A table of a club event: the event, its round and the table's number in the round.
    event_id: Mapped[int | None] = mapped_column(ForeignKey("event.id"))
    event_round: Mapped[int | None]
    event_table: Mapped[int | None]
    # A table's open call for the director: since when, and what it says ("" for nothing).
    director_at: Mapped[datetime | None] = mapped_column(db.DateTime(timezone=True))
    director_note: Mapped[str | None] = mapped_column(String(200))

    first_dealer: Mapped[Player] = relationship()
    seats: Mapped[list[Seat]] = relationship(
        back_populates="session", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="session", order_by="Hand.number", cascade="all, delete-orphan"
    )
    # Its changes, oldest first, as a backup reads it; a write adds `Change` rows itself, and
    # the database deletes them with the session.
    changes: Mapped[list[Change]] = relationship(order_by="Change.id", viewonly=True)
    # At a table of a club event, who sits in there for whom (RULES.md "Tournament tables").
    stand_ins: Mapped[list[StandIn]] = relationship(
        order_by="StandIn.player_id", cascade="all, delete-orphan", passive_deletes=True
    )


class Event(db.Model):  # type: ignore[name-defined,misc]
    """A club event: several tables a round, re-drawn between rounds, ranked over the whole
    event (RULES.md, "Club events"). Its tables are sessions linked to it; its players are
    `EventPlayer` rows, in the order they checked in."""

    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    # The column is `date`; the attribute's name keeps the type's free.
    day: Mapped[date | None] = mapped_column("date", db.Date)
    # The hands each player plays in a round, and the rounds the event plays (0: as many as
    # are drawn).
    hands: Mapped[int]
    rounds: Mapped[int]
    # Every rule option, as the API's `rules` object.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The entry fee in cents (0: points only), the percents of the pot for places 1, 2, ...
    # and for each round's top.
    entry: Mapped[int]
    places: Mapped[list[int]] = mapped_column(JSON)
    round_top: Mapped[int]
    ties: Mapped[str] = mapped_column(String(10))
    seed: Mapped[int]
    # Pairs of players' names the draws seat at different tables whenever they can.
    apart: Mapped[list[list[str]]] = mapped_column(JSON, default=list, server_default="[]")
    # A rehearsal: its tables may be filled with made-up hands, they count nowhere else, and
    # the whole event may be deleted.
    practice: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # Grows with every write to the event; the API's ETag.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(
        db.DateTime(timezone=True), default=utcnow, index=True
    )
    # Every hand at its tables waits for the other side to confirm it.
    confirm: Mapped[bool] = mapped_column(default=False, server_default=sa_false())

    players: Mapped[list[EventPlayer]] = relationship(
        order_by="EventPlayer.position", cascade="all, delete-orphan"
    )


class EventPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player of an event, at `position` in the order of checking in, and whether they are
    checked in for the next draw."""

    __table_args__ = (UniqueConstraint("event_id", "position"),)

    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, index=True)
    position: Mapped[int]
    checked_in: Mapped[bool]

    player: Mapped[Player] = relationship()


class StandIn(db.Model):  # type: ignore[name-defined,misc]
    """A substitute at a table of a club event: what `player` scores there counts for
    `stands_for` in the event's standings. In the session itself they are an ordinary
    arrival."""

    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, index=True)
    stands_for_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)

    player: Mapped[Player] = relationship(foreign_keys=[player_id])
    stands_for: Mapped[Player] = relationship(foreign_keys=[stands_for_id])


class Season(db.Model):  # type: ignore[name-defined,misc]
    """A season of a league: its sessions are those started from its first day to its last (days
    in the server's time zone) and, when it names some, played with its house rules; players
    are ranked by their average per hand once they have played `min_hands` hands."""

    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    # The name compared case-insensitively; unique, so "spring 2026" is "Spring 2026".
    name_key: Mapped[str] = mapped_column(String(240), unique=True)
    first_day: Mapped[date] = mapped_column(db.Date)
    last_day: Mapped[date] = mapped_column(db.Date)
    # The keys of the leaderboard's house rule filters its sessions are played with (every one
    # of them), or ["plain"] for none of them; [] for any.
    house_rules: Mapped[list[str]] = mapped_column(JSON)
    min_hands: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (UniqueConstraint("session_id", "player_id"),)

    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    # The player's net for a night kept without hands; None in a session with hands.
    net: Mapped[int | None]

    session: Mapped[Session] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Hand(db.Model):  # type: ignore[name-defined,misc]
    __table_args__ = (
        UniqueConstraint("session_id", "number"),
        CheckConstraint(f"picking_points BETWEEN 0 AND {CARD_POINTS_TOTAL}", name="picking_points"),
        # A player's picks and partnerships in some sessions (a year's) found from the index.
        Index("ix_hand_picker_id_session_id", "picker_id", "session_id"),
        Index("ix_hand_partner_id_session_id", "partner_id", "session_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("session.id", ondelete="CASCADE"))
    number: Mapped[int]
    dealer_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    kind: Mapped[str] = mapped_column(String(10))
    picker_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    called_card: Mapped[str | None] = mapped_column(String(3))
    forced: Mapped[bool] = mapped_column(default=False)
    picking_points: Mapped[int | None]
    cracked_by_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    recracked: Mapped[bool] = mapped_column(default=False)
    black_blitz: Mapped[bool] = mapped_column(default=False)
    red_blitz: Mapped[bool] = mapped_column(default=False)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    # A pick's result (given, or following from its points); None for other kinds.
    result: Mapped[str | None] = mapped_column(String(16))
    penalized_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    # At a table of an event that asks for it, who of the other side confirmed the hand; an
    # edit clears it.
    confirmed_by_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    multiplier: Mapped[int] = mapped_column(default=1)
    # How many were seated for the hand (its players and who sat out), for statistics by
    # table size.
    seated: Mapped[int]

    session: Mapped[Session] = relationship(back_populates="hands")
    players: Mapped[list[HandPlayer]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", order_by="HandPlayer.seat"
    )


class HandPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player seated for a hand, at `seat` of the seats it was played with: whether they
    played it or sat out, their score, whether they won it, and for a leaster the card points
    and tricks when they were recorded."""

    # A player's hands, found by player: a merge moves them; an undone restore keeps a player
    # who has any.
    __table_args__ = (
        Index(
            "ix_hand_player_player_totals",
            "player_id",
            "hand_id",
            "played",
            "score",
            "won",
            "schneidered",
        ),
    )

    hand_id: Mapped[int] = mapped_column(
        ForeignKey("hand.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    seat: Mapped[int]
    played: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    score: Mapped[int]
    won: Mapped[bool]
    schneidered: Mapped[bool] = mapped_column(default=False)
    points: Mapped[int | None]
    tricks: Mapped[int | None]

    hand: Mapped[Hand] = relationship(back_populates="players")
    player: Mapped[Player] = relationship()


class SessionPlayer(db.Model):  # type: ignore[name-defined,misc]
    """What a player did in a session at tables of one size (`seated`), added up from the hands
    they played by every write to the session (`summary`): the statistics, the
    leaderboard and a player's sessions read these rows instead of every hand. `place` is the
    player's place in the session's standings once it is complete, on each of their rows."""

    # A player's rows, and every player's totals (nights apart) for the leaderboard from the
    # index alone.
    __table_args__ = (
        Index(
            "ix_session_player_player",
            "player_id",
            "session_id",
            "seated",
            "hands",
            "hands_won",
            "total",
            "picks",
            "picks_won",
            "stake",
        ),
    )

    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    seated: Mapped[int] = mapped_column(primary_key=True)
    hands: Mapped[int]
    hands_won: Mapped[int]
    total: Mapped[int]
    picks: Mapped[int]
    picks_won: Mapped[int]
    alone: Mapped[int]
    alone_won: Mapped[int]
    partner: Mapped[int]
    partner_won: Mapped[int]
    cracks: Mapped[int]
    cracks_won: Mapped[int]
    recracked: Mapped[int]
    crack_points: Mapped[int]
    leasters: Mapped[int]
    leasters_won: Mapped[int]
    schneidered: Mapped[int]
    penalties: Mapped[int]
    card_points: Mapped[int]
    picks_with_points: Mapped[int]
    # The session's stake, cents a point, so that money adds up without reading the session.
    stake: Mapped[int]
    place: Mapped[int | None]


class SessionMember(db.Model):  # type: ignore[name-defined,misc]
    """A player who sat in a session: seated now, or at any of its hands, played or sat out;
    kept by every write to the session (`summary`), so that the players page counts a
    player's sessions from these rows instead of every hand."""

    __table_args__ = (Index("ix_session_member_player", "player_id", "session_id"),)

    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )


class PlayerRating(db.Model):  # type: ignore[name-defined,misc]
    """A player's rating (`rules.rating`): kept by every hand recorded at the end of the history
    and recomputed from the whole history after any other change (`ratings`). `last_at` and
    `last_session_id` name the last session they played a rated game in, `history` their
    rating after each session (`rules.rating.History`, as JSON)."""

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Double, default=MU)
    sigma: Mapped[float] = mapped_column(Double, default=SIGMA)
    hands: Mapped[int] = mapped_column(default=0)
    last_at: Mapped[datetime | None] = mapped_column(db.DateTime(timezone=True))
    last_session_id: Mapped[int | None]
    # Its last point is the latest session, whose rating is the player's rating now, whatever
    # the point says: a hand's write rewrites the history only at a player's first hand of a
    # session.
    history: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))


class RatingState(db.Model):  # type: ignore[name-defined,misc]
    """Whether the ratings are those of the history now (one row, id 1): `generation` grows with
    every write that changes the history other than by a hand recorded after the last, and
    `computed` is the generation the ratings were last recomputed for. No row is generation 0,
    computed."""

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    generation: Mapped[int]
    computed: Mapped[int]


class EarlyPayment(db.Model):  # type: ignore[name-defined,misc]
    """A payment, in cents, that settled a player who left the session (the leaver, its payer
    or its payee) before the session's own settle-up."""

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), index=True
    )
    leaver_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    payer_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    amount: Mapped[int]


class Change(db.Model):  # type: ignore[name-defined,misc]
    """One change to a session: to a hand (`number`), with the hand before and after it as the
    API shows a hand (None where there was no hand); or to the session itself (no number),
    ending or reopening it (`{"ended": ...}`) or settling a leaver early (`{"player",
    "payments"}`, None where they were not settled)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    number: Mapped[int | None]
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class TrashedSession(db.Model):  # type: ignore[name-defined,misc]
    """A deleted session, kept whole (as a backup holds it) until it is restored or, after
    `KEPT_FOR`, purged."""

    KEPT_FOR = timedelta(days=30)

    session_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    deleted_at: Mapped[datetime] = mapped_column(
        db.DateTime(timezone=True), default=utcnow, index=True
    )
    data: Mapped[dict[str, Any]] = mapped_column(JSON)

    @classmethod
    def kept_since(cls) -> datetime:
        """The earliest deletion the trash still holds."""
        return utcnow() - cls.KEPT_FOR

    @classmethod
    def kept(cls) -> ColumnElement[bool]:
        """Whether a row is still in the trash: deleted within `KEPT_FOR`."""
        return cls.deleted_at >= cls.kept_since()


class WriteKey(db.Model):  # type: ignore[name-defined,misc]
    """A write already done, by the key its request carried (an API Idempotency-Key or a page
    form's one-time key), with the answer it got, so a repeat gets that answer again."""

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    answer: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        db.DateTime(timezone=True), default=utcnow, index=True
    )


class RuleSet(db.Model):  # type: ignore[name-defined,misc]
    """A group's rules saved under a name ("Friday rules"), to start new sessions with: every
    option, as the API's `rules` object."""

    __table_args__ = NEVER_REUSED

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # The name compared case-insensitively; unique, so "friday rules" is "Friday rules".
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)


class RestoreJournal(db.Model):  # type: ignore[name-defined,misc]
    """A restore (or merge) of a backup under way, written with its first batch and kept up to
    date by each batch after, in the batch's own transaction; its last batch deletes it. One
    left behind by a restore no process is running was cut short (see `journal`)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    started_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)
    merge: Mapped[bool]
    # How many of the backup's sessions the batches written so far dealt with, of how many.
    done: Mapped[int]
    total: Mapped[int]
    # The players the restore added.
    players: Mapped[list[int]] = mapped_column(JSON)


class RestoredSession(db.Model):  # type: ignore[name-defined,misc]
    """A session the restore under way added, with the version it was added at: a session a
    phone has written to since has another."""

    session_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    version: Mapped[int]


class PlayerMerge(db.Model):  # type: ignore[name-defined,misc]
    """A player merged into another, kept `KEPT_FOR` so that it can be undone: who they were,
    and the sessions (and trashed sessions) where their seats became the other's."""

    __table_args__ = NEVER_REUSED
    KEPT_FOR = timedelta(days=30)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow, index=True)
    player_id: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    active: Mapped[bool]
    into_id: Mapped[int] = mapped_column(index=True)
    sessions: Mapped[list[int]] = mapped_column(JSON)
    trashed: Mapped[list[int]] = mapped_column(JSON)

    @classmethod
    def kept_since(cls) -> datetime:
        """The earliest merge that can still be undone."""
        return utcnow() - cls.KEPT_FOR


class ShareLink(db.Model):  # type: ignore[name-defined,misc]
    """A link anyone may open, with no passcode, to read one thing: a season's standings and
    nights, a club event's board and results, or a session's scoresheet (`kind`, and the id
    of that one thing in its own column). The link holds `<id>.<secret>`; only the secret's
    SHA-256 is kept. Revoking deletes the row, and so does deleting what it shows."""

    __table_args__ = (
        CheckConstraint(
            "(kind = 'season' AND season_id IS NOT NULL AND event_id IS NULL"
            " AND session_id IS NULL)"
            " OR (kind = 'event' AND event_id IS NOT NULL AND season_id IS NULL"
            " AND session_id IS NULL)"
            " OR (kind = 'session' AND session_id IS NOT NULL AND season_id IS NULL"
            " AND event_id IS NULL)",
            name="one_target",
        ),
        NEVER_REUSED,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("season.id", ondelete="CASCADE"), index=True
    )
    event_id: Mapped[int | None] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE"), index=True
    )
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("session.id", ondelete="CASCADE"), index=True
    )
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(db.DateTime(timezone=True), default=utcnow)

    @property
    def target(self) -> int:
        """The id of what it shows."""
        found = self.season_id or self.event_id or self.session_id
        assert found is not None
        return found


class ShareView(db.Model):  # type: ignore[name-defined,misc]
    """How many times an address opened a share link in one minute (`minute`: minutes since
    1970, UTC): the shared pages' rate limit, counted in the database so that every server
    worker counts the same views."""

    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    minute: Mapped[int] = mapped_column(primary_key=True, autoincrement=False, index=True)
    views: Mapped[int]


# On PostgreSQL, every change to a session's or an event's version, and a session or event added
# or removed, is told at its commit on this channel, to every process of every server on the
# database, whatever wrote it (`live`): "session 12", and "event 3" for a hand at its table.
LIVE_CHANNEL = "scorekeeper_live"
LIVE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION {LIVE_CHANNEL}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    PERFORM pg_notify('{LIVE_CHANNEL}', TG_TABLE_NAME || ' ' || changed.id);
    IF TG_TABLE_NAME = 'session' THEN
        IF changed.event_id IS NOT NULL THEN
            PERFORM pg_notify('{LIVE_CHANNEL}', 'event ' || changed.event_id);
        END IF;
    END IF;
    RETURN NULL;
END $$
"""
LIVE_TRIGGERS = {
    table: f"CREATE TRIGGER {table}_live AFTER INSERT OR DELETE OR UPDATE OF version ON {table} "
    f"FOR EACH ROW EXECUTE FUNCTION {LIVE_CHANNEL}()"
    for table in ("session", "event")
}


def _live_triggers(table: Any, connection: Any, **_: Any) -> None:
    """The triggers made with the tables where `create_all` makes them (the tests); the
    migrations make them on a database `flask db upgrade` keeps."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(LIVE_FUNCTION)
        connection.exec_driver_sql(LIVE_TRIGGERS[table.name])


for _table in (Session.__table__, Event.__table__):
    sa_event.listen(_table, "after_create", _live_triggers)


class HistoryWrites(db.Model):  # type: ignore[name-defined,misc]
    """How many times the sessions were written (one row, id 1, made by the first write): one
    more for each session added or removed and each bump of a session's version, counted by
    the database itself whatever wrote it (`WRITES_TRIGGERS`), so that a process tells whether
    the history changed since it last looked from one row (`insights.memo`)."""

    __tablename__ = "history_writes"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    writes: Mapped[int]


COUNT_A_WRITE = (
    "INSERT INTO history_writes (id, writes) VALUES (1, 1) "
    "ON CONFLICT (id) DO UPDATE SET writes = history_writes.writes + 1"
)
# On PostgreSQL the count is taken at the commit (a deferred trigger), so that the row is held
# for an instant: writes to different sessions run at once, and a transaction holding the row
# waits for nothing else. SQLite writes one transaction at a time.
WRITES_TRIGGERS = {
    "postgresql": [
        "CREATE OR REPLACE FUNCTION history_written() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {COUNT_A_WRITE}; RETURN NULL; END $$",
        "CREATE CONSTRAINT TRIGGER session_written "
        "AFTER INSERT OR DELETE OR UPDATE OF version ON session "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION history_written()",
    ],
    "sqlite": [
        f"CREATE TRIGGER session_written_{name} AFTER {what} ON session BEGIN {COUNT_A_WRITE}; END"
        for name, what in (
            ("insert", "INSERT"),
            ("delete", "DELETE"),
            ("update", "UPDATE OF version"),
        )
    ],
}


def _writes_triggers(_table: Any, connection: Any, **_: Any) -> None:
    """The triggers made with the sessions' table where `create_all` makes it (the tests); the
    migrations make them on a database `flask db upgrade` keeps."""
    for statement in WRITES_TRIGGERS[connection.dialect.name]:
        connection.exec_driver_sql(statement)


sa_event.listen(Session.__table__, "after_create", _writes_triggers)
