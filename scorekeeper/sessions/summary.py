"""What each player did in each session, kept beside the hands: `SessionPlayer` rows, a
session's hand count and whether it is complete, and who sat in it (`SessionMember` rows).

Every write that changes a session's hands or seats rewrites these from the hands, in its own
transaction: the one write path when it finishes (`rewrite`), the bulk insert of a restore,
the trash or an import (`add`), and a merge of two players (which moves the rows). A league's
statistics then add up a few rows a session instead of every hand, and `recount` is what
`flask check` compares them to.

A table of a practice event (`Session.practice`) keeps none of these rows: every list, total
and statistic is read from them, so none counts a rehearsal's made-up hands.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    ColumnExpressionArgument,
    CompoundSelect,
    Delete,
    Insert,
    Label,
    Select,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    union,
    union_all,
    update,
)

from .. import rules
from .extensions import db
from .models import Hand, HandPlayer, Seat, Session, SessionMember, SessionPlayer


def _count(condition: ColumnExpressionArgument[bool]) -> ColumnElement[int]:
    return func.count().filter(condition)


PICKER = Hand.picker_id == HandPlayer.player_id
PARTNER = Hand.partner_id == HandPlayer.player_id
CRACKER = Hand.cracked_by_id == HandPlayer.player_id
ALONE = PICKER & Hand.partner_id.is_(None)
PENALIZED = Hand.penalized_id == HandPlayer.player_id
WITH_POINTS = PICKER & Hand.picking_points.is_not(None)
LEASTER = Hand.kind == rules.Kind.LEASTER.value
WON = HandPlayer.won

# Each number of a `SessionPlayer` row, as it is added up from the hands the player played.
COUNTS: tuple[Label[Any], ...] = (
    func.count().label("hands"),
    _count(WON).label("hands_won"),
    func.coalesce(func.sum(HandPlayer.score), 0).label("total"),
    _count(PICKER).label("picks"),
    _count(PICKER & WON).label("picks_won"),
    _count(ALONE).label("alone"),
    _count(ALONE & WON).label("alone_won"),
    _count(PARTNER).label("partner"),
    _count(PARTNER & WON).label("partner_won"),
    _count(CRACKER).label("cracks"),
    _count(CRACKER & WON).label("cracks_won"),
    _count(CRACKER & Hand.recracked).label("recracked"),
    func.coalesce(func.sum(HandPlayer.score).filter(CRACKER), 0).label("crack_points"),
    _count(LEASTER).label("leasters"),
    _count(LEASTER & WON).label("leasters_won"),
    _count(HandPlayer.schneidered).label("schneidered"),
    _count(PENALIZED).label("penalties"),
    func.coalesce(func.sum(Hand.picking_points).filter(WITH_POINTS), 0).label("card_points"),
    _count(WITH_POINTS).label("picks_with_points"),
)
NUMBERS = tuple(count.name for count in COUNTS)
KEY = ("session_id", "player_id", "seated")


# The sessions a statement made once is given, as the parameter `sessions`.
SESSIONS: BindParameter[int] = bindparam("sessions", expanding=True)

# What a night kept without hands is summed up under instead of a table size: its rows hold
# each player's net, and nothing where hands count.
NIGHT = 0

# The least and greatest id of the hands of the sessions recounted together.
HandIds = tuple[int, int]


def recount(
    session_ids: Collection[int],
    hand_ids: HandIds | None = None,
    *,
    hands: bool = True,
    nights: bool = True,
) -> tuple[CompoundSelect[*tuple[Any, ...]], dict[str, Any]]:
    """The summary rows of the sessions, added up from their hands, with each session's stake
    (without places), as a statement and its parameters; a night kept without hands has a row
    for each player, seated 0, with no hands and their net as total. For many sessions,
    `hand_ids` bounds the hands' players read: without it PostgreSQL reads every hand's
    players, the history over, to find those of a hundred sessions; `hands` False reads no
    hand (the sessions have none), `nights` False no night's nets (none of the sessions is
    one)."""
    parameters: dict[str, Any] = {"sessions": list(session_ids)}
    if hand_ids is not None:
        parameters["first_hand"], parameters["last_hand"] = hand_ids
    return _recount_query(hand_ids is not None, hands, nights), parameters


# The statements are made once: a statement made anew is keyed for SQLAlchemy's cache anew,
# which took a tenth of a hand's write for this one.
@functools.cache
def _recount_query(bounded: bool, hands: bool, nights: bool) -> CompoundSelect[*tuple[Any, ...]]:
    parts: list[Select[*tuple[Any, ...]]] = []
    if hands:
        counted = (
            select(Hand.session_id, HandPlayer.player_id, Hand.seated, *COUNTS, Session.stake)
            .join(Hand, Hand.id == HandPlayer.hand_id)
            .join(Session, Session.id == Hand.session_id)
            .where(HandPlayer.played, ~Session.practice, Hand.session_id.in_(SESSIONS))
            .group_by(Hand.session_id, HandPlayer.player_id, Hand.seated, Session.stake)
        )
        if bounded:
            counted = counted.where(
                HandPlayer.hand_id.between(bindparam("first_hand"), bindparam("last_hand"))
            )
        parts.append(counted)
    if nights:
        nets = (
            select(
                Seat.session_id,
                Seat.player_id,
                literal(NIGHT).label("seated"),
                *(
                    (func.coalesce(Seat.net, 0) if name == "total" else literal(0)).label(name)
                    for name in NUMBERS
                ),
                Session.stake,
            )
            .join(Session, Session.id == Seat.session_id)
            .where(Session.totals_only, ~Session.practice, Seat.session_id.in_(SESSIONS))
        )
        parts.append(nets)
    return union_all(*parts)


@functools.cache
def _recount_rows(bounded: bool, hands: bool, nights: bool) -> tuple[Delete, Insert]:
    """The statements that write the summary rows of the sessions `recount` is given: of the
    table, not the model, since the ORM takes parameters given with its own insert for rows."""
    table = SessionPlayer.__table__
    return (
        delete(table).where(table.c.session_id.in_(SESSIONS)),
        insert(table).from_select(
            [*KEY, *NUMBERS, "stake"], _recount_query(bounded, hands, nights)
        ),
    )


def rewrite(session: Session, hand_count: int, complete: bool, *, hands: bool, seats: bool) -> None:
    """Rewrite one session's summary in the write under way, which knows its hand count and
    whether the rules find it complete with them: its rows from its hands when the write
    changed them or the rules they are scored by (`hands`), who sat in it when it changed its
    seats or hands (`seats`), and the places when it is complete (none when it is no longer).
    The count is set first, so that it goes out in the one update of the session's row that
    the write makes: PostgreSQL checks the row's keys again when a transaction updates it a
    second time, and that check would wait for a club event's lock."""
    was_complete = session.completed
    session.hand_count = hand_count
    session.completed = complete
    if hands:
        _recount([session.id], hands=not session.totals_only, nights=session.totals_only)
    elif was_complete and not complete:
        db.session.execute(
            update(SessionPlayer).where(SessionPlayer.session_id == session.id).values(place=None)
        )
    if seats:
        _remember([session.id])
    if complete:
        _place([session.id])


