"""What a backup may hold, checked part by part before anything is written: its players,
events, merges, seasons and rule sets, and each session with its hands (through the rules
engine), changes, payments and table, as `restore` and the trash take them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from ..rules.choices import choice
from ..sessions import bulk, event_writes, loading, season_writes, writes
from ..sessions.extensions import db
from ..sessions.models import (
    Session,
    TrashedSession,
)
from ..sessions.records import (
    iso,
)
from ..sessions.renames import PLAYER_ACTIONS
from . import rule_sets as rule_sets_module
from .backup import session_backup_json
from .backup_file import Streamed
from .journal import plural
from .json_in import (
    HAND_KEYS,
    HAND_OUTPUT_KEYS,
    HandRequest,
    event_request,
    hand_request,
    season_request,
    session_request,
)

# The largest id or version a backup may give: far below 2**31 - 1 (PostgreSQL's integer, and
# the largest id the routes take), so the ids and versions that come after never run out.
MAX_KEPT = 1_000_000_000

# The times a backup may give, far enough inside what a datetime holds that every time zone
# can show them.
EARLIEST = datetime(2, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)


def check_rule_sets(given: list[Any]) -> None:
    for position, rule_set in enumerate(given, start=1):
        with located(f"Rule set {position} of the backup"):
            if not isinstance(rule_set, dict) or not isinstance(rule_set.get("name"), str):
                raise RuleError("It has no name.", "name")
            rule_sets_module.rule_set_name(rule_set["name"])
            rule_sets_module.rules_json(rule_set.get("rules"))
            created_moment(rule_set.get("created_at"))


@dataclass(frozen=True)
class _Event:
    id: int
    fields: event_writes.EventFields
    version: int
    at: datetime
    players: list[tuple[str, bool]]


def checked_events(given: Any, players: dict[int, str]) -> list[_Event]:
    """The backup's events, their settings checked as the API checks a new event's, each
    player of the backup's players listed once."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its events are not a list.")
    keys = {rules.name_key(name) for name in players.values()}
    checked: dict[int, _Event] = {}
    for position, event in enumerate(given, start=1):
        with located(f"Event {position} of the backup"):
            if not isinstance(event, dict) or not isinstance(event.get("players"), list):
                raise RuleError("An event has its settings and a list of its players.")
            event_id = record_id(event.get("id"))
            if event_id in checked:
                raise RuleError(f"The id {event_id} is given to two events.", "id")
            entrants: list[tuple[str, bool]] = []
            listed: set[str] = set()
            for entrant in event["players"]:
                if (
                    not isinstance(entrant, dict)
                    or set(entrant) != {"name", "checked_in"}
                    or not isinstance(entrant["checked_in"], bool)
                    or not isinstance(entrant["name"], str)
                    or rules.name_key(entrant["name"]) not in keys
                ):
                    raise RuleError(
                        "Its players each have a name among the backup's players and "
                        "whether they are checked in.",
                        "players",
                    )
                key = rules.name_key(entrant["name"])
                if key in listed:
                    raise RuleError(
                        f"{entrant['name'].strip()} is listed twice among its players.",
                        "players",
                    )
                listed.add(key)
                entrants.append((entrant["name"], entrant["checked_in"]))
            fields = event_request(event)
            event_writes.check_settings(fields)
            checked[event_id] = _Event(
                id=event_id,
                fields=fields,
                version=_version(event.get("version", 1)),
                at=created_moment(event.get("created_at")),
                players=entrants,
            )
    return list(checked.values())


