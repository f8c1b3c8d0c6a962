"""A session as a backup holds it, checked whole by the rules engine before anything is
written: its table, its hands one after another, its changes (`change_checks`), its early
payments, confirmations, director's call and substitutes; and the trash's sessions, as a
restore from the trash will add them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from ..sessions import bulk, loading
from ..sessions.extensions import db
from ..sessions.models import Session, TrashedSession
from .backup import session_backup_json
from .backup_checks import (
    MAX_KEPT,
    checked_moment,
    checked_version,
    created_moment,
    is_whole,
    located,
    record_id,
)
from .change_checks import (
    Proven,
    as_read,
    checked_changes,
    director_call,
    payment_amount,
    text_or_empty,
)
from .session_bodies import hand_request, session_request


def add_session(given: dict[str, Any], session_id: int | None, where: str) -> Session:
    """A session as a backup holds it, with its hands, checked and added (see
    `checked_session`)."""
    [added] = bulk.insert_sessions([checked_session(given, session_id, where)])
    return loading.session_or_404(added)


# What a backup's session holds besides a session's input.
TABLE_KEYS = ("paid", "changes", "event", "director", "substitutes")


def checked_session(given: dict[str, Any], session_id: int | None, where: str) -> bulk.NewSession:
    """A session as a backup holds it, with its hands, each checked again by the rules engine;
    refusals say `where` they come from."""
    if given.get("totals_only", False) is not False:
        return _checked_night(given, session_id, where)
    with located(where):
        recorded = given.get("hands")
        if not isinstance(recorded, list):
            raise RuleError("It has no list of hands.", "hands")
        ended = given.get("ended", False)
        if not isinstance(ended, bool):
            raise RuleError("Its ended must be true or false.", "ended")
        request = session_request({k: v for k, v in given.items() if k not in TABLE_KEYS})
        event = _event_link(given.get("event"))
        table = rules.new_table(
            list(request.players), request.rounds, request.first_dealer, request.options
        )
        name = rules.session_name(request.name)
        created_at = created_moment(given.get("created_at"))
        version = checked_version(given.get("version", 1))
    hands: list[rules.Hand] = []
    read: Proven = {}
    for number, hand in enumerate(recorded, start=1):
        with located(f"{where}, hand {number}"):
            hands.append(_checked_hand(table, hands, hand, read))
    sheet = rules.score_sheet(replace(table, ended=ended), hands)
    confirmed = []
    for number, (hand, result) in enumerate(zip(recorded, sheet.results, strict=True), start=1):
        with located(f"{where}, hand {number}"):
            confirmed.append(_confirmer(hand.get("confirmed_by"), result, number))
    with located(where):
        settled = _settled(given.get("paid", []), sheet)
        director = director_call(given.get("director"))
        stand_ins = _stand_ins(given.get("substitutes", []))
        if event is None and (director is not None or stand_ins):
            raise RuleError("Only a table of an event calls the director or has substitutes.")
    return bulk.NewSession(
        name=name,
        created_at=created_at,
        version=version,
        sheet=sheet,
        session_id=session_id,
        settled=settled,
        changes=checked_changes(given.get("changes", []), where, read),
        event=event,
        confirmed=confirmed if any(confirmed) else (),
        director=director,
        stand_ins=stand_ins,
    )


def _confirmer(given: Any, result: rules.HandResult, number: int) -> str | None:
    """Who confirmed a backup's hand: a player of the side that did not pick, or None."""
    if given is None:
        return None
    if not isinstance(given, str):
        raise RuleError("Its confirmed_by must be a player's name or null.", "confirmed_by")
    return rules.check_confirmer(result, number, given)


def _stand_ins(given: Any) -> dict[str, str]:
    """Who stands in at a table for whom, as a backup keeps it (`[{"in", "for"}]`)."""
    if not isinstance(given, list):
        raise RuleError("Its substitutes must be a list.", "substitutes")
    stand_ins: dict[str, str] = {}
    for substitute in given:
        if (
            not isinstance(substitute, dict)
            or set(substitute) != {"in", "for"}
            or not all(isinstance(name, str) for name in substitute.values())
        ):
            raise RuleError("A substitute has the names in and for, and nothing else.")
        player = rules.player_name(substitute["in"], "substitutes")
        owner = rules.player_name(substitute["for"], "substitutes")
        if rules.name_key(player) == rules.name_key(owner) or player in stand_ins:
            raise RuleError(
                f"{player} sits in for another player once, not for themselves.", "substitutes"
            )
        stand_ins[player] = owner
    return stand_ins


def _checked_night(given: dict[str, Any], session_id: int | None, where: str) -> bulk.NewSession:
    """A night kept without hands as a backup holds it: its nets checked as `POST
    /api/sessions` checks them, and no hands."""
    with located(where):
        if given["totals_only"] is not True:
            raise RuleError("Its totals_only must be true or false.", "totals_only")
        if given.get("hands", []) != []:
            raise RuleError("A night kept without hands has no hands.", "hands")
        nets = rules.check_night(given.get("totals"))
        players = given.get("players")
        if players is not None and players != list(nets):
            raise RuleError("Its players are the players of its totals, in order.", "players")
        if given.get("event") is not None or given.get("paid", []) != []:
            raise RuleError("A night kept without hands is no event's table and pays nobody early.")
        return bulk.NewSession(
            name=rules.session_name(text_or_empty(given.get("name"))),
            created_at=created_moment(given.get("created_at")),
            version=checked_version(given.get("version", 1)),
            sheet=rules.night_sheet(nets),
            session_id=session_id,
            changes=checked_changes(given.get("changes", []), where),
        )


