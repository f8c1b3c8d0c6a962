"""Who pays whom: the settle-up of one session, or of every session started in a range of days
(a night, a season; days as `dates` means them), in money where the sessions have a stake and in
points where none has."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Select, func, literal, select, union_all
from sqlalchemy.orm import aliased

from .. import rules
from ..sessions.extensions import db
from ..sessions.models import EarlyPayment, Player, Seat, Session, SessionPlayer
from . import memo
from .dates import DateRange
from .scope import RuleFilter


def of_range(
    start: date | None, end: date | None, house: RuleFilter | None = None
) -> rules.SettleUp:
    """The settle-up of every session started in the range (and played by the house rules
    `house` asks for, as a season's): only the staked ones when some are, each at its own
    stake; in points when none is. Every player they name is in the balances, 0 included."""
    return memo.kept(("settle-up", start, end, house), lambda: _of_range(start, end, house))


def _of_range(start: date | None, end: date | None, house: RuleFilter | None) -> rules.SettleUp:
    conditions = [~Session.practice, *DateRange(start, end).session_conditions()]
    if house is not None:
        conditions.extend(house.session_conditions())
    in_range = select(Session.id).where(*conditions)
    played = select(SessionPlayer.session_id, SessionPlayer.player_id, SessionPlayer.total)
    rows = union_all(
        played.where(SessionPlayer.session_id.in_(in_range)),
        select(Seat.session_id, Seat.player_id, literal(0)).where(Seat.session_id.in_(in_range)),
    ).subquery()
    totals = db.session.execute(
        select(rows.c.session_id, Session.stake, Player.name, func.sum(rows.c.total))
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
    return rules.settle_balances(staked or {0}, balances, _paid_early(in_range) if staked else [])


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


# END
