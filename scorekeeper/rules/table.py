"""A session's table: seats, rule options, rounds, and the dealer rotation."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .errors import RuleError, SessionComplete

PLAYERS_PER_SESSION = 5
MAX_ROUNDS = 100


class PartnerMode(StrEnum):
    JACK_OF_DIAMONDS = "jack_of_diamonds"
    CALLED_ACE = "called_ace"


class NoBid(StrEnum):
    """What happens when everyone passes."""

    FORCED_PICK = "forced_pick"
    REDEAL = "redeal"
    DOUBLER = "doubler"
    LEASTER = "leaster"


@dataclass(frozen=True)
class Options:
    partner: PartnerMode = PartnerMode.JACK_OF_DIAMONDS
    no_bid: NoBid = NoBid.FORCED_PICK
    cracking: bool = True
    blitzing: bool = True


def name_key(name: str) -> str:
    """The form of a player's name used to compare it: trimmed, case ignored."""
    return name.strip().casefold()


@dataclass(frozen=True)
class Table:
    """Who sits where (clockwise), the rules they play, and for how many rounds (0: open-ended)."""

    seats: tuple[str, ...]
    options: Options = field(default_factory=Options)
    rounds: int = 0
    first_dealer: str = ""

    def __post_init__(self) -> None:
        if not self.first_dealer and self.seats:
            object.__setattr__(self, "first_dealer", self.seats[0])

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
        """Everyone at a five-seat table plays every hand."""
        return self.seats

    def bidding_order(self, dealer: str) -> tuple[str, ...]:
        """The player left of the dealer bids first, the dealer last."""
        players = self.players_of_hand(dealer)
        start = (players.index(dealer) + 1) % len(players)
        return players[start:] + players[:start]

    def dealer_after(self, dealer: str) -> str:
        return self.seats[(self.seat_of(dealer) + 1) % len(self.seats)]

    def next_dealer(self, last_dealer: str | None) -> str:
        """Who deals the next hand: the seat after the last hand's dealer, or the first dealer."""
        return self.first_dealer if last_dealer is None else self.dealer_after(last_dealer)

    def is_complete(self, hand_count: int) -> bool:
        limit = self.hands_per_session
        return limit is not None and hand_count >= limit

    def check_room_for_hand(self, hand_count: int) -> None:
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


MAX_NAME_LENGTH = 40
MAX_SESSION_NAME_LENGTH = 100


def player_name(name: str, field: str = "players") -> str:
    """A new player's name, trimmed, or a refusal when it is empty or too long."""
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise RuleError(f"A player's name must be 1 to {MAX_NAME_LENGTH} characters long.", field)
    return name


def session_name(name: str) -> str:
    name = name.strip()
    if len(name) > MAX_SESSION_NAME_LENGTH:
        raise RuleError(
            f"A session name can be at most {MAX_SESSION_NAME_LENGTH} characters long.", "name"
        )
    return name


def new_table(
    players: list[str], rounds: int, first_dealer: str | None = None, options: Options | None = None
) -> Table:
    """A table for a new session, checking the seats, the rounds and the first dealer."""
    if len(players) != PLAYERS_PER_SESSION:
        raise RuleError(f"A session needs exactly {PLAYERS_PER_SESSION} players.", "players")
    for seat, name in enumerate(players, start=1):
        if not name.strip():
            raise RuleError(f"Every seat needs a player; seat {seat} is empty.", "players")
    seats = tuple(player_name(name) for name in players)
    seen: set[str] = set()
    for name in seats:
        if name_key(name) in seen:
            raise RuleError(f"{name} is seated twice.", "players")
        seen.add(name_key(name))
    table = Table(seats=seats, options=options or Options(), rounds=rounds)
    table.check_rounds(rounds, 0)
    if first_dealer is not None:
        table = Table(
            seats=seats,
            options=table.options,
            rounds=rounds,
            first_dealer=table.resolve(first_dealer, "first_dealer"),
        )
    return table


def options_from(
    partner: str | None = None,
    no_bid: str | None = None,
    cracking: bool | None = None,
    blitzing: bool | None = None,
) -> Options:
    """Rule options from their names; what is not given keeps its default."""
    defaults = Options()
    try:
        partner_mode = defaults.partner if partner is None else PartnerMode(partner)
    except ValueError:
        choices = " or ".join(mode.value for mode in PartnerMode)
        raise RuleError(f"The partner rule is {choices}.", "rules") from None
    try:
        no_bid_rule = defaults.no_bid if no_bid is None else NoBid(no_bid)
    except ValueError:
        choices = ", ".join(rule.value for rule in NoBid)
        raise RuleError(f"When everyone passes, the rule is one of {choices}.", "rules") from None
    return Options(
        partner=partner_mode,
        no_bid=no_bid_rule,
        cracking=defaults.cracking if cracking is None else cracking,
        blitzing=defaults.blitzing if blitzing is None else blitzing,
    )
