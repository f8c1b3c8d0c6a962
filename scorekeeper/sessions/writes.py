"""The one write path. Every change to the scorekeeper's data happens inside `transaction`: as
`session_write` or `roster_write` here, or an event's or the players' write of the same shape,
which in one transaction:

1. take the write lock (the session's, or the one for adding sessions and players) before
   reading anything a decision rests on;
2. answer a repeated request (the same write key) with what it was answered the first time;
3. refuse a stale request (an `If-Match` version that is no longer the session's);
4. let the caller check and write, through `rows` and so the rules engine;
5. rewrite the stored scores from the hands, record each change to a hand (or to the session
   itself: ended, reopened, a leaver settled) in the session's changes, bump the session's
   version, rewrite its summary (`summary`: what each player did in it, its hand count and
   whether it is complete), keep the ratings (`ratings`: a hand added at the end updates its
   players', any other change to the hands makes them stale), and keep the answer under the
   write key;
6. commit, or roll everything back; then start recomputing the ratings if they went stale.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, select

from .. import rules
from . import loading, ratings, rows, summary
from .database import begin_write
from .errors import Conflict, NotFound, VersionMismatch
from .extensions import db
from .models import Change, Hand, Session, WriteKey, as_utc, utcnow
from .records import (
    director_json,
    hand_json,
    night_json,
    options_json,
    payments_of,
    recorded_hand,
    settlement_json,
)

KEY_LIFETIME = timedelta(hours=24)
NIGHT_CHANGES = (
    "A night kept without hands has no rounds, seats or rules, and is never ended or reopened: "
    "change its name, date or totals."
)
# What a session's change is recorded as (`Change.action`): a change to a hand, or
# to the session itself; "restore" is an undo of either.
HAND_ACTIONS = ("add", "edit", "delete", "restore", "confirm")
SESSION_ACTIONS = (
    "end", "reopen", "settle-leaver", "night", "restore", "call-director", "answer-director",
    "substitute",
)  # fmt: skip
# The changes to a table of an event that are not undone from its history.
NOT_UNDONE = {
    "call-director": "A call for the director is answered from the table or the board, not undone.",
    "answer-director": "An answered call isn't undone: call the director again instead.",
    "substitute": (
        "A substitute isn't undone from the table's history: seat the player back the same "
        "way, from the event's tables."
    ),
}

# What a hand's JSON holds that was recorded, not derived: two hands are the same hand when
# these are equal, whatever the doublers around them make of their scores.
RECORDED_KEYS = ("dealer", "seats", *rules.KEPT_FIELDS)


@dataclass(frozen=True)
class Answer:
    """What a write answered (a status and a JSON body), kept under its write key."""

    status: int
    body: str

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Replay(Exception):
    """The write key was used before: by this same request (`answer` is what it got then), or
    by a different one (`answer` is None)."""

    def __init__(self, answer: Answer | None) -> None:
        super().__init__("The write key was used before.")
        self.answer = answer


def recorded_print(hand: dict[str, Any]) -> str:
    """A fingerprint of what was recorded for a hand (its JSON), to tell whether it changed."""
    return fingerprint(*(repr(hand.get(key)) for key in RECORDED_KEYS))


def fingerprint(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


def check_key(key: str | None, digest: str) -> None:
    """Raise Replay when the key answered a request within its lifetime."""
    if key is None:
        return
    row = db.session.get(WriteKey, key)
    if row is None or as_utc(row.created_at) < utcnow() - KEY_LIFETIME:
        return
    raise Replay(Answer(row.status, row.answer) if row.fingerprint == digest else None)


def keep_answer(key: str, digest: str, answer: Answer) -> None:
    """Keep the answer under the key, in the transaction under way; expired keys go."""
    db.session.execute(delete(WriteKey).where(WriteKey.created_at < utcnow() - KEY_LIFETIME))
    db.session.execute(delete(WriteKey).where(WriteKey.key == key))
    db.session.add(WriteKey(key=key, fingerprint=digest, status=answer.status, answer=answer.body))


class Write:
    """A write under way. What it answers is kept under its key when it commits."""

    def __init__(self, key: str | None, digest: str) -> None:
        self.key = key
        self.digest = digest
        self.answer: Answer | None = None

    def answered(self, status: int, body: Any) -> Answer:
        self.answer = Answer(status, json.dumps(body, ensure_ascii=False))
        return self.answer

    def finish(self) -> None:
        """Record what the write changed (its history, its version), once its caller is done."""

    def keep(self) -> None:
        if self.key is not None and self.answer is not None:
            keep_answer(self.key, self.digest, self.answer)


W = TypeVar("W", bound=Write)


@contextmanager
def transaction(begin: Callable[[], W]) -> Iterator[W]:
    """The one transaction of every write: `begin` takes the write's lock first, checks its
    key and reads what the write decides on, giving the write; the caller's block writes; then
    the write finishes, its answer is kept under its key, and all of it commits. Anything raised
    rolls all of it back."""
    try:
        write = begin()
        yield write
        write.finish()
        write.keep()
        commit()
    except BaseException:
        db.session.rollback()
        raise


@dataclass(frozen=True)
class _Change:
    """A change to a hand (`number`), whose hand after the write is read when it finishes, or
    to the session itself (no number), `after` given."""

    action: str
    number: int | None
    before: dict[str, Any] | None
    leaves_hand: bool
    after: dict[str, Any] | None = None


class SessionWrite(Write):
    """A write to one session, holding its lock: the session as it is now, and the changes to its
    hands, recorded in its changes when the write finishes.

    A hand added after the last one is scored on its own (no hand before it scores differently
    for it), so the usual write never loads the session's hands; every other change loads them
    all and replays them."""

    def __init__(self, session: Session, key: str | None, digest: str) -> None:
        super().__init__(key, digest)
        self.session = session
        self._before: rules.Sheet | None = None
        self._after: rules.Sheet | None = None
        self._appended: dict[int, tuple[rules.HandResult, tuple[str, ...]]] = {}
        # The rows of the hands added, by number, whose players the ratings name by id.
        self._added: dict[int, Hand] = {}
        # Whether the write changed the history other than by adding hands after the last.
        self._rewrote = False
        # Whether the write seats other players, or changes the rules the hands are scored by
        # (or a night's nets).
        self._seated = False
        self._rules = False
        self._changes: list[_Change] = []
        self._removed = False
        self._touched = False
        self._finished = False
        self._confirming: bool | None = None

    def sheet_before(self) -> rules.Sheet:
        """The session's hands, loaded, as they were when the write began."""
        if self._before is None:
            loading.load_hands(self.session)
            self._before = loading.sheet_of(self.session)
        return self._before

    def tail(self) -> loading.Tail:
        """What the next hand depends on: the hand count, the next dealer, pending doublers."""
        return loading.tail_of(self.session)

    def hand_json(self, number: int) -> dict[str, Any]:
        """Hand `number` as it was when the write began."""
        results = self.sheet_before().results
        if not 0 < number <= len(results):
            raise NotFound(f"Session {self.session.id} has no hand {number}.", "number")
        shown = hand_json(number, results[number - 1], self.sheet_before().named)
        return self._with_confirmer(shown, self.session.hands[number - 1])

    def hand(self, number: int) -> Hand:
        """The stored hand `number`: the hands are in their order, numbered 1..n."""
        self.hand_json(number)
        return self.session.hands[number - 1]

    def _changed(
        self,
        action: str,
        number: int | None,
        before: Any,
        leaves_hand: bool = False,
        after: dict[str, Any] | None = None,
    ) -> None:
        self._touched = True
        self._changes.append(_Change(action, number, before, leaves_hand, after))

    def record_hand(self, entry: rules.HandInput, dealer: str | None) -> int:
        if self._before is None:
            tail = self.tail()
            row, result = rows.append_hand(self.session, tail, entry, dealer)
            self._appended[row.number] = (result, tail.named)
        else:
            row = rows.add_hand(self.session, entry, dealer)
        self._added[row.number] = row
        self._changed("add", row.number, None, leaves_hand=True)
        return row.number

    def replace_hand(self, number: int, entry: rules.HandInput, dealer: str | None) -> None:
        row = self.hand(number)
        before = self.hand_json(number)
        rows.replace_hand(self.session, row, entry, dealer)
        self._rewrote = True
        self._changed("edit", number, before, leaves_hand=True)

    def delete_hand(self, number: int) -> None:
        row = self.hand(number)
        before = self.hand_json(number)
        rows.delete_hand(self.session, row)
        self._rewrote = True
        self._changed("delete", number, before, leaves_hand=False)

    def confirming(self) -> bool:
        """Whether the session is a table of an event whose hands the other side confirms."""
        if self._confirming is None:
            self._confirming = loading.confirming(self.session)
        return self._confirming

    def _with_confirmer(self, shown: dict[str, Any], row: Hand | None) -> dict[str, Any]:
        """A hand's JSON with who confirmed it, at a table that confirms its hands."""
        if not self.confirming():
            return shown
        return {**shown, "confirmed_by": None if row is None else loading.confirmer_of(row)}

    def confirm(self, number: int, by: str) -> bool:
        """Hand `number` confirmed by `by`, a player of its side that did not pick (the rules'
        `check_confirmer`); False when it was confirmed already, which changes nothing."""
        if not self.confirming():
            raise rules.NotConfirmed(
                "This table's hands aren't confirmed: only the tables of an event that asks "
                "for it confirm their hands.",
                "by",
            )
        row = self.hand(number)
        player = rules.check_confirmer(self.sheet_before().results[number - 1], number, by)
        if row.confirmed_by_id is not None:
            return False
        before = self.hand_json(number)
        row.confirmed_by_id = next(p.player_id for p in row.players if p.player.name == player)
        self._changed("confirm", number, before, leaves_hand=True)
        return True

    def call_director(self, note: str) -> bool:
        """Call the director to this table, with a note (checked by the rules); False when a
        call is open already, which changes nothing."""
        if self.session.event_id is None:
            raise Conflict(
                "Only a table of an event calls the director: this session is none.", "note"
            )
        note = rules.check_note(note)
        if self.session.director_at is not None:
            return False
        self.session.director_at, self.session.director_note = utcnow(), note
        self._changed("call-director", None, None, after=director_json(self.session))
        return True

    def answer_director(self) -> bool:
        """Answer the table's open call for the director; False when none is open."""
        if self.session.director_at is None:
            return False
        before = director_json(self.session)
        self.session.director_at = self.session.director_note = None
        self._changed("answer-director", None, before, after=None)
        return True

    def seat_substitute(
        self, seats: Sequence[str], out: str, player: str, stands_for: str | None
    ) -> None:
        """Seat `player` in `out`'s seat from the next hand on (`seats`, made by the rules'
        `substitute`), counting for `stands_for` in the event; recorded in the history."""
        self.update(None, None, list(seats))
        after = {"out": out, "in": player, "for": stands_for or player}
        self._changed("substitute", None, None, after=after)

    def remove_session(self) -> None:
        """Delete the session itself (its hands and changes go with it); a table of a club
        event stays, as the event's standings are made of it."""
        if self.session.event_id is not None:
            raise Conflict(
                f"This session is table {self.session.event_table} of round "
                f"{self.session.event_round} of event {self.session.event_id}, so it can't be "
                "deleted: end it instead.",
                "id",
            )
        db.session.delete(self.session)
        self._removed = True
        # Even with no hand: its changes go with it, and a recompute counts on the numbers of
        # changes only growing between the changes that make the ratings stale.
        ratings.changed()

    def rebuild(self) -> None:
        """Renumber the hands 1..n and rewrite what is derived from them."""
        self.sheet_before()
        rows.rebuild(self.session)
        self._rewrote = True
        self._touched = True

    def update(
        self,
        name: str | None,
        rounds: int | None,
        players: list[str] | None = None,
        options: dict[str, Any] | None = None,
        new_players: Collection[str] = (),
    ) -> None:
        """Rename, change the rounds, seat a new table from the next hand on (`new_players`
        confirmed as new though they look like another player), or change rule options (given
        by name, as the API's `rules`). A night kept without hands changes its name alone."""
        if self.session.totals_only:
            if (rounds, players, options) != (None, None, None):
                raise Conflict(NIGHT_CHANGES, "totals")
            self.change_night(name, None, None)
            return
        new_rules = None
        if options is not None:
            current = options_json(loading.table_of(self.session).options)
            new_rules = rules.options_from(**(current | options))
            if new_rules.stake != current["stake"]:
                settled = loading.settled_of(self.session)
                rules.check_stake_change(settled, current["stake"], new_rules.stake)
        count = self.tail().count
        rows.update_session(self.session, count, name, rounds, players, new_rules, new_players)
        self._seated = self._seated or players is not None
        self._rules = self._rules or new_rules is not None
        self._touched = True

    def change_night(
        self,
        name: str | None,
        played_on: datetime | None,
        nets: dict[str, int] | None,
        new_players: Collection[str] = (),
    ) -> None:
        """Rename a night kept without hands, move it to another day, or give it other nets
        (checked by `rules.check_night`); refused for a session with hands."""
        if not self.session.totals_only:
            raise Conflict(
                "Only a night kept without hands has a date and totals to change; this session "
                "has its hands.",
                "totals",
            )
        before = night_json(self.session, loading.nets_of(self.session))
        rows.change_night(self.session, name, played_on, nets, new_players)
        after = night_json(self.session, loading.nets_of(self.session))
        if after != before:
            self._seated = self._rules = True
            self._changed("night", None, before, after=after)

    def end(self, ended: bool) -> None:
        """End the session (complete with the hands it has) or reopen it; nothing to do when
        it is so already."""
        if self.session.totals_only:
            raise Conflict(NIGHT_CHANGES, "ended")
        if self.session.ended == ended:
            return
        self.session.ended = ended
        action = "end" if ended else "reopen"
        self._changed(action, None, {"ended": not ended}, after={"ended": ended})

    def settle_leaver(self, player: str) -> tuple[str, tuple[rules.Payment, ...]]:
        """Record the payments that settle a player who left (named as typed), by the rules;
        return the player's name and the payments."""
        sheet = self.sheet_before()
        stake = sheet.table.options.stake
        balances = {name: total * stake for name, total in sheet.totals.items()}
        leaver, payments = rules.settle_leaver(
            balances, sheet.table.seats, loading.settled_of(self.session), player, stake
        )
        rows.settle_early(self.session.id, leaver, payments)
        self._changed("settle-leaver", None, None, after=settlement_json(leaver, payments))
        return leaver, payments

    def undo(self, index: int) -> int | None:
        """Undo the change at `index` of its changes (0 the newest); return its hand number
        (None for a change to the session itself)."""
        sheet = self.sheet_before()
        changes = changes_of(self.session.id)
        if not 0 <= index < len(changes):
            raise NotFound(f"Session {self.session.id} has no change {index}.", "index")
        change = changes[index]
        number, before, after = change.number, change.before, change.after
        if change.action in NOT_UNDONE:
            raise Conflict(NOT_UNDONE[change.action], "index")
        if number is None:
            self._undo_session_change(before, after)
            return None
        if change.action == "confirm" and after is not None:
            self._undo_confirm(number, after)
            return number
        if after is not None and not self._holds(number, after):
            raise Conflict(
                f"Hand {number} has changed since, so this change can't be undone on its own. "
                "Undo the later changes first.",
                "index",
            )
        current = None if after is None else self.hand_json(number)
        if before is None:
            rows.delete_hand(self.session, self.hand(number))
        elif after is None:
            if number > len(sheet.results) + 1:
                raise Conflict(
                    f"The session has {len(sheet.results)} hands now, so hand {number} "
                    "can't come back at its place.",
                    "index",
                )
            rows.insert_hand(self.session, number, *recorded_hand(before))
        else:
            entry, dealer, _seats = recorded_hand(before)
            rows.replace_hand(self.session, self.hand(number), entry, dealer)
        self._rewrote = True
        self._changed("restore", number, current, leaves_hand=before is not None)
        return number

    def _undo_confirm(self, number: int, after: dict[str, Any]) -> None:
        """Take back a confirmation: the hand is unconfirmed again, while it is still the hand
        confirmed, confirmed by that player."""
        if not self._holds(number, after) or self.hand_json(number).get(
            "confirmed_by"
        ) != after.get("confirmed_by"):
            raise Conflict(
                f"Hand {number} has changed since, so this change can't be undone on its own. "
                "Undo the later changes first.",
                "index",
            )
        current = self.hand_json(number)
        self.hand(number).confirmed_by_id = None
        self._changed("restore", number, current, leaves_hand=True)

    def _undo_session_change(self, before: Any, after: Any) -> None:
        """Put the session back as it was before a change to it: ended or not, or a player
        settled early or not; refused when it has changed again since, and for a change to a
        player, which is undone on the player's page."""
        if "totals" in (before or after):
            self._undo_night_change(before, after)
            return
        if "name" in (before or after):
            raise Conflict(
                "A player's rename or merge changed every session they played in: rename them "
                "back, or undo the merge, on the player's page.",
                "index",
            )
        if "ended" in (before or after):
            if self.session.ended != after["ended"]:
                raise Conflict(
                    "The session was ended or reopened again since, so this change can't be "
                    "undone on its own. Undo the later changes first.",
                    "index",
                )
            self.end(before["ended"])
            return
        leaver = (before or after)["player"]
        settled = loading.settled_of(self.session).get(leaver)
        now = None if settled is None else settlement_json(leaver, settled)
        if now != after:
            raise Conflict(
                f"{leaver}'s settlement has changed since, so this change can't be undone on "
                "its own. Undo the later changes first.",
                "index",
            )
        rows.unsettle(self.session.id, leaver)
        if before is not None:
            rows.settle_early(self.session.id, leaver, payments_of(before["payments"]))
        self._changed("restore", None, now, after=before)

    def _undo_night_change(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        if night_json(self.session, loading.nets_of(self.session)) != after:
            raise Conflict(
                "The night was changed again since, so this change can't be undone on its own. "
                "Undo the later changes first.",
                "index",
            )
        day = datetime.fromisoformat(before["created_at"])
        rows.change_night(self.session, before["name"], day, before["totals"])
        self._seated = self._rules = True
        self._changed("restore", None, after, after=before)

    def _holds(self, number: int, hand: dict[str, Any]) -> bool:
        """Whether hand `number` is now the hand given, as it was recorded."""
        if number > len(self.sheet_before().results):
            return False
        return recorded_print(self.hand_json(number)) == recorded_print(hand)

    def finish(self) -> None:
        """Store the scores, record the changes and bump the version, once."""
        if self._finished or self._removed or not self._touched:
            return
        self._finished = True
        if self._before is not None:
            self._after = rows.store_scores(self.session)
        self.session.version += 1
        for change in self._changes:
            after = change.after
            if change.leaves_hand and change.number is not None:
                after = self.hand_after(change.number)
            db.session.add(
                Change(
                    session_id=self.session.id,
                    action=change.action,
                    number=change.number,
                    before=change.before,
                    after=after,
                )
            )
        self._summarize()
        self._rate()

    def _rate(self) -> None:
        """Keep the ratings: the hands added after the last update them, any other change to
        the hands makes them stale. A practice table's made-up hands rate no one."""
        if self.session.practice:
            return
        if self._rewrote:
            ratings.changed()
            return
        games = []
        for number, row in self._added.items():
            result = (
                self._appended[number][0]
                if number in self._appended
                else self.sheet_after().results[number - 1]
            )
            game = rules.rating.hand_game(result)
            if game is not None:
                ids = {seat.player.name: seat.player.id for seat in row.players}
                games.append(game.renamed(ids))
        ratings.hands_added(self.session, games)

    def _summarize(self) -> None:
        """Keep the session's summary: its hand count is the sheet's when the write replayed
        the hands, else the count it had and the hands it appended; the rules say whether the
        session is complete with them. Hands appended are played by the seats, who sit in the
        session already; only replayed hands and other seats change who sat in it."""
        replayed = self._after is not None
        if self._after is not None:
            count = len(self._after.results)
        else:
            count = self.session.hand_count + len(self._appended)
        complete = loading.table_of(self.session).is_complete(count)
        summary.rewrite(
            self.session,
            count,
            complete,
            hands=replayed or bool(self._appended) or self._rules,
            seats=replayed or self._seated,
        )

    def hand_after(self, number: int) -> dict[str, Any]:
        """Hand `number` as the write leaves it."""
        if number in self._appended:
            return self._with_confirmer(hand_json(number, *self._appended[number]), None)
        sheet = self.sheet_after()
        shown = hand_json(number, sheet.results[number - 1], sheet.named)
        return self._with_confirmer(shown, self.session.hands[number - 1])

    def sheet_after(self) -> rules.Sheet:
        """The session's sheet as the write leaves it."""
        if self._after is None:
            loading.load_hands(self.session)
            self._after = loading.sheet_of(self.session)
        return self._after


def changes_of(session_id: int, limit: int | None = None, start: int = 0) -> list[Change]:
    """The session's changes, newest first: `limit` of them (all when None) from `start`."""
    return list(
        db.session.scalars(
            select(Change)
            .where(Change.session_id == session_id)
            .order_by(Change.id.desc())
            .limit(limit)
            .offset(start)
        )
    )


def session_write(
    session_id: int, key: str | None = None, digest: str = "", if_match: str | None = None
) -> AbstractContextManager[SessionWrite]:
    """A write to one session: see the module's docstring."""
    loading.check_session_id(session_id)

    def begin() -> SessionWrite:
        begin_write(session_id)
        check_key(key, digest)
        session = loading.session_head(session_id)
        if if_match is not None and if_match != str(session.version):
            raise VersionMismatch(if_match, session.version)
        return SessionWrite(session, key, digest)

    return transaction(begin)


def roster_write(key: str | None = None, digest: str = "") -> AbstractContextManager[Write]:
    """A write that adds sessions and players: a new session, an import, a restore."""

    def begin() -> Write:
        begin_write(None)
        check_key(key, digest)
        return Write(key, digest)

    return transaction(begin)


def commit() -> None:
    """Commit the write under way; then, if it made the ratings stale, have them recomputed."""
    db.session.commit()
    ratings.after_commit()
