"""What was recorded for a hand, and the checks that make it a valid hand of its session."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from .choices import choice, one_of
from .errors import RuleError
from .options import NoBid, PartnerMode, Schwarz
from .table import Table, check_table, checked_seats

CARD_POINTS_TOTAL = 120
# The tricks of a hand by how many play it: 32 cards less the blind, shared out.
TRICKS_PER_HAND = {3: 10, 4: 7, 5: 6, 6: 5, 7: 4}
MAX_TRICKS = max(TRICKS_PER_HAND.values())


class Kind(StrEnum):
    PICK = "pick"
    LEASTER = "leaster"
    PASS = "pass"
    PENALTY = "penalty"


class Result(StrEnum):
    """How a pick went, from the picking team's side: the row of the scoring table."""

    WON_SCHWARZ = "won_schwarz"
    WON_SCHNEIDER = "won_schneider"
    WON = "won"
    LOST = "lost"
    LOST_SCHNEIDER = "lost_schneider"
    LOST_SCHWARZ = "lost_schwarz"

    @property
    def won(self) -> bool:
        return self.value.startswith("won")

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


# The picking team's card points each result allows, by what makes schwarz.
RESULT_POINTS: dict[Schwarz, dict[Result, tuple[int, int]]] = {
    Schwarz.POINTS: {
        Result.WON_SCHWARZ: (120, 120),
        Result.WON_SCHNEIDER: (91, 119),
        Result.WON: (61, 90),
        Result.LOST: (31, 60),
        Result.LOST_SCHNEIDER: (1, 30),
        Result.LOST_SCHWARZ: (0, 0),
    },
    Schwarz.TRICKS: {
        Result.WON_SCHWARZ: (120, 120),
        Result.WON_SCHNEIDER: (91, 120),
        Result.WON: (61, 90),
        Result.LOST: (31, 60),
        Result.LOST_SCHNEIDER: (0, 30),
        # Only what was buried: the picking team took no trick.
        Result.LOST_SCHWARZ: (0, 22),
    },
}


def result_of_points(points: int) -> Result:
    """The result card points give on their own: 0 and 120 are the schwarz rows."""
    ranges = RESULT_POINTS[Schwarz.POINTS]
    return next(result for result, (low, high) in ranges.items() if low <= points <= high)


def result_floors() -> tuple[tuple[int, Result], ...]:
    """The least card points of the picking team for each result the points give on their own
    (`result_of_points`), most first: the first floor points reach is their result."""
    ranges = RESULT_POINTS[Schwarz.POINTS]
    floors = ((low, result) for result, (low, _high) in ranges.items())
    return tuple(sorted(floors, key=lambda floor: floor[0], reverse=True))


class Blitz(StrEnum):
    BLACK = "black"
    RED = "red"


CALLED_CARDS: dict[PartnerMode, tuple[str, ...]] = {
    PartnerMode.JACK_OF_DIAMONDS: ("JD", "JC", "JS", "JH"),
    PartnerMode.CALLED_ACE: ("AC", "AS", "AH", "10C", "10S", "10H"),
    PartnerMode.ALONE: (),
}

PARTNER_REQUIRED = "Say who the partner was, or that the picker went alone."


def check_partner_said(kind: Kind, said: bool) -> None:
    """Refuse a pick whose input says neither who the partner was nor that the picker went
    alone. A partner of None is both, so what read the input says whether it was `said`."""
    if kind is Kind.PICK and not said:
        raise RuleError(PARTNER_REQUIRED, "partner")


PICKING_POINTS_LABEL = "Picking team points"
OPPONENT_POINTS_LABEL = "Opponents' points"


@dataclass(frozen=True)
class HandField:
    """What the app says of one field of `HandInput`, declared with it: `label` where a sentence
    starts with it, `part` where a change to a hand names it, `only` the kind of hand that has
    it and `had` how one of another kind is refused ("Only a pick has a crack."), whether it
    names one player, and whether it is kept as recorded (opponents' points are kept as the
    picking team's)."""

    part: str
    label: str = ""
    only: Kind | None = None
    had: str = ""
    player: bool = False
    kept: bool = True


def _declared(about: HandField, default: object = None) -> Any:
    return field(default=default, metadata={"about": about})


