"""Sessions and hands in the database, translated to and from the rules engine.

The functions that change data check through the engine and write without committing: they run
inside a write of `writes`, which holds the lock and commits the change together with the
stored copies of the scores, or nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from flask import abort
from sqlalchemy import Integer, Table, delete, func, insert, inspect, select, text, update
from sqlalchemy.orm import aliased, joinedload, selectinload

from .. import rules
from .extensions import db
from .models import MAX_ID as MAX_ID  # a backup's ids are checked against it
from .models import Change, EarlyPayment, Hand, HandPlayer, Player, Seat, Session, is_id, utcnow
from .records import options_json

# How a session is loaded with its seats, hands and their players, in a fixed number of queries.
WHOLE_SESSION = (
    selectinload(Session.seats).joinedload(Seat.player),
    selectinload(Session.hands).selectinload(Hand.players).joinedload(HandPlayer.player),
)


def check_session_id(session_id: int) -> None:
    """404 for an id no session can have (the database would refuse to look it up), as a
    command line names one."""
    if not is_id(session_id):
        abort(404, f"There is no session {session_id}.")


def session_version(session_id: int) -> int:
    """A session's version alone, in one query: all a poll needs to learn that nothing changed."""
    check_session_id(session_id)
    version = db.session.scalar(select(Session.version).where(Session.id == session_id))
    if version is None:
        abort(404, f"There is no session {session_id}.")
    return version


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


