"""Hands, scores and standings told in words, as players say them at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from flask import current_app, has_app_context

from .. import rules
from ..config import DEFAULT_CURRENCY
from ..insights.dates import day_of
from ..rules.table import HAND_SIZE
from ..sessions.records import payments_of, result_of
from ..sessions.renames import PLAYER_ACTIONS
from ..sessions.writes import NOT_UNDONE


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def currency() -> str:
    """The app's currency symbol, its `CURRENCY` setting."""
    return str(current_app.config["CURRENCY"]) if has_app_context() else DEFAULT_CURRENCY


def decimal(cents: int) -> str:
    """Cents as a number with two decimals, as a stake box shows it: 1.50."""
    whole, part = divmod(cents, 100)
    return f"{whole}.{part:02d}"


def money(cents: int) -> str:
    """Cents as money in the app's currency: $1.50, -$0.25, $1,200.00."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{currency()}{whole:,}.{part:02d}"


def money_won(cents: int) -> str:
    """Money won or lost: +$1.50, -$0.25, $0.00."""
    return f"+{money(cents)}" if cents > 0 else money(cents)


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
    if hand.kind is rules.Kind.PENALTY:
        return f"{hand.penalized} penalized"
    team = f"{hand.picker} alone" if hand.partner is None else f"{hand.picker} & {hand.partner}"
    parts = [f"{team}, {how_it_went(hand)}"]
    if hand.forced:
        parts.append("forced")
    if hand.cracked_by:
        parts.append(f"cracked by {hand.cracked_by}" + (", re-cracked" if hand.recracked else ""))
    parts.extend(f"{blitz} blitz" for blitz in hand.blitzes)
    if result.doubled:
        parts.append("doubler")
    text = ", ".join(parts)
    if result.multiplier > 1:
        text += f" (x{result.multiplier})"
    return f"{text}, doubled on the bump" if result.bumped else text


def how_it_went(hand: rules.Hand) -> str:
    """'75', 'won schneider', or '120, won schneider' when the points alone would say otherwise
    (schwarz counted by tricks)."""
    if hand.picking_points is None:
        return hand.result.words if hand.result else ""
    if hand.result is None or hand.result is rules.result_of_points(hand.picking_points):
        return str(hand.picking_points)
    return f"{hand.picking_points}, {hand.result.words}"


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
    """'Ann -8, Bob -4, Cat, Dan, Eve +4, lost, doubled on the bump, x2 for the crack · Fay sits
    out': the scores a hand will give its players, what made them bigger than the table's row,
    and who sits it out."""
    if result.hand.kind is rules.Kind.PASS:
        return "No scores: the deal moves on."
    parts = [scores_words(result)]
    if result.bumped and result.hand.result is not None:
        parts.append(f"{result.hand.result.words}, doubled on the bump")
    reasons = multiplier_reasons(result)
    if reasons:
        parts.append(f"x{result.multiplier} for {names(reasons)}")
    text = ", ".join(parts)
    out = sitting_out_words(result.hand.seats, result.hand.dealer, result.sitting_out)
    return f"{text} · {out}" if out else text


# The most players named beside the score they share; more are counted ("4 others -1").
NAMED_OTHERS = 3


def scores_words(result: rules.HandResult) -> str:
    """'Eve +4, Greta +2, Ann, Bob, Cat -2': who the hand turned on first (the picker, then the
    partner; a leaster's winner; the penalized player), then the score every other player
    shares, naming them in seat order when they are three or fewer, else '4 others -1'."""
    hand = result.hand
    if hand.kind is rules.Kind.LEASTER:
        first = [hand.winner]
    elif hand.kind is rules.Kind.PENALTY:
        first = [hand.penalized]
    else:
        first = [hand.picker, hand.partner]
    named = [player for player in first if player is not None]
    others = sorted((p for p in result.players if p not in named), key=hand.seats.index)
    parts = [f"{p} {signed(result.scores[p])}" for p in named]
    if others:
        who = ", ".join(others) if len(others) <= NAMED_OTHERS else f"{len(others)} others"
        parts.append(f"{who} {signed(result.scores[others[0]])}")
    return ", ".join(parts)


# Who sits out each hand when the dealer's seat does, by how many more than five are seated.
SITTING_OUT_WORDS = {
    1: "five play: the dealer sits out",
    2: "five play: the dealer and the player just before sit out",
    3: "five play: the dealer and the two just before sit out",
}


def rules_words(options: rules.Options, seated: int | None = None) -> list[str]:
    """The rules a session plays, as short phrases: 'Jack of diamonds partner', 'all pass:
    leaster', 'Doublers stack', 'bump doubles a loss', 'cap x8', '$0.25 a point'. Who sits out
    is said for a table of six or more, and for rules not yet played at a table (`seated`
    None), such as a rule set's."""
    said = sorted(rules.OPTIONS, key=lambda option: option.about.said_at)
    words = [phrase for option in said if (phrase := option.said(options))]
    dealer_out = options.sitting_out is rules.SittingOut.DEALER
    if seated is None:
        words.append(
            "six or more: five play, the dealer and those just before sitting out"
            if dealer_out
            else "six or seven: all play"
        )
    elif seated > HAND_SIZE:
        words.append(SITTING_OUT_WORDS[seated - HAND_SIZE] if dealer_out else "everyone plays")
    words.append(f"{money(options.stake)} a point" if options.stake else "no stake")
    return words


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


def shared_places(standings: Sequence[rules.Standing]) -> list[str]:
    """The places a night's equal nets share: 'Bob and Eve both -2, so they share 3rd
    place.'"""
    groups: dict[int, list[rules.Standing]] = {}
    for standing in standings:
        groups.setdefault(standing.total, []).append(standing)
    return [
        f"{names([s.player for s in tied])} {'both' if len(tied) == 2 else 'all'} "
        f"{signed(total)}, so they share {ordinal(tied[0].place)} place."
        for total, tied in groups.items()
        if len(tied) > 1
    ]


# The recorded parts of a hand, as a change names them.
CHANGED_PARTS = {
    "dealer": "dealer",
    **{name: about.part for name, about in rules.HAND_FIELDS if about.kept},
}


def _part(key: str, value: Any) -> str:
    if key == "result" and value:
        return str(value).replace("_", " ")
    if value is None or value == []:
        return "alone" if key == "partner" else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " and ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{player} {n}" for player, n in value.items())
    return str(value)