class EventTables:
    """The tables of the backup's events, as its sessions claim them: each a table of an event
    the backup holds, in a round the event plays, and no two the same table; once every
    session is through (`check_whole`), each event's rounds drawn are 1, 2, ... and each
    round's tables 1, 2, ..., none missing, as draws make them. Only the claims are kept: an
    event, round and table with the session that claimed it."""

    def __init__(self, events: list[_Event]) -> None:
        self._events = {event.id: event for event in events}
        self._claimed: dict[tuple[int, int, int], int] = {}

    def ids(self) -> list[int]:
        return list(self._events)

    def practice(self, event_id: int) -> bool:
        """Whether the event is a practice event (a table claimed it already)."""
        return bool(self._events[event_id].fields.practice)

    def claim(self, session_id: int, link: tuple[int, int, int]) -> None:
        event_id, round_number, table = link
        event = self._events.get(event_id)
        if event is None:
            raise RuleError(
                f"Session {session_id} is a table of event {event_id}, which is not among the "
                "backup's events."
            )
        rounds = event.fields.rounds or 0
        if rounds and round_number > rounds:
            raise RuleError(
                f"Session {session_id} is a table of round {round_number} of event "
                f"{event_id}, which plays {plural(rounds, 'round')}."
            )
        other = self._claimed.setdefault(link, session_id)
        if other != session_id:
            raise RuleError(
                f"Session {other} and session {session_id} are both round {round_number}, "
                f"table {table} of event {event_id}."
            )

    def check_whole(self) -> None:
        rounds: dict[int, set[int]] = {}
        tables: dict[tuple[int, int], set[int]] = {}
        for event_id, round_number, table in self._claimed:
            rounds.setdefault(event_id, set()).add(round_number)
            tables.setdefault((event_id, round_number), set()).add(table)
        for event_id, drawn in sorted(rounds.items()):
            missing = _first_missing(drawn)
            if missing is not None:
                raise RuleError(
                    f"Event {event_id} has tables in round {max(drawn)} but none in round "
                    f"{missing}."
                )
            # The prizes of an event of as many rounds as are drawn are checked for those drawn.
            with located(f"Event {event_id}"):
                event_writes.check_settings(self._events[event_id].fields, max(drawn))
        for (event_id, round_number), held in sorted(tables.items()):
            missing = _first_missing(held)
            if missing is not None:
                raise RuleError(
                    f"Round {round_number} of event {event_id} has table {max(held)} but no "
                    f"table {missing}."
                )


def _first_missing(numbers: set[int]) -> int | None:
    """The first of 1, 2, ... up to the largest of `numbers` that they leave out."""
    if len(numbers) == max(numbers):
        return None
    return min(set(range(1, max(numbers))) - numbers)


