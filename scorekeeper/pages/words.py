"""Hands told in a few words, as on a paper score pad."""

from __future__ import annotations

from .. import rules


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
