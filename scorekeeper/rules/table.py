"""A session's table: seats, rule options, rounds, and the dealer rotation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import HandsPlayed, RuleError, SessionComplete
from .names import name_key, player_name
from .options import OPTION_NAMES, OPTIONS, Options, PartnerMode, SittingOut, default_partner

MIN_SEATS = 3
MAX_SEATS = 8
# Five play a hand when more are seated and the dealer's side sits out.
HAND_SIZE = 5
MAX_ROUNDS = 100


def check_table(seats: Sequence[str], options: Options, field: str = "players") -> None:
    """Refuse a table of a size its rules can't play."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RuleError(
            f"A table seats {MIN_SEATS} to {MAX_SEATS} players, not {len(seats)}.", field
        )
    if len(seats) == MIN_SEATS and options.partner is not PartnerMode.ALONE:
        raise RuleError(
            "With three seated the picker always plays alone: choose the partner rule alone.",
            field,
        )
    if len(seats) == MAX_SEATS and options.sitting_out is SittingOut.NONE:
        raise RuleError(
            "Eight can't all play a hand (there are not enough cards): "
            "with eight seated, the dealer and the two players just before the dealer sit out.",
            field,
        )


def sitting_out_of(seats: Sequence[str], dealer: str, options: Options) -> tuple[str, ...]:
    """Who sits out a hand: with more than five seated (and the dealer's side sitting out), the
    dealer and the players just before the dealer, five playing. In seat order."""
    if options.sitting_out is SittingOut.NONE or len(seats) <= HAND_SIZE:
        return ()
    at = seats.index(dealer)
    out = {seats[(at - back) % len(seats)] for back in range(len(seats) - HAND_SIZE)}
    return tuple(p for p in seats if p in out)


def bidding_order_of(seats: Sequence[str], dealer: str, options: Options) -> tuple[str, ...]:
    """The hand's players, from the first after the dealer who plays; a playing dealer last."""
    out = sitting_out_of(seats, dealer, options)
    start = seats.index(dealer) + 1
    rotated = tuple(seats[start:]) + tuple(seats[:start])
    return tuple(p for p in rotated if p not in out)


ENDED = "This session has ended. Reopen it to record another hand."
NO_HANDS = "This night was kept without hands, so it takes none: change its totals instead."


@dataclass(frozen=True)
class Table:
    """Who sits where (clockwise), the rules they play, for how many rounds (0: open-ended),
    whether the session was ended early (complete with the hands it has), and whether it is a
    night kept without hands (complete with none, its players' nets its totals)."""

    seats: tuple[str, ...]
    options: Options = field(default_factory=Options)
    rounds: int = 0
    first_dealer: str = ""
    ended: bool = False
    totals_only: bool = False

    def __post_init__(self) -> None:
        if not self.first_dealer and self.seats:
            object.__setattr__(self, "first_dealer", self.seats[0])

    def seated_as(self, seats: Sequence[str]) -> Table:
        """The same table with the seats a hand was played with."""
        return self if tuple(seats) == self.seats else replace(self, seats=tuple(seats))

    @property
    def hands_per_session(self) -> int | None:
        return self.rounds * len(self.seats) if self.rounds else None

    def seat_of(self, player: str) -> int:
        return self.seats.index(player)

    def resolve(self, name: str, field: str, among: tuple[str, ...] | None = None) -> str:
        """The seated player a typed name means, in its stored spelling."""
        players = self.seats if among is None else among
        key = name_key(name)
        if not key:
            raise RuleError("Give a player's name.", field)
        for player in players:
            if name_key(player) == key:
                return player
        where = "this session" if among is None else "this hand"
        raise RuleError(f"{name.strip()} is not playing in {where}.", field)

    def players_of_hand(self, dealer: str) -> tuple[str, ...]:
        """Who plays a hand dealt by `dealer`, in seat order."""
        out = self.sitting_out(dealer)
        return tuple(p for p in self.seats if p not in out)

    def sitting_out(self, dealer: str) -> tuple[str, ...]:
        return sitting_out_of(self.seats, dealer, self.options)

    def bidding_order(self, dealer: str) -> tuple[str, ...]:
        return bidding_order_of(self.seats, dealer, self.options)

    def forced_picker(self, dealer: str) -> str:
        """Who has to pick when everyone passes and the rules force a pick: the last to bid
        (the dealer, if playing)."""
        return self.bidding_order(dealer)[-1]

    def bids_before(self, dealer: str, player: str, other: str) -> bool:
        """Whether `player` bids before `other` in a hand `dealer` deals (both play it). Only a
        player who bids after the picker can crack."""
        order = self.bidding_order(dealer)
        return order.index(player) < order.index(other)

    def dealer_after(self, dealer: str, seats: Sequence[str] | None = None) -> str:
        """Who deals after `dealer`, who dealt with `seats` (the seats now, if not given): the
        next seat now if the dealer is still seated; else the first player after them in the
        seats they dealt with who is still seated; else the first seat now."""
        if dealer in self.seats:
            return self.seats[(self.seat_of(dealer) + 1) % len(self.seats)]
        before = tuple(seats or ())
        if dealer in before:
            at = before.index(dealer)
            for step in range(1, len(before)):
                player = before[(at + step) % len(before)]
                if player in self.seats:
                    return player
        return self.seats[0]

    def next_dealer(self, last_dealer: str | None, last_seats: Sequence[str] | None = None) -> str:
        """Who deals the next hand: the seat after the last hand's dealer (who dealt with
        `last_seats`), or the first dealer."""
        if last_dealer is None:
            return self.first_dealer
        return self.dealer_after(last_dealer, last_seats)

    def is_complete(self, hand_count: int) -> bool:
        limit = self.hands_per_session
        return self.ended or self.totals_only or (limit is not None and hand_count >= limit)

    def check_room_for_hand(self, hand_count: int) -> None:
        if self.totals_only:
            raise SessionComplete(NO_HANDS)
        if self.ended:
            raise SessionComplete(ENDED)
        if self.is_complete(hand_count):
            played = "its round is" if self.rounds == 1 else f"all {self.rounds} rounds are"
            raise SessionComplete(
                f"This session is complete: {played} played. Add a round to record another hand."
            )

    def check_rounds(self, rounds: int, hand_count: int) -> None:
        """Refuse a number of rounds out of range or below what is already played."""
        if not 0 <= rounds <= MAX_ROUNDS:
            raise rounds_error()
        if rounds and rounds * len(self.seats) < hand_count:
            raise RuleError(
                f"{hand_count} hands are already played, more than {rounds} "
                f"round{'s' if rounds != 1 else ''} of {len(self.seats)} hands.",
                "rounds",
            )


