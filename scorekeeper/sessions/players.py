"""Changes to a player: a rename, retiring or bringing back, merging two entries of one person,
and undoing a merge.

A name is kept once, on the player, but what a session's changes and the trash keep names
players by name. So a rename or a merge rewrites those too, and records itself in the changes
of every session it touches, bumping their versions, in one transaction. The write takes the
lock for adding sessions and players, then the locks of the player's sessions, then the
player's row: a session write that seats the player (and so reads its row) runs wholly before
or wholly after it.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import delete, insert, or_, select, update

from .. import rules
from . import ratings
from .database import begin_write, lock_sessions
from .errors import Conflict, NotFound
from .event_writes import rename_apart
from .extensions import db
from .models import (
    Change,
    EarlyPayment,
    EventPlayer,
    Hand,
    HandPlayer,
    Player,
    PlayerMerge,
    PlayerRating,
    Seat,
    Session,
    SessionMember,
    SessionPlayer,
    StandIn,
    TrashedSession,
    as_utc,
    utcnow,
)
from .renames import (
    BATCH,
    names_in,
    rewrite_changes,
    rewrite_trash,
    sessions_naming,
    trashed_naming,
)
from .writes import Write, check_key, transaction

# How often a write whose player was seated somewhere new while it waited starts again.
TRIES = 5
HAND_PLAYER_COLUMNS = (
    "dealer_id", "picker_id", "partner_id", "cracked_by_id", "winner_id", "penalized_id",
    "confirmed_by_id",
)  # fmt: skip
PAYMENT_COLUMNS = ("leaver_id", "payer_id", "payee_id")


class PlayerWrite(Write):
    """A write to players, holding their rows and the locks of every session they sit in, and
    of every session whose history names the first of them (`named`)."""

    def __init__(
        self,
        players: list[Player],
        sessions: list[int],
        named: Collection[int],
        key: str | None,
        digest: str,
    ):
        super().__init__(key, digest)
        self.players = players
        self.sessions = sessions
        self.named = set(named)

    def rename(self, name: str) -> Player:
        (player,) = self.players
        name = rules.player_name(name, "name")
        key = rules.name_key(name)
        if player.name == name:
            return player
        if key != player.name_key:
            other = db.session.scalar(select(Player).where(Player.name_key == key))
            if other is not None:
                raise Conflict(
                    f"{other.name} is another player already. If {player.name} and "
                    f"{other.name} are one person, merge {player.name} into {other.name} "
                    "instead.",
                    "name",
                )
            others = db.session.scalars(select(Player.name).where(Player.id != player.id))
            rules.refuse_look_alikes([name], others, (), "name")
        old = player.name
        trashed = [entry.session_id for entry in trashed_naming(old)]
        player.name, player.name_key = name, key
        self.rewrite(self.sessions, trashed, "rename", old, name)
        rename_apart(old, name)
        return player

    def set_active(self, active: bool) -> Player:
        (player,) = self.players
        player.active = active
        return player

    def merge(self) -> Player:
        """Make every seat, hand, score and payment of the first player the second's, and name
        the second wherever the history names the first."""
        gone, into = self.players
        if gone.id == into.id:
            raise rules.RuleError("A player can't be merged into themselves.", "into")
        moved = sorted(set(_sessions_of([gone.id])) | self.named)
        trashed = trashed_naming(gone.name)
        shared = _shared_session(moved, trashed, into)
        if shared is not None:
            raise Conflict(
                f"{gone.name} and {into.name} both played in {shared}, so they are two people: "
                "they can't be merged.",
                "into",
            )
        old, new = gone.name, into.name
        merge = PlayerMerge(
            player_id=gone.id,
            name=old,
            active=gone.active,
            into_id=into.id,
            sessions=moved,
            trashed=[entry.session_id for entry in trashed],
        )
        _move_event_players(gone, into)
        _move(gone.id, into.id, None)
        ratings.changed()
        self.rewrite(moved, merge.trashed, "merge", old, new)
        rename_apart(old, new)
        db.session.add(merge)
        db.session.delete(gone)
        return into

    def rewrite(
        self, sessions: list[int], trashed: list[int], action: str, old: str, new: str
    ) -> None:
        """Name `new` where the history of the sessions, and the sessions `trashed` in the
        trash, named `old`; record the change in each, bumping its version."""
        rewrite_changes(old, new, sessions)
        rewrite_trash(trashed, action, old, new)
        self.record(sessions, action, old, new)

    def record(self, sessions: list[int], action: str, old: str, new: str) -> None:
        """Record the change in each of the sessions, and bump its version."""
        for start in range(0, len(sessions), BATCH):
            db.session.execute(
                update(Session)
                .where(Session.id.in_(sessions[start : start + BATCH]))
                .values(version=Session.version + 1)
            )
        at = utcnow()
        rows = [
            {"session_id": session_id, "at": at, "action": action, "number": None,
             "before": {"name": old}, "after": {"name": new}}
            for session_id in sessions
        ]  # fmt: skip
        if rows:
            db.session.execute(insert(Change), rows)


def _shared_session(moved: list[int], trashed: list[TrashedSession], into: Player) -> str | None:
    """A session, or a session in the trash, where the player to merge (in `moved`, or in the
    trash `trashed`) sat with `into`: at its hands or seats now, or in its history."""
    theirs = set(_sessions_of([into.id])) | sessions_naming(into.name, moved)
    for session_id in sorted(set(moved) & theirs):
        name = db.session.scalar(select(Session.name).where(Session.id == session_id))
        return _session_named(session_id, name)
    for entry in trashed:
        if into.name in set(names_in(entry.data)):
            named = _session_named(entry.session_id, entry.data["session"]["name"])
            return f"{named}, in the trash"
    return None


def _session_named(session_id: int, name: str | None) -> str:
    return f'session {session_id} "{name}"' if name else f"session {session_id}"


def _sessions_of(player_ids: Collection[int]) -> list[int]:
    """The sessions where any of the players sits, sat at a hand, was paid or paid early, or
    was stood in for."""
    hands = select(Hand.session_id).join(HandPlayer).where(HandPlayer.player_id.in_(player_ids))
    seats = select(Seat.session_id).where(Seat.player_id.in_(player_ids))
    paid = select(EarlyPayment.session_id).where(
        or_(*(getattr(EarlyPayment, c).in_(player_ids) for c in PAYMENT_COLUMNS))
    )
    stood_in = select(StandIn.session_id).where(StandIn.stands_for_id.in_(player_ids))
    return sorted(set(db.session.scalars(hands.union(seats, paid, stood_in))))


def _move_event_players(gone: Player, into: Player) -> None:
    """Make the club events `gone` checked in to `into`'s; refused when both are players of one
    event."""
    theirs = select(EventPlayer.event_id).where(EventPlayer.player_id == into.id)
    shared = db.session.scalar(
        select(EventPlayer.event_id)
        .where(EventPlayer.player_id == gone.id, EventPlayer.event_id.in_(theirs))
        .order_by(EventPlayer.event_id)
        .limit(1)
    )
    if shared is not None:
        raise Conflict(
            f"{gone.name} and {into.name} are both players of event {shared}, so they are two "
            "people: they can't be merged.",
            "into",
        )
    db.session.execute(
        update(EventPlayer).where(EventPlayer.player_id == gone.id).values(player_id=into.id)
    )


def _move(source: int, target: int, sessions: Collection[int] | None) -> None:
    """Make every row of player `source` (in `sessions`, or anywhere) player `target`'s."""

    def within(column: Any, among: Any = sessions) -> list[Any]:
        return [] if sessions is None else [column.in_(among)]

    db.session.execute(
        update(Seat)
        .where(Seat.player_id == source, *within(Seat.session_id))
        .values(player_id=target)
    )
    for column in HAND_PLAYER_COLUMNS:
        db.session.execute(
            update(Hand)
            .where(getattr(Hand, column) == source, *within(Hand.session_id))
            .values({column: target})
        )
    hands = select(Hand.id).where(*within(Hand.session_id))
    db.session.execute(
        update(HandPlayer)
        .where(HandPlayer.player_id == source, *within(HandPlayer.hand_id, hands))
        .values(player_id=target)
    )
    # The two never sat in one session, so the rows keep their sums and places.
    for kept in (SessionPlayer, SessionMember):
        db.session.execute(
            update(kept)
            .where(kept.player_id == source, *within(kept.session_id))
            .values(player_id=target)
        )
    for column in ("player_id", "stands_for_id"):
        db.session.execute(
            update(StandIn)
            .where(getattr(StandIn, column) == source, *within(StandIn.session_id))
            .values({column: target})
        )
    for column in PAYMENT_COLUMNS:
        db.session.execute(
            update(EarlyPayment)
            .where(getattr(EarlyPayment, column) == source, *within(EarlyPayment.session_id))
            .values({column: target})
        )
    db.session.execute(
        update(Session)
        .where(Session.first_dealer_id == source, *within(Session.id))
        .values(first_dealer_id=target)
    )
    db.session.expire_all()


