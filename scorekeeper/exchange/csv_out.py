"""A session's hands as CSV, in the columns of API.md, safe to open in a spreadsheet.

A column per player: everyone the session's totals name (`Sheet.named`: the seats of its first
hand, then those who sat down later in the order they did), and anyone else seated for a hand
(who only sat out, then left), in the same order. A player's cell is `out` for a hand they sat
out and empty for one they were not seated for. `result` is a pick's result (given, or following
from its points: `picking_points` is empty when only the result was recorded) and `penalized` a
penalty hand's penalized player.
The `seats` column gives each hand's seat order as the 1-based numbers of the player
columns, so a file read back has the seats every hand was played with.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal

from .. import rules
from ..sessions.hand_rows import StoredHand

HEADER = (
    "hand", "dealer", "kind", "picker", "partner", "called_card", "forced", "picking_points",
    "cracked_by", "recracked", "blitzes", "multiplier", "winner",
)  # fmt: skip
RESULT, PENALIZED, SEATS = "result", "penalized", "seats"
# The columns between `winner` and the player columns, in the order they are written.
EXTRAS = (RESULT, PENALIZED, SEATS)
STANDINGS_HEADER = ("place", "player", "total", "hands_won", "left")
SESSION_HEADER = ("session", "date", "session_name")
# The long form of every hand: a row for each player seated for a hand.
LONG_HEADER = (
    *SESSION_HEADER, *HEADER, RESULT, PENALIZED, "player", "seat", "played", "score",
)  # fmt: skip
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A player's cell for a hand they were seated for but sat out.
SAT_OUT = "out"

Cell = str | int | Decimal | None
# A session's id, the day it started, its name and its hands.
DaySessions = tuple[int, str, str, Sequence[StoredHand]]


def defuse(cell: Cell) -> Cell:
    """Text a spreadsheet would run as a formula gets a leading quote; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _yes(flag: bool) -> str:
    return "yes" if flag else ""


def columns_of(sheet: rules.Sheet) -> tuple[str, ...]:
    """The player columns of a session's hands."""
    seats = [result.hand.seats for result in sheet.results]
    return rules.named_players(((s, s) for s in seats), sheet.table.seats)


def hand_cells(number: int, hand: rules.Hand, multiplier: int) -> list[Cell]:
    """A hand's cells from `hand` to `penalized`."""
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
        multiplier,
        hand.winner,
        None if hand.result is None else hand.result.value,
        hand.penalized,
    ]


def hand_row(number: int, result: rules.HandResult, columns: Sequence[str]) -> list[Cell]:
    """A hand's cells, its seats and scores by the player `columns`, which name every player
    seated for it."""
    hand = result.hand
    column = {player: index for index, player in enumerate(columns, start=1)}
    return [
        *hand_cells(number, hand, result.multiplier),
        " ".join(str(column[player]) for player in hand.seats),
        *(_player_cell(result, player) for player in columns),
    ]


def _player_cell(result: rules.HandResult, player: str) -> Cell:
    if player in result.players:
        return result.scores[player]
    return SAT_OUT if player in result.hand.seats else None


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
    columns = columns_of(sheet)
    rows = (hand_row(n, result, columns) for n, result in enumerate(sheet.results, start=1))
    return "".join(csv_lines([(*HEADER, *EXTRAS, *columns), *rows]))


def standings_csv(sheet: rules.Sheet) -> str:
    """Everyone the totals name, `left` saying yes for those no longer seated."""
    rows = [(s.place, s.player, s.total, s.hands_won, _yes(not s.seated)) for s in sheet.standings]
    return "".join(csv_lines([STANDINGS_HEADER, *rows]))


def all_hands_csv(players: Sequence[str], sessions: Iterable[DaySessions]) -> Iterator[str]:
    """Every hand of the sessions: the session's id, date and name, then the hands columns,
    then a column for each of `players`, everyone seated in the sessions (empty where they did
    not play it; the `seats` numbers are of these columns). A session's rows at a time."""
    column = {player: index for index, player in enumerate(players)}
    numbers = {player: str(index + 1) for player, index in column.items()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([defuse(cell) for cell in (*SESSION_HEADER, *HEADER, *EXTRAS, *players)])
    yield _taken(out)
    for session_id, day, name, hands in sessions:
        lead = (session_id, defuse(day), defuse(name))
        for stored in hands:
            # Scores are numbers and `out` is safe: only the hand's own cells need defusing.
            cells: list[Cell] = [None] * len(players)
            for seat in stored.seats:
                cells[column[seat.player]] = seat.score if seat.played else SAT_OUT
            writer.writerow(
                [
                    *lead,
                    *_defused(stored),
                    " ".join([numbers[seat.player] for seat in stored.seats]),
                    *cells,
                ]
            )
        if hands:
            yield _taken(out)


def long_hands_csv(sessions: Iterable[DaySessions]) -> Iterator[str]:
    """Every hand of the sessions, a row for each player seated for it (`LONG_HEADER`): the
    session's id, date and name, the hands columns but `seats`, then the player, their seat
    (1-based, in the hand's seat order), whether they played it and their score (0 when they
    sat out). A session's rows at a time."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([defuse(cell) for cell in LONG_HEADER])
    yield _taken(out)
    for session_id, day, name, hands in sessions:
        lead = (session_id, defuse(day), defuse(name))
        for stored in hands:
            cells = (*lead, *_defused(stored))
            writer.writerows(
                (*cells, defuse(seat.player), number, _yes(seat.played), seat.score)
                for number, seat in enumerate(stored.seats, start=1)
            )
        if hands:
            yield _taken(out)


def _defused(stored: StoredHand) -> list[Cell]:
    """The hand's cells, defused (as `defuse`, inline: a long file has millions of them)."""
    return [
        "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
        for cell in hand_cells(stored.number, stored.hand, stored.multiplier)
    ]


def _taken(out: io.StringIO) -> str:
    """What was written to `out` since it was last taken."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def event_standings_csv(
    standings: Sequence[rules.EventStanding], rounds: int, money: bool, provisional: bool = False
) -> str:
    """A club event's standings: place, player, a column for each of `rounds` rounds (empty for
    a round the player didn't sit), total, hands won, and in dollars with cents (empty for an
    event with no entry fee) the place prize, what the player's round tops won, and what they
    are paid, the two together; `yes` under provisional while a hand waits to be confirmed."""
    header = ("place", "player", *(f"round_{n}" for n in range(1, rounds + 1)))
    rows = [
        (
            s.place,
            s.player,
            *s.rounds,
            s.total,
            s.hands_won,
            *(_dollars(cents) if money else None for cents in (s.prize, s.round_prizes, s.paid)),
            "yes" if provisional else None,
        )
        for s in standings
    ]
    columns = ("total", "hands_won", "prize", "round_prizes", "paid", "provisional")
    return "".join(csv_lines([(*header, *columns), *rows]))


def _dollars(cents: int | None) -> Decimal:
    return Decimal(cents or 0).scaleb(-2)
