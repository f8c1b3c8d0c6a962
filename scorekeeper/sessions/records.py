"""Sessions and hands as the JSON of API.md."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from .. import rules
from .models import Change, PlayerMerge, Session, as_utc


def iso(moment: datetime) -> str:
    """In UTC, whatever the database's time zone; SQLite hands back naive times, all UTC."""
    if moment.tzinfo is UTC:
        # Most are, and a backup writes one for every change: spared the conversion.
        return moment.isoformat()
    return as_utc(moment).astimezone(UTC).isoformat()


def options_json(options: rules.Options) -> dict[str, Any]:
    """The rule options by the API's names, a choice as its text."""
    values = {option.name: getattr(options, option.name) for option in rules.OPTIONS}
    return {key: v.value if isinstance(v, StrEnum) else v for key, v in values.items()}


def hand_json(number: int, result: rules.HandResult, named: Sequence[str]) -> dict[str, Any]:
    """The hand as API.md shows it; its scores name `named` (everyone the session's totals
    name), 0 for who did not play it."""
    hand = result.hand
    is_pick = hand.kind is rules.Kind.PICK
    return {
        "number": number,
        "dealer": hand.dealer,
        "kind": hand.kind.value,
        "picker": hand.picker,
        "partner": hand.partner,
        "called_card": hand.called_card,
        "forced": hand.forced if is_pick else None,
        "picking_points": hand.picking_points,
        "cracked_by": hand.cracked_by,
        "recracked": hand.recracked if is_pick else None,
        "blitzes": [blitz.value for blitz in hand.blitzes] if is_pick else None,
        "winner": hand.winner,
        "points": hand.points,
        "tricks": hand.tricks,
        "result": None if hand.result is None else hand.result.value,
        "penalized": hand.penalized,
        "seats": list(hand.seats),
        **{
            name: _shown(result, name, derived.shape, named)
            for name, derived in rules.DERIVED_FIELDS
        },
    }


def _shown(result: rules.HandResult, name: str, shape: rules.Shape, named: Sequence[str]) -> Any:
    """A part of a hand the engine derived, as a hand's JSON holds it."""
    if shape is rules.Shape.SCORES:
        return result.scores_naming(named)
    value = getattr(result, name)
    return list(value) if shape is rules.Shape.NAMES else value


# A part of a hand the engine derived, read back from a hand's JSON (where hands kept before
# it was derived may lack it).
_READ: dict[rules.Shape, Any] = {
    rules.Shape.FACTOR: lambda value: value,
    rules.Shape.FLAG: bool,
    rules.Shape.NAMES: lambda value: tuple(value or ()),
    rules.Shape.SCORES: lambda value: value,
}


def hand_input_json(hand: rules.Hand) -> dict[str, Any]:
    """The hand as the API takes it, with only the keys its kind has."""
    recorded: dict[str, Any] = {
        "dealer": hand.dealer,
        "seats": list(hand.seats),
        "kind": hand.kind.value,
    }
    if hand.kind is rules.Kind.PICK:
        recorded |= {
            "picker": hand.picker,
            "partner": hand.partner,
            "called_card": hand.called_card,
            "forced": hand.forced,
            "picking_points": hand.picking_points,
            "cracked_by": hand.cracked_by,
            "recracked": hand.recracked,
            "blitzes": [blitz.value for blitz in hand.blitzes],
            "result": None if hand.result is None else hand.result.value,
        }
    elif hand.kind is rules.Kind.LEASTER:
        recorded |= {"winner": hand.winner, "points": hand.points, "tricks": hand.tricks}
    elif hand.kind is rules.Kind.PENALTY:
        recorded |= {"penalized": hand.penalized}
    return recorded


def _recorded(hand: dict[str, Any]) -> dict[str, Any]:
    """What a hand's JSON (`hand_json` or `hand_input_json`) says was recorded, as arguments of
    the rules engine's hands (all but the kind and the blitzes)."""
    return {
        "picker": hand.get("picker"),
        "partner": hand.get("partner"),
        "called_card": hand.get("called_card"),
        "forced": bool(hand.get("forced")),
        "picking_points": hand.get("picking_points"),
        "cracked_by": hand.get("cracked_by"),
        "recracked": bool(hand.get("recracked")),
        "winner": hand.get("winner"),
        "points": hand.get("points"),
        "tricks": hand.get("tricks"),
        "penalized": hand.get("penalized"),
    }


def recorded_hand(hand: dict[str, Any]) -> tuple[rules.HandInput, str, list[str] | None]:
    """A hand the app wrote as JSON as the rules engine's input again, with its dealer and its
    seats (None when it was written before hands kept their seats: the seats then never
    changed)."""
    entry = rules.HandInput(
        kind=hand["kind"],
        blitzes=tuple(hand.get("blitzes") or ()),
        result=hand.get("result"),
        **_recorded(hand),
    )
    return entry, hand["dealer"], hand.get("seats")