@dataclass(frozen=True)
class HandInput:
    """A hand as someone tapped or typed it: names not yet checked, points for either side."""

    kind: str = field(metadata={"about": HandField("kind")})
    picker: str | None = _declared(
        HandField("picker", "The picker", Kind.PICK, "a picker", player=True)
    )
    partner: str | None = _declared(
        HandField("partner", "The partner", Kind.PICK, "a partner", player=True)
    )
    called_card: str | None = _declared(
        HandField("called card", "The called card", Kind.PICK, "a called card")
    )
    forced: bool = _declared(HandField("forced", "Forced", Kind.PICK, "a forced pick"), False)
    picking_points: int | None = _declared(
        HandField("picking points", only=Kind.PICK, had="picking team points")
    )
    opponent_points: int | None = _declared(
        HandField("opponents' points", only=Kind.PICK, had="opponents' points", kept=False)
    )
    cracked_by: str | None = _declared(
        HandField("cracked by", "The player who cracked", Kind.PICK, "a crack", player=True)
    )
    recracked: bool = _declared(
        HandField("re-cracked", "Re-cracked", Kind.PICK, "a re-crack"), False
    )
    blitzes: tuple[str, ...] = _declared(HandField("blitzes", only=Kind.PICK, had="blitzes"), ())
    winner: str | None = _declared(
        HandField("leaster winner", "The leaster winner", Kind.LEASTER, "a winner", player=True)
    )
    points: Mapping[str, int] | None = _declared(
        HandField("leaster points", "Points", Kind.LEASTER, "points for each player")
    )
    tricks: Mapping[str, int] | None = _declared(
        HandField("leaster tricks", "Tricks", Kind.LEASTER, "tricks")
    )
    result: str | None = _declared(HandField("result", "The result", Kind.PICK, "a result"))
    penalized: str | None = _declared(
        HandField(
            "penalized", "The penalized player", Kind.PENALTY, "a penalized player", player=True
        )
    )


# Every field of a hand as recorded, in `HandInput`'s order, with what is said of it.
HAND_FIELDS: tuple[tuple[str, HandField], ...] = tuple(
    (declared.name, declared.metadata["about"]) for declared in fields(HandInput)
)
# The fields of a hand that name one of its players, in the order they are cleared.
PLAYER_FIELDS = tuple(name for name, about in HAND_FIELDS if about.player)
# The fields a hand is kept with, as its history and a write's fingerprint hold it.
KEPT_FIELDS = tuple(name for name, about in HAND_FIELDS if about.kept)


@dataclass(frozen=True)
class Hand:
    """A valid hand: players named as seated, points always the picking team's. `seats` is the
    seat order it was played with."""

    dealer: str
    kind: Kind
    picker: str | None = None
    partner: str | None = None
    called_card: str | None = None
    forced: bool = False
    picking_points: int | None = None
    cracked_by: str | None = None
    recracked: bool = False
    blitzes: tuple[Blitz, ...] = ()
    winner: str | None = None
    points: dict[str, int] | None = None
    tricks: dict[str, int] | None = None
    seats: tuple[str, ...] = ()
    # Set for every pick: given, or else following from the points.
    result: Result | None = None
    penalized: str | None = None

    def __post_init__(self) -> None:
        if self.kind is Kind.PICK and self.result is None and self.picking_points is not None:
            object.__setattr__(self, "result", result_of_points(self.picking_points))


def whole_number_error(label: str, low: int, high: int, field: str) -> RuleError:
    return RuleError(f"{label} must be a whole number from {low} to {high}.", field)


def check_card_points(value: int, label: str, field: str) -> int:
    """Card points of one side or player: 0-120, and never 1 or 119, which no cards add up to."""
    if not 0 <= value <= CARD_POINTS_TOTAL:
        raise whole_number_error(label, 0, CARD_POINTS_TOTAL, field)
    if value in (1, CARD_POINTS_TOTAL - 1):
        raise RuleError(
            f"{label} can't be {value}: no set of cards is worth exactly 1 point.", field
        )
    return value


def kind_of(given: str) -> Kind:
    return choice(Kind, given, "The kind of hand", "kind")