def _told(hand: Mapping[str, Any]) -> dict[str, Any]:
    """The hand's recorded parts, its result left out where it only follows from the points."""
    told = {key: hand.get(key) for key in CHANGED_PARTS}
    points, result = told["picking_points"], told["result"]
    if points is not None and result == rules.result_of_points(points).value:
        told["result"] = None
    return told


def hand_differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'picking points 75 → 45, partner Bob → alone'."""
    old, new = _told(before), _told(after)
    return ", ".join(
        f"{label} {_part(key, old[key])} → {_part(key, new[key])}"
        for key, label in CHANGED_PARTS.items()
        if old[key] != new[key]
    )


def change_words(change: Any) -> str:
    """A session's change in words: 'Hand 4 edited: picking points 75 → 45', 'Session
    ended', 'Ann settled: pays Bob $1.50'."""
    before, after, number = change.before, change.after, change.number
    if number is None:
        return _session_change_words(change.action, before, after)
    if before is None and after is not None:
        verb = "added" if change.action == "add" else "brought back"
        return f"Hand {number} {verb}: {summary_of(after)}"
    if after is None and before is not None:
        verb = "deleted" if change.action == "delete" else "taken out again"
        return f"Hand {number} {verb}: {summary_of(before)}"
    if change.action == "confirm":
        return f"Hand {number} confirmed by {after['confirmed_by']}"
    verb = "edited" if change.action == "edit" else "changed back"
    differences = hand_differences(before or {}, after or {})
    if not differences and (before or {}).get("confirmed_by") != (after or {}).get("confirmed_by"):
        return f"Hand {number} waits to be confirmed again"
    return f"Hand {number} {verb}: {differences or 'nothing recorded changed'}"


def table_change_words(action: str, before: Any, after: Any) -> str:
    """A change to a table of an event: 'Director called: misdeal', 'Director's call
    answered', 'Zed sits in for Ann', 'Ann back in her seat for Zed'."""
    if action == "call-director":
        note = after["note"]
        return f"Director called: {note}" if note else "Director called"
    if action == "answer-director":
        return "Director's call answered"
    out, player, owner = after["out"], after["in"], after["for"]
    if player == owner:
        return f"{player} back at the table, in {out}'s seat"
    seat = "" if out == owner else f", in {out}'s seat"
    return f"{player} sits in for {owner}{seat}"


def undone_elsewhere(change: Any) -> str | None:
    """Why a change to a table of an event has no Restore: how it is undone instead."""
    return NOT_UNDONE.get(change.action)