def checked_merges(given: Any, players: dict[int, str]) -> list[dict[str, Any]]:
    """The backup's merges that can be undone, as the columns of `PlayerMerge` rows: each of a
    player no longer among the backup's players into another, who is among them or was merged
    into another later, and none dated in the future."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its merges are not a list.")
    merges: list[dict[str, Any]] = []
    ids: set[int] = set()
    # The merge of each player merged away.
    later: dict[int, int] = {}
    for position, merge in enumerate(given, start=1):
        with located(f"Merge {position} of the backup"):
            keys = {"id", "at", "player", "name", "active", "into", "sessions", "trashed"}
            if not isinstance(merge, dict) or set(merge) != keys:
                raise RuleError(f"A merge has {_or(sorted(keys)).replace(' or ', ' and ')}.")
            if not isinstance(merge["active"], bool):
                raise RuleError("Its active flag must be true or false.", "active")
            for key in ("sessions", "trashed"):
                if not isinstance(merge[key], list):
                    raise RuleError(f"Its {key} must be a list of ids.", key)
            merges.append(
                {
                    "id": record_id(merge["id"]),
                    "at": _moment(merge["at"], "at"),
                    "player_id": record_id(merge["player"]),
                    "name": rules.player_name(merge["name"], "name"),
                    "active": merge["active"],
                    "into_id": record_id(merge["into"]),
                    "sessions": [record_id(i) for i in merge["sessions"]],
                    "trashed": [record_id(i) for i in merge["trashed"]],
                }
            )
            _check_merge(merges[-1], ids, later, players)
            ids.add(merges[-1]["id"])
            later[merges[-1]["player_id"]] = merges[-1]["id"]
    # Merged into a player merged later, a merge's other player is no longer listed.
    for position, merge in enumerate(merges, start=1):
        into = merge["into_id"]
        if into not in players and later.get(into, 0) <= merge["id"]:
            with located(f"Merge {position} of the backup"):
                raise RuleError(
                    f"It merges {merge['name']} into player {into}, who is neither among the "
                    "backup's players nor merged into another by a later merge.",
                    "into",
                )
    return merges


# How far ahead of this server's clock the one a backup was made by may be.
CLOCKS_APART = timedelta(days=1)


def _check_merge(
    merge: dict[str, Any], ids: set[int], merged: dict[int, int], players: dict[int, str]
) -> None:
    """A merge against the backup's players and the merges before it: their `ids`, and the
    players they `merged` away."""
    player = merge["player_id"]
    if merge["id"] in ids:
        raise RuleError(f"The id {merge['id']} is given to two merges.", "id")
    if merge["into_id"] == player:
        raise RuleError(f"It merges player {player} into themselves.", "into")
    if player in players:
        raise RuleError(
            f"It merges player {player} away, but {players[player]} is still among the backup's "
            f"players as player {player}.",
            "player",
        )
    if player in merged:
        raise RuleError(f"Player {player} is merged away by two merges.", "player")
    if merge["at"] > datetime.now(UTC) + CLOCKS_APART:
        raise RuleError(f"It is dated {iso(merge['at'])}, in the future.", "at")


def checked_seasons(given: Any) -> list[tuple[season_writes.SeasonFields, datetime]]:
    """The backup's seasons, checked as the API checks a new one; a backup made before seasons
    were kept has none. One whose name is here already is not added."""
    if not isinstance(given, list):
        raise RuleError("This backup is damaged: its seasons are not a list.")
    checked = []
    for position, season in enumerate(given, start=1):
        with located(f"Season {position} of the backup"):
            if not isinstance(season, dict):
                raise RuleError("A season has its name, days, house rules and fewest hands.")
            fields = season_request(season)
            season_writes.checked(fields)
            checked.append((fields, created_moment(season.get("created_at"))))
    return checked


@contextmanager
def located(where: str) -> Iterator[None]:
    """Say where in the backup a refusal comes from: "Session 3, hand 7: ..."."""
    try:
        yield
    except RuleError as error:
        raise RuleError(f"{where}: {error.message}", error.field) from None


def record_id(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_KEPT:
        raise RuleError(f"Its id must be a whole number from 1 to {MAX_KEPT}.", "id")
    return value


def checked_players(players: list[Any]) -> dict[int, str]:
    """The backup's players, checked: their names by their ids."""
    keys: set[str] = set()
    checked: dict[int, str] = {}
    for position, player in enumerate(players, start=1):
        with located(f"Player {position} of the backup"):
            if not isinstance(player, dict) or not isinstance(player.get("name"), str):
                raise RuleError("It has no name.", "name")
            name = rules.player_name(player["name"], "name")
            player_id = record_id(player.get("id"))
            if rules.name_key(name) in keys:
                raise RuleError(f"{name} is listed twice.", "name")
            if player_id in checked:
                raise RuleError(f"The id {player_id} is given to two players.", "id")
        keys.add(rules.name_key(name))
        checked[player_id] = name
    return checked


def retired(players: list[Any]) -> set[int]:
    """The ids of the backup's retired players (`"active": false`; a backup made before players
    could retire has every player active)."""
    retired = set()
    for position, player in enumerate(players, start=1):
        active = player.get("active", True)
        if not isinstance(active, bool):
            with located(f"Player {position} of the backup"):
                raise RuleError("Its active flag must be true or false.", "active")
        if not active:
            retired.add(record_id(player.get("id")))
    return retired


def sessions_then_trash(
    sessions: Iterable[Any], trash: Iterable[Any], kept: list[Any]
) -> Iterator[Any]:
    """The backup's sessions, one at a time, and once they are through, its trash in `kept`: of
    a backup's file, read along with them in one walk through it."""
    if (
        isinstance(sessions, Streamed)
        and isinstance(trash, Streamed)
        and sessions.file is trash.file
    ):
        for streamed, item in sessions.file.items(sessions, trash):
            if streamed is sessions:
                yield item
            else:
                kept.append(item)
        return
    yield from sessions
    kept.extend(trash)


