"""A night kept without hands (RULES.md, "Nights kept without hands"): a paper sheet's or a
spreadsheet's night, only each player's net. It is a complete session with no hands, its
standings by net, equal nets sharing a place and listed by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RuleError
from .names import name_key, player_name
from .options import Options
from .sheet import Sheet, standings
from .table import Table

MIN_PLAYERS = 2
MAX_PLAYERS = 40
# The largest net a player can have for a night, either way.
MAX_NET = 100_000


def check_night(totals: Any, field: str = "totals") -> dict[str, int]:
    """A night's nets by player, in the order given: 2 to 40 players, none twice, each net a
    whole number within bounds, adding up to 0."""
    if not isinstance(totals, Mapping):
        raise RuleError("The totals are an object: each player's net for the night.", field)
    return check_nets(list(totals.items()), field)


def check_nets(totals: Sequence[tuple[str, Any]], field: str = "totals") -> dict[str, int]:
    """`check_night` of a night's nets given player by player, as a spreadsheet's line gives
    them, where one player may come twice."""
    if not MIN_PLAYERS <= len(totals) <= MAX_PLAYERS:
        raise RuleError(
            f"A night has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(totals)}.", field
        )
    nets: dict[str, int] = {}
    seen: set[str] = set()
    for given, net in totals:
        name = player_name(str(given), field)
        if name_key(name) in seen:
            raise RuleError(f"{name} is listed twice.", field)
        seen.add(name_key(name))
        if isinstance(net, bool) or not isinstance(net, int) or abs(net) > MAX_NET:
            raise RuleError(
                f"{name}'s net is a whole number from -{MAX_NET:,} to {MAX_NET:,}.", field
            )
        nets[name] = net
    off = sum(nets.values())
    if off:
        raise RuleError(f"The nets add up to {off}, not 0.", field)
    return nets


def night_sheet(nets: Mapping[str, int], options: Options | None = None) -> Sheet:
    """The scoresheet of a night: no hands, complete, each player's total their net; the
    standings by total, equal totals sharing a place, listed by name."""
    players = tuple(nets)
    by_name = sorted(players, key=name_key)
    totals = dict(nets)
    no_hands = dict.fromkeys(players, 0)
    return Sheet(
        table=Table(seats=players, options=options or Options(), totals_only=True),
        named=players,
        results=(),
        running_totals=(),
        totals=totals,
        hands_won=no_hands,
        standings=standings(by_name, totals, no_hands),
        pending_doublers=0,
        next_dealer=None,
        sitting_out_next=(),
        complete=True,
    )
