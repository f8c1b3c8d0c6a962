"""Who pays whom: the settle-up of one session, or of every session started in a range of days
(a night, a season), in money where the sessions have a stake and in points where none has."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import ColumnElement, Select, func, literal, select, union_all
from sqlalchemy.orm import aliased

from .. import rules
from ..rules import RuleError
from ..sessions.extensions import db
from ..sessions.models import EarlyPayment, Hand, HandPlayer, Player, Seat, Session


@dataclass(frozen=True)
class SettleUp:
    """`stake` is None when the sessions counted have different stakes; `unit` is "cents" with a
    stake, "points" without one. `paid` is what was paid early to settle players who left;
    `payments` settle each balance less that. `exact` says the payments are proven the
    fewest."""

    stake: int | None
    unit: str
    balances: dict[str, int]
    payments: tuple[rules.Payment, ...]
    exact: bool
    paid: tuple[rules.Payment, ...] = ()


def settle(
    stakes: set[int], balances: dict[str, int], paid: Sequence[rules.Payment] = ()
) -> SettleUp:
    settlement = rules.settle_up(rules.left_to_settle(balances, paid))
    staked = stakes != {0}
    return SettleUp(
        stake=(next(iter(stakes)) if len(stakes) == 1 else None) if staked else 0,
        unit="cents" if staked else "points",
        balances=balances,
        payments=settlement.payments,
        exact=settlement.exact,
        paid=tuple(paid),
    )


def of_sheet(sheet: rules.Sheet, settled: rules.Settled) -> SettleUp:
    """A session's settle-up: everyone its totals name, each total times the stake, less what
    the players `settled` early paid or received."""
    stake = sheet.table.options.stake
    balances = {player: total * (stake or 1) for player, total in sheet.totals.items()}
    return settle({stake}, balances, [p for payments in settled.values() for p in payments])


# The days whose first and last moment, in any time zone, are still times in UTC that Python
# can hold (from the year 1 to 9999).
FIRST_DAY = date(1, 1, 2)
LAST_DAY = date(9999, 12, 30)


def started_between(start: date | None, end: date | None) -> list[ColumnElement[bool]]:
    """The sessions started on these days (both included) in the server's time zone; a day too
    far off to say when it begins or ends is refused."""
    for day, field in ((start, "from"), (end, "to")):
        if day is not None and not FIRST_DAY <= day <= LAST_DAY:
            raise RuleError(
                f"The {field} date must be a day from {FIRST_DAY} to {LAST_DAY}.", field
            )
    # In UTC, as the sessions' times are kept: SQLite compares them as text, without the offset.
    conditions = []
    if start is not None:
        conditions.append(Session.created_at >= _utc(datetime.combine(start, time.min)))
    if end is not None:
        conditions.append(Session.created_at <= _utc(datetime.combine(end, time.max)))
    return conditions


def _utc(local: datetime) -> datetime:
    return local.astimezone().astimezone(UTC)


def of_range(start: date | None, end: date | None) -> SettleUp:
    """The settle-up of every session started in the range: only the staked ones when some
    are, each at its own stake; in points when none is. Every player they name is in the
    balances, 0 included."""
    in_range = select(Session.id).where(*started_between(start, end))
    played = select(Hand.session_id, HandPlayer.player_id, HandPlayer.score).join(
        Hand, Hand.id == HandPlayer.hand_id
    )
    rows = union_all(
        played.where(HandPlayer.played, Hand.session_id.in_(in_range)),
        select(Seat.session_id, Seat.player_id, literal(0)).where(Seat.session_id.in_(in_range)),
    ).subquery()
    totals = db.session.execute(
        select(rows.c.session_id, Session.stake, Player.name, func.sum(rows.c.score))
        .join(Session, Session.id == rows.c.session_id)
        .join(Player, Player.id == rows.c.player_id)
        .group_by(rows.c.session_id, Session.stake, Player.id, Player.name)
    ).all()
    stakes = {stake for _session, stake, _name, _total in totals}
    staked = stakes - {0}
    balances: dict[str, int] = {}
    for _session, stake, name, total in sorted(totals, key=lambda row: row[2].casefold()):
        if staked and not stake:
            continue
        balances[name] = balances.get(name, 0) + int(total) * (stake or 1)
    return settle(staked or {0}, balances, _paid_early(in_range) if staked else [])


def _paid_early(sessions: Select[Any]) -> list[rules.Payment]:
    """What was paid early in these sessions, session by session (only staked ones have any)."""
    payer, payee = aliased(Player), aliased(Player)
    return [
        rules.Payment(*row)
        for row in db.session.execute(
            select(payer.name, payee.name, EarlyPayment.amount)
            .join(payer, payer.id == EarlyPayment.payer_id)
            .join(payee, payee.id == EarlyPayment.payee_id)
            .where(EarlyPayment.session_id.in_(sessions))
            .order_by(EarlyPayment.session_id, EarlyPayment.id)
        )
    ]


def settle_up_json(settle_up: SettleUp) -> dict[str, Any]:
    return {
        "stake": settle_up.stake,
        "unit": settle_up.unit,
        "balances": settle_up.balances,
        "payments": payments_json(settle_up.payments),
        "paid": payments_json(settle_up.paid),
        "exact": settle_up.exact,
    }


def settlement_json(leaver: str, payments: Sequence[rules.Payment]) -> dict[str, Any]:
    """A player settled early, as the API answers it and the history keeps it."""
    return {"player": leaver, "payments": payments_json(payments)}


def payments_json(payments: Sequence[rules.Payment]) -> list[dict[str, Any]]:
    return [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments]


def payments_of(given: Sequence[dict[str, Any]]) -> list[rules.Payment]:
    """Payments as `payments_json` wrote them."""
    return [rules.Payment(p["from"], p["to"], p["amount"]) for p in given]