def add_session(given: dict[str, Any], session_id: int | None, where: str) -> Session:
    """A session as a backup holds it, with its hands, checked and added (see
    `checked_session`)."""
    [added] = bulk.insert_sessions([checked_session(given, session_id, where)])
    return loading.session_or_404(added)


# A session's hands as its check read them, by number: what `hand_request` reads of each
# (`_as_read`), and what it read.
Proven = dict[int, tuple[str, HandRequest]]

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
        version = _version(given.get("version", 1))
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
        director = _director(given.get("director"))
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
        changes=_checked_changes(given.get("changes", []), where, read),
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


def _director(given: Any) -> tuple[datetime, str] | None:
    """A table's open call for the director as a backup keeps it (`{"note", "at"}`), or None."""
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) != {"note", "at"}:
        raise RuleError("Its call for the director has a note and a time.", "director")
    if not isinstance(given["note"], str):
        raise RuleError("Its call for the director's note must be text.", "director")
    return _moment(given["at"], "director"), rules.check_note(given["note"])


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
            name=rules.session_name(_text_or_empty(given.get("name"))),
            created_at=created_moment(given.get("created_at")),
            version=_version(given.get("version", 1)),
            sheet=rules.night_sheet(nets),
            session_id=session_id,
            changes=_checked_changes(given.get("changes", []), where),
        )


