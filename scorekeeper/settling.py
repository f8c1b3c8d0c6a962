"""Who pays whom: the settle-up of one session, or of every session started in a range of days
(a night, a season), in money where the sessions have a stake and in points where none has."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import ColumnElement, func, literal, select, union_all

from . import rules
from .extensions import db
from .models import Hand, HandPlayer, Player, Seat, Session
from .rules import RuleError


@dataclass(frozen=True)
class SettleUp:
    """`stake` is None when the sessions counted have different stakes; `unit` is "cents" with a
    stake, "points" without one. `exact` says the payments are proven the fewest."""

    stake: int | None
    unit: str
    balances: dict[str, int]
    payments: tuple[rules.Payment, ...]
    exact: bool


def settle(stakes: set[int], balances: dict[str, int]) -> SettleUp:
    settlement = rules.settle_up(balances)
    staked = stakes != {0}
    return SettleUp(
        stake=(next(iter(stakes)) if len(stakes) == 1 else None) if staked else 0,
        unit="cents" if staked else "points",
        balances=balances,
        payments=settlement.payments,
        exact=settlement.exact,
    )


def of_sheet(sheet: rules.Sheet) -> SettleUp:
    """A session's settle-up: everyone its totals name, each total times the stake."""
    stake = sheet.table.options.stake
    return settle({stake}, {player: total * (stake or 1) for player, total in sheet.totals.items()})


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
    return settle(staked or {0}, balances)


def settle_up_json(settle_up: SettleUp) -> dict[str, Any]:
    return {
        "stake": settle_up.stake,
        "unit": settle_up.unit,
        "balances": settle_up.balances,
        "payments": [
            {"from": payment.payer, "to": payment.payee, "amount": payment.amount}
            for payment in settle_up.payments
        ],
        "exact": settle_up.exact,
    }