def tail_of(session: Session) -> Tail:
    table = table_of(session)
    of_session = Hand.session_id == session.id
    # Hands are numbered 1..n (every write keeps them so, and `flask check` verifies it), so the
    # last hand's number is the count.
    last_hand = select(Hand.id).where(of_session).order_by(Hand.number.desc()).limit(1)
    last = db.session.execute(
        select(Hand.number, Hand.dealer_id, Player.id, Player.name)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(Hand.id == last_hand.scalar_subquery())
        .order_by(HandPlayer.seat)
    ).all()
    pending = 0
    if table.options.no_bid is rules.NoBid.DOUBLER:
        kinds = db.session.scalars(select(Hand.kind).where(of_session).order_by(Hand.number))
        pending = rules.pending_doublers(table, [rules.Kind(kind) for kind in kinds])
    if not last:
        return Tail(
            count=0,
            next_dealer=table.next_dealer(None),
            pending_doublers=pending,
            named=table.seats,
        )
    names = {row.id: row.name for row in last}
    return Tail(
        count=last[0].number,
        next_dealer=table.next_dealer(names[last[0].dealer_id], [row.name for row in last]),
        pending_doublers=pending,
        named=_named(session, table),
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
    check_session_id(session_id)
    session: Session = db.first_or_404(
        select(Session).where(Session.id == session_id).options(*WHOLE_SESSION),
        description=f"There is no session {session_id}.",
    )
    return session


@dataclass(frozen=True)
class Read:
    """A session as a page or an answer shows it: its row and seats, its scoresheet, the ids
    of everyone seated now or at any hand, by name, and who was settled early."""

    session: Session
    sheet: rules.Sheet
    player_ids: dict[str, int]
    settled: dict[str, tuple[rules.Payment, ...]]


def read_session_or_404(session_id: int) -> Read:
    """A session to show, read in four statements whatever its length: the hands come as plain
    rows, which cost a fraction of loading them as objects."""
    check_session_id(session_id)
    session: Session = db.first_or_404(
        select(Session)
        .where(Session.id == session_id)
        .options(selectinload(Session.seats).joinedload(Seat.player)),
        description=f"There is no session {session_id}.",
    )
    hand, seat, player = Hand.__table__.c, HandPlayer.__table__.c, Player.__table__.c
    rows = db.session.execute(
        select(
            hand.id, hand.dealer_id, hand.kind, hand.picker_id, hand.partner_id,
            hand.called_card, hand.forced, hand.picking_points, hand.cracked_by_id,
            hand.recracked, hand.black_blitz, hand.red_blitz, hand.winner_id, hand.result,
            hand.penalized_id,
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
    hands = [_hand_of_row(row, seated[row.id], names) for row in rows]
    sheet = rules.score_sheet(table_of(session), hands)
    player_ids = {name: player_id for player_id, name in names.items()}
    return Read(session, sheet, player_ids, settled_of(session))


def _hand_of_row(row: Any, seated: list[Any], names: dict[int, str]) -> rules.Hand:
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


def list_sessions() -> Sequence[Session]:
    return db.session.scalars(
        select(Session)
        .order_by(Session.created_at.desc(), Session.id.desc())
        .options(selectinload(Session.seats).joinedload(Seat.player))
    ).all()


def seated_players() -> list[str]:
    """Everyone who has sat in a session, seated now or for a hand, by name."""
    at_a_hand = select(HandPlayer.player_id).where(HandPlayer.player_id == Player.id).exists()
    return list(
        db.session.scalars(
            select(Player.name)
            .where(Player.id.in_(select(Seat.player_id)) | at_a_hand)
            .order_by(Player.name_key)
        )
    )


# Sessions loaded at a time by `every_session`: few enough that memory stays small however
# long the history (a backup of 60,000 hands peaks at 91 MiB), enough that queries are few.
SESSIONS_AT_A_TIME = 20


def every_session(*order: Any, with_history: bool = False) -> Iterator[Session]:
    """Every session, whole (and `with_history`, its changes), in the given order, loaded a
    few at a time; the database session lets go of each few before the next are loaded."""
    ids = list(db.session.scalars(select(Session.id).order_by(*order)))
    options = (*WHOLE_SESSION, selectinload(Session.changes)) if with_history else WHOLE_SESSION
    for start in range(0, len(ids), SESSIONS_AT_A_TIME):
        sessions = db.session.scalars(
            select(Session)
            .where(Session.id.in_(ids[start : start + SESSIONS_AT_A_TIME]))
            .order_by(*order)
            .options(*options)
        ).all()
        yield from sessions
        db.session.expunge_all()


def every_sheet() -> Iterator[tuple[Session, rules.Sheet]]:
    """Every session, oldest first, with its scoresheet."""
    for session in every_session(Session.created_at, Session.id):
        yield session, sheet_of(session)


def roster() -> list[str]:
    """Every player's name, for choosing the players of a new session."""
    return list(db.session.scalars(select(Player.name).order_by(Player.name_key)))


def hand_counts() -> dict[int, int]:
    rows = db.session.execute(
        select(Hand.session_id, db.func.count(Hand.id)).group_by(Hand.session_id)
    )
    return {session_id: count for session_id, count in rows}


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
    )


def settled_of(session: Session) -> dict[str, tuple[rules.Payment, ...]]:
    """The players settled early, each with the payments that settled them, in the order they
    were settled. Only a session with a stake has any (`rules.check_stake_change`), so no
    other is asked."""
    if not session.stake:
        return {}
    leaver, payer, payee = aliased(Player), aliased(Player), aliased(Player)
    settled: dict[str, tuple[rules.Payment, ...]] = {}
    for name, payer_name, payee_name, amount in db.session.execute(
        select(leaver.name, payer.name, payee.name, EarlyPayment.amount)
        .join(leaver, leaver.id == EarlyPayment.leaver_id)
        .join(payer, payer.id == EarlyPayment.payer_id)
        .join(payee, payee.id == EarlyPayment.payee_id)
        .where(EarlyPayment.session_id == session.id)
        .order_by(EarlyPayment.id)
    ):
        settled[name] = (*settled.get(name, ()), rules.Payment(payer_name, payee_name, amount))
    return settled


def settle_early(session_id: int, leaver: str, payments: Sequence[rules.Payment]) -> None:
    """Record the payments that settled `leaver` (checked by `rules.settle_leaver`)."""
    names = [leaver, *(name for p in payments for name in (p.payer, p.payee))]
    ids = _player_ids(names)
    db.session.add_all(
        EarlyPayment(
            session_id=session_id,
            leaver_id=ids[leaver],
            payer_id=ids[payment.payer],
            payee_id=ids[payment.payee],
            amount=payment.amount,
        )
        for payment in payments
    )


def unsettle(session_id: int, leaver: str) -> None:
    """Take back the payments that settled `leaver` early."""
    player = select(Player.id).where(Player.name_key == rules.name_key(leaver))
    db.session.execute(
        delete(EarlyPayment).where(
            EarlyPayment.session_id == session_id, EarlyPayment.leaver_id.in_(player)
        )
    )


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
    return _hand_of_row(row, seated, names)


def sheet_of(session: Session) -> rules.Sheet:
    return rules.score_sheet(table_of(session), [hand_of(row) for row in session.hands])


def players_named(names: Sequence[str], confirmed: Collection[str] | None = None) -> list[Player]:
    """The players with these names, creating the new ones; an existing player keeps the
    spelling stored first. Given the names `confirmed` as new players (for names a person
    typed, not a restore's), `check_new_players` first."""
    existing, everyone = _known(names)
    if confirmed is not None:
        _refuse_look_alikes(names, existing, everyone, confirmed)
    players = []
    for name in names:
        key = rules.name_key(name)
        if key not in existing:
            existing[key] = Player(name=name, name_key=key)
            db.session.add(existing[key])
        players.append(existing[key])
    return players


def check_new_players(names: Sequence[str], confirmed: Collection[str]) -> None:
    """Refuse a new name among `names` that looks like another player's, or like a new name
    before it, unless it is among the names `confirmed` as new players."""
    _refuse_look_alikes(names, *_known(names), confirmed)


def _known(names: Sequence[str]) -> tuple[dict[str, Player], Sequence[Player]]:
    """The players these names name, by the names' keys, and, when some name is new, every
    player (else none)."""
    keys = {rules.name_key(name) for name in names}
    existing = {
        player.name_key: player
        for player in db.session.scalars(select(Player).where(Player.name_key.in_(keys)))
    }
    if keys <= existing.keys():
        return existing, ()
    everyone = db.session.scalars(select(Player)).all()
    # A key stored before names were composed (NFC) may differ from the name's key now.
    for player in everyone:
        existing.setdefault(rules.name_key(player.name), player)
    return existing, everyone


def _refuse_look_alikes(
    names: Sequence[str],
    existing: dict[str, Player],
    everyone: Sequence[Player],
    confirmed: Collection[str],
) -> None:
    new = [name for name in names if rules.name_key(name) not in existing]
    if new:
        rules.refuse_look_alikes(new, [p.name for p in everyone], confirmed, "players")


def new_session(
    name: str,
    players: Sequence[str],
    rounds: int,
    first_dealer: str | None,
    options: rules.Options,
    session_id: int | None = None,
    created_at: datetime | None = None,
    new_players: Collection[str] = (),
) -> Session:
    """Add a session, checked by the rules engine, without committing: for writes that add
    hands too and must land together. A restored session keeps its id and creation time. A new
    player's name that looks like another's is refused unless among `new_players`."""
    table = rules.new_table(list(players), rounds, first_dealer, options)
    options = table.options
    seated = players_named(table.seats, new_players)
    session = Session(
        id=session_id,
        created_at=created_at or utcnow(),
        name=rules.session_name(name),
        rounds=rounds,
        first_dealer=seated[table.seat_of(table.first_dealer)],
        seats=[Seat(position=i, player=player) for i, player in enumerate(seated)],
    )
    _set_rules(session, options)
    db.session.add(session)
    db.session.flush()
    return session


def _set_rules(session: Session, options: rules.Options) -> None:
    # The rule columns are named as the API's rule keys.
    for column, value in options_json(options).items():
        setattr(session, column, value)


def update_session(
    session: Session,
    hand_count: int,
    name: str | None,
    rounds: int | None,
    players: Sequence[str] | None = None,
    options: rules.Options | None = None,
    new_players: Collection[str] = (),
) -> None:
    """Rename, change the rounds, seat a new table from the next hand on (arrivals' names
    checked as `new_session` does), or change the rules (all of them while no hand is played,
    only the stake after); the rounds are checked against the seats they will have, and the
    rules against the table."""
    new_name = session.name if name is None else rules.session_name(name)
    table = table_of(session)
    if options is not None:
        table = rules.change_rules(table, options, hand_count)
    if rounds is not None:
        if not 0 <= rounds <= rules.MAX_ROUNDS:
            raise rules.rounds_error()
        table = replace(table, rounds=rounds)
    if players is not None:
        table = rules.change_seats(table, players, hand_count)
    table.check_rounds(table.rounds, hand_count)
    session.name = new_name
    session.rounds = table.rounds
    _set_rules(session, table.options)
    if players is not None:
        _seat(session, table, new_players)
        session.seats_since = hand_count


def _seat(session: Session, table: rules.Table, new_players: Collection[str]) -> None:
    seated = players_named(table.seats, new_players)
    session.seats.clear()
    db.session.flush()
    session.seats.extend(Seat(position=i, player=player) for i, player in enumerate(seated))
    session.first_dealer = seated[table.seat_of(table.first_dealer)]
    db.session.flush()


def add_hand(
    session: Session,
    entry: rules.HandInput,
    dealer: str | None,
    seats: Sequence[str] | None = None,
) -> Hand:
    """Add a hand after the last one, dealt by `dealer` or by the next seat in rotation, with
    the seats now (or the `seats` it was played with, for a restored one), without scoring or
    committing: `store_scores` follows once the hands are in."""
    hand = _checked_hand(session, None, entry, dealer, seats)
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
    _pending, taken = rules.take_doubler(table, tail.pending_doublers, hand.kind)
    result = rules.score_hand(table, hand, taken)
    row = Hand(session_id=session.id, number=tail.count + 1)
    _write_hand(session, row, hand)
    _store_result(row, result)
    db.session.add(row)
    return row, result


def insert_hand(
    session: Session,
    number: int,
    entry: rules.HandInput,
    dealer: str,
    seats: Sequence[str] | None,
) -> Hand:
    """Put a hand back at `number`, with the seats it was played with; the hands from there on
    move down a number."""
    hand = _checked_hand(session, None, entry, dealer, seats)
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
    hands = [hand_of(r) for r in session.hands]
    index = len(hands) if row is None else row.number - 1
    hands[index : index + 1] = [hand]
    return rules.score_sheet(table_of(session), hands).results[index]


def _checked_hand(
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
        return next_hand(table, len(session.hands), last, entry, dealer, seats)
    table = table.seated_as(seats_of(row))
    return rules.validate_hand(table, dealer or hand_of(row).dealer, entry)


def next_hand(
    table: rules.Table,
    count: int,
    last: rules.Hand | None,
    entry: rules.HandInput,
    dealer: str | None,
    seats: Sequence[str] | None = None,
) -> rules.Hand:
    """The hand to add after `count` hands, the last of them `last`, checked by the rules: dealt
    by `dealer` or the next in rotation, with the seats now or the `seats` it was played with."""
    table.check_room_for_hand(count)
    if dealer is None:
        dealer = table.next_dealer(last.dealer, last.seats) if last else table.next_dealer(None)
    if seats is not None:
        table = table.seated_as(rules.checked_seats(seats, "seats"))
        rules.check_table(table.seats, table.options, "seats")
    return rules.validate_hand(table, dealer, entry)


def next_dealer_of(session: Session) -> str:
    """Who deals the next hand, read from the session's loaded hands."""
    table = table_of(session)
    if not session.hands:
        return table.next_dealer(None)
    last = hand_of(session.hands[-1])
    return table.next_dealer(last.dealer, last.seats)


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


def _people(session: Session, row: Hand, names: Sequence[str]) -> dict[str, Player]:
    """The players with these names: seated now, at this hand or (where the hands are loaded,
    as when a restore adds them one by one) at the last hand already, else looked up."""
    people = {seat.player.name: seat.player for seat in session.seats}
    if "hands" not in inspect(session).unloaded and session.hands:
        people.update((p.player.name, p.player) for p in session.hands[-1].players)
    people.update((p.player.name, p.player) for p in row.players if p.player is not None)
    missing = [name for name in names if name not in people]
    if missing:
        # Without flushing the hands written so far, so that they are inserted together.
        with db.session.no_autoflush:
            found = players_named(missing, confirmed=())
        people.update(zip(missing, found, strict=True))
        if any(player.id is None for player in found):
            db.session.flush()
    return people


def _hand_values(hand: rules.Hand, ids: dict[str, int]) -> dict[str, Any]:
    """What a hand's row holds of what was recorded, by column."""

    def player_id(name: str | None) -> int | None:
        return None if name is None else ids[name]

    return {
        "dealer_id": ids[hand.dealer],
        "kind": hand.kind.value,
        "picker_id": player_id(hand.picker),
        "partner_id": player_id(hand.partner),
        "called_card": hand.called_card,
        "forced": hand.forced,
        "picking_points": hand.picking_points,
        "cracked_by_id": player_id(hand.cracked_by),
        "recracked": hand.recracked,
        "black_blitz": rules.Blitz.BLACK in hand.blitzes,
        "red_blitz": rules.Blitz.RED in hand.blitzes,
        "winner_id": player_id(hand.winner),
        "seated": len(hand.seats),
        "result": None if hand.result is None else hand.result.value,
        "penalized_id": player_id(hand.penalized),
    }


def _seat_values(hand: rules.Hand, seat: int, player: str) -> dict[str, Any]:
    """What a hand's row for one of its seats holds of what was recorded, by column."""
    return {
        "seat": seat,
        "points": None if hand.points is None else hand.points.get(player),
        "tricks": None if hand.tricks is None else hand.tricks.get(player),
    }


def _write_hand(session: Session, row: Hand, hand: rules.Hand) -> None:
    people = _people(session, row, hand.seats)
    ids = {name: player.id for name, player in people.items()}
    for column, value in _hand_values(hand, ids).items():
        setattr(row, column, value)
    playing = table_of(session).seated_as(hand.seats).players_of_hand(hand.dealer)
    row.players = [
        HandPlayer(
            player=people[player],
            played=player in playing,
            score=0,
            won=False,
            schneidered=False,
            **_seat_values(hand, seat, player),
        )
        for seat, player in enumerate(hand.seats)
    ]


@dataclass(frozen=True)
class NewSession:
    """A session and its hands, every hand checked by the rules engine (`next_hand`), to insert
    in bulk (a restore)."""

    name: str
    created_at: datetime
    version: int
    sheet: rules.Sheet
    session_id: int | None = None
    settled: rules.Settled = field(default_factory=dict)
    # Its history, oldest first: each change as a `Change` row's columns but the session's.
    changes: Sequence[dict[str, Any]] = ()


def insert_sessions(sessions: Sequence[NewSession]) -> list[int]:
    """Insert checked sessions with their seats, hands and the hands' players, scored, their
    early payments and their history: a statement or two a table however many sessions there
    are. Returns their ids, in order."""
    if not sessions:
        return []
    names = {name for new in sessions for name in new.sheet.table.seats}
    names.update(name for new in sessions for r in new.sheet.results for name in r.hand.seats)
    ids = _player_ids(sorted(names))
    session_ids = _insert_session_rows(sessions, ids)
    db.session.execute(
        insert(Seat.__table__),
        [
            {"session_id": session_id, "position": position, "player_id": ids[player]}
            for session_id, new in zip(session_ids, sessions, strict=True)
            for position, player in enumerate(new.sheet.table.seats)
        ],
    )
    results = [
        (session_id, number, result)
        for session_id, new in zip(session_ids, sessions, strict=True)
        for number, result in enumerate(new.sheet.results, start=1)
    ]
    if results:
        hand_ids = _new_ids(Hand.__table__, len(results))
        _insert_rows(
            Hand.__table__,
            [
                {
                    "id": hand_id,
                    "session_id": session_id,
                    "number": number,
                    "multiplier": result.multiplier,
                    **_hand_values(result.hand, ids),
                }
                for hand_id, (session_id, number, result) in zip(hand_ids, results, strict=True)
            ],
        )
        _insert_rows(
            HandPlayer.__table__,
            [
                {
                    "hand_id": hand_id,
                    "player_id": ids[player],
                    "played": player in result.players,
                    "score": result.scores[player],
                    "won": player in result.winners,
                    "schneidered": player in result.schneidered,
                    **_seat_values(result.hand, seat, player),
                }
                for hand_id, (_, _, result) in zip(hand_ids, results, strict=True)
                for seat, player in enumerate(result.hand.seats)
            ],
        )
    paid = [
        {
            "session_id": session_id,
            "leaver_id": ids[leaver],
            "payer_id": ids[payment.payer],
            "payee_id": ids[payment.payee],
            "amount": payment.amount,
        }
        for session_id, new in zip(session_ids, sessions, strict=True)
        for leaver, payments in new.settled.items()
        for payment in payments
    ]
    if paid:
        db.session.execute(insert(EarlyPayment.__table__), paid)
    changes = [
        {"session_id": session_id, **change}
        for session_id, new in zip(session_ids, sessions, strict=True)
        for change in new.changes
    ]
    if changes:
        db.session.execute(insert(Change.__table__), changes)
    return session_ids


def _new_ids(table: Table, count: int) -> Sequence[int]:
    """`count` ids for new rows of `table`, inside a write: PostgreSQL's sequence hands them out;
    on SQLite the write holds the database's lock, so the ids past the largest are free."""
    if db.session.get_bind().dialect.name == "postgresql":
        return db.session.scalars(
            text(
                f"SELECT nextval(pg_get_serial_sequence('{table.name}', 'id')) "
                "FROM generate_series(1, :count)"
            ),
            {"count": count},
        ).all()
    largest = db.session.scalar(select(func.max(table.c.id))) or 0
    return range(largest + 1, largest + 1 + count)


def reserve_ids(table: Table, largest: int) -> None:
    """Hand out only ids above `largest` for new rows of `table` from now on (a restore that
    keeps a backup's ids reserves them all with its first batch), never moving the next id back:
    an id is never handed out twice. Inside a roster write, which no other new session or
    player passes."""
    if db.session.get_bind().dialect.name == "postgresql":
        sequence = f"pg_get_serial_sequence('{table.name}', 'id')::regclass"
        db.session.execute(
            text(
                f"SELECT setval({sequence}, :largest) "
                f"WHERE :largest > coalesce(pg_sequence_last_value({sequence}), 0)"
            ),
            {"largest": largest},
        )
        return
    # SQLite's AUTOINCREMENT hands out ids past the one sqlite_sequence holds for the table.
    named = {"table": table.name, "largest": largest}
    held = db.session.scalar(text("SELECT seq FROM sqlite_sequence WHERE name = :table"), named)
    if held is None:
        db.session.execute(
            text("INSERT INTO sqlite_sequence (name, seq) VALUES (:table, :largest)"), named
        )
    elif held < largest:
        db.session.execute(
            text("UPDATE sqlite_sequence SET seq = :largest WHERE name = :table"), named
        )


def _insert_rows(table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert rows that all name the same columns: on PostgreSQL by COPY, many times quicker
    than an INSERT of many rows for the tables of hands; elsewhere by one `insert()`."""
    if not rows:
        return
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        connection.execute(insert(table), rows)
        return
    columns = list(rows[0])
    statement = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
    psycopg = connection.connection.driver_connection
    assert psycopg is not None
    with psycopg.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row([row[column] for column in columns])


def _player_ids(names: Sequence[str]) -> dict[str, int]:
    players = players_named(names)
    if any(player.id is None for player in players):
        db.session.flush()
    return {name: player.id for name, player in zip(names, players, strict=True)}


def _insert_session_rows(sessions: Sequence[NewSession], ids: dict[str, int]) -> list[int]:
    """The session rows, with the ids given or new ones."""
    rows = []
    for new in sessions:
        table = new.sheet.table
        row = {
            "name": new.name,
            "created_at": new.created_at,
            "rounds": table.rounds,
            "first_dealer_id": ids[table.first_dealer],
            "version": new.version,
            "ended": table.ended,
            "seats_since": max(
                (
                    n
                    for n, r in enumerate(new.sheet.results, start=1)
                    if r.hand.seats != table.seats
                ),
                default=0,
            ),
            **options_json(table.options),
        }
        if new.session_id is not None:
            row["id"] = new.session_id
        rows.append(row)
    session_table = Session.__table__
    given = [row for row in rows if "id" in row]
    if given:
        db.session.execute(insert(session_table), given)
    made = [row for row in rows if "id" not in row]
    if made:
        new_ids = db.session.scalars(
            insert(session_table).returning(session_table.c.id, sort_by_parameter_order=True),
            made,
        ).all()
        for row, session_id in zip(made, new_ids, strict=True):
            row["id"] = session_id
    return [row["id"] for row in rows]


def rebuild(session: Session) -> None:
    """Number the hands 1..n in their order and write their players afresh from the hands;
    `store_scores` follows."""
    for position, row in enumerate(session.hands, start=1):
        row.number = -position
    db.session.flush()
    for position, row in enumerate(session.hands, start=1):
        row.number = position
        _write_hand(session, row, hand_of(row))


def store_scores(session: Session) -> rules.Sheet:
    """Rewrite the stored scores from a replay of the session's hands; the sheet replayed."""
    sheet = sheet_of(session)
    for row, result in zip(session.hands, sheet.results, strict=True):
        _store_result(row, result)
    seats_since = seats_since_of(session, sheet.table)
    if session.seats_since != seats_since:
        session.seats_since = seats_since
    return sheet


def seats_since_of(session: Session, table: rules.Table) -> int:
    """The number of the last hand played with other seats than the seats now, or 0."""
    return max(
        (row.number for row in session.hands if seats_of(row) != table.seats),
        default=0,
    )


def _store_result(row: Hand, result: rules.HandResult) -> None:
    """Store a hand's multiplier and its players' scores. Only changed values are assigned, so
    a flush touches only the rows that changed."""
    if row.multiplier != result.multiplier:
        row.multiplier = result.multiplier
    for hand_player in row.players:
        player = hand_player.player.name
        derived = (
            result.scores[player],
            player in result.winners,
            player in result.schneidered,
        )
        if (hand_player.score, hand_player.won, hand_player.schneidered) != derived:
            hand_player.score, hand_player.won, hand_player.schneidered = derived
