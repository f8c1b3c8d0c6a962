"""A hands CSV of API.md (as csv_export writes it) read back into a new session.

The players come from the player columns, each hand's seats from its `seats` cell (the 1-based
numbers of the player columns, in seat order) and the rules from whoever imports it. A file
without seats (one written before tables changed size, or by hand) seats each hand with the
players that have a score cell or sat out (`out`) and the dealer, in column order; a row with
no score cell, or any row of a file of at most five player columns, seats every player column,
as such files always did. The session is seated as its last hand was, and seat changes between
hands go through the rules engine as they did at the table. A pick's `result` and a penalty
hand's `penalized` are read when the file has those columns; a file without them still imports.

Every row goes through the rules engine; the multiplier and score columns are the export's
results, so when they disagree with what the engine computes, the rules chosen are not the ones
the file was played with, and the import is refused.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from .. import rules
from ..rules import RuleError
from ..sessions import bulk
from ..sessions.extensions import db
from ..sessions.models import Player, Session, utcnow
from ..sessions.rows import check_new_players
from .csv_out import EXTRAS, FORMULA_STARTS, HEADER, PENALIZED, RESULT, SAT_OUT, SEATS

# The most digits a number cell may have (int() refuses thousands with a ValueError).
MAX_DIGITS = 6
# The columns whose cells name a player.
NAME_COLUMNS = ("dealer", *rules.PLAYER_FIELDS)
SCORE = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
# A file of at most this many players has every one at every hand, as files always did.
ALL_SEATED = 5


class CsvRefused(RuleError):
    """The reasons a file is refused, each naming its row as a spreadsheet counts them (the
    header is row 1)."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__(" ".join(reasons))
        self.reasons = reasons


@dataclass(frozen=True)
class Columns:
    """What the header says: the extra columns there are, and the players."""

    extras: tuple[str, ...]
    players: tuple[str, ...]

    @property
    def width(self) -> int:
        return len(HEADER) + len(self.extras) + len(self.players)


@dataclass(frozen=True)
class Row:
    """A row read, before the rules engine has seen it."""

    number: int
    seats: tuple[str, ...]
    dealer: str
    entry: rules.HandInput
    multiplier: int | None
    scores: dict[str, int]


def undefuse(cell: str) -> str:
    """A text cell as it was before csv_export.defuse quoted it."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


@dataclass(frozen=True)
class Imported:
    session_id: int
    # False when the same file was imported before: `session_id` is that session.
    new: bool


def import_session(
    data: bytes,
    name: str,
    rounds: int | None,
    first_dealer: str | None,
    options: rules.Options,
    new_players: Collection[str] = (),
    known_as: Mapping[str, str] | None = None,
) -> Imported:
    """Record the file's hands in a new session, checked and scored once by the rules engine and
    inserted in bulk, inside a roster write (`writes.roster_write`), which commits them all or
    none. A file imported before with the same choices makes no second
    session.

    `rounds` None means as many as the hands fill, and `first_dealer` None the dealer of the
    first hand. A new player's name that looks like another player's, or is a near name of one
    (`rules.near_names`), is refused unless among `new_players`. `known_as` names, for a name
    in the file, the player here it means."""
    name = rules.session_name(name)
    chosen = repr((rounds, first_dealer, options)) + (
        repr(sorted(known_as.items())) if known_as else ""
    )
    origin = hashlib.sha256(data + chosen.encode()).hexdigest()
    earlier = db.session.scalar(select(Session.id).where(Session.origin == origin).limit(1))
    if earlier is not None:
        return Imported(earlier, new=False)
    columns, records = _read(data)
    if known_as:
        columns, records = _renamed(columns, records, known_as)
    rows: list[Row] = []
    refused: dict[int, str] = {}
    for index, (number, cells) in enumerate(records):
        try:
            rows.append(_row(columns, index, number, cells))
        except RuleError as error:
            refused[number] = error.message
    if refused and not rows:
        raise _refusal(refused)
    if rounds is None:
        rounds = _rounds_filled(rows)
    played = _played(columns, rows, rounds, first_dealer, options, refused)
    if refused:
        raise _refusal(refused)
    sheet = rules.score_sheet(played.last, played.hands)
    reasons = _disagreements(played, sheet)
    if reasons:
        raise CsvRefused(reasons)
    new = bulk.NewSession(
        name=name,
        created_at=utcnow(),
        version=1,
        sheet=sheet,
        origin=origin,
    )
    check_new_players(bulk.names_in([new]), new_players, near=True)
    [session_id] = bulk.insert_sessions([new])
    return Imported(session_id, new=True)


def new_names(data: bytes) -> list[str]:
    """The file's players who are not players here yet, in column order."""
    columns, _records = _read(data)
    return [name for name in columns.players if name not in names_here(columns.players)]


