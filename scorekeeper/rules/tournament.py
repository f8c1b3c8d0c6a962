"""Tournament tables (RULES.md "Tournament tables"): who may confirm a hand, the sentences that
refuse anyone else, and a substitute seated for a player for the rest of a round. What a
substitute scores counts for the player replaced in the event's standings
(`event_standings.TableResult.counted`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import RuleError
from .hands import Kind
from .names import name_key
from .scoring import HandResult

# What a call for the director may say.
MAX_NOTE = 200


class NotConfirmed(RuleError):
    """A hand confirmed at a table whose event doesn't ask for it."""

    status = 409


def or_names(names: Sequence[str]) -> str:
    """'Cat', 'Cat or Dan', 'Cat, Dan or Eve'."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} or {names[-1]}"


def confirmers(result: HandResult) -> tuple[str, ...]:
    """Who may confirm a hand, in seat order: the players of the hand on the side that did not
    pick; any player of a leaster or a pass; any player of a penalty but the one penalised.
    Nobody sitting out confirms."""
    hand = result.hand
    played = set(result.players)
    if hand.kind is Kind.PICK:
        picked = {hand.picker, hand.partner}
        return tuple(p for p in hand.seats if p in played and p not in picked)
    if hand.kind is Kind.PENALTY:
        return tuple(p for p in hand.seats if p in played and p != hand.penalized)
    return tuple(p for p in hand.seats if p in played)


def confirms_words(result: HandResult) -> str:
    """'Cat or Dan confirms': who may confirm the hand, as the record form's preview says it."""
    return f"{or_names(confirmers(result))} confirms"


def check_confirmer(result: HandResult, number: int, by: str) -> str:
    """The player `by` names (in their stored spelling) when they may confirm hand `number`,
    else a refusal at `by` saying who may."""
    allowed = confirmers(result)
    key = name_key(by)
    if not key:
        raise RuleError(f"Say who confirms hand {number}: {or_names(allowed)}.", "by")
    found = next((player for player in allowed if name_key(player) == key), None)
    if found is not None:
        return found
    hand = result.hand
    if hand.kind is Kind.PICK:
        who = "the side that did not pick confirms it"
    elif hand.kind is Kind.PENALTY:
        who = f"a player of the hand but {hand.penalized}, who was penalised, confirms it"
    else:
        who = "any player of the hand confirms it"
    raise RuleError(f"{by.strip()} can't confirm hand {number}: {who}, {or_names(allowed)}.", "by")


def check_note(note: str) -> str:
    """A call's note as it is kept (trimmed; empty for none), or a refusal."""
    note = " ".join(note.split())
    if len(note) > MAX_NOTE:
        raise RuleError(
            f"A note for the director is at most {MAX_NOTE} characters, not {len(note)}.", "note"
        )
    return note


# Substitutes


@dataclass(frozen=True)
class RoundTable:
    """A table of the round being played, as a substitution reads it: its seats now, who
    stands in there for whom, and who played a hand there (as they are named in its hands)."""

    seats: tuple[str, ...]
    stand_ins: Mapping[str, str] = field(default_factory=dict)
    played: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Substitution:
    """A player seated in another's seat in a round: at which table (its index among the
    round's), the seats from the next hand on, who left and who sat down (stored spellings),
    and whom the one who sat down counts for in the event (None: for themselves, a player back
    in their seat)."""

    round: int
    table: int
    seats: tuple[str, ...]
    out: str
    player: str
    stands_for: str | None


def substitute(
    tables: Sequence[RoundTable], round_number: int, out: str, player: str
) -> Substitution:
    """Seat `player` in `out`'s seat at their table of round `round_number`, between hands.
    Refused when `out` has no seat in the round, or `player` has one: is seated at a table of
    it, or played in it anywhere but here for the player this seat counts for (the replaced
    player coming back, or a substitute who sat here for them before)."""
    out_key, player_key = name_key(out), name_key(player)
    if not out_key:
        raise RuleError("Say who leaves their seat: a player's name.", "out")
    if not player_key:
        raise RuleError("Say who takes the seat: a player's name.", "in")
    at = next(
        (
            (index, seat)
            for index, table in enumerate(tables)
            for seat, name in enumerate(table.seats)
            if name_key(name) == out_key
        ),
        None,
    )
    if at is None:
        raise RuleError(f"{out.strip()} has no seat in round {round_number}.", "out")
    index, seat = at
    table = tables[index]
    leaving = table.seats[seat]
    owner = table.stand_ins.get(leaving, leaving)
    for number, other in enumerate(tables, start=1):
        seated = next((name for name in other.seats if name_key(name) == player_key), None)
        if seated is not None:
            raise RuleError(
                f"{seated} has a seat in round {round_number} already, at table {number}.", "in"
            )
        played = next((name for name in other.played if name_key(name) == player_key), None)
        if played is None:
            continue
        if other is not table:
            raise RuleError(
                f"{played} played at table {number} in round {round_number}: a player sits at "
                "one table a round.",
                "in",
            )
        counts_for = table.stand_ins.get(played, played)
        if counts_for != owner:
            raise RuleError(
                f"{played} played at table {number} in round {round_number} for "
                f"{'themselves' if counts_for == played else counts_for}, so they can't sit "
                f"in for {owner}.",
                "in",
            )
    seats = list(table.seats)
    seats[seat] = player
    return Substitution(
        round_number,
        index,
        tuple(seats),
        leaving,
        player,
        None if name_key(owner) == player_key else owner,
    )