def _text_or_empty(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RuleError("Its name must be text.", "name")
    return value


def _event_link(given: Any) -> tuple[int, int, int] | None:
    """The event, round and table a session is a table of; None for a session of its own."""
    if given is None:
        return None
    keys = ("id", "round", "table")
    if not isinstance(given, dict) or set(given) != set(keys):
        raise RuleError("Its event names the event's id, the round and the table.", "event")
    for key in keys:
        if not _is_whole(given[key]):
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
            deleted_at = _moment(entry["deleted_at"], "deleted_at")
            _version(entry["version"])
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
        _checked_changes(entry["changes"], where)
        if deleted_at >= TrashedSession.kept_since():
            data = {key: entry[key] for key in ("session", "version", "changes")}
            entries.append({"session_id": session_id, "deleted_at": deleted_at, "data": data})
    return entries


def _checked_changes(given: Any, where: str, read: Proven | None = None) -> list[dict[str, Any]]:
    """A session's changes as a backup holds them (`change_json`, oldest first), checked so that
    its Changes page can tell each change and an Undo can read it: as the columns of `Change`
    rows. Undo checks a hand it brings back with the rules, as it does every hand. `read` holds
    the session's hands as its check read them, by number."""
    with located(where):
        if not isinstance(given, list):
            raise RuleError("Its changes must be a list.", "changes")
    changes = []
    for position, change in enumerate(given, start=1):
        with located(f"{where}, change {position}"):
            changes.append(_checked_change(change, read or {}))
    return changes


def _checked_change(change: Any, read: Proven) -> dict[str, Any]:
    if not isinstance(change, dict) or set(change) != {"at", "action", "number", "before", "after"}:
        raise RuleError("A change has an at, action, number, before and after, and nothing else.")
    at = _moment(change["at"], "at")
    action, number, before, after = (change[key] for key in ("action", "number", "before", "after"))
    if number is None:
        if action in PLAYER_ACTIONS:
            _check_player_change(before, after)
            return {"at": at, "action": action, "number": None, "before": before, "after": after}
        if action not in writes.SESSION_ACTIONS:
            actions = (*writes.SESSION_ACTIONS, *PLAYER_ACTIONS)
            raise RuleError(f"Its action must be {_or(actions)}.", "action")
        if action in writes.NOT_UNDONE:
            _check_table_change(action, before, after)
        else:
            _check_session_change(before, after)
    else:
        if not _is_whole(number):
            raise RuleError(f"Its number must be a whole number from 1 to {MAX_KEPT}.", "number")
        if action not in writes.HAND_ACTIONS:
            raise RuleError(f"Its action must be {_or(writes.HAND_ACTIONS)}.", "action")
        if before is None and after is None:
            raise RuleError("A change to a hand has the hand before it or after it.", "before")
        for key, hand in (("before", before), ("after", after)):
            if hand is not None:
                with located(f"The hand {key} it"):
                    _check_hand_json(hand, number, read.get(number))
    return {"at": at, "action": action, "number": number, "before": before, "after": after}


def _check_player_change(before: Any, after: Any) -> None:
    """A player renamed, merged into another or merged back: both sides `{"name": ...}`."""
    for side in (before, after):
        if not isinstance(side, dict) or set(side) != {"name"} or not isinstance(side["name"], str):
            raise RuleError('A change to a player has {"name": ...} before and after it.', "before")
        rules.player_name(side["name"], "before")


def _check_table_change(action: str, before: Any, after: Any) -> None:
    """A change to a table of an event: the director called (the call after it) or answered
    (the call before it), or a substitute seated (`{"out", "in", "for"}` after it)."""
    if action == "substitute":
        if (
            before is not None
            or not isinstance(after, dict)
            or set(after) != {"out", "in", "for"}
            or not all(isinstance(name, str) for name in after.values())
        ):
            raise RuleError('A substitute seated has {"out", "in", "for"} after it.', "after")
        return
    call, other = (after, before) if action == "call-director" else (before, after)
    if other is not None or _director(call) is None:
        raise RuleError("A call for the director has the call on one side and null on the other.")


def _check_session_change(before: Any, after: Any) -> None:
    """A change to the session itself: ended or reopened, both sides `{"ended": ...}`; a night
    kept without hands changed, both sides `{"name", "created_at", "totals"}`; or a player
    settled early or taken back, one side the settlement, the other null."""
    if any(isinstance(side, dict) and "totals" in side for side in (before, after)):
        for side in (before, after):
            if not isinstance(side, dict) or set(side) != {"name", "created_at", "totals"}:
                raise RuleError(
                    'A change to a night has {"name", "created_at", "totals"} before and after it.',
                    "before",
                )
            rules.session_name(_text_or_empty(side["name"]))
            _moment(side["created_at"], "before")
            rules.check_night(side["totals"], "before")
        return
    if any(isinstance(side, dict) and "ended" in side for side in (before, after)):
        for side in (before, after):
            if (
                not isinstance(side, dict)
                or set(side) != {"ended"}
                or not isinstance(side["ended"], bool)
            ):
                raise RuleError('Ending a session changes {"ended": true or false}.', "before")
        return
    if (before is None) == (after is None):
        raise RuleError("Settling a player early has the settlement before it or after it.")
    settlement = before if after is None else after
    if (
        not isinstance(settlement, dict)
        or set(settlement) != {"player", "payments"}
        or not isinstance(settlement["player"], str)
        or not isinstance(settlement["payments"], list)
    ):
        raise RuleError("A settlement has a player and a list of payments, and nothing else.")
    leaver = settlement["player"]
    for payment in settlement["payments"]:
        if not isinstance(payment, dict) or set(payment) != {"from", "to", "amount"}:
            raise RuleError("A payment has a from, to and amount, and nothing else.")
        _amount(payment["amount"])
        sides = (payment["from"], payment["to"])
        if not all(isinstance(side, str) for side in sides) or leaver not in sides:
            raise RuleError(f"A payment of {leaver}'s settlement runs between them and another.")


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
        _amount(amount)
        settled[leaver] = (*settled.get(leaver, ()), rules.Payment(payer, payee, amount))
    return settled


def _amount(value: Any) -> int:
    if not _is_whole(value):
        raise RuleError(
            f"A payment made early is a whole number of cents from 1 to {MAX_KEPT}.", "paid"
        )
    return int(value)


def _is_whole(value: Any) -> bool:
    """A whole number from 1 to MAX_KEPT."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_KEPT


def _is_score(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_KEPT


def _or(words: Sequence[str]) -> str:
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def _version(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_KEPT:
        raise RuleError(f"Its version must be a whole number from 0 to {MAX_KEPT}.", "version")
    return value


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


def created_moment(value: Any) -> datetime:
    return _moment(value, "created_at")


def _moment(value: Any, field: str) -> datetime:
    """An ISO 8601 time, in UTC; one without a time zone is UTC, as every stored time is."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleError(
            f"Its {field} must be a date and time in ISO 8601, such as 2024-03-01T19:30:00+00:00.",
            field,
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        raise RuleError(
            f"Its {field} must be a time from the year {EARLIEST.year} to the year "
            f"{LATEST.year - 1}.",
            field,
        )
    return utc


def _checked_hand(
    table: rules.Table, before: list[rules.Hand], hand: Any, read: Proven
) -> rules.Hand:
    """A backup's hand checked by the rules as the next after `before`; what was read of it
    goes in `read`, by its number."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    recorded = hand_request(hand)
    read[len(before) + 1] = (_as_read(hand), recorded)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    last = before[-1] if before else None
    return rules.next_hand(
        table, len(before), last, recorded.entry, recorded.dealer, recorded.seats
    )


# The parts of a hand's JSON (`hand_json`) that were derived, not recorded, each with the check
# its value passes; those named in `LATER_PARTS` are missing from hands kept before they were.
_HOLDS: dict[rules.Shape, Callable[[Any], bool]] = {
    rules.Shape.FACTOR: _is_whole,
    rules.Shape.FLAG: lambda value: isinstance(value, bool),
    rules.Shape.NAMES: _is_names,
    rules.Shape.SCORES: lambda value: (
        isinstance(value, dict) and all(map(_is_score, value.values()))
    ),
}
DERIVED_PARTS: dict[str, Callable[[Any], bool]] = {
    "number": _is_whole,
    **{name: _HOLDS[derived.shape] for name, derived in rules.DERIVED_FIELDS},
    "seats": _is_names,
    "confirmed_by": lambda value: value is None or isinstance(value, str),
}


LATER_PARTS = (
    *(name for name, derived in rules.DERIVED_FIELDS if derived.later),
    "seats",
    "confirmed_by",
)


def _as_read(hand: dict[str, Any]) -> str:
    """What `hand_request` reads of a hand, as JSON (where true is no 1), its keys in order:
    two hands alike in it read alike. It ignores what was derived (but the seats), and a null
    where a key may be missing (but the partner's: its null says the picker went alone)."""
    return json.dumps(
        {
            key: value
            for key, value in hand.items()
            if not (key in HAND_OUTPUT_KEYS and key != "seats")
            and not (value is None and key in HAND_KEYS and key != "partner")
        },
        sort_keys=True,
    )


def _check_hand_json(hand: Any, number: int, read: tuple[str, HandRequest] | None = None) -> None:
    """A hand as a session's changes keep it (`hand_json`): what was recorded, as the API takes a
    hand, and what was derived from it, each of its kind. `read` is the session's hand of that
    number as its check read it: a copy of it (most often) is not read again."""
    if not isinstance(hand, dict):
        raise RuleError("It is not a JSON object.")
    copy = read is not None and read[0] == _as_read(hand)
    recorded = read[1] if read is not None and copy else hand_request(hand)
    if recorded.dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    rules.kind_of(recorded.entry.kind)
    for blitz in recorded.entry.blitzes:
        choice(rules.Blitz, blitz, "A blitz", "blitzes")
    if recorded.entry.result is not None:
        choice(rules.Result, recorded.entry.result, "The result", "result")
    for key, holds in DERIVED_PARTS.items():
        if key not in hand and key in LATER_PARTS:
            continue
        if key not in hand or not holds(hand[key]):
            raise RuleError(f"Its {key} is missing or not what a hand holds.", key)
    if hand["number"] != number:
        raise RuleError(f"It is numbered {hand['number']}, not {number}.", "number")