def names_here(names: Sequence[str]) -> set[str]:
    """Which of `names` name a player here, case ignored."""
    keys = {rules.name_key(name): name for name in names}
    here = db.session.scalars(select(Player.name_key).where(Player.name_key.in_(keys)))
    return {keys[key] for key in here}


def _renamed(
    columns: Columns, records: list[tuple[int, list[str]]], known_as: Mapping[str, str]
) -> tuple[Columns, list[tuple[int, list[str]]]]:
    """The file with each name `known_as` gives in place of the file's, in its header and in
    every cell that names a player."""
    by_key = {rules.name_key(name): player for name, player in known_as.items()}

    def named(cell: str) -> str:
        return by_key.get(rules.name_key(undefuse(cell.strip())), cell) if cell.strip() else cell

    players = tuple(named(name) for name in columns.players)
    try:
        _player_columns(list(players))
    except RuleError as error:
        raise CsvRefused([f"Row 1: {error.message}"]) from None
    columns_named = [*HEADER, *columns.extras]
    at = [columns_named.index(column) for column in NAME_COLUMNS if column in columns_named]
    renamed = []
    for number, cells in records:
        cells = list(cells)
        for index in at:
            if index < len(cells):
                cells[index] = named(cells[index])
        renamed.append((number, cells))
    return Columns(columns.extras, players), renamed


def _refusal(refused: dict[int, str]) -> CsvRefused:
    """The rows refused, by row number."""
    return CsvRefused([f"Row {number}: {refused[number]}" for number in sorted(refused)])


def _read(data: bytes) -> tuple[Columns, list[tuple[int, list[str]]]]:
    """The header's columns, and each row that is not blank with its row number."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CsvRefused(
            ["The file is not text in UTF-8. Save it from the spreadsheet as CSV (UTF-8)."]
        ) from None
    if not text.strip():
        raise CsvRefused(["The file is empty."])
    try:
        header, *records = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise CsvRefused([f"The file can't be read as CSV: {error}."]) from None
    if [cell.strip() for cell in header[: len(HEADER)]] != list(HEADER):
        raise CsvRefused(
            [
                f"Row 1 must be the header of a hands CSV: {','.join(HEADER)}, "
                "then one column per player."
            ]
        )
    rest = [cell.strip() for cell in header[len(HEADER) :]]
    extras: list[str] = []
    while rest and rest[0] in EXTRAS and rest[0] not in extras:
        extras.append(rest.pop(0))
    try:
        players = _player_columns([undefuse(cell) for cell in rest])
    except RuleError as error:
        raise CsvRefused([f"Row 1: {error.message}"]) from None
    numbered = [
        (number, cells)
        for number, cells in enumerate(records, start=2)
        if any(cell.strip() for cell in cells)
    ]
    return Columns(tuple(extras), players), numbered


def _player_columns(players: list[str]) -> tuple[str, ...]:
    """The players of the header: at least a table's worth, each named once."""
    if len(players) < rules.MIN_SEATS:
        raise RuleError(f"A table seats {rules.MIN_SEATS} to {rules.MAX_SEATS} players, not "
                        f"{len(players)}.")  # fmt: skip
    seen: set[str] = set()
    for column, name in enumerate(players, start=1):
        if not name:
            raise RuleError(f"Every player column needs a name; player column {column} has none.")
        rules.player_name(name)
        if rules.name_key(name) in seen:
            raise RuleError(f"{name} has two columns.")
        seen.add(rules.name_key(name))
    return tuple(players)


