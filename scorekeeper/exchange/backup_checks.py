"""What a backup may hold, checked part by part before anything is written: its players,
events, merges, seasons and rule sets, and what every part's checks share (where a refusal
comes from, ids, versions and times). A session with its hands is `session_checks`'s, its
changes `change_checks`'s."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from .. import rules
from ..rules import RuleError
from ..sessions import event_writes, season_writes
from ..sessions.records import iso
from . import rule_sets as rule_sets_module
from .event_bodies import event_request
from .journal import plural
from .season_bodies import season_request

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
                version=checked_version(event.get("version", 1)),
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
                raise RuleError(f"A merge has {or_words(sorted(keys)).replace(' or ', ' and ')}.")
            if not isinstance(merge["active"], bool):
                raise RuleError("Its active flag must be true or false.", "active")
            for key in ("sessions", "trashed"):
                if not isinstance(merge[key], list):
                    raise RuleError(f"Its {key} must be a list of ids.", key)
            merges.append(
                {
                    "id": record_id(merge["id"]),
                    "at": checked_moment(merge["at"], "at"),
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


def checked_version(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_KEPT:
        raise RuleError(f"Its version must be a whole number from 0 to {MAX_KEPT}.", "version")
    return value


def is_whole(value: Any) -> bool:
    """A whole number from 1 to MAX_KEPT."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_KEPT


def or_words(words: Sequence[str]) -> str:
    return f"{', '.join(words[:-1])} or {words[-1]}"


def created_moment(value: Any) -> datetime:
    return checked_moment(value, "created_at")


def checked_moment(value: Any, field: str) -> datetime:
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
