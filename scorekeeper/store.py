"""Sessions and hands in the database, translated to and from the rules engine.

The functions that change data check through the engine and write without committing: they run
inside a write of `writes`, which holds the lock and commits the change together with the
stored copies of the scores, or nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from flask import abort
from sqlalchemy import select, update
from sqlalchemy.orm import joinedload, selectinload

from . import rules
from .extensions import db
from .models import Hand, HandPlayer, Player, Seat, Session, utcnow

MAX_ID = 2**31 - 1
# How a session is loaded with its seats, hands and their players, in a fixed number of queries.
WHOLE_SESSION = (
    selectinload(Session.seats).joinedload(Seat.player),
    selectinload(Session.hands).selectinload(Hand.players),
)


def check_session_id(session_id: int) -> None:
    """404 for an id no session can have (the database would refuse to look it up)."""
    if not 0 < session_id <= MAX_ID:
        abort(404, f"There is no session {session_id}.")


def session_head(session_id: int) -> Session:
    """A session with its seats and first dealer, its hands not loaded yet."""
    check_session_id(session_id)
    session = (
        db.session.execute(
            select(Session)
            .where(Session.id == session_id)
            .options(joinedload(Session.seats).joinedload(Seat.player))
        )
        .unique()
        .scalar_one_or_none()
    )
    if session is None:
        abort(404, f"There is no session {session_id}.")
    return session


def load_hands(session: Session) -> None:
    """Load a session's hands and their players, in two queries, where they are not loaded."""
    db.session.execute(
        select(Session)
        .where(Session.id == session.id)
        .options(selectinload(Session.hands).selectinload(Hand.players))
    ).all()


@dataclass(frozen=True)
class Tail:
    """What the next hand of a session depends on, read without loading its hands."""

    count: int
    next_dealer: str
    pending_doublers: int


def tail_of(session: Session) -> Tail:
    table = table_of(session)
    of_session = Hand.session_id == session.id
    # Hands are numbered 1..n (every write keeps them so, and `flask check` verifies it), so the
    # last hand's number is the count.
    last = db.session.execute(
        select(Hand.number, Hand.dealer_id).where(of_session).order_by(Hand.number.desc()).limit(1)
    ).first()
    pending = 0
    if table.options.no_bid is rules.NoBid.DOUBLER:
        kinds = db.session.scalars(select(Hand.kind).where(of_session).order_by(Hand.number))
        pending = rules.pending_doublers(table, [rules.Kind(kind) for kind in kinds])
    if last is None:
        return Tail(count=0, next_dealer=table.next_dealer(None), pending_doublers=pending)
    dealer = names_of(session)[last.dealer_id]
    return Tail(count=last.number, next_dealer=table.next_dealer(dealer), pending_doublers=pending)


def session_or_404(session_id: int) -> Session:
    """A session with its seats, hands and their players, in a fixed number of queries."""
    check_session_id(session_id)
    session: Session = db.first_or_404(
        select(Session).where(Session.id == session_id).options(*WHOLE_SESSION),
        description=f"There is no session {session_id}.",
    )
    return session


def list_sessions() -> Sequence[Session]:
    return db.session.scalars(
        select(Session)
        .order_by(Session.created_at.desc(), Session.id.desc())
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).all()


def seated_players() -> list[str]:
    """Everyone who has sat in a session, by name."""
    return list(
        db.session.scalars(
            select(Player.name)
            .where(Player.id.in_(select(Seat.player_id)))
            .order_by(Player.name_key)
        )
    )


def every_sheet(chunk: int = 50) -> Iterator[tuple[Session, rules.Sheet]]:
    """Every session, oldest first, with its scoresheet; loaded a chunk at a time."""
    ids = list(db.session.scalars(select(Session.id).order_by(Session.created_at, Session.id)))
    for start in range(0, len(ids), chunk):
        sessions = db.session.scalars(
            select(Session)
            .where(Session.id.in_(ids[start : start + chunk]))
            .order_by(Session.created_at, Session.id)
            .options(*WHOLE_SESSION)
        ).all()
        for session in sessions:
            yield session, sheet_of(session)
        db.session.expunge_all()


def roster() -> list[str]:
    """Every player's name, for choosing the players of a new session."""
    return list(db.session.scalars(select(Player.name).order_by(Player.name_key)))


def hand_counts() -> dict[int, int]:
    rows = db.session.execute(
        select(Hand.session_id, db.func.count(Hand.id)).group_by(Hand.session_id)
    )
    return {session_id: count for session_id, count in rows}