def _row(columns: Columns, index: int, number: int, cells: list[str]) -> Row:
    """The hand at `index` (from 0) of the file, on row `number`."""
    if len(cells) != columns.width:
        raise RuleError(f"It has {len(cells)} cells, and the header has {columns.width}.")
    named = (*HEADER, *columns.extras)
    cell = dict(zip(named, (c.strip() for c in cells), strict=False))
    hand_number = _whole(cell["hand"], "The hand number")
    if hand_number is not None and hand_number != index + 1:
        raise RuleError(
            f"It is hand {hand_number}, but the hands before it make it hand {index + 1}. "
            "The rows must be every hand, in order.",
            "hand",
        )
    dealer = _name(cell["dealer"])
    if dealer is None:
        raise RuleError("Say who dealt the hand.", "dealer")
    points = cell["picking_points"]
    if points and not _digits(points):
        raise rules.whole_number_error(
            rules.PICKING_POINTS_LABEL, 0, rules.CARD_POINTS_TOTAL, "picking_points"
        )
    entry = rules.HandInput(
        kind=cell["kind"],
        picker=_name(cell["picker"]),
        partner=_name(cell["partner"]),
        called_card=cell["called_card"] or None,
        forced=_yes(cell["forced"], "Forced"),
        picking_points=int(points) if points else None,
        cracked_by=_name(cell["cracked_by"]),
        recracked=_yes(cell["recracked"], "Re-cracked"),
        blitzes=tuple(cell["blitzes"].split()),
        winner=_name(cell["winner"]),
        result=cell.get(RESULT) or None,
        penalized=_name(cell.get(PENALIZED, "")),
    )
    scores: dict[str, int] = {}
    sat_out: set[str] = set()
    for player, text in zip(columns.players, cells[len(named) :], strict=True):
        if text.strip() == SAT_OUT:
            sat_out.add(player)
        elif text.strip():
            if not SCORE.fullmatch(text.strip()):
                raise _not_whole(f"{player}'s score", text.strip())
            scores[player] = int(text)
    given = cell.get(SEATS, "")
    seats = _seats(columns.players, given) if given else _seated(columns, dealer, scores, sat_out)
    for player in sat_out:
        if player not in seats:
            raise RuleError(f"{player} sat out but is not seated for the hand.", "seats")
    return Row(
        number=number,
        seats=seats,
        dealer=dealer,
        entry=entry,
        multiplier=_whole(cell["multiplier"], "The multiplier"),
        scores=scores,
    )


def _seats(players: tuple[str, ...], cell: str) -> tuple[str, ...]:
    """The seats a `seats` cell names by the numbers of the player columns."""
    seats = []
    for number in cell.split():
        if not (_digits(number) and 1 <= int(number) <= len(players)):
            raise RuleError(
                f"The seats are numbers of the player columns, 1 to {len(players)}, "
                f"not {_shown(number)}.",
                "seats",
            )
        seats.append(players[int(number) - 1])
    return tuple(seats)


def _seated(
    columns: Columns, dealer: str, scores: dict[str, int], sat_out: Collection[str]
) -> tuple[str, ...]:
    """The seats of a hand the file gives no seats for."""
    if len(columns.players) <= ALL_SEATED or not scores:
        return columns.players
    key = rules.name_key(dealer)
    return tuple(
        p for p in columns.players if p in scores or p in sat_out or rules.name_key(p) == key
    )