def started(session: Session) -> None:
    """Keep who sits in a session just added, before its first hand: its seats; and a night
    kept without hands whole, complete as it is made."""
    if session.totals_only:
        add([session.id], None)
    else:
        _remember([session.id])


def add(session_ids: Collection[int], hand_ids: HandIds | None) -> None:
    """Write the summary rows, members and places of sessions just inserted whole, their hand
    counts and completeness inserted with them; `hand_ids` bounds their hands' ids (None: they
    have none, so there is nothing to add up)."""
    ids = sorted(set(session_ids))
    if ids:
        _recount(ids, hand_ids, hands=hand_ids is not None)
        _remember(ids, hand_ids)
        _place(ids)


def _recount(
    session_ids: list[int],
    hand_ids: HandIds | None = None,
    *,
    hands: bool = True,
    nights: bool = True,
) -> None:
    _, parameters = recount(session_ids, hand_ids, hands=hands, nights=nights)
    db.session.flush()
    for statement in _recount_rows(hand_ids is not None, hands, nights):
        db.session.execute(statement, parameters)


def _members(
    session_ids: Collection[int], hand_ids: HandIds | None = None
) -> Select[tuple[int, int]]:
    """Who sat in each of the sessions: seated now, or at any of their hands (`hand_ids`
    bounds the hands' players read, as for `recount`); no one for a practice table."""
    counted = select(Session.id).where(Session.id.in_(session_ids), ~Session.practice)
    at_hands = (
        select(Hand.session_id, HandPlayer.player_id)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(Hand.session_id.in_(counted))
    )
    if hand_ids is not None:
        at_hands = at_hands.where(HandPlayer.hand_id.between(*hand_ids))
    seated = select(Seat.session_id, Seat.player_id).where(Seat.session_id.in_(counted))
    return select(*union(seated, at_hands).subquery().c)


def _remember(session_ids: list[int], hand_ids: HandIds | None = None) -> None:
    db.session.execute(delete(SessionMember).where(SessionMember.session_id.in_(session_ids)))
    sat_in = _members(session_ids, hand_ids)
    db.session.execute(insert(SessionMember).from_select(["session_id", "player_id"], sat_in))


def _place(session_ids: list[int]) -> None:
    """Each player's place in the standings of the complete sessions among `session_ids`, as
    the rules rank them: everyone who played a hand or is seated now."""
    complete = select(Session.id).where(Session.id.in_(session_ids), Session.completed)
    at_hands = (
        select(
            SessionPlayer.session_id,
            SessionPlayer.player_id,
            func.sum(SessionPlayer.total),
            func.sum(SessionPlayer.hands_won),
        )
        .where(SessionPlayer.session_id.in_(complete))
        .group_by(SessionPlayer.session_id, SessionPlayer.player_id)
    )
    seated_now = select(Seat.session_id, Seat.player_id, literal(0), literal(0)).where(
        Seat.session_id.in_(complete)
    )
    # A player seated now adds nothing to their sums, but is ranked.
    sums: dict[int, dict[int, tuple[int, int]]] = {}
    for session_id, player_id, total, won in db.session.execute(union_all(at_hands, seated_now)):
        players = sums.setdefault(session_id, {})
        before_total, before_won = players.get(player_id, (0, 0))
        players[player_id] = (before_total + int(total), before_won + int(won))
    places: list[dict[str, int]] = []
    for session_id, players in sums.items():
        names = [str(player_id) for player_id in players]
        totals = {str(p): total for p, (total, _) in players.items()}
        hands_won = {str(p): won for p, (_, won) in players.items()}
        places.extend(
            {"s": session_id, "p": int(standing.player), "place": standing.place}
            for standing in rules.standings(names, totals, hands_won)
        )
    if places:
        table = SessionPlayer.__table__
        db.session.execute(
            update(table)
            .where(table.c.session_id == bindparam("s"), table.c.player_id == bindparam("p"))
            .values(place=bindparam("place")),
            places,
        )