def validate_hand(table: Table, dealer: str, entry: HandInput) -> Hand:
    """Check a recorded hand against its session's rules and return it in canonical form.
    `table` has the seats the hand is played with."""
    dealer = table.resolve(dealer, "dealer")
    kind = kind_of(entry.kind)
    if kind is not Kind.PENALTY:
        _refuse_fields_of(Kind.PENALTY, entry)
    if kind is Kind.PICK:
        _refuse_fields_of(Kind.LEASTER, entry)
        return _validate_pick(table, dealer, entry)
    _refuse_fields_of(Kind.PICK, entry)
    if kind is Kind.PENALTY:
        _refuse_fields_of(Kind.LEASTER, entry)
        return _validate_penalty(table, dealer, entry)
    if kind is Kind.LEASTER:
        if table.options.no_bid is not NoBid.LEASTER:
            raise RuleError("This session doesn't play a leaster when everyone passes.", "kind")
        return _validate_leaster(table, dealer, entry)
    if table.options.no_bid not in (NoBid.REDEAL, NoBid.DOUBLER):
        raise RuleError(
            "This session doesn't re-deal when everyone passes, so a hand can't be a pass.",
            "kind",
        )
    for key in ONLY[Kind.LEASTER]:
        if _given(getattr(entry, key)):
            raise RuleError(f"A pass has no {key}: nobody played it.", key)
    return Hand(dealer=dealer, kind=kind, seats=table.seats)


# The fields only one kind of hand has, by that kind, each with how a hand of another kind is
# refused it, and the kind as those refusals name it.
ONLY = {
    kind: {name: about.had for name, about in HAND_FIELDS if about.only is kind}
    for kind in (Kind.PICK, Kind.LEASTER, Kind.PENALTY)
}
_ONLY_A = {Kind.PICK: "a pick", Kind.LEASTER: "a leaster", Kind.PENALTY: "a penalty hand"}


def _given(value: object) -> bool:
    """Whether a field was filled in: null, false and empty all mean it was left out."""
    return value is not None and value is not False and value not in ("", (), {})


def _refuse_fields_of(kind: Kind, entry: HandInput) -> None:
    for key, label in ONLY[kind].items():
        if _given(getattr(entry, key)):
            raise RuleError(f"Only {_ONLY_A[kind]} has {label}.", key)


def _validate_pick(table: Table, dealer: str, entry: HandInput) -> Hand:
    options = table.options
    players = table.players_of_hand(dealer)
    if entry.picker is None:
        raise RuleError("Choose who picked.", "picker")
    picker = table.resolve(entry.picker, "picker", players)
    partner = None
    if entry.partner is not None and options.partner is PartnerMode.ALONE:
        raise RuleError(
            "In this session the picker always plays alone, so there is no partner.", "partner"
        )
    if entry.partner is not None:
        partner = table.resolve(entry.partner, "partner", players)
        if partner == picker:
            raise RuleError(
                f"{picker} picked and can't also be the partner; choose Alone instead.", "partner"
            )

    called_card = None
    if entry.called_card is not None and entry.called_card.strip():
        allowed = CALLED_CARDS[options.partner]
        if not allowed:
            raise RuleError("A picker who plays alone calls no card.", "called_card")
        called_card = one_of(entry.called_card, allowed, "The called card", "called_card")

    if entry.forced:
        if options.no_bid is not NoBid.FORCED_PICK:
            raise RuleError(
                "This session doesn't force the dealer to pick when everyone passes.", "forced"
            )
        last = table.forced_picker(dealer)
        if picker != last and last == dealer:
            raise RuleError(
                f"Only the dealer is forced to pick, and {dealer} dealt, not {picker}.", "forced"
            )
        if picker != last:
            raise RuleError(
                f"Only the last to bid is forced to pick: {dealer} dealt and sat out, "
                f"so {last} was forced, not {picker}.",
                "forced",
            )

    picking_points = _picking_points(entry)
    result = _result(entry, picking_points, options.schwarz)

    cracked_by = None
    if entry.cracked_by is not None:
        if not options.cracking:
            raise RuleError("This session doesn't play cracking.", "cracked_by")
        cracked_by = table.resolve(entry.cracked_by, "cracked_by", players)
        if cracked_by == picker:
            raise RuleError(f"{picker} picked, so {picker} can't crack.", "cracked_by")
        if table.bids_before(dealer, cracked_by, picker):
            raise RuleError(
                f"{cracked_by} bid before {picker}, so {cracked_by} can't crack.", "cracked_by"
            )
    if entry.recracked and cracked_by is None:
        raise RuleError("A re-crack needs a crack first.", "recracked")

    blitzes: list[Blitz] = []
    if entry.blitzes and not options.blitzing:
        raise RuleError("This session doesn't play blitzes.", "blitzes")
    for name in entry.blitzes:
        blitz = choice(Blitz, name, "A blitz", "blitzes")
        if blitz in blitzes:
            raise RuleError(f"The {blitz} blitz is given twice.", "blitzes")
        blitzes.append(blitz)

    return Hand(
        dealer=dealer,
        kind=Kind.PICK,
        picker=picker,
        partner=partner,
        called_card=called_card,
        forced=entry.forced,
        picking_points=picking_points,
        cracked_by=cracked_by,
        recracked=entry.recracked,
        blitzes=tuple(sorted(blitzes, key=list(Blitz).index)),
        seats=table.seats,
        result=result,
    )


