"""A backup's hands and changes of a batch of sessions, read as plain rows and written as the
backup keeps them, without the rules engine's objects in between.

Each hand is `records.hand_input_json` of the hand its row reads as (`loading.hand_of_row`);
each session's changes are the JSON text of `records.changed` of every change. A change's
`before` and `after` are stored as `json.dumps` wrote them, so the text is written as it was
read, never decoded and encoded again, unless it holds an escape (`ensure_ascii`'s `\\u` of a
name): the backup writes such a name as it is.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Text, cast, select

from .. import rules
from ..sessions import hand_rows
from ..sessions.models import Change, Hand, HandPlayer
from ..sessions.records import iso

_PICK = rules.Kind.PICK.value
_LEASTER = rules.Kind.LEASTER.value
_PENALTY = rules.Kind.PENALTY.value
_KINDS = {kind.value for kind in rules.Kind}
_BLACK = rules.Blitz.BLACK.value
_RED = rules.Blitz.RED.value


def recorded_hands(
    connection: Connection, session_ids: Sequence[int], names: dict[int, str]
) -> dict[int, list[dict[str, Any]]]:
    """The sessions' hands in order as a backup keeps them, by session id (those with none
    left out); `names` by player id."""
    hand, seat = Hand.__table__.c, HandPlayer.__table__.c
    rows = connection.execute(
        select(hand.id, hand.session_id, *hand_rows.RECORDED)
        .where(hand.session_id.in_(session_ids))
        .order_by(hand.session_id, hand.number)
    ).all()
    in_hand = Hand.__table__.c.session_id.in_(session_ids)
    seated: dict[int, list[str]] = {}
    for hand_id, player_id in connection.execute(
        select(seat.hand_id, seat.player_id)
        .join(Hand.__table__, hand.id == seat.hand_id)
        .where(in_hand)
        .order_by(seat.hand_id, seat.seat)
    ).all():
        if (seats := seated.get(hand_id)) is None:
            seated[hand_id] = [names[player_id]]
        else:
            seats.append(names[player_id])
    # Who confirmed a hand, at the tables of an event that asks for it.
    confirmed: dict[int, int] = dict(
        connection.execute(
            select(hand.id, hand.confirmed_by_id).where(in_hand, hand.confirmed_by_id.is_not(None))
        ).all()
    )
    # A leaster's card points and tricks, where they were recorded: few hands have them.
    points: dict[int, dict[str, int]] = {}
    tricks: dict[int, dict[str, int]] = {}
    for hand_id, player_id, held, taken in connection.execute(
        select(seat.hand_id, seat.player_id, seat.points, seat.tricks)
        .join(Hand.__table__, hand.id == seat.hand_id)
        .where(in_hand, seat.points.is_not(None) | seat.tricks.is_not(None))
        .order_by(seat.hand_id, seat.seat)
    ):
        if held is not None:
            points.setdefault(hand_id, {})[names[player_id]] = held
        if taken is not None:
            tricks.setdefault(hand_id, {})[names[player_id]] = taken
    found: dict[int, list[dict[str, Any]]] = {}
    named: dict[int | None, str | None] = {None: None}
    named |= names.items()
    for (
        hand_id, session_id, dealer_id, kind, picker_id, partner_id, called_card, forced,
        picking_points, cracked_by_id, recracked, black_blitz, red_blitz, winner_id, result,
        penalized_id,
    ) in rows:  # fmt: skip
        if kind not in _KINDS:
            raise ValueError(f"{kind!r} is not a valid Kind")
        recorded: dict[str, Any] = {
            "dealer": names[dealer_id],
            "seats": seated.get(hand_id, []),
            "kind": kind,
        }
        if kind == _PICK:
            if result is None and picking_points is not None:
                result = rules.result_of_points(picking_points).value
            blitzes = [_BLACK] if black_blitz else []
            if red_blitz:
                blitzes.append(_RED)
            recorded |= {
                "picker": named[picker_id],
                "partner": named[partner_id],
                "called_card": called_card,
                "forced": forced,
                "picking_points": picking_points,
                "cracked_by": named[cracked_by_id],
                "recracked": recracked,
                "blitzes": blitzes,
                "result": result,
            }
        elif kind == _LEASTER:
            recorded |= {
                "winner": named[winner_id],
                "points": points.get(hand_id),
                "tricks": tricks.get(hand_id),
            }
        elif kind == _PENALTY:
            recorded["penalized"] = named[penalized_id]
        if (confirmer := confirmed.get(hand_id)) is not None:
            recorded["confirmed_by"] = names[confirmer]
        if (hands := found.get(session_id)) is None:
            found[session_id] = [recorded]
        else:
            hands.append(recorded)
    return found


def changes_text(connection: Connection, session_ids: Sequence[int]) -> dict[int, str]:
    """The JSON text of each session's changes in order, a list of `records.changed`, by
    session id (those with none left out)."""
    change = Change.__table__.c
    listed: dict[int, list[str]] = {}
    actions: dict[str, str] = {}
    for session_id, at, action, number, before, after in connection.execute(
        select(
            change.session_id, change.at, change.action, change.number,
            cast(change.before, Text), cast(change.after, Text),
        )
        .where(change.session_id.in_(session_ids))
        .order_by(change.id)
    ).all():  # fmt: skip
        if (said := actions.get(action)) is None:
            said = actions[action] = json.dumps(action, ensure_ascii=False)
        text = (
            f'{{"at": "{iso(at)}", "action": {said}, '
            f'"number": {"null" if number is None else int(number)}, '
            f'"before": {_as_written(before)}, "after": {_as_written(after)}}}'
        )
        if (changes := listed.get(session_id)) is None:
            listed[session_id] = [text]
        else:
            changes.append(text)
    return {session_id: f"[{', '.join(texts)}]" for session_id, texts in listed.items()}


def _as_written(stored: str | None) -> str:
    """A change's stored JSON as `json.dumps(..., ensure_ascii=False)` writes its value."""
    if stored is None:
        return "null"
    if "\\" in stored:
        return json.dumps(json.loads(stored), ensure_ascii=False)
    return stored