def result_of(hand: dict[str, Any]) -> rules.HandResult:
    """A hand's JSON (`hand_json`) as the rules engine's result again, for telling it in words."""
    return rules.HandResult(
        hand=rules.Hand(
            dealer=hand["dealer"],
            kind=rules.Kind(hand["kind"]),
            blitzes=tuple(rules.Blitz(blitz) for blitz in hand.get("blitzes") or ()),
            seats=tuple(hand.get("seats") or hand["scores"]),
            result=None if hand.get("result") is None else rules.Result(hand["result"]),
            **_recorded(hand),
        ),
        winners=frozenset(),
        **{name: _READ[derived.shape](hand.get(name)) for name, derived in rules.DERIVED_FIELDS},
    )


def change_json(change: Change) -> dict[str, Any]:
    """A session's change, as the API lists it and the trash keeps it."""
    return changed(change.at, change.action, change.number, change.before, change.after)


def changed(
    at: datetime, action: str, number: int | None, before: Any, after: Any
) -> dict[str, Any]:
    """A change's JSON from its stored values, as `change_json` writes it."""
    return {"at": iso(at), "action": action, "number": number, "before": before, "after": after}


def session_summary(session: Session, table: rules.Table, hand_count: int) -> dict[str, Any]:
    return {
        "id": session.id,
        "name": session.name,
        "created_at": iso(session.created_at),
        "players": list(table.seats),
        "rounds": session.rounds,
        "complete": table.is_complete(hand_count),
        "ended": table.ended,
        "hand_count": hand_count,
        "totals_only": table.totals_only,
    }


def night_json(session: Session, nets: dict[str, int]) -> dict[str, Any]:
    """What a change to a night kept without hands changes, as its history keeps it: its name,
    when it started (as `created_at`) and its nets."""
    return {"name": session.name, "created_at": iso(session.created_at), "totals": nets}


def event_of(session: Session) -> dict[str, Any] | None:
    """What a table's session says of its club event: `{"id", "round", "table"}`, or None."""
    if session.event_id is None:
        return None
    return {"id": session.event_id, "round": session.event_round, "table": session.event_table}


def director_json(session: Session) -> dict[str, Any] | None:
    """A table's open call for the director, `{"note", "at"}`, or None."""
    if session.director_at is None:
        return None
    return {"note": session.director_note or "", "at": iso(session.director_at)}


def session_json(
    session: Session,
    sheet: rules.Sheet,
    settled: rules.Settled,
    confirmed: Sequence[str | None] | None = None,
) -> dict[str, Any]:
    """The session as API.md shows it; `settled` are the players settled early. A table of a
    club event says so (`event`) with its open call for the director (`director`), and at a
    table that confirms its hands each hand says who confirmed it (`confirmed`)."""
    table = sheet.table
    event = event_of(session)
    hands = [hand_json(n, result, sheet.named) for n, result in enumerate(sheet.results, start=1)]
    if confirmed is not None:
        for hand, by in zip(hands, confirmed, strict=True):
            hand["confirmed_by"] = by
    return {
        **({} if event is None else {"event": event, "director": director_json(session)}),
        **session_summary(session, table, len(sheet.results)),
        "version": session.version,
        "first_dealer": table.first_dealer,
        "rules": options_json(table.options),
        "hands": hands,
        "totals": sheet.totals,
        "hands_won": sheet.hands_won,
        "standings": [
            {
                "player": s.player,
                "total": s.total,
                "hands_won": s.hands_won,
                "place": s.place,
                "seated": s.seated,
            }
            for s in sheet.standings
        ],
        "next_dealer": sheet.next_dealer,
        "sitting_out_next": list(sheet.sitting_out_next),
        "pending_doublers": sheet.pending_doublers,
        "complete": sheet.complete,
        "settle_up": settle_up_json(rules.sheet_settle_up(sheet, settled)),
    }


def settle_up_json(settle_up: rules.SettleUp) -> dict[str, Any]:
    return {
        "stake": settle_up.stake,
        "unit": settle_up.unit,
        "balances": settle_up.balances,
        "payments": payments_json(settle_up.payments),
        "paid": payments_json(settle_up.paid),
        "exact": settle_up.exact,
    }


def settlement_json(leaver: str, payments: Sequence[rules.Payment]) -> dict[str, Any]:
    """A player settled early, as the API answers it and the changes keep it."""
    return {"player": leaver, "payments": payments_json(payments)}


def payments_json(payments: Sequence[rules.Payment]) -> list[dict[str, Any]]:
    return [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments]


def payments_of(given: Sequence[dict[str, Any]]) -> list[rules.Payment]:
    """Payments as `payments_json` wrote them."""
    return [rules.Payment(p["from"], p["to"], p["amount"]) for p in given]


def merge_json(merge: PlayerMerge) -> dict[str, Any]:
    """A merge of one player into another that can be undone, as the API lists it and a backup
    keeps it."""
    return {
        "id": merge.id,
        "at": iso(merge.at),
        "player": merge.player_id,
        "name": merge.name,
        "active": merge.active,
        "into": merge.into_id,
        "sessions": merge.sessions,
        "trashed": merge.trashed,
    }