def _picking_points(entry: HandInput) -> int | None:
    if entry.picking_points is not None and entry.opponent_points is not None:
        raise RuleError(
            "Give the picking team's points or the opponents' points, not both.",
            "opponent_points",
        )
    if entry.picking_points is not None:
        return check_card_points(entry.picking_points, PICKING_POINTS_LABEL, "picking_points")
    if entry.opponent_points is not None:
        points = check_card_points(entry.opponent_points, OPPONENT_POINTS_LABEL, "opponent_points")
        return CARD_POINTS_TOTAL - points
    return None


def _result(entry: HandInput, points: int | None, schwarz: Schwarz) -> Result:
    """The pick's result: as given, checked against the points when both are given, or
    following from the points."""
    if entry.result is None or not entry.result.strip():
        if points is None:
            raise RuleError(
                "Give the picking team's points (or the opponents'), or how the hand went.",
                "picking_points",
            )
        return result_of_points(points)
    result = choice(Result, entry.result, "The result", "result")
    if points is not None:
        low, high = RESULT_POINTS[schwarz][result]
        if not low <= points <= high:
            allowed = f"{low} points" if low == high else f"{low} to {high} points"
            if schwarz is Schwarz.TRICKS:
                allowed += " when schwarz is counted by tricks"
            raise RuleError(
                f"The picking team's {points} points mean {result_of_points(points).words}, "
                f"not {result.words} ({allowed}).",
                "result",
            )
    return result


def _validate_penalty(table: Table, dealer: str, entry: HandInput) -> Hand:
    if not table.options.penalties:
        raise RuleError("This session doesn't play penalty hands.", "kind")
    if not _given(entry.penalized) or entry.penalized is None:
        raise RuleError("Choose who is penalized.", "penalized")
    penalized = table.resolve(entry.penalized, "penalized", table.players_of_hand(dealer))
    return Hand(dealer=dealer, kind=Kind.PENALTY, penalized=penalized, seats=table.seats)


def _validate_leaster(table: Table, dealer: str, entry: HandInput) -> Hand:
    players = table.players_of_hand(dealer)
    if entry.winner is None:
        raise RuleError("Choose who won the leaster.", "winner")
    winner = table.resolve(entry.winner, "winner", players)
    points = _per_player(table, players, entry.points, "points")
    tricks = _per_player(table, players, entry.tricks, "tricks")

    if points is not None:
        for player, value in points.items():
            check_card_points(value, f"{player}'s points", "points")
        if sum(points.values()) != CARD_POINTS_TOTAL:
            raise RuleError(
                f"The points add up to {sum(points.values())}; a hand has {CARD_POINTS_TOTAL}.",
                "points",
            )
    if tricks is not None:
        in_hand = TRICKS_PER_HAND[len(players)]
        for player, value in tricks.items():
            if not 0 <= value <= in_hand:
                raise whole_number_error(f"{player}'s tricks", 0, in_hand, "tricks")
        if sum(tricks.values()) != in_hand:
            raise RuleError(
                f"The tricks add up to {sum(tricks.values())}; a hand has {in_hand}.",
                "tricks",
            )
        if tricks[winner] == 0:
            raise RuleError(
                f"{winner} took no trick, and a leaster is won by a player who took one.", "winner"
            )
    if points is not None and tricks is not None:
        for player in players:
            if tricks[player] == 0 and points[player] != 0:
                raise RuleError(
                    f"{player} took no trick, so {player} has 0 points, not {points[player]}.",
                    "points",
                )
    if points is not None:
        # Without tricks, only a player with points surely took a trick.
        took_trick = [
            p for p in players if (tricks[p] > 0 if tricks is not None else points[p] > 0)
        ]
        fewer = [p for p in took_trick if points[p] < points[winner]]
        if fewer:
            raise RuleError(
                f"{fewer[0]} took a trick with fewer points than {winner} "
                f"({points[fewer[0]]} to {points[winner]}), so {winner} didn't win the leaster.",
                "winner",
            )

    return Hand(
        dealer=dealer,
        kind=Kind.LEASTER,
        winner=winner,
        points=points,
        tricks=tricks,
        seats=table.seats,
    )


