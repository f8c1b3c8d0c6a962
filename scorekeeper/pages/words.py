"""Hands, scores and standings told in words, as players say them at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import rules
from ..json_format import result_of


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def names(players: Sequence[str]) -> str:
    """Ann; Ann and Bob; Ann, Bob and Cat."""
    if len(players) <= 1:
        return "".join(players)
    return f"{', '.join(players[:-1])} and {players[-1]}"


def hand_summary(result: rules.HandResult) -> str:
    hand = result.hand
    if hand.kind is rules.Kind.PASS:
        return "Everyone passed"
    if hand.kind is rules.Kind.LEASTER:
        return f"Leaster won by {hand.winner}"
    team = f"{hand.picker} alone" if hand.partner is None else f"{hand.picker} & {hand.partner}"
    parts = [f"{team}, {hand.picking_points}"]
    if hand.forced:
        parts.append("forced")
    if hand.cracked_by:
        parts.append(f"cracked by {hand.cracked_by}" + (", re-cracked" if hand.recracked else ""))
    parts.extend(f"{blitz} blitz" for blitz in hand.blitzes)
    if result.doubled:
        parts.append("doubler")
    text = ", ".join(parts)
    return f"{text} (x{result.multiplier})" if result.multiplier > 1 else text


def summary_of(hand: Mapping[str, Any]) -> str:
    """A hand given as the API's JSON of it, in words."""
    return hand_summary(result_of(dict(hand)))


def multiplier_reasons(result: rules.HandResult) -> list[str]:
    hand = result.hand
    reasons = []
    if hand.cracked_by:
        reasons.append("the crack")
    if hand.recracked:
        reasons.append("the re-crack")
    reasons.extend(f"the {blitz} blitz" for blitz in hand.blitzes)
    if result.doubled:
        reasons.append("the doubler")
    return reasons


def score_preview(result: rules.HandResult) -> str:
    """'Ann +4, Bob +2, others -2, x2 for the crack': the scores a hand will give its players."""
    if result.hand.kind is rules.Kind.PASS:
        return "No scores: the deal moves on."
    scores = result.scores
    players = sorted(result.players, key=result.hand.seats.index)
    others = [p for p in players if p not in (result.hand.picker, result.hand.partner)]
    if result.hand.kind is rules.Kind.LEASTER:
        others = [p for p in players if p != result.hand.winner]
    named = [p for p in players if p not in others]
    parts = [f"{p} {signed(scores[p])}" for p in named]
    parts.append(f"others {signed(scores[others[0]])}")
    reasons = multiplier_reasons(result)
    if reasons:
        parts.append(f"x{result.multiplier} for {names(reasons)}")
    return ", ".join(parts)


def sitting_out_words(seats: Sequence[str], dealer: str, out: Sequence[str]) -> str:
    """'Fay sits out', 'Cat and Bob sit out': the dealer first, then those just before them."""
    if not out:
        return ""
    at = seats.index(dealer)
    ordered = sorted(out, key=lambda player: (at - seats.index(player)) % len(seats))
    return f"{names(ordered)} {'sits' if len(ordered) == 1 else 'sit'} out"


def short_names(players: Sequence[str]) -> dict[str, str]:
    """A short label for each player, for narrow columns: the first three letters, more where
    two players would read the same."""
    short = {}
    for player in players:
        length = 3
        while any(
            other != player and other[:length].casefold() == player[:length].casefold()
            for other in players
        ) and length < len(player):
            length += 1
        short[player] = player[:length]
    return short


def tiebreaks(standings: Sequence[rules.Standing]) -> list[str]:
    """What decided each tie on total: 'Bob and Eve both -2; Bob won more hands, 3 to 2'."""
    groups: dict[int, list[rules.Standing]] = {}
    for standing in standings:
        groups.setdefault(standing.total, []).append(standing)
    sentences = []
    for total, tied in groups.items():
        if len(tied) < 2:
            continue
        who = names([s.player for s in tied])
        both = "both" if len(tied) == 2 else "all"
        won = [s.hands_won for s in tied]
        if len(set(won)) == 1:
            hands = "hand" if won[0] == 1 else "hands"
            sentences.append(
                f"{who} {both} {signed(total)} with {won[0]} {hands} won each, "
                f"so they share {ordinal(tied[0].place)} place."
            )
        elif len(tied) == 2:
            sentences.append(
                f"{who} both {signed(total)}; {tied[0].player} won more hands, "
                f"{won[0]} to {won[1]}."
            )
        else:
            counts = ", ".join(f"{s.player} {s.hands_won}" for s in tied)
            sentences.append(f"{who} all {signed(total)}; hands won decide: {counts}.")
    return sentences


# The recorded parts of a hand, as a change names them.
CHANGED_PARTS = {
    "dealer": "dealer",
    "kind": "kind",
    "picker": "picker",
    "partner": "partner",
    "called_card": "called card",
    "forced": "forced",
    "picking_points": "picking points",
    "cracked_by": "cracked by",
    "recracked": "re-cracked",
    "blitzes": "blitzes",
    "winner": "leaster winner",
    "points": "leaster points",
    "tricks": "leaster tricks",
}


def _part(key: str, value: Any) -> str:
    if value is None or value == []:
        return "alone" if key == "partner" else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " and ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{player} {n}" for player, n in value.items())
    return str(value)


def hand_differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'picking points 75 → 45, partner Bob → alone'."""
    return ", ".join(
        f"{label} {_part(key, before.get(key))} → {_part(key, after.get(key))}"
        for key, label in CHANGED_PARTS.items()
        if before.get(key) != after.get(key)
    )


def change_words(change: Any) -> str:
    """A change of the history in words: 'Hand 4 edited: picking points 75 → 45'."""
    before, after, number = change.before, change.after, change.number
    if before is None and after is not None:
        verb = "added" if change.action == "add" else "brought back"
        return f"Hand {number} {verb}: {summary_of(after)}"
    if after is None and before is not None:
        verb = "deleted" if change.action == "delete" else "taken out again"
        return f"Hand {number} {verb}: {summary_of(before)}"
    verb = "edited" if change.action == "edit" else "changed back"
    differences = hand_differences(before or {}, after or {})
    return f"Hand {number} {verb}: {differences or 'nothing recorded changed'}"
