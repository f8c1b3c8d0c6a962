"""Sessions and hands in the database, translated to and from the rules engine.

The functions that change data check through the engine and write without committing: they run
inside a write of `writes`, which holds the lock and commits the change together with the
stored copies of the scores, or nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Integer, bindparam, exists, func, select
from sqlalchemy.orm import aliased, joinedload, selectinload

from .. import rules
from .database import check_id, one_or_404
from .extensions import db
from .models import (
    EarlyPayment,
    Event,
    Hand,
    HandPlayer,
    Player,
    Seat,
    Session,
    SessionMember,
    utcnow,
)

# How a session is loaded with its seats, hands and their players, in a fixed number of queries.
# A regular has played within this many days; the roster offers the regulars first.
REGULAR_DAYS = 90
WHOLE_SESSION = (
    selectinload(Session.seats).joinedload(Seat.player),
    selectinload(Session.hands).selectinload(Hand.players).joinedload(HandPlayer.player),
)


def check_session_id(session_id: int) -> None:
    """404 for an id no session can have (the database would refuse to look it up), as a
    command line names one."""
    check_id("session", session_id)


def session_version(session_id: int) -> int:
    """A session's version alone, in one query: all a poll needs to learn that nothing changed."""
    return one_or_404(
        "session", session_id, select(Session.version).where(Session.id == session_id)
    )


def session_head(session_id: int) -> Session:
    """A session with its seats and first dealer, its hands not loaded yet."""
    return one_or_404(
        "session",
        session_id,
        select(Session)
        .where(Session.id == session_id)
        .options(joinedload(Session.seats).joinedload(Seat.player)),
    )


def load_hands(session: Session) -> None:
    """Load a session's hands and their players, in two queries, where they are not loaded."""
    db.session.execute(
        select(Session)
        .where(Session.id == session.id)
        .options(
            selectinload(Session.hands).selectinload(Hand.players).joinedload(HandPlayer.player)
        )
    ).all()


@dataclass(frozen=True)
class Tail:
    """What the next hand of a session depends on, read without loading its hands, and who
    the session's totals name."""

    count: int
    next_dealer: str
    pending_doublers: int
    named: tuple[str, ...]


