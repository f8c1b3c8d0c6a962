"""A session's hands as CSV, in the columns of API.md, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal

from . import rules

HEADER = (
    "hand", "dealer", "kind", "picker", "partner", "called_card", "forced", "picking_points",
    "cracked_by", "recracked", "blitzes", "multiplier", "winner",
)  # fmt: skip
STANDINGS_HEADER = ("place", "player", "total", "hands_won")
SESSION_HEADER = ("session", "date", "session_name")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | Decimal | None
SessionSheet = tuple[int, str, str, rules.Sheet]


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


def csv_lines(rows: Iterable[Sequence[Cell]]) -> Iterator[str]:
    """CSV text a row at a time, every cell defused."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([defuse(cell) for cell in row])
        yield out.getvalue()
        out.seek(0)
        out.truncate()


def hands_csv(sheet: rules.Sheet) -> str:
    seats = sheet.table.seats
    rows = (hand_row(n, result, seats) for n, result in enumerate(sheet.results, start=1))
    return "".join(csv_lines([(*HEADER, *seats), *rows]))


def standings_csv(sheet: rules.Sheet) -> str:
    rows = [(s.place, s.player, s.total, s.hands_won) for s in sheet.standings]
    return "".join(csv_lines([STANDINGS_HEADER, *rows]))


def all_hands_csv(players: Sequence[str], sessions: Iterable[SessionSheet]) -> Iterator[str]:
    """Every hand of every session: the session's id, date and name, then the hands columns,
    then a column for each player of any session (empty where they did not play)."""

    def rows() -> Iterator[Sequence[Cell]]:
        yield (*SESSION_HEADER, *HEADER, *players)
        for session_id, day, name, sheet in sessions:
            seats = sheet.table.seats
            for number, result in enumerate(sheet.results, start=1):
                cells = hand_row(number, result, seats)[: len(HEADER)]
                scores = [result.scores[p] if p in seats else None for p in players]
                yield (session_id, day, name, *cells, *scores)

    return csv_lines(rows())
