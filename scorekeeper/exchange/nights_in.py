"""A league's paper history from a spreadsheet (API.md, "Nights kept without hands"): a header
whose first cell is `Date`, then a column for each player; then a line a night, its date and
each player's net, empty where the player did not play.

The whole file is read and every line checked by the rules engine (`rules.check_nets`) before
anything is kept; a line refused is named by its number, as a text editor counts lines. What the
sheet can't say is asked, every question at once: whether a 0 is a player who broke even or one
who wasn't there, and who a new name is that looks like a player's or is one letter from it
(`rules.look_alike_questions`). Then, inside a roster write, the nights not already here (the
same day, the same players with the same nets) are inserted in bulk.

The exchange layer can't read what a day means where the server is (`insights.dates`): the
caller gives it, as `Days`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from ..sessions import bulk
from ..sessions.extensions import db
from ..sessions.models import Player, Seat, Session
from ..sessions.rows import players_known

PLAYED, ABSENT = "played", "absent"
ZEROS = (PLAYED, ABSENT)
DAY = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
# Longer numbers are refused by the rules engine, as any text in a net's cell is.
NET = re.compile(r"[+-]?[0-9]{1,9}")
MAX_COLUMNS = 1000
# The most nights' lines a sheet may have: a long league's history is a few thousand.
MAX_LINES = 100_000
# The most refused lines a refusal names; the rest are counted.
SHOWN_LINES = 10
# Nights inserted a statement or two a table at a time.
BATCH = 500
HEADER = "Line 1 must be the header: Date, then a column for each player."
NOT_UTF8 = "The file is not text in UTF-8. Save it from the spreadsheet as CSV (UTF-8)."


@dataclass(frozen=True)
class Days:
    """What a day means where the server is: the first moment of a day (a night starts then),
    and the day each of many stored moments falls on."""

    start_of: Callable[[date], datetime]
    days_of: Callable[[Iterable[datetime]], list[date]]


@dataclass(frozen=True)
class Answers:
    """The answers to the sheet's questions, given ahead or once asked: what a 0 is (`ZEROS`,
    None: not said), the new names confirmed as new players, and the names that are another
    player (`same_as`: the name in the file, the player it is). Answers about names the file
    doesn't hold are left aside, so one set of answers serves many files."""

    zeros: str | None = None
    new_players: Collection[str] = ()
    same_as: Mapping[str, str] = field(default_factory=dict)


def zeros_answer(value: Any, field: str = "zeros") -> str | None:
    """The answer about zeros as given (None: not given), or a refusal."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().lower() in ZEROS:
        return value.strip().lower()
    raise RuleError(
        "Zeros is played (a 0 is a player who was there and broke even) or absent (a 0 is a "
        "player who wasn't there).",
        field,
    )


class NightsRefused(RuleError):
    """The lines refused, each named by its number; nothing of the file is kept."""

    def __init__(self, reasons: list[str]) -> None:
        shown = reasons[:SHOWN_LINES]
        more = len(reasons) - len(shown)
        if more:
            shown.append(f"And {more:,} more line{'s' if more > 1 else ''}.")
        super().__init__(" ".join(shown))
        self.reasons = reasons


class NightsAsked(RuleError):
    """What must be answered before anything of the file is kept: who each new name like a
    player's is, and what a 0 is (the sheet's zeros and filled cells, counted)."""

    status = 409

    def __init__(self, names: list[tuple[str, list[str]]], zeros: tuple[int, int] | None) -> None:
        questions = [name_question(name, like) for name, like in names]
        if zeros is not None:
            questions.insert(0, zeros_question(*zeros))
        these = "this is" if len(questions) == 1 else "these are"
        super().__init__(f"Nothing is imported until {these} answered: {' '.join(questions)}")
        self.names = names
        self.zeros = zeros

    def more(self) -> dict[str, Any]:
        asked: dict[str, Any] = {}
        if self.names:
            asked["ask"] = [{"name": name, "like": like} for name, like in self.names]
        if self.zeros is not None:
            asked["ask_zeros"] = {"zeros": self.zeros[0], "cells": self.zeros[1]}
        return asked


def suggested_zeros(zeros: int, cells: int) -> str:
    """What a 0 likely is: a sheet whose filled cells are mostly 0 writes one for a player who
    wasn't there."""
    return ABSENT if 2 * zeros > cells else PLAYED


def name_question(name: str, like: Sequence[str]) -> str:
    return f"{name}: a new player, or {', or '.join(like)}?"