# Hands are numbered 1..n (every write keeps them so, and `flask check` verifies it), so the
# last hand's number is the count. Made once, as every hand's write reads it: a statement made
# anew is keyed for SQLAlchemy's cache anew.
_LAST_HAND = (
    select(Hand.number, Hand.dealer_id, Player.id, Player.name)
    .join(HandPlayer, HandPlayer.hand_id == Hand.id)
    .join(Player, Player.id == HandPlayer.player_id)
    .where(
        Hand.id
        == select(Hand.id)
        .where(Hand.session_id == bindparam("session"))
        .order_by(Hand.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    .order_by(HandPlayer.seat)
)


def tail_of(session: Session) -> Tail:
    table = table_of(session)
    last = db.session.execute(_LAST_HAND, {"session": session.id}).all()
    pending = 0
    if table.options.no_bid is rules.NoBid.DOUBLER:
        of_session = Hand.session_id == session.id
        kinds = db.session.scalars(select(Hand.kind).where(of_session).order_by(Hand.number))
        pending = rules.pending_doublers(table, [rules.Kind(kind) for kind in kinds])
    names = {row.id: row.name for row in last}
    last_dealer = names[last[0].dealer_id] if last else None
    return Tail(
        count=last[0].number if last else 0,
        next_dealer=table.next_dealer(last_dealer, [row.name for row in last]),
        pending_doublers=pending,
        named=_named(session, table) if last else table.seats,
    )


def _named(session: Session, table: rules.Table) -> tuple[str, ...]:
    """Who the session's totals name (`rules.named_players`): by the first hand and seat each
    sat at, those who played or are seated now. Only the hands before the seats now were taken
    are read (none, for a table that never changed): every later hand has the seats now."""
    if not session.seats_since:
        return table.seats
    first_seat = func.min(Hand.number * rules.MAX_SEATS + HandPlayer.seat)
    rows = db.session.execute(
        select(Player.name, func.max(HandPlayer.played.cast(Integer)))
        .join(HandPlayer, HandPlayer.player_id == Player.id)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where((Hand.session_id == session.id) & (Hand.number <= session.seats_since))
        .group_by(Player.id, Player.name)
        .order_by(first_seat)
    ).all()
    order = [name for name, played in rows if played or name in table.seats]
    return (*order, *(p for p in table.seats if p not in order))


def session_or_404(session_id: int) -> Session:
    """A session with its seats, hands and their players, in a fixed number of queries."""
    return one_or_404(
        "session",
        session_id,
        select(Session).where(Session.id == session_id).options(*WHOLE_SESSION),
    )


@dataclass(frozen=True)
class Read:
    """A session as a page or an answer shows it: its row and seats, its scoresheet, the ids
    of everyone seated now or at any hand, by name, and who was settled early; at a table of
    an event that confirms its hands, who confirmed each (None while it waits)."""

    session: Session
    sheet: rules.Sheet
    player_ids: dict[str, int]
    settled: dict[str, tuple[rules.Payment, ...]]
    confirmed: tuple[str | None, ...] | None = None


def confirming(session: Session) -> bool:
    """Whether the session is a table of an event whose hands the other side confirms."""
    if session.event_id is None:
        return False
    # Asked in the middle of a write: what it holds is flushed with its version, not before.
    with db.session.no_autoflush:
        return bool(db.session.scalar(select(Event.confirm).where(Event.id == session.event_id)))


def confirmer_of(row: Hand) -> str | None:
    """Who confirmed a stored hand (a player of it), or None."""
    if row.confirmed_by_id is None:
        return None
    return next(p.player.name for p in row.players if p.player_id == row.confirmed_by_id)


def confirmed_of(session: Session) -> tuple[str | None, ...] | None:
    """Who confirmed each of the session's hands, in order, at a table that confirms its
    hands; None elsewhere."""
    if not confirming(session):
        return None
    rows = db.session.execute(
        select(Player.name)
        .select_from(Hand)
        .outerjoin(Player, Player.id == Hand.confirmed_by_id)
        .where(Hand.session_id == session.id)
        .order_by(Hand.number)
    )
    return tuple(name for (name,) in rows)


def read_session_or_404(session_id: int) -> Read:
    """A session to show, read in four statements whatever its length: the hands come as plain
    rows, which cost a fraction of loading them as objects."""
    session = one_or_404(
        "session",
        session_id,
        select(Session)
        .where(Session.id == session_id)
        .options(selectinload(Session.seats).joinedload(Seat.player)),
    )
    hand, seat, player = Hand.__table__.c, HandPlayer.__table__.c, Player.__table__.c
    rows = db.session.execute(
        select(
            hand.id, hand.dealer_id, hand.kind, hand.picker_id, hand.partner_id,
            hand.called_card, hand.forced, hand.picking_points, hand.cracked_by_id,
            hand.recracked, hand.black_blitz, hand.red_blitz, hand.winner_id, hand.result,
            hand.penalized_id, hand.confirmed_by_id,
        )
        .where(hand.session_id == session_id)
        .order_by(hand.number)
    ).all()  # fmt: skip
    seated: dict[int, list[Any]] = {row.id: [] for row in rows}
    names = {seat.player_id: seat.player.name for seat in session.seats}
    for hand_id, player_id, name, points, tricks in db.session.execute(
        select(seat.hand_id, player.id, player.name, seat.points, seat.tricks)
        .join(Player.__table__, player.id == seat.player_id)
        .join(Hand.__table__, hand.id == seat.hand_id)
        .where(hand.session_id == session_id)
        .order_by(seat.hand_id, seat.seat)
    ):
        seated[hand_id].append((name, points, tricks))
        names[player_id] = name
    hands = [hand_of_row(row, seated[row.id], names) for row in rows]
    sheet = (
        rules.night_sheet(nets_of(session), table_of(session).options)
        if session.totals_only
        else rules.score_sheet(table_of(session), hands)
    )
    player_ids = {name: player_id for player_id, name in names.items()}
    confirmed = None
    if confirming(session):
        confirmed = tuple(
            None if row.confirmed_by_id is None else names[row.confirmed_by_id] for row in rows
        )
    return Read(session, sheet, player_ids, settled_of(session), confirmed)


def hand_of_row(row: Any, seated: list[Any], names: dict[int, str]) -> rules.Hand:
    """A hand from its row (a `Hand`, or a plain row of its columns) and its seats' (name,
    points, tricks), in seat order; `names` by player id."""

    def name(player_id: int | None) -> str | None:
        return None if player_id is None else names[player_id]

    blitzes = tuple(
        blitz
        for blitz, held in ((rules.Blitz.BLACK, row.black_blitz), (rules.Blitz.RED, row.red_blitz))
        if held
    )
    points = {player: n for player, n, _ in seated if n is not None}
    tricks = {player: n for player, _, n in seated if n is not None}
    return rules.Hand(
        dealer=names[row.dealer_id],
        kind=rules.Kind(row.kind),
        picker=name(row.picker_id),
        partner=name(row.partner_id),
        called_card=row.called_card,
        forced=row.forced,
        picking_points=row.picking_points,
        cracked_by=name(row.cracked_by_id),
        recracked=row.recracked,
        blitzes=blitzes,
        winner=name(row.winner_id),
        points=points or None,
        tricks=tricks or None,
        seats=tuple(player for player, _, _ in seated),
        result=None if row.result is None else rules.Result(row.result),
        penalized=name(row.penalized_id),
    )


def seated_players() -> list[str]:
    """Everyone who has sat in a session, seated now or for a hand, by name."""
    return list(
        db.session.scalars(
            select(Player.name)
            # A look in the index of each player's sessions, rather than a list of every row.
            .where(exists().where(SessionMember.player_id == Player.id))
            .order_by(Player.name_key)
        )
    )


def roster(everyone: bool = False) -> list[str]:
    """The names offered for a new session or an arrival: the regulars first (most sessions
    within `REGULAR_DAYS`), then by name; retired players only for `everyone`."""
    recent = (
        select(SessionMember.player_id, func.count().label("sessions"))
        .join(Session, Session.id == SessionMember.session_id)
        .where(Session.created_at >= utcnow() - timedelta(days=REGULAR_DAYS))
        .group_by(SessionMember.player_id)
        .subquery()
    )
    query = (
        select(Player.name)
        .outerjoin(recent, recent.c.player_id == Player.id)
        .order_by(func.coalesce(recent.c.sessions, 0).desc(), Player.name_key)
    )
    if not everyone:
        query = query.where(Player.active)
    return list(db.session.scalars(query))


def has_retired() -> bool:
    return db.session.scalar(select(Player.id).where(~Player.active).limit(1)) is not None


def table_of(session: Session) -> rules.Table:
    """The session's table as it is now: its seats, rules, rounds and first dealer (always
    seated: a seat change moves the first dealer on when they leave)."""
    return rules.Table(
        seats=tuple(seat.player.name for seat in session.seats),
        options=rules.Options(
            **{option.name: option.kind(getattr(session, option.name)) for option in rules.OPTIONS}
        ),
        rounds=session.rounds,
        first_dealer=names_of(session)[session.first_dealer_id],
        ended=session.ended,
        totals_only=session.totals_only,
    )


def nets_of(session: Session) -> dict[str, int]:
    """A night's nets by player, in the order they were given."""
    return {seat.player.name: seat.net or 0 for seat in session.seats}


def settled_of(session: Session) -> dict[str, tuple[rules.Payment, ...]]:
    """The players settled early, each with the payments that settled them, in the order they
    were settled. Only a session with a stake has any (`rules.check_stake_change`), so no
    other is asked."""
    if not session.stake:
        return {}
    return settled_in([session.id]).get(session.id, {})


def settled_in(
    session_ids: Sequence[int],
) -> dict[int, dict[str, tuple[rules.Payment, ...]]]:
    """`settled_of` of many sessions at once, by session id (those with none left out)."""
    leaver, payer, payee = aliased(Player), aliased(Player), aliased(Player)
    settled: dict[int, dict[str, tuple[rules.Payment, ...]]] = {}
    for session_id, name, payer_name, payee_name, amount in db.session.execute(
        select(EarlyPayment.session_id, leaver.name, payer.name, payee.name, EarlyPayment.amount)
        .join(leaver, leaver.id == EarlyPayment.leaver_id)
        .join(payer, payer.id == EarlyPayment.payer_id)
        .join(payee, payee.id == EarlyPayment.payee_id)
        .where(EarlyPayment.session_id.in_(session_ids))
        .order_by(EarlyPayment.id)
    ):
        of_session = settled.setdefault(session_id, {})
        payment = rules.Payment(payer_name, payee_name, amount)
        of_session[name] = (*of_session.get(name, ()), payment)
    return settled


def names_of(session: Session) -> dict[int, str]:
    """The names of the players seated now, by id."""
    return {seat.player_id: seat.player.name for seat in session.seats}


def seats_of(row: Hand) -> tuple[str, ...]:
    """The seats a stored hand was played with."""
    return tuple(hand_player.player.name for hand_player in row.players)


def hand_of(row: Hand) -> rules.Hand:
    # By the player's own id: a hand just written has its players set, their ids not yet.
    names = {hand_player.player.id: hand_player.player.name for hand_player in row.players}
    seated = [(p.player.name, p.points, p.tricks) for p in row.players]
    return hand_of_row(row, seated, names)


def sheet_of(session: Session, hands: Sequence[rules.Hand] | None = None) -> rules.Sheet:
    """The session's scoresheet, of `hands` when its hands are already read (`hand_of`)."""
    if session.totals_only:
        return rules.night_sheet(nets_of(session), table_of(session).options)
    if hands is None:
        hands = [hand_of(row) for row in session.hands]
    return rules.score_sheet(table_of(session), hands)


def preview_hand(
    session: Session, row: Hand | None, entry: rules.HandInput, dealer: str | None
) -> rules.HandResult:
    """What a new hand (row None) or a corrected one would score, doublers included."""
    hand = checked_hand(session, row, entry, dealer)
    hands = [hand_of(r) for r in session.hands]
    index = len(hands) if row is None else row.number - 1
    hands[index : index + 1] = [hand]
    return rules.score_sheet(table_of(session), hands).results[index]


def next_dealer_of(session: Session) -> str:
    """Who deals the next hand, read from the session's loaded hands."""
    last = hand_of(session.hands[-1]) if session.hands else None
    return rules.next_dealer_after(table_of(session), last)


def find_hand(session: Session, number: int) -> Hand | None:
    return next((row for row in session.hands if row.number == number), None)


def seats_since_of(session: Session, table: rules.Table) -> int:
    """The number of the last hand played with other seats than the seats now, or 0."""
    return max(
        (row.number for row in session.hands if seats_of(row) != table.seats),
        default=0,
    )


def checked_hand(
    session: Session,
    row: Hand | None,
    entry: rules.HandInput,
    dealer: str | None,
    seats: Sequence[str] | None = None,
) -> rules.Hand:
    """A new hand (row None) checked against the seats now, or the given `seats`; a stored
    one against its own seats."""
    table = table_of(session)
    if row is None:
        last = hand_of(session.hands[-1]) if session.hands else None
        return rules.next_hand(table, len(session.hands), last, entry, dealer, seats)
    table = table.seated_as(seats_of(row))
    return rules.validate_hand(table, dealer or hand_of(row).dealer, entry)
