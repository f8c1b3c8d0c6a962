"""Writing a session's rows: new sessions and players, seats, hands added, changed, moved and
removed, early payments, and the stored scores, each checked by the rules engine first."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import delete, inspect, select, update

from .. import rules
from . import ratings, summary
from .extensions import db
from .loading import Tail, checked_hand, hand_of, seats_since_of, sheet_of, table_of
from .models import EarlyPayment, Hand, HandPlayer, Player, PlayerRating, Seat, Session, utcnow
from .records import options_json


def settle_early(session_id: int, leaver: str, payments: Sequence[rules.Payment]) -> None:
    """Record the payments that settled `leaver` (checked by `rules.settle_leaver`)."""
    names = [leaver, *(name for p in payments for name in (p.payer, p.payee))]
    ids = player_ids(names)
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


def players_named(
    names: Sequence[str], confirmed: Collection[str] | None = None, field: str = "players"
) -> list[Player]:
    """The players with these names, creating the new ones; an existing player keeps the
    spelling stored first. Given the names `confirmed` as new players (for names a person
    typed, not a restore's), `check_new_players` first (a refusal naming `field`)."""
    existing, everyone = _known(names)
    if confirmed is not None:
        _refuse_look_alikes(names, existing, everyone, confirmed, field)
    players = []
    for name in names:
        key = rules.name_key(name)
        if key not in existing:
            existing[key] = Player(name=name, name_key=key, rating=PlayerRating())
            db.session.add(existing[key])
        players.append(existing[key])
    return players


def check_new_players(names: Sequence[str], confirmed: Collection[str], near: bool = False) -> None:
    """Refuse a new name among `names` that looks like another player's, or like a new name
    before it (with `near`, or is a near name of one: an import's), unless it is among the
    names `confirmed` as new players."""
    _refuse_look_alikes(names, *_known(names), confirmed, near=near)


def players_known(names: Sequence[str]) -> tuple[dict[str, Player], list[str]]:
    """The players these names name, by the names' keys, and, when some name is new, every
    player's name (else none), to tell which new names look like a player's."""
    existing, everyone = _known(names)
    return existing, [player.name for player in everyone]


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
    field: str = "players",
    near: bool = False,
) -> None:
    new = [name for name in names if rules.name_key(name) not in existing]
    if new:
        rules.refuse_look_alikes(new, [p.name for p in everyone], confirmed, field, near)


def new_session(
    name: str,
    players: Sequence[str],
    rounds: int,
    first_dealer: str | None,
    options: rules.Options,
    session_id: int | None = None,
    created_at: datetime | None = None,
    new_players: Collection[str] = (),
    practice: bool = False,
) -> Session:
    """Add a session, checked by the rules engine, without committing: for writes that add
    hands too and must land together. A restored session keeps its id and creation time. A new
    player's name that looks like another's is refused unless among `new_players`. A table of
    a practice event (`practice`) keeps no summary."""
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
        practice=practice,
    )
    _set_rules(session, options)
    db.session.add(session)
    db.session.flush()
    summary.started(session)
    return session


def new_night(
    name: str,
    nets: dict[str, int],
    played_on: datetime,
    new_players: Collection[str] = (),
    session_id: int | None = None,
) -> Session:
    """Add a night kept without hands (its nets checked by `rules.check_night`), started at
    `played_on`, without committing. A new player's name that looks like another's is refused
    unless among `new_players`."""
    seated = players_named(list(nets), new_players, "totals")
    session = Session(
        id=session_id,
        created_at=played_on,
        name=rules.session_name(name),
        rounds=0,
        totals_only=True,
        completed=True,
        first_dealer=seated[0],
        seats=[
            Seat(position=i, player=player, net=net)
            for i, (player, net) in enumerate(zip(seated, nets.values(), strict=True))
        ],
    )
    _set_rules(session, rules.Options())
    db.session.add(session)
    db.session.flush()
    summary.started(session)
    ratings.changed()
    return session


def change_night(
    session: Session,
    name: str | None,
    played_on: datetime | None,
    nets: dict[str, int] | None,
    new_players: Collection[str] = (),
) -> None:
    """Rename a night, move it to another day or give it other nets (checked by
    `rules.check_night`)."""
    if name is not None:
        session.name = rules.session_name(name)
    if played_on is not None:
        session.created_at = played_on
    if played_on is not None or nets is not None:
        ratings.changed()
    if nets is not None:
        seated = players_named(list(nets), new_players, "totals")
        session.seats.clear()
        db.session.flush()
        session.seats.extend(
            Seat(position=i, player=player, net=net)
            for i, (player, net) in enumerate(zip(seated, nets.values(), strict=True))
        )
        session.first_dealer = seated[0]
        db.session.flush()


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


def add_hand(session: Session, entry: rules.HandInput, dealer: str | None) -> Hand:
    """Add a hand after the last one, dealt by `dealer` or by the next seat in rotation, with
    the seats now, without scoring or committing: `store_scores` follows."""
    hand = checked_hand(session, None, entry, dealer)
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
    hand = checked_hand(session, None, entry, dealer, seats)
    _renumber(session, number - 1, +1)
    row = Hand(number=number)
    _write_hand(session, row, hand)
    session.hands.insert(number - 1, row)
    return row


def replace_hand(session: Session, row: Hand, entry: rules.HandInput, dealer: str | None) -> None:
    """Correct a hand; its dealer stays unless a dealer is given. A corrected hand waits to
    be confirmed again."""
    _write_hand(session, row, checked_hand(session, row, entry, dealer))
    row.confirmed_by_id = None


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


def hand_values(hand: rules.Hand, ids: dict[str, int]) -> dict[str, Any]:
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


def seat_values(hand: rules.Hand, seat: int, player: str) -> dict[str, Any]:
    """What a hand's row for one of its seats holds of what was recorded, by column."""
    return {
        "seat": seat,
        "points": None if hand.points is None else hand.points.get(player),
        "tricks": None if hand.tricks is None else hand.tricks.get(player),
    }


def _write_hand(session: Session, row: Hand, hand: rules.Hand) -> None:
    people = _people(session, row, hand.seats)
    ids = {name: player.id for name, player in people.items()}
    for column, value in hand_values(hand, ids).items():
        setattr(row, column, value)
    playing = table_of(session).seated_as(hand.seats).players_of_hand(hand.dealer)
    row.players = [
        HandPlayer(
            player=people[player],
            played=player in playing,
            score=0,
            won=False,
            schneidered=False,
            **seat_values(hand, seat, player),
        )
        for seat, player in enumerate(hand.seats)
    ]


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


def player_ids(names: Sequence[str]) -> dict[str, int]:
    players = players_named(names)
    if any(player.id is None for player in players):
        db.session.flush()
    return {name: player.id for name, player in zip(names, players, strict=True)}