def _event_link(given: Any) -> tuple[int, int, int] | None:
    """The event, round and table a session is a table of; None for a session of its own."""
    if given is None:
        return None
    keys = ("id", "round", "table")
    if not isinstance(given, dict) or set(given) != set(keys):
        raise RuleError("Its event names the event's id, the round and the table.", "event")
    for key in keys:
        if not is_whole(given[key]):
            raise RuleError(
                f"Its event's {key} must be a whole number from 1 to {MAX_KEPT}.", "event"
            )
    return given["id"], given["round"], given["table"]


def checked_trash(given: Iterable[Any]) -> list[dict[str, Any]]:
    """The backup's trash, each deleted session checked as a restore from the trash will add
    it, as the rows of the trash here; those deleted too long ago to be kept are left out."""
    entries: list[dict[str, Any]] = []
    for position, entry in enumerate(given, start=1):
        with located(f"Trashed session {position} of the backup"):
            if not isinstance(entry, dict) or set(entry) != {
                "id",
                "deleted_at",
                "session",
                "version",
                "changes",
            }:
                raise RuleError(
                    "A trashed session has an id, deleted_at, session, version and changes, "
                    "and nothing else."
                )
            session_id = record_id(entry["id"])
            if session_id in (e["session_id"] for e in entries):
                raise RuleError(f"The id {session_id} is given to two trashed sessions.", "id")
            deleted_at = checked_moment(entry["deleted_at"], "deleted_at")
            checked_version(entry["version"])
            if not isinstance(entry["session"], dict):
                raise RuleError("Its session is not a JSON object.", "session")
        where = f"Trashed session {session_id}"
        new = checked_session(entry["session"], None, where)
        if new.event is not None:
            event, round_number, table = new.event
            with located(where):
                raise RuleError(
                    f"It is table {table} of round {round_number} of event {event}, but a "
                    "table of an event is never deleted.",
                    "event",
                )
        checked_changes(entry["changes"], where)
        if deleted_at >= TrashedSession.kept_since():
            data = {key: entry[key] for key in ("session", "version", "changes")}
            entries.append({"session_id": session_id, "deleted_at": deleted_at, "data": data})
    return entries


def _settled(paid: Any, sheet: rules.Sheet) -> dict[str, tuple[rules.Payment, ...]]:
    """A backup's early payments (`paid`), by the player each settled, checked against the
    session: players it names, the leaver paying or paid, and only with a stake."""
    if not isinstance(paid, list):
        raise RuleError("Its paid must be a list of payments.", "paid")
    if paid and not sheet.table.options.stake:
        raise RuleError("It has payments made early but no stake.", "paid")
    named = {rules.name_key(name): name for name in sheet.named}
    settled: dict[str, tuple[rules.Payment, ...]] = {}
    for given in paid:
        if not isinstance(given, dict) or set(given) != {"player", "from", "to", "amount"}:
            raise RuleError(
                "A payment made early has a player, from, to and amount, and nothing else.",
                "paid",
            )
        leaver, payer, payee = (
            named.get(rules.name_key(given[key])) if isinstance(given[key], str) else None
            for key in ("player", "from", "to")
        )
        amount = given["amount"]
        if leaver is None or payer is None or payee is None:
            raise RuleError("A payment made early names a player not of the session.", "paid")
        if leaver not in (payer, payee) or payer == payee:
            raise RuleError(
                "A payment made early runs between the player it settled and another.", "paid"
            )
        payment_amount(amount)
        settled[leaver] = (*settled.get(leaver, ()), rules.Payment(payer, payee, amount))
    return settled


def held_already(given: dict[str, Any]) -> bool:
    """Whether a session with the same start time, name, table and hands is here already."""
    try:
        started = created_moment(given.get("created_at"))
    except RuleError:
        return False
    name = given.get("name")
    if not isinstance(name, str):
        return False
    alike = db.session.scalars(
        select(Session)
        .where(Session.created_at == started, Session.name == name)
        .options(*loading.WHOLE_SESSION)
    )
    wanted = _comparable(given)
    return any(_comparable(session_backup_json(session)) == wanted for session in alike)


def _comparable(session: dict[str, Any]) -> str:
    # A backup from before sessions could end or settle a leaver has neither key. A session's
    # changes are how it came to be as it is, not part of what it is.
    given = {"ended": False, "paid": []} | session
    return json.dumps(
        {k: v for k, v in given.items() if k not in ("id", "version", "changes")}, sort_keys=True
    )


def _checked_hand(
    table: rules.Table, before: list[rules.Hand], hand: Any, read: Proven
) -> rules.Hand:
    """A backup's hand checked by the rules as the next after `before`; what was read of it
    goes in `read`, by its number."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    recorded = hand_request(hand)
    read[len(before) + 1] = (as_read(hand), recorded)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    last = before[-1] if before else None
    return rules.next_hand(
        table, len(before), last, recorded.entry, recorded.dealer, recorded.seats
    )