def table_of(session: Session) -> rules.Table:
    return rules.Table(
        seats=tuple(seat.player.name for seat in session.seats),
        options=rules.Options(
            partner=rules.PartnerMode(session.partner),
            no_bid=rules.NoBid(session.no_bid),
            cracking=session.cracking,
            blitzing=session.blitzing,
        ),
        rounds=session.rounds,
        first_dealer=names_of(session)[session.first_dealer_id],
    )


def names_of(session: Session) -> dict[int, str]:
    return {seat.player_id: seat.player.name for seat in session.seats}


def hand_of(row: Hand, names: dict[int, str]) -> rules.Hand:
    def name(player_id: int | None) -> str | None:
        return None if player_id is None else names[player_id]

    blitzes = tuple(
        blitz
        for blitz, held in ((rules.Blitz.BLACK, row.black_blitz), (rules.Blitz.RED, row.red_blitz))
        if held
    )
    points = {names[p.player_id]: p.points for p in row.players if p.points is not None}
    tricks = {names[p.player_id]: p.tricks for p in row.players if p.tricks is not None}
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
    )


def sheet_of(session: Session) -> rules.Sheet:
    names = names_of(session)
    return rules.score_sheet(table_of(session), [hand_of(row, names) for row in session.hands])


def players_named(names: Sequence[str]) -> list[Player]:
    """The players with these names, creating the new ones; an existing player keeps the
    spelling stored first."""
    keys = [rules.name_key(name) for name in names]
    existing = {
        player.name_key: player
        for player in db.session.scalars(select(Player).where(Player.name_key.in_(keys)))
    }
    players = []
    for name, key in zip(names, keys, strict=True):
        if key not in existing:
            existing[key] = Player(name=name, name_key=key)
            db.session.add(existing[key])
        players.append(existing[key])
    return players


def new_session(
    name: str,
    players: Sequence[str],
    rounds: int,
    first_dealer: str | None,
    options: rules.Options,
    session_id: int | None = None,
    created_at: datetime | None = None,
) -> Session:
    """Add a session, checked by the rules engine, without committing: for writes that add
    hands too and must land together. A restored session keeps its id and creation time."""
    table = rules.new_table(list(players), rounds, first_dealer, options)
    seated = players_named(table.seats)
    session = Session(
        id=session_id,
        created_at=created_at or utcnow(),
        name=rules.session_name(name),
        rounds=rounds,
        first_dealer=seated[table.seat_of(table.first_dealer)],
        partner=options.partner.value,
        no_bid=options.no_bid.value,
        cracking=options.cracking,
        blitzing=options.blitzing,
        seats=[Seat(position=i, player=player) for i, player in enumerate(seated)],
    )
    db.session.add(session)
    db.session.flush()
    return session


def update_session(session: Session, name: str | None, rounds: int | None) -> None:
    new_name = session.name if name is None else rules.session_name(name)
    if rounds is not None:
        table_of(session).check_rounds(rounds, len(session.hands))
        session.rounds = rounds
    session.name = new_name


def add_hand(session: Session, entry: rules.HandInput, dealer: str | None) -> Hand:
    """Add a hand after the last one, dealt by `dealer` or by the next seat in rotation,
    without scoring or committing: `store_scores` follows once the hands are in."""
    hand = _checked_hand(session, None, entry, dealer)
    row = Hand(number=len(session.hands) + 1)
    _write_hand(session, row, hand)
    session.hands.append(row)
    return row


def append_hand(
    session: Session, tail: Tail, entry: rules.HandInput, dealer: str | None
) -> tuple[Hand, rules.HandResult]:
    """Add a hand after the last one, scored, without loading the hands before it: no hand
    before it scores differently for it."""
    table = table_of(session)
    table.check_room_for_hand(tail.count)
    hand = rules.validate_hand(table, dealer or tail.next_dealer, entry)
    _pending, doubled = rules.take_doubler(table, tail.pending_doublers, hand.kind)
    result = rules.score_hand(table, hand, doubled)
    row = Hand(session_id=session.id, number=tail.count + 1)
    _write_hand(session, row, hand)
    _store_result(row, result, names_of(session))
    db.session.add(row)
    return row, result


def insert_hand(session: Session, number: int, entry: rules.HandInput, dealer: str) -> Hand:
    """Put a hand back at `number`; the hands from there on move down a number."""
    hand = _checked_hand(session, None, entry, dealer)
    _renumber(session, number - 1, +1)
    row = Hand(number=number)
    _write_hand(session, row, hand)
    session.hands.insert(number - 1, row)
    return row


def replace_hand(session: Session, row: Hand, entry: rules.HandInput, dealer: str | None) -> None:
    """Correct a hand; its dealer stays unless a dealer is given."""
    _write_hand(session, row, _checked_hand(session, row, entry, dealer))