def zeros_question(zeros: int, cells: int) -> str:
    return (
        f"{zeros:,} of the sheet's {cells:,} filled cells are 0: is a 0 a player who was there "
        "and broke even, or one who wasn't there?"
    )


@dataclass(frozen=True)
class Line:
    """A night's line as the file gives it: its number, its day, and a cell for each player
    column ("" where empty)."""

    number: int
    day: date
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """The file read: the player columns, the nights' lines, and the lines refused whatever
    the answers (by line number)."""

    players: tuple[str, ...]
    lines: tuple[Line, ...]
    refused: dict[int, str]

    def zeros(self) -> tuple[int, int]:
        """How many filled cells are 0, and how many are filled."""
        filled = [cell for line in self.lines for cell in line.cells if cell]
        return sum(1 for cell in filled if _net(cell) == 0), len(filled)


def read_sheet(data: bytes | str) -> Sheet:
    """The file's header and lines (blank lines skipped), or a refusal of the whole file."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NightsRefused([NOT_UTF8]) from None
    text = data.removeprefix("\ufeff")
    if not text.strip():
        raise NightsRefused(["The file is empty."])
    reader = csv.reader(io.StringIO(text, newline=""))
    records: list[tuple[int, list[str]]] = []
    try:
        last = 0
        for cells in reader:
            if any(cell.strip() for cell in cells):
                records.append((last + 1, cells))
                if len(records) > MAX_LINES + 1:
                    raise NightsRefused(
                        [
                            f"A sheet holds at most {MAX_LINES:,} nights: split this one into "
                            "files of a season or a few."
                        ]
                    )
            last = reader.line_num
    except csv.Error as error:
        raise NightsRefused([f"The file can't be read as CSV: {error}."]) from None
    if not records:
        raise NightsRefused(["The file is empty."])
    (_first, header), *rows = records
    players = _header(header)
    refused: dict[int, str] = {}
    lines = []
    for number, cells in rows:
        try:
            lines.append(_line(number, cells, players))
        except RuleError as error:
            refused[number] = error.message
    return Sheet(players, tuple(lines), refused)


def _header(cells: list[str]) -> tuple[str, ...]:
    if not cells or cells[0].strip().lower() != "date":
        raise NightsRefused([HEADER])
    named = [cell.strip() for cell in cells[1:]]
    while named and not named[-1]:
        named.pop()
    if len(named) < rules.MIN_SEATS - 1:
        raise NightsRefused([HEADER])
    if len(named) > MAX_COLUMNS:
        raise NightsRefused(
            [f"Line 1: a sheet has at most {MAX_COLUMNS:,} player columns, not {len(named):,}."]
        )
    players: list[str] = []
    seen: set[str] = set()
    for column, name in enumerate(named, start=2):
        if not name:
            raise NightsRefused(
                [f"Line 1: every player column needs a name; column {column} has none."]
            )
        try:
            name = rules.player_name(name)
        except RuleError as error:
            raise NightsRefused([f"Line 1: {_lowered(error.message, [])}"]) from None
        if rules.name_key(name) in seen:
            raise NightsRefused([f"Line 1: {name} has two columns."])
        seen.add(rules.name_key(name))
        players.append(name)
    return tuple(players)


def _line(number: int, cells: list[str], players: tuple[str, ...]) -> Line:
    cells = [cell.strip() for cell in cells]
    given = cells[0]
    found = DAY.fullmatch(given)
    if not given:
        raise RuleError(f"Line {number}: the date is missing.")
    try:
        if found is None:
            raise ValueError
        day = date(*(int(part) for part in found.groups()))
    except ValueError:
        raise RuleError(
            f"Line {number}: {_shown(given)} is not a date: write it YYYY-MM-DD, as 2010-07-06 "
            "or 2010-7-6."
        ) from None
    nets = cells[1:]
    past = next((i for i, cell in enumerate(nets[len(players) :]) if cell), None)
    if past is not None:
        raise RuleError(
            f"Line {number}: it has a net in column {len(players) + past + 2}, past the last "
            "player's column."
        )
    nets = nets[: len(players)]
    return Line(number, day, (*nets, *[""] * (len(players) - len(nets))))


def _shown(cell: str) -> str:
    return cell if len(cell) <= 20 else f"{cell[:20]}..."


def _lowered(message: str, names: Iterable[str]) -> str:
    """A sentence of the rules engine after "Line 14: ", its first letter small unless it
    begins with a name."""
    if any(message.startswith(name) for name in names):
        return message
    return message[:1].lower() + message[1:]


def _net(cell: str) -> int | str:
    return int(cell) if NET.fullmatch(cell) else cell


@dataclass(frozen=True)
class Imported:
    """What an import kept: the new nights' sessions, in the order of their days; the nights
    already here and the lines without a player, skipped; the players of the new nights and the
    new players among them; and the first and last of their days."""

    sessions: list[int]
    already_here: int
    skipped: int
    players: int
    new_players: list[str]
    first_day: date | None
    last_day: date | None

    def json(self) -> dict[str, Any]:
        return {
            "nights": len(self.sessions),
            "already_here": self.already_here,
            "skipped": self.skipped,
            "new_players": self.new_players,
            "sessions": self.sessions,
            "players": self.players,
            "from": None if self.first_day is None else self.first_day.isoformat(),
            "to": None if self.last_day is None else self.last_day.isoformat(),
        }

    def summary(self) -> str:
        """What came in, in words ("1,435 nights from 2004-01-05 to 2013-05-02, 42 players, 3
        new."), and what was skipped."""
        count = len(self.sessions)
        said = []
        if count:
            span = (
                f"on {self.first_day}"
                if self.first_day == self.last_day
                else f"from {self.first_day} to {self.last_day}"
            )
            said.append(
                f"{_nights(count)} {span}, {self.players:,} players, {len(self.new_players):,} new."
            )
        else:
            said.append("No night was added.")
        if self.already_here:
            were = "was" if self.already_here == 1 else "were"
            said.append(f"{_nights(self.already_here)} {were} here already.")
        if self.skipped:
            lines = "line has" if self.skipped == 1 else "lines have"
            said.append(f"{self.skipped:,} {lines} no player, skipped.")
        return " ".join(said)


def _nights(count: int) -> str:
    return f"{count:,} night{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Night:
    line: int
    day: date
    nets: dict[str, int]


def import_nights(data: bytes | str, answers: Answers, days: Days) -> Imported:
    """Check the whole file and keep its nights not already here, inside a roster write
    (`writes.roster_write`, which commits them all or none): refused (`NightsRefused`, 400) when
    a line is wrong, asked (`NightsAsked`, 409) while a question is open."""
    sheet = read_sheet(data)
    zeros, cells = sheet.zeros()
    reading = answers.zeros if zeros else ABSENT
    players = _same_as(sheet.players, answers.same_as)
    nights, skipped = _nights_of(sheet, players, reading)
    starts = _starts(nights, days)
    existing, everyone = players_known(list(dict.fromkeys(n for x in nights for n in x.nets)))
    new = _new_names(nights, existing)
    questions = rules.look_alike_questions(new, everyone, answers.new_players) if new else []
    if questions or reading is None:
        raise NightsAsked(questions, None if reading is not None else (zeros, cells))
    # The players here by their own spelling.
    nights = [
        Night(
            night.line,
            night.day,
            {_spelt(name, existing): net for name, net in night.nets.items()},
        )
        for night in nights
    ]
    kept, already = _not_here(nights, starts, days)
    ids: list[int] = []
    for start in range(0, len(kept), BATCH):
        ids += bulk.insert_sessions(
            [
                bulk.NewSession(
                    name="",
                    created_at=starts[night.day],
                    version=1,
                    sheet=rules.night_sheet(night.nets),
                )
                for night in kept[start : start + BATCH]
            ]
        )
    seated = {rules.name_key(name) for night in kept for name in night.nets}
    return Imported(
        sessions=ids,
        already_here=already,
        skipped=skipped,
        players=len(seated),
        new_players=[name for name in new if rules.name_key(name) in seated],
        first_day=kept[0].day if kept else None,
        last_day=kept[-1].day if kept else None,
    )


def _same_as(players: tuple[str, ...], same_as: Mapping[str, str]) -> tuple[str, ...]:
    """The player columns, each a name `same_as` gives in place of the file's; the player it
    is must be a player here, or another column of the file."""
    in_file = {rules.name_key(name): name for name in players}
    given = {rules.name_key(name): player for name, player in same_as.items()}
    given = {key: player for key, player in given.items() if key in in_file}
    if not given:
        return players
    targets = [rules.player_name(player, "same_as") for player in given.values()]
    here, _everyone = players_known(targets)
    for key, player in given.items():
        target = rules.name_key(player)
        if target not in here and target not in in_file:
            raise RuleError(
                f"{in_file[key]} is the same as {player}, who is neither a player here nor "
                "a column of the file.",
                "same_as",
            )
    return tuple(rules.player_name(given.get(rules.name_key(name), name)) for name in players)


def _nights_of(
    sheet: Sheet, players: tuple[str, ...], reading: str | None
) -> tuple[list[Night], int]:
    """Each line's night, checked by the rules engine, and how many lines had no player; or the
    lines refused. A 0 is read as `reading` says; not said yet, a line is refused only when it
    is wrong either way."""
    refused = dict(sheet.refused)
    nights: list[Night] = []
    skipped = 0
    for line in sheet.lines:
        try:
            try:
                nets = _nets(line, players, reading or PLAYED)
            except RuleError:
                if reading is not None:
                    raise
                nets = _nets(line, players, ABSENT)
        except RuleError as error:
            named = [name for name, cell in zip(players, line.cells, strict=True) if cell]
            refused[line.number] = f"Line {line.number}: {_lowered(error.message, named)}"
            continue
        if nets is None:
            skipped += 1
        else:
            nights.append(Night(line.number, line.day, nets))
    if refused:
        raise NightsRefused([refused[number] for number in sorted(refused)])
    nights.sort(key=lambda night: (night.day, night.line))
    return nights, skipped


def _nets(line: Line, players: tuple[str, ...], reading: str) -> dict[str, int] | None:
    """A line's nets as the rules engine checks them; None for a line without a player."""
    given = []
    for name, cell in zip(players, line.cells, strict=True):
        if cell:
            net = _net(cell)
            if not (net == 0 and reading == ABSENT):
                given.append((name, net))
    return rules.check_nets(given) if given else None


def _new_names(nights: list[Night], existing: Mapping[str, Player]) -> list[str]:
    """The names of the nights that are not players here yet, each once, in the order they
    first play."""
    new: dict[str, str] = {}
    for night in nights:
        for name in night.nets:
            key = rules.name_key(name)
            if key not in existing:
                new.setdefault(key, name)
    return list(new.values())


def _spelt(name: str, existing: Mapping[str, Player]) -> str:
    player = existing.get(rules.name_key(name))
    return name if player is None else player.name


def _starts(nights: Sequence[Night], days: Days) -> dict[date, datetime]:
    """When each day's nights start; a day too far off to say is refused at its first line."""
    starts: dict[date, datetime] = {}
    for night in nights:
        if night.day not in starts:
            try:
                starts[night.day] = days.start_of(night.day)
            except RuleError:
                raise NightsRefused(
                    [f"Line {night.line}: {night.day} is a day too far off to keep."]
                ) from None
    return starts


# A night kept: its day, and each player's name key with their net.
Signature = tuple[date, frozenset[tuple[str, int]]]


def _signature(day: date, nets: Mapping[str, int]) -> Signature:
    return day, frozenset((rules.name_key(name), net) for name, net in nets.items())


def _not_here(
    nights: list[Night], starts: Mapping[date, datetime], days: Days
) -> tuple[list[Night], int]:
    """The nights not kept here yet, and how many are: the nights here of the file's days are
    read once, and each counts for one night of the file."""
    if not nights:
        return [], 0
    here = Counter(_nights_here(min(starts.values()), max(starts.values()), set(starts), days))
    kept = []
    for night in nights:
        signature = _signature(night.day, night.nets)
        if here[signature]:
            here[signature] -= 1
        else:
            kept.append(night)
    return kept, len(nights) - len(kept)


def _nights_here(first: datetime, last: datetime, wanted: set[date], days: Days) -> list[Signature]:
    """The nights kept here that started on one of the `wanted` days, from a day before the
    first start to a day after the last (a night restored from another time zone's server
    starts some hours off)."""
    rows = db.session.execute(
        select(Session.id, Session.created_at, Player.name, Seat.net)
        .join(Seat, Seat.session_id == Session.id)
        .join(Player, Player.id == Seat.player_id)
        .where(
            Session.totals_only,
            Session.created_at >= _moved(first, -1),
            Session.created_at <= _moved(last, 1),
        )
    ).all()
    started: dict[int, datetime] = {}
    nets: defaultdict[int, dict[str, int]] = defaultdict(dict)
    for session_id, created_at, name, net in rows:
        started[session_id] = created_at
        nets[session_id][name] = net or 0
    on = dict(zip(started, days.days_of(started.values()), strict=True))
    return [
        _signature(on[session_id], nets[session_id])
        for session_id in started
        if on[session_id] in wanted
    ]


def _moved(moment: datetime, days: int) -> datetime:
    try:
        return moment + timedelta(days=days)
    except OverflowError:
        return moment
