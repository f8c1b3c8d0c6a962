"""A session's hands as CSV, in the columns of API.md, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io

from . import rules

HEADER = (
    "hand", "dealer", "kind", "picker", "partner", "called_card", "forced", "picking_points",
    "cracked_by", "recracked", "blitzes", "multiplier", "winner",
)  # fmt: skip
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | None


def defuse(cell: Cell) -> Cell:
    """Text a spreadsheet would run as a formula gets a leading quote; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _yes(flag: bool) -> str:
    return "yes" if flag else ""


def hand_row(number: int, result: rules.HandResult, seats: tuple[str, ...]) -> list[Cell]:
    hand = result.hand
    return [
        number,
        hand.dealer,
        hand.kind.value,
        hand.picker,
        hand.partner,
        hand.called_card,
        _yes(hand.forced),
        hand.picking_points,
        hand.cracked_by,
        _yes(hand.recracked),
        " ".join(blitz.value for blitz in hand.blitzes),
        result.multiplier,
        hand.winner,
        *(result.scores[player] for player in seats),
    ]


def hands_csv(sheet: rules.Sheet) -> str:
    seats = sheet.table.seats
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([defuse(cell) for cell in (*HEADER, *seats)])
    for number, result in enumerate(sheet.results, start=1):
        writer.writerow([defuse(cell) for cell in hand_row(number, result, seats)])
    return out.getvalue()