def rounds_error() -> RuleError:
    return RuleError(
        f"Rounds must be a whole number from 0 to {MAX_ROUNDS} (0 means open-ended).", "rounds"
    )


def new_table(
    players: list[str], rounds: int, first_dealer: str | None = None, options: Options | None = None
) -> Table:
    """A table for a new session, checking the seats, the rounds and the first dealer."""
    seats = checked_seats(players)
    options = options or options_from(seated=len(seats))
    check_table(seats, options)
    table = Table(seats=seats, options=options, rounds=rounds)
    table.check_rounds(rounds, 0)
    if first_dealer is not None:
        table = Table(
            seats=seats,
            options=table.options,
            rounds=rounds,
            first_dealer=table.resolve(first_dealer, "first_dealer"),
        )
    return table


def checked_seats(players: Sequence[str], field: str = "players") -> tuple[str, ...]:
    """Names for the seats of a table, in order: 3 to 8, none empty, none twice."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise RuleError(
            f"A table seats {MIN_SEATS} to {MAX_SEATS} players, not {len(players)}.", field
        )
    for seat, name in enumerate(players, start=1):
        if not name.strip():
            raise RuleError(f"Every seat needs a player; seat {seat} is empty.", field)
    seats = tuple(player_name(name, field) for name in players)
    seen: set[str] = set()
    for name in seats:
        if name_key(name) in seen:
            raise RuleError(f"{name} is seated twice.", field)
        seen.add(name_key(name))
    return seats


def change_seats(table: Table, players: Sequence[str], hand_count: int) -> Table:
    """The table with a new seat order from the next hand on: the seats checked, the rules
    playable at the new size, and the rounds not already exceeded. Names are compared by their
    key, so a name typed in another case is the same player."""
    seats = checked_seats(players)
    check_table(seats, table.options)
    changed = replace(table, seats=seats, first_dealer=_first_dealer_among(table, seats))
    limit = changed.hands_per_session
    if limit is not None and hand_count > limit:
        raise HandsPlayed(
            f"{hand_count} hands are already played, more than {table.rounds} "
            f"round{'s' if table.rounds != 1 else ''} of {len(seats)} hands: "
            "raise the rounds first.",
            "players",
        )
    return changed


def _first_dealer_among(table: Table, seats: tuple[str, ...]) -> str:
    """The first dealer in the new `seats` (as typed there): the same player while still
    seated; if they left, the first player after them in the old seats who is still seated,
    else the first seat. The first dealer deals only while no hand is played, but stays seated
    so that deleting every hand leaves a dealer to start from."""
    by_key = {name_key(seat): seat for seat in seats}
    at = table.seats.index(table.first_dealer)
    for step in range(len(table.seats)):
        player = table.seats[(at + step) % len(table.seats)]
        if name_key(player) in by_key:
            return by_key[name_key(player)]
    return seats[0]


def change_rules(table: Table, options: Options, hand_count: int) -> Table:
    """The table with new rules: any of them while no hand is played; after, only the stake,
    since the hands played were scored by the others."""
    if hand_count and replace(options, stake=table.options.stake) != table.options:
        raise HandsPlayed(
            "Hands are already played by these rules, so only the stake can change now.",
            "rules",
        )
    check_table(table.seats, options, "rules")
    return replace(table, options=options)


def options_from(seated: int = HAND_SIZE, **given: object) -> Options:
    """Rule options from their names (`OPTION_NAMES`); what is not given, or None, keeps its
    default (the partner rule's depends on how many are seated)."""
    unknown = set(given) - set(OPTION_NAMES)
    if unknown:
        raise TypeError(f"No rule option {', '.join(sorted(unknown))}.")
    chosen = {name: value for name, value in given.items() if value is not None}
    # The whole numbers are checked first, so a refusal names the same option it always did.
    ordered = sorted(OPTIONS, key=lambda option: option.kind is not int)
    values: dict[str, Any] = {o.name: o.check(chosen[o.name]) for o in ordered if o.name in chosen}
    return replace(Options(partner=default_partner(seated)), **values)
