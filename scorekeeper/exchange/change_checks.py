"""A session's changes as a backup holds them (`change_json`), each checked so that the
session's Changes page can tell it and an Undo can read it: a hand's copy as the API takes a
hand and with the parts the engine derives, a player's rename or merge, an ending, a night's
totals, a settlement, a call for the director or a substitute."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from .. import rules
from ..rules import RuleError
from ..rules.choices import choice
from ..sessions import writes
from ..sessions.renames import PLAYER_ACTIONS
from .backup_checks import MAX_KEPT, checked_moment, is_whole, located, or_words
from .session_bodies import HAND_KEYS, HAND_OUTPUT_KEYS, HandRequest, hand_request

# A session's hands as its check read them, by number: what `hand_request` reads of each
# (`as_read`), and what it read.
Proven = dict[int, tuple[dict[str, Any], HandRequest]]


def checked_changes(given: Any, where: str, read: Proven | None = None) -> list[dict[str, Any]]:
    """A session's changes as a backup holds them (`change_json`, oldest first), checked so that
    its Changes page can tell each change and an Undo can read it: as the columns of `Change`
    rows. Undo checks a hand it brings back with the rules, as it does every hand. `read` holds
    the session's hands as its check read them, by number."""
    with located(where):
        if not isinstance(given, list):
            raise RuleError("Its changes must be a list.", "changes")
    changes = []
    for position, change in enumerate(given, start=1):
        with located(f"{where}, change {position}"):
            changes.append(_checked_change(change, read or {}))
    return changes


def _checked_change(change: Any, read: Proven) -> dict[str, Any]:
    if not isinstance(change, dict) or set(change) != {"at", "action", "number", "before", "after"}:
        raise RuleError("A change has an at, action, number, before and after, and nothing else.")
    at = checked_moment(change["at"], "at")
    action, number, before, after = (change[key] for key in ("action", "number", "before", "after"))
    if number is None:
        if action in PLAYER_ACTIONS:
            _check_player_change(before, after)
            return {"at": at, "action": action, "number": None, "before": before, "after": after}
        if action not in writes.SESSION_ACTIONS:
            actions = (*writes.SESSION_ACTIONS, *PLAYER_ACTIONS)
            raise RuleError(f"Its action must be {or_words(actions)}.", "action")
        if action in writes.NOT_UNDONE:
            _check_table_change(action, before, after)
        else:
            _check_session_change(before, after)
    else:
        if not is_whole(number):
            raise RuleError(f"Its number must be a whole number from 1 to {MAX_KEPT}.", "number")
        if action not in writes.HAND_ACTIONS:
            raise RuleError(f"Its action must be {or_words(writes.HAND_ACTIONS)}.", "action")
        if before is None and after is None:
            raise RuleError("A change to a hand has the hand before it or after it.", "before")
        for key, hand in (("before", before), ("after", after)):
            if hand is not None:
                with located(f"The hand {key} it"):
                    _check_hand_json(hand, number, read.get(number))
    return {"at": at, "action": action, "number": number, "before": before, "after": after}


def _check_player_change(before: Any, after: Any) -> None:
    """A player renamed, merged into another or merged back: both sides `{"name": ...}`."""
    for side in (before, after):
        if not isinstance(side, dict) or set(side) != {"name"} or not isinstance(side["name"], str):
            raise RuleError('A change to a player has {"name": ...} before and after it.', "before")
        rules.player_name(side["name"], "before")


def _check_table_change(action: str, before: Any, after: Any) -> None:
    """A change to a table of an event: the director called (the call after it) or answered
    (the call before it), or a substitute seated (`{"out", "in", "for"}` after it)."""
    if action == "substitute":
        if (
            before is not None
            or not isinstance(after, dict)
            or set(after) != {"out", "in", "for"}
            or not all(isinstance(name, str) for name in after.values())
        ):
            raise RuleError('A substitute seated has {"out", "in", "for"} after it.', "after")
        return
    call, other = (after, before) if action == "call-director" else (before, after)
    if other is not None or director_call(call) is None:
        raise RuleError("A call for the director has the call on one side and null on the other.")