def player_write(
    player_ids: list[int], key: str | None = None, digest: str = "", sessions: bool = True
) -> AbstractContextManager[PlayerWrite]:
    """A write to the players `player_ids`, 404 for one that doesn't exist; with `sessions`,
    holding every session they sit in and every session whose history names the first."""
    return transaction(lambda: _begin(player_ids, key, digest, sessions))


def _begin(player_ids: list[int], key: str | None, digest: str, sessions: bool) -> PlayerWrite:
    for _ in range(TRIES):
        begin_write(None)
        check_key(key, digest)
        named: set[int] = set()
        held: list[int] = []
        if sessions:
            first = db.session.scalar(select(Player.name).where(Player.id == player_ids[0]))
            # A session's history names a player anew only with a write that seats them there.
            named = set() if first is None else sessions_naming(first)
            held = sorted(set(_sessions_of(player_ids)) | named)
        lock_sessions(held)
        found = {
            p.id: p
            for p in db.session.scalars(
                select(Player).where(Player.id.in_(player_ids)).with_for_update()
            )
        }
        missing = next((i for i in player_ids if i not in found), None)
        if missing is not None:
            raise NotFound(f"There is no player {missing}.", "id")
        if not sessions or set(_sessions_of(player_ids)) <= set(held):
            return PlayerWrite([found[i] for i in player_ids], held, named, key, digest)
        db.session.rollback()
    raise Conflict("The player was seated at another table meanwhile. Try again.", "id")