def preview_hand(
    session: Session, row: Hand | None, entry: rules.HandInput, dealer: str | None
) -> rules.HandResult:
    """What a new hand (row None) or a corrected one would score, doublers included."""
    hand = _checked_hand(session, row, entry, dealer)
    names = names_of(session)
    hands = [hand_of(r, names) for r in session.hands]
    index = len(hands) if row is None else row.number - 1
    hands[index : index + 1] = [hand]
    return rules.score_sheet(table_of(session), hands).results[index]


def _checked_hand(
    session: Session, row: Hand | None, entry: rules.HandInput, dealer: str | None
) -> rules.Hand:
    table = table_of(session)
    if row is None:
        table.check_room_for_hand(len(session.hands))
        last_dealer = session.hands[-1].dealer_id if session.hands else None
        dealer = dealer or table.next_dealer(
            None if last_dealer is None else names_of(session)[last_dealer]
        )
    else:
        dealer = dealer or names_of(session)[row.dealer_id]
    return rules.validate_hand(table, dealer or table.first_dealer, entry)


def delete_hand(session: Session, row: Hand) -> None:
    """Remove a hand; the later ones move up a number and keep their dealers."""
    number = row.number
    session.hands.remove(row)
    _renumber(session, number, -1)


def _renumber(session: Session, after: int, by: int) -> None:
    """Move the hands numbered above `after` by `by`, in the database and in `session`."""
    db.session.flush()
    # Two steps, so no two hands ever hold the same number mid-update (PostgreSQL checks
    # uniqueness row by row).
    later = (Hand.session_id == session.id) & (Hand.number > after)
    db.session.execute(
        update(Hand).where(later).values(number=-(Hand.number + by)),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(
        update(Hand)
        .where((Hand.session_id == session.id) & (Hand.number < 0))
        .values(number=-Hand.number),
        execution_options={"synchronize_session": False},
    )
    for row in session.hands:
        if row.number > after:
            db.session.expire(row, ["number"])


def find_hand(session: Session, number: int) -> Hand | None:
    return next((row for row in session.hands if row.number == number), None)


def _write_hand(session: Session, row: Hand, hand: rules.Hand) -> None:
    ids = {seat.player.name: seat.player_id for seat in session.seats}

    def player_id(name: str | None) -> int | None:
        return None if name is None else ids[name]

    row.dealer_id = ids[hand.dealer]
    row.kind = hand.kind.value
    row.picker_id = player_id(hand.picker)
    row.partner_id = player_id(hand.partner)
    row.called_card = hand.called_card
    row.forced = hand.forced
    row.picking_points = hand.picking_points
    row.cracked_by_id = player_id(hand.cracked_by)
    row.recracked = hand.recracked
    row.black_blitz = rules.Blitz.BLACK in hand.blitzes
    row.red_blitz = rules.Blitz.RED in hand.blitzes
    row.winner_id = player_id(hand.winner)
    table = table_of(session)
    row.players = [
        HandPlayer(
            player_id=ids[player],
            seat=table.seat_of(player),
            score=0,
            won=False,
            schneidered=False,
            points=None if hand.points is None else hand.points[player],
            tricks=None if hand.tricks is None else hand.tricks[player],
        )
        for player in table.players_of_hand(hand.dealer)
    ]


def rebuild(session: Session) -> None:
    """Number the hands 1..n in their order and write their players afresh from the hands;
    `store_scores` follows."""
    names = names_of(session)
    for position, row in enumerate(session.hands, start=1):
        row.number = -position
    db.session.flush()
    for position, row in enumerate(session.hands, start=1):
        row.number = position
        _write_hand(session, row, hand_of(row, names))


def store_scores(session: Session) -> rules.Sheet:
    """Rewrite the stored scores from a replay of the session's hands; the sheet replayed."""
    names = names_of(session)
    sheet = sheet_of(session)
    for row, result in zip(session.hands, sheet.results, strict=True):
        _store_result(row, result, names)
    return sheet


def _store_result(row: Hand, result: rules.HandResult, names: dict[int, str]) -> None:
    """Store a hand's multiplier and its players' scores. Only changed values are assigned, so
    a flush touches only the rows that changed."""
    if row.multiplier != result.multiplier:
        row.multiplier = result.multiplier
    for hand_player in row.players:
        player = names[hand_player.player_id]
        derived = (
            result.scores[player],
            player in result.winners,
            player in result.schneidered,
        )
        if (hand_player.score, hand_player.won, hand_player.schneidered) != derived:
            hand_player.score, hand_player.won, hand_player.schneidered = derived