def _session_change_words(action: str, before: Any, after: Any) -> str:
    if action in NOT_UNDONE:
        return table_change_words(action, before, after)
    if action in PLAYER_ACTIONS:
        old, new = before["name"], after["name"]
        if action == "rename":
            return f"{old} renamed {new}"
        if action == "merge":
            return f"{old} merged into {new}"
        return f"{new} taken apart from {old} again"
    if "totals" in (after or before):
        verb = "changed back" if action == "restore" else "changed"
        return f"Night {verb}: {night_differences(before, after) or 'nothing recorded changed'}"
    if "ended" in (after or before):
        return "Session ended" if after["ended"] else "Session reopened"
    if after is None:
        return f"{before['player']}'s early settlement taken back"
    leaver = after["player"]
    again = " again" if action == "restore" else ""
    return f"{leaver} settled{again}: {settlement_words(leaver, payments_of(after['payments']))}"


def night_differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What a change to a night kept without hands changed: 'name “Bowling” → “Redo”, date
    2010-12-29 → 2011-01-05, Greg 0 → 1, Zoe added at 3, Dave taken off (was -2)'."""
    parts = []
    old_name, new_name = before["name"], after["name"]
    if old_name != new_name:
        if not old_name:
            parts.append(f"named “{new_name}”")
        elif not new_name:
            parts.append(f"name “{old_name}” taken off")
        else:
            parts.append(f"name “{old_name}” → “{new_name}”")
    old_day, new_day = day_of(before["created_at"]), day_of(after["created_at"])
    if old_day != new_day:
        parts.append(f"date {old_day} → {new_day}")
    old, new = before["totals"], after["totals"]
    for player in [*old, *(player for player in new if player not in old)]:
        if player not in new:
            parts.append(f"{player} taken off (was {old[player]})")
        elif player not in old:
            parts.append(f"{player} added at {new[player]}")
        elif old[player] != new[player]:
            parts.append(f"{player} {old[player]} → {new[player]}")
    return ", ".join(parts)


def settlement_words(leaver: str, payments: Sequence[rules.Payment]) -> str:
    """What settling a leaver early does: 'pays Bob $1.50 and Cat $0.50', 'gets $2.00 from
    Dan'."""
    if payments and payments[0].payer == leaver:
        return "pays " + names([f"{p.payee} {money(p.amount)}" for p in payments])
    return "gets " + names([f"{money(p.amount)} from {p.payer}" for p in payments])


def changed_player(change: Any) -> str | None:
    """The name a change to a player left, which is undone on the player's page, not as the
    session's other changes are."""
    return str(change.after["name"]) if change.action in PLAYER_ACTIONS else None


class _Undo(NamedTuple):
    action: str
    number: int | None
    before: Any
    after: Any


def undo_words(change: Any) -> str:
    """What undoing a session's change does, in words: 'Hand 6 brought back: Ann & Cat,
    lost', 'Hand 1 changed back: picking points 45 → 75'."""
    return change_words(_Undo("restore", change.number, change.after, change.before))


def amount_words(amount: int, unit: str) -> str:
    """A settle-up's amount: '$1.50' in cents, '12 points' (or '1 point') in points."""
    if unit == "cents":
        return money(amount)
    return f"{amount} point{'' if abs(amount) == 1 else 's'}"


def payment_words(payment: rules.Payment, unit: str) -> str:
    """'Bob pays Ann $1.50'."""
    return f"{payment.payer} pays {payment.payee} {amount_words(payment.amount, unit)}"


def biggest_hand(sheet: rules.Sheet) -> tuple[int, rules.HandResult] | None:
    """The hand that moved the most points to or from one player (the first of equals), with
    its number; None when no hand scored."""
    best: tuple[int, rules.HandResult] | None = None
    most = 0
    for number, result in enumerate(sheet.results, start=1):
        size = max((abs(score) for score in result.scores.values()), default=0)
        if size > most:
            best, most = (number, result), size
    return best


def recap(title: str, sheet: rules.Sheet, settle_up: rules.SettleUp) -> str:
    """The night in a few lines to share: standings, who pays whom, and the biggest hand."""
    lines = [title]
    lines.append(
        "Standings: "
        + ", ".join(f"{s.place}. {s.player} {signed(s.total)}" for s in sheet.standings)
    )
    stake = sheet.table.options.stake
    head = f"Settle up ({money(stake)} a point)" if stake else "Settle up (in points)"
    if settle_up.paid:
        paid = [payment_words(payment, settle_up.unit) for payment in settle_up.paid]
        lines.append("Paid early: " + "; ".join(paid))
    payments = [payment_words(payment, settle_up.unit) for payment in settle_up.payments]
    lines.append(f"{head}: " + ("; ".join(payments) if payments else "everyone is even"))
    biggest = biggest_hand(sheet)
    if biggest is not None:
        number, result = biggest
        lines.append(f"Biggest hand: hand {number}, {hand_summary(result)}: {scores_words(result)}")
    return "\n".join(lines)