def _per_player(
    table: Table, players: tuple[str, ...], given: Mapping[str, int] | None, field: str
) -> dict[str, int] | None:
    if not given:
        return None
    values: dict[str, int] = {}
    for name, value in given.items():
        player = table.resolve(name, field, players)
        if player in values:
            raise RuleError(f"{player} is named twice in the {field}.", field)
        values[player] = value
    missing = [p for p in players if p not in values]
    if missing:
        raise RuleError(f"Give {field} for every player; {missing[0]} is missing.", field)
    return {p: values[p] for p in players}


class Ruling(StrEnum):
    """Why a hand's dealer rules out a player chosen for it."""

    SITS_OUT = "sits_out"
    BIDS_BEFORE_PICKER = "bids_before_picker"
    OWN_PARTNER = "own_partner"


@dataclass(frozen=True)
class Cleared:
    """A player chosen for a hand that its dealer rules out: the field (a `HandInput` name),
    the player, and why, as a ruling and a sentence."""

    field: str
    player: str
    ruling: Ruling
    why: str


def ruled_out(
    table: Table, dealer: str, chosen: Mapping[str, str | None], everyone_passed: bool
) -> tuple[Cleared, ...]:
    """The choices of a hand (`chosen`: a player by field, None or "" for none) that a hand
    dealt by `dealer` rules out, as another dealer may: a player who sits it out, a crack by a
    player who bids before the picker, a forced picker as their own partner. `table` has the
    seats the hand is played with; a choice cleared for one reason is not asked of again."""
    cleared: list[Cleared] = []
    playing = table.players_of_hand(dealer)
    left = dict(chosen)
    for key in PLAYER_FIELDS:
        name = left.get(key)
        if name and name not in playing:
            why = f"{name} sits out when {dealer} deals."
            cleared.append(Cleared(key, name, Ruling.SITS_OUT, why))
            left[key] = None
    forced = everyone_passed and table.options.no_bid is NoBid.FORCED_PICK
    picker = table.forced_picker(dealer) if forced else left.get("picker")
    cracker = left.get("cracked_by")
    # Whoever is still chosen plays the hand.
    if picker and cracker and table.bids_before(dealer, cracker, picker):
        cleared.append(
            Cleared(
                "cracked_by",
                cracker,
                Ruling.BIDS_BEFORE_PICKER,
                f"with {dealer} dealing, {cracker} bids before {picker}, "
                "and only a later bidder can crack.",
            )
        )
    if forced and picker and left.get("partner") == picker:
        why = f"{picker} picked, so can't be their own partner."
        cleared.append(Cleared("partner", picker, Ruling.OWN_PARTNER, why))
    return tuple(cleared)


def next_dealer_after(table: Table, last: Hand | None) -> str:
    """Who deals the hand after `last`, the last hand played, by the seats now
    (`Table.next_dealer`); with no hand played yet, the first dealer."""
    if last is None:
        return table.next_dealer(None)
    return table.next_dealer(last.dealer, last.seats)


def next_hand(
    table: Table,
    count: int,
    last: Hand | None,
    entry: HandInput,
    dealer: str | None,
    seats: Sequence[str] | None = None,
) -> Hand:
    """The hand to add after `count` hands, the last of them `last`, checked by the rules: dealt
    by `dealer` or the next in rotation, with the seats now or the `seats` it was played with."""
    table.check_room_for_hand(count)
    if dealer is None:
        dealer = next_dealer_after(table, last)
    if seats is not None:
        table = table.seated_as(checked_seats(seats, "seats"))
        check_table(table.seats, table.options, "seats")
    return validate_hand(table, dealer, entry)
