"""A hands CSV of API.md (as csv_export writes it) read back into a new session.

The seats come from the player columns, the rules from whoever imports it. Every row goes
through the rules engine; the multiplier and score columns are the export's results, so when
they disagree with what the engine computes, the rules chosen are not the ones the file was
played with, and the import is refused.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, replace

from sqlalchemy import select

from . import rules, store
from .csv_export import FORMULA_STARTS, HEADER
from .extensions import db
from .models import Session
from .rules import RuleError

SCORE = re.compile(r"[+-]?[0-9]+")


class CsvRefused(RuleError):
    """The reasons a file is refused, each naming its row as a spreadsheet counts them (the
    header is row 1)."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__(" ".join(reasons))
        self.reasons = reasons


@dataclass(frozen=True)
class Row:
    number: int
    dealer: str
    entry: rules.HandInput
    hand: rules.Hand
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
    data: bytes, name: str, rounds: int | None, first_dealer: str | None, options: rules.Options
) -> Imported:
    """Record the file's hands in a new session, inside a roster write (`writes.roster_write`),
    which commits them all or none. A file imported before with the same choices makes no second
    session.

    `rounds` None means as many as the hands fill, and `first_dealer` None the dealer of the
    first hand."""
    name = rules.session_name(name)
    origin = hashlib.sha256(data + repr((rounds, first_dealer, options)).encode()).hexdigest()
    earlier = db.session.scalar(select(Session.id).where(Session.origin == origin).limit(1))
    if earlier is not None:
        return Imported(earlier, new=False)
    players, records = _read(data)
    if rounds is None:
        rounds = -(-len(records) // max(len(players), 1))
    try:
        table = rules.new_table(players, rounds, first_dealer, options)
    except RuleError as error:
        if error.field == "players":
            raise CsvRefused([f"Row 1: {error.message}"]) from None
        raise
    if first_dealer is None and records and (dealer := _first_dealer(table, records[0][1])):
        table = replace(table, first_dealer=dealer)
    rows: list[Row] = []
    reasons: list[str] = []
    for index, (number, cells) in enumerate(records):
        try:
            rows.append(_row(table, index, number, cells))
        except RuleError as error:
            reasons.append(f"Row {number}: {error.message}")
    if not reasons:
        reasons = _disagreements(table, rows)
    if reasons:
        raise CsvRefused(reasons)
    session = store.new_session(name, table.seats, rounds, table.first_dealer, options)
    session.origin = origin
    for row in rows:
        store.add_hand(session, row.entry, row.dealer)
    store.store_scores(session)
    return Imported(session.id, new=True)


def _read(data: bytes) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The players of the header, and each row that is not blank with its row number."""
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
    players = [undefuse(cell.strip()) for cell in header[len(HEADER) :]]
    numbered = [
        (number, cells)
        for number, cells in enumerate(records, start=2)
        if any(cell.strip() for cell in cells)
    ]
    return players, numbered


def _first_dealer(table: rules.Table, cells: list[str]) -> str | None:
    """The dealer of the first row, if it names a player (a wrong one is refused with its row)."""
    dealer = undefuse(cells[HEADER.index("dealer")].strip()) if len(cells) > 1 else ""
    try:
        return table.resolve(dealer, "dealer")
    except RuleError:
        return None


def _row(table: rules.Table, index: int, number: int, cells: list[str]) -> Row:
    """The hand at `index` (from 0) of the file, on row `number`."""
    if len(cells) != len(HEADER) + len(table.seats):
        raise RuleError(
            f"It has {len(cells)} cells, and the header has {len(HEADER) + len(table.seats)}."
        )
    cell = dict(zip(HEADER, (c.strip() for c in cells), strict=False))
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
    if points and not (points.isascii() and points.isdigit()):
        raise rules.whole_number_error(rules.PICKING_POINTS_LABEL, 0, 120, "picking_points")
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
    )
    table.check_room_for_hand(index)
    hand = rules.validate_hand(table, dealer, entry)
    scores: dict[str, int] = {}
    for player, text in zip(table.seats, cells[len(HEADER) :], strict=True):
        if text.strip():
            if not SCORE.fullmatch(text.strip()):
                raise RuleError(f"{player}'s score must be a whole number, not {text.strip()}.")
            scores[player] = int(text)
    return Row(
        number=number,
        dealer=dealer,
        entry=entry,
        hand=hand,
        multiplier=_whole(cell["multiplier"], "The multiplier"),
        scores=scores,
    )


def _name(cell: str) -> str | None:
    return undefuse(cell) or None


def _yes(cell: str, label: str) -> bool:
    if cell.lower() not in ("yes", ""):
        raise RuleError(f"{label} is yes or empty, not {cell}.")
    return bool(cell)


def _whole(cell: str, label: str) -> int | None:
    if not cell:
        return None
    if not (cell.isascii() and cell.isdigit()):
        raise RuleError(f"{label} must be a whole number, not {cell}.")
    return int(cell)


def _disagreements(table: rules.Table, rows: list[Row]) -> list[str]:
    """Rows whose multiplier or scores differ from what the chosen rules give."""
    sheet = rules.score_sheet(table, [row.hand for row in rows])
    reasons = []
    for row, result in zip(rows, sheet.results, strict=True):
        if row.multiplier is not None and row.multiplier != result.multiplier:
            reasons.append(
                f"Row {row.number}: The file says the multiplier is {row.multiplier}, but by "
                f"the rules chosen here it is {result.multiplier}. Choose the rules the "
                "session was played with."
            )
            continue
        for player, score in row.scores.items():
            if score != result.scores[player]:
                reasons.append(
                    f"Row {row.number}: The file gives {player} {score:+d}, but by the rules "
                    f"chosen here {player} scores {result.scores[player]:+d}. Choose the "
                    "rules the session was played with."
                )
                break
    return reasons