def merge_undone(
    merge_id: int, key: str | None = None, digest: str = ""
) -> AbstractContextManager[PlayerWrite]:
    """Bring a merged player back, with the seats, hands and payments they had in the sessions
    the merge touched, and their name in those sessions' history, live or in the trash: the
    write's players are the one back and the one they were merged into."""
    return transaction(lambda: _unmerge(merge_id, key, digest))


def _unmerge(merge_id: int, key: str | None, digest: str) -> PlayerWrite:
    begin_write(None)
    check_key(key, digest)
    merge = db.session.get(PlayerMerge, merge_id)
    if merge is None or as_utc(merge.at) < PlayerMerge.kept_since():
        raise NotFound(f"There is no merge {merge_id} to undo.", "id")
    into = db.session.get(Player, merge.into_id)
    if into is None:
        raise Conflict(
            f"The player {merge.name} was merged into has been merged again since: undo "
            "that merge first.",
            "id",
        )
    name_key = rules.name_key(merge.name)
    if db.session.scalar(select(Player.id).where(Player.name_key == name_key)) is not None:
        raise Conflict(f"Another player is named {merge.name} now: rename them first.", "id")
    # A session of either list may have left the trash, or gone to it, since.
    touched = sorted({*merge.sessions, *merge.trashed})
    held = list(db.session.scalars(select(Session.id).where(Session.id.in_(touched))))
    lock_sessions(held)
    back = Player(
        id=merge.player_id,
        name=merge.name,
        name_key=name_key,
        active=merge.active,
        rating=PlayerRating(),
    )
    db.session.add(back)
    db.session.flush()
    _move(into.id, back.id, held)
    ratings.changed()
    write = PlayerWrite([back, into], held, (), key, digest)
    write.rewrite(held, touched, "unmerge", into.name, merge.name)
    db.session.execute(delete(PlayerMerge).where(PlayerMerge.id == merge.id))
    return write