def _rounds_filled(rows: Sequence[Row]) -> int:
    """The fewest rounds that hold the hands, each recorded with the seats it was played with
    (0, open-ended, for no hands)."""
    return max(
        (-(-(index + 1) // max(len(row.seats), rules.MIN_SEATS)) for index, row in enumerate(rows)),
        default=0,
    )


@dataclass(frozen=True)
class Played:
    """The table as the first hand found it, as the last one left it, and the hands."""

    first: rules.Table
    last: rules.Table
    rows: tuple[Row, ...]
    hands: tuple[rules.Hand, ...]


def _played(
    columns: Columns,
    rows: Sequence[Row],
    rounds: int,
    first_dealer: str | None,
    options: rules.Options,
    refused: dict[int, str],
) -> Played:
    """Each row's hand checked by the rules engine at the table as it stood for it: seated as
    the first row is, then changed between hands as the rows' seats change. The rows refused
    are added to `refused`, by row number."""
    seats = rows[0].seats if rows else columns.players
    if first_dealer is None and rows:
        first_dealer = _among(seats, rows[0].dealer)
    try:
        first = rules.new_table(list(seats), rounds, first_dealer, options)
    except RuleError as error:
        if error.field != "players":
            raise
        raise _refusal({**refused, rows[0].number if rows else 1: error.message}) from None
    table = first
    kept: list[Row] = []
    hands: list[rules.Hand] = []
    for row in rows:
        try:
            if row.seats != table.seats:
                table = rules.change_seats(table, row.seats, len(hands))
            table.check_room_for_hand(len(hands))
            hands.append(rules.validate_hand(table, row.dealer, row.entry))
            kept.append(row)
        except RuleError as error:
            refused[row.number] = error.message
    return Played(first, table, tuple(kept), tuple(hands))


def _among(seats: Sequence[str], name: str) -> str | None:
    """The seated player a name means, if any (a wrong one is refused with its row)."""
    key = rules.name_key(name)
    return next((player for player in seats if rules.name_key(player) == key), None)


def _name(cell: str) -> str | None:
    return undefuse(cell) or None


def _yes(cell: str, label: str) -> bool:
    if cell.lower() not in ("yes", ""):
        raise RuleError(f"{label} is yes or empty, not {cell}.")
    return bool(cell)


def _whole(cell: str, label: str) -> int | None:
    if not cell:
        return None
    if not _digits(cell):
        raise _not_whole(label, cell)
    return int(cell)


def _digits(cell: str) -> bool:
    return cell.isascii() and cell.isdigit() and len(cell) <= MAX_DIGITS


def _not_whole(label: str, cell: str) -> RuleError:
    return RuleError(f"{label} must be a whole number, not {_shown(cell)}.")


def _shown(cell: str) -> str:
    """A cell as a refusal quotes it: a long one cut short."""
    return (
        cell if len(cell) <= 2 * MAX_DIGITS else f"{cell[:MAX_DIGITS]}... ({len(cell)} characters)"
    )


def _disagreements(played: Played, sheet: rules.Sheet) -> list[str]:
    """Rows whose multiplier or scores differ from what the chosen rules give (`sheet`, the
    rows scored), or that give a score to a player who did not play the hand."""
    reasons = []
    for row, result in zip(played.rows, sheet.results, strict=True):
        if row.multiplier is not None and row.multiplier != result.multiplier:
            reasons.append(
                f"Row {row.number}: The file says the multiplier is {row.multiplier}, but by "
                f"the rules chosen here it is {result.multiplier}. Choose the rules the "
                "session was played with."
            )
            continue
        for player, score in row.scores.items():
            if player not in result.players:
                reasons.append(
                    f"Row {row.number}: The file gives {player} a score, but {player} did not "
                    "play this hand. A player who sits out or is not seated has an empty cell."
                )
                break
            if score != result.scores[player]:
                reasons.append(
                    f"Row {row.number}: The file gives {player} {score:+d}, but by the rules "
                    f"chosen here {player} scores {result.scores[player]:+d}. Choose the "
                    "rules the session was played with."
                )
                break
    return reasons
