"""Every session checked against its hands: what is stored and can be derived is never trusted
over the hands themselves. `flask --app scorekeeper check` runs this; `--repair` rebuilds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import select

from .. import rules
from . import loading, summary
from .extensions import db
from .models import Session, SessionMember, SessionPlayer
from .records import hand_input_json, recorded_hand
from .writes import session_write

# A session's summary rows: as its hands add them up, or as it keeps them.
Rows = Sequence[Any]


def problems(session: Session, counted: Rows, kept: Rows, members: set[int]) -> Iterator[str]:
    """What is wrong with a session, in sentences; nothing when it is consistent. `counted` is
    its summary as its hands add it up (`summary.recount`), `kept` the summary it keeps and
    `members` the players it keeps as having sat in it."""
    where = f"Session {session.id}"
    if session.totals_only:
        yield from _night_problems(session)
    numbers = [row.number for row in session.hands]
    if numbers != list(range(1, len(numbers) + 1)):
        yield f"{where}: its hands are numbered {_numbers(numbers)}, not 1 to {len(numbers)}."
    table = loading.table_of(session)
    limit = table.hands_per_session
    if limit is not None and len(numbers) > limit:
        yield f"{where}: it has {len(numbers)} hands, more than its {table.rounds} rounds allow."
    hands = [loading.hand_of(row) for row in session.hands]
    for position, (row, hand) in enumerate(zip(session.hands, hands, strict=True), start=1):
        entry, dealer, _seats = recorded_hand(hand_input_json(hand))
        seated = table.seated_as(hand.seats)
        try:
            rules.check_table(seated.seats, seated.options, "seats")
            valid = rules.validate_hand(seated, dealer, entry)
        except rules.RuleError as error:
            yield f"{where}, hand {position}: it breaks the rules: {error.message}"
            continue
        if valid != hand:
            yield f"{where}, hand {position}: it is stored differently from how the rules read it."
        if row.seated != len(hand.seats):
            yield (
                f"{where}, hand {position}: it says {row.seated} were seated, "
                f"and it has {len(hand.seats)} seats."
            )
        played = [p.player.name for p in row.players if p.played]
        if played != list(seated.players_of_hand(dealer)):
            yield f"{where}, hand {position}: its players are not the players of the hand."
    since = loading.seats_since_of(session, table)
    if session.seats_since < since:
        yield (
            f"{where}: hand {since} was played with other seats than the seats now, "
            f"but the session says every hand after hand {session.seats_since} has them."
        )
    sheet = loading.sheet_of(session, hands)
    for position, (row, result) in enumerate(zip(session.hands, sheet.results, strict=True), 1):
        if row.multiplier != result.multiplier:
            yield (
                f"{where}, hand {position}: the stored multiplier is {row.multiplier}, "
                f"the hands give {result.multiplier}."
            )
        for hand_player in row.players:
            player = hand_player.player.name
            stored = (hand_player.score, hand_player.won, hand_player.schneidered)
            derived = (
                result.scores[player],
                player in result.winners,
                player in result.schneidered,
            )
            if stored != derived:
                yield (
                    f"{where}, hand {position}: {player}'s stored score, win or schneider "
                    f"{stored} differs from the hands' {derived}."
                )
    yield from _summary_problems(session, sheet, counted, kept)
    sat_in = {seat.player_id for seat in session.seats}
    sat_in.update(p.player_id for row in session.hands for p in row.players)
    if session.practice:
        sat_in = set()
    if members != sat_in:
        yield f"{where}: the players it says sat in it are not those seated or at its hands."


def _night_problems(session: Session) -> Iterator[str]:
    """Where a night kept without hands is not one: hands, or nets that are no night's."""
    where = f"Session {session.id}"
    if session.hands:
        yield f"{where}: it is a night kept without hands, but it has {len(session.hands)} hands."
    try:
        rules.check_night(loading.nets_of(session))
    except rules.RuleError as error:
        yield f"{where}: its nets are not a night's: {error.message}"
    if any(seat.net is None for seat in session.seats):
        yield f"{where}: it is a night kept without hands, but not every player has a net."


def _summary_problems(
    session: Session, sheet: rules.Sheet, counted: Rows, kept: Rows
) -> Iterator[str]:
    """Where the session's summary (`summary`) differs from its hands."""
    where = f"Session {session.id}"
    complete = sheet.table.is_complete(len(sheet.results))
    if (session.hand_count, session.completed) != (len(sheet.results), complete):
        yield (
            f"{where}: it says it has {session.hand_count} hands and is "
            f"{'' if session.completed else 'not '}complete; its hands say {len(sheet.results)} "
            f"and {'' if complete else 'not '}complete."
        )
    # The players seated now too: a night kept without hands has no hand to name them.
    ids = {seat.player.name: seat.player_id for seat in session.seats}
    ids.update({p.player.name: p.player_id for row in session.hands for p in row.players})
    places = {ids.get(s.player): s.place for s in sheet.standings} if complete else {}
    added_up = {
        (row.player_id, row.seated): (
            *(getattr(row, n) for n in summary.NUMBERS),
            row.stake,
            places.get(row.player_id),
        )
        for row in counted
    }
    held = {
        (row.player_id, row.seated): (
            *(getattr(row, n) for n in summary.NUMBERS),
            row.stake,
            row.place,
        )
        for row in kept
    }
    if held != added_up:
        yield f"{where}: its players' summary differs from what its hands add up to."


def _numbers(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:12]))
    return shown + (", ..." if len(numbers) > 12 else "")


def session_ids() -> list[int]:
    return list(db.session.scalars(select(Session.id).order_by(Session.id)))


# Sessions checked together, each batch read in a few statements however many hands it holds.
SESSIONS_A_BATCH = 100


def check_sessions(session_ids: Sequence[int]) -> dict[int, list[str]]:
    """What is wrong with each of the sessions, by id (those that are not there left out)."""
    sessions = db.session.scalars(
        select(Session)
        .where(Session.id.in_(session_ids))
        .order_by(Session.id)
        .options(*loading.WHOLE_SESSION)
    ).all()
    hand_ids = [hand.id for session in sessions for hand in session.hands]
    bounds = (min(hand_ids), max(hand_ids)) if hand_ids else None
    counted: dict[int, list[Any]] = defaultdict(list)
    for row in db.session.execute(*summary.recount(session_ids, bounds)):
        counted[row.session_id].append(row)
    kept: dict[int, list[Any]] = defaultdict(list)
    for row in db.session.scalars(
        select(SessionPlayer).where(SessionPlayer.session_id.in_(session_ids))
    ):
        kept[row.session_id].append(row)
    members: dict[int, set[int]] = defaultdict(set)
    for session_id, player_id in db.session.execute(
        select(SessionMember.session_id, SessionMember.player_id).where(
            SessionMember.session_id.in_(session_ids)
        )
    ):
        members[session_id].add(player_id)
    found = {
        session.id: list(
            problems(session, counted[session.id], kept[session.id], members[session.id])
        )
        for session in sessions
    }
    db.session.expunge_all()
    return found


def repair_session(session_id: int) -> None:
    """Renumber the hands 1..n in their order and rebuild everything derived from them."""
    with session_write(session_id) as write:
        write.rebuild()