def _check_session_change(before: Any, after: Any) -> None:
    """A change to the session itself: ended or reopened, both sides `{"ended": ...}`; a night
    kept without hands changed, both sides `{"name", "created_at", "totals"}`; or a player
    settled early or taken back, one side the settlement, the other null."""
    if any(isinstance(side, dict) and "totals" in side for side in (before, after)):
        for side in (before, after):
            if not isinstance(side, dict) or set(side) != {"name", "created_at", "totals"}:
                raise RuleError(
                    'A change to a night has {"name", "created_at", "totals"} before and after it.',
                    "before",
                )
            rules.session_name(text_or_empty(side["name"]))
            checked_moment(side["created_at"], "before")
            rules.check_night(side["totals"], "before")
        return
    if any(isinstance(side, dict) and "ended" in side for side in (before, after)):
        for side in (before, after):
            if (
                not isinstance(side, dict)
                or set(side) != {"ended"}
                or not isinstance(side["ended"], bool)
            ):
                raise RuleError('Ending a session changes {"ended": true or false}.', "before")
        return
    if (before is None) == (after is None):
        raise RuleError("Settling a player early has the settlement before it or after it.")
    settlement = before if after is None else after
    if (
        not isinstance(settlement, dict)
        or set(settlement) != {"player", "payments"}
        or not isinstance(settlement["player"], str)
        or not isinstance(settlement["payments"], list)
    ):
        raise RuleError("A settlement has a player and a list of payments, and nothing else.")
    leaver = settlement["player"]
    for payment in settlement["payments"]:
        if not isinstance(payment, dict) or set(payment) != {"from", "to", "amount"}:
            raise RuleError("A payment has a from, to and amount, and nothing else.")
        payment_amount(payment["amount"])
        sides = (payment["from"], payment["to"])
        if not all(isinstance(side, str) for side in sides) or leaver not in sides:
            raise RuleError(f"A payment of {leaver}'s settlement runs between them and another.")


def director_call(given: Any) -> tuple[datetime, str] | None:
    """A table's open call for the director as a backup keeps it (`{"note", "at"}`), or None."""
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) != {"note", "at"}:
        raise RuleError("Its call for the director has a note and a time.", "director")
    if not isinstance(given["note"], str):
        raise RuleError("Its call for the director's note must be text.", "director")
    return checked_moment(given["at"], "director"), rules.check_note(given["note"])


def text_or_empty(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RuleError("Its name must be text.", "name")
    return value


def payment_amount(value: Any) -> int:
    if not is_whole(value):
        raise RuleError(
            f"A payment made early is a whole number of cents from 1 to {MAX_KEPT}.", "paid"
        )
    return int(value)


def _is_score(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_KEPT


def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


# The parts of a hand's JSON (`hand_json`) that were derived, not recorded, each with the check
# its value passes; those named in `LATER_PARTS` are missing from hands kept before they were.
_HOLDS: dict[rules.Shape, Callable[[Any], bool]] = {
    rules.Shape.FACTOR: is_whole,
    rules.Shape.FLAG: lambda value: isinstance(value, bool),
    rules.Shape.NAMES: _is_names,
    rules.Shape.SCORES: lambda value: (
        isinstance(value, dict) and all(map(_is_score, value.values()))
    ),
}


DERIVED_PARTS: dict[str, Callable[[Any], bool]] = {
    "number": is_whole,
    **{name: _HOLDS[derived.shape] for name, derived in rules.DERIVED_FIELDS},
    "seats": _is_names,
    "confirmed_by": lambda value: value is None or isinstance(value, str),
}


LATER_PARTS = (
    *(name for name, derived in rules.DERIVED_FIELDS if derived.later),
    "seats",
    "confirmed_by",
)


# What `hand_request` ignores of a hand: what was derived (but the seats), and a null where a
# key may be missing (but the partner's: its null says the picker went alone).
_NOT_READ = frozenset(HAND_OUTPUT_KEYS - {"seats"})
_NULL_NOT_READ = frozenset(HAND_KEYS - {"partner"})


def as_read(hand: dict[str, Any]) -> dict[str, Any]:
    """What `hand_request` reads of a hand: two hands the same in it (`same_json`) read alike."""
    return {
        key: value
        for key, value in hand.items()
        if key not in _NOT_READ and not (value is None and key in _NULL_NOT_READ)
    }


def same_json(one: Any, other: Any) -> bool:
    """Whether two values read from JSON are the same JSON: equal, and alike in type all through
    (Python's equality holds true equal to 1, and 1 to 1.0)."""
    kind = type(one)
    if kind is not type(other):
        return False
    if kind is dict:
        keys = one.keys()
        return keys == other.keys() and all(map(same_json, one.values(), map(other.get, keys)))
    if kind is list:
        return len(one) == len(other) and all(map(same_json, one, other))
    return bool(one == other)


def _check_hand_json(
    hand: Any, number: int, read: tuple[dict[str, Any], HandRequest] | None = None
) -> None:
    """A hand as a session's changes keep it (`hand_json`): what was recorded, as the API takes a
    hand, and what was derived from it, each of its kind. `read` is the session's hand of that
    number as its check read it: a copy of it (most often) is not read again."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    copy = read is not None and same_json(read[0], as_read(hand))
    recorded = read[1] if read is not None and copy else hand_request(hand)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    rules.kind_of(recorded.entry.kind)
    for blitz in recorded.entry.blitzes:
        choice(rules.Blitz, blitz, "A blitz", "blitzes")
    if recorded.entry.result is not None:
        choice(rules.Result, recorded.entry.result, "The result", "result")
    for key, holds in DERIVED_PARTS.items():
        if key not in hand and key in LATER_PARTS:
            continue
        if key not in hand or not holds(hand[key]):
            raise RuleError(f"Its {key} is missing or not what a hand holds.", key)
    if hand["number"] != number:
        raise RuleError(f"It is numbered {hand['number']}, not {number}.", "number")
