"""The forms of the pages. Every check of the game happens in the rules engine, so a form says
exactly what the API says; a form only turns typed text into the engine's input."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    ValidationError,
)

from .. import rules
from ..rules import RuleError
from ..rules.options import MAX_STAKE
from .words import currency, decimal, money

PASSED = "passed"
ALONE = ""
NO_CRACK = ""
MAX_DIGITS = 6

RESULTS = [SelectChoice(result.value, result.words.capitalize()) for result in rules.Result]
PENALTY = "penalty"
NEW_PLAYER = "new_player"
MONEY = re.compile(r"\$?(\d{0,3})(?:[.,](\d{1,2}))?", re.ASCII)


def _digits(text: str) -> bool:
    # A length cap first: int() refuses thousands of digits with a ValueError.
    return len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def whole_number(text: str | None, label: str, field: str, high: int) -> int | None:
    """Typed digits as a number; empty means not given."""
    text = (text or "").strip()
    if not text:
        return None
    if not _digits(text):
        raise rules.whole_number_error(label, 0, high, field)
    return int(text)


def typed_stake(text: str | None) -> int:
    """A typed stake ("0.25", "$1.5", "2") in cents; empty means none."""
    text = (text or "").strip().replace(" ", "")
    if not text:
        return 0
    found = MONEY.fullmatch(text.removeprefix(currency()))
    if found is None or not (found[1] or found[2]):
        raise stake_error()
    cents = int(found[1] or 0) * 100 + int((found[2] or "0").ljust(2, "0"))
    if cents > MAX_STAKE:
        raise stake_error()
    return cents


def stake_error() -> RuleError:
    return RuleError(
        f"The stake is money per point such as 0.25, from {money(0)} to {money(MAX_STAKE)}.",
        "stake",
    )


def typed_rounds(text: str | None) -> int | None:
    """Typed rounds as a number; empty means not given. The engine checks the range."""
    text = (text or "").strip()
    if not text:
        return None
    if not _digits(text):
        raise rules.rounds_error()
    return int(text)


class EngineForm(FlaskForm):  # type: ignore[misc]
    """A form whose refusals come from the rules engine, shown at the field they concern."""

    FIELD_FOR: ClassVar[dict[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Errors of inputs that are not WTForms fields, by the engine's field name.
        self.extra_errors: dict[str, list[str]] = {}

    def refuse(self, error: RuleError) -> None:
        name = self.FIELD_FOR.get(error.field or "", error.field or "")
        field = getattr(self, name, None) if name else None
        if isinstance(field, Field):
            field.errors = [*field.errors, error.message]
        elif name in self.extra_errors:
            self.extra_errors[name].append(error.message)
        else:
            self.form_errors.append(error.message)


class SessionDetailsForm(EngineForm):
    """A session's name and rounds, changed as it is played."""

    name = StringField("Name")
    rounds = StringField("Rounds")

    def rounds_number(self) -> int:
        rounds = typed_rounds(self.rounds.data)
        if rounds is None:
            raise rules.rounds_error()
        return rounds


class NewPlayersForm(EngineForm):
    """A form that seats players by name. A new name that looks like another player's is
    refused until its box, "Confirm Ann as a new player", is ticked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.new_players: list[str] = []
        self.look_alikes: list[str] = []

    def read_new_players(self, formdata: Any) -> None:
        self.new_players = [name for name in formdata.getlist(NEW_PLAYER) if name.strip()]

    def refuse(self, error: RuleError) -> None:
        super().refuse(error)
        if isinstance(error, rules.LookAlike) and error.name not in self.new_players:
            self.look_alikes.append(error.name)

    @property
    def confirmable(self) -> list[str]:
        """The names with a box to confirm them as new players: those ticked, then the one
        just refused."""
        return [*self.new_players, *self.look_alikes]


class SubstituteForm(NewPlayersForm):
    """Between hands, a player of the round being played leaves their seat and a substitute
    takes it (or the player comes back to it)."""

    out = SelectField("Who leaves", validate_choice=False)
    player = StringField("Who sits in for them")

    FIELD_FOR: ClassVar[dict[str, str]] = {"in": "player"}

    def offer(self, seated: Sequence[str]) -> None:
        self.out.choices = [
            SelectChoice("", "Choose a player"),
            *(SelectChoice(name, name) for name in seated),
        ]


class ChoiceField(RadioField):  # type: ignore[misc]
    """A rule option's values as radios, each with a line saying what it means."""

    def __init__(self, *args: Any, lines: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines = lines


class CapField(SelectField):  # type: ignore[misc]
    """The multiplier cap, chosen from its list."""

    def typed(self) -> int:
        text = self.data or "0"
        if not _digits(text):
            raise RuleError(f"The multiplier cap, “{text}”, is not one of the caps.", self.name)
        return int(text)


class MoneyField(StringField):  # type: ignore[misc]
    """Money a point, typed as 0.25 or $1.5, in cents."""

    def typed(self) -> int:
        return typed_stake(self.data)


def rule_field(option: rules.Option) -> Any:
    """The form field that asks for a rule option, named as the API names it."""
    about = option.about
    choices = [SelectChoice(str(value), label) for value, (label, _) in about.choices.items()]
    if option.kind is bool:
        return BooleanField(about.label, default=option.default, description=about.line)
    if about.values:
        return CapField(
            about.label,
            choices=choices,
            default=str(option.default),
            validate_choice=False,
            description=about.line,
        )
    if option.kind is int:
        return MoneyField(about.label, default="", description=about.line)
    return ChoiceField(
        about.label,
        choices=choices,
        default=str(option.default),
        validate_choice=False,
        lines={str(value): line for value, (_, line) in about.choices.items()},
    )


class RuleGroup(NamedTuple):
    """The fields of a group of rule options as the form shows them: its flags together under
    a legend, then the others; the house rules folded away, their short names summed up."""

    group: rules.Group
    legend: str
    flags: list[Field]
    others: list[Field]
    summary: str

    @property
    def fields(self) -> list[Field]:
        return [*self.flags, *self.others]

    @property
    def folded(self) -> bool:
        return self.group is rules.Group.HOUSE


FLAGS_LEGEND = {rules.Group.DOUBLING: "Doubling", rules.Group.HOUSE: "Scoring"}


FormClass = TypeVar("FormClass")


def _with_rule_fields(form: type[FormClass]) -> type[FormClass]:
    for option in rules.OPTIONS:
        setattr(form, option.name, rule_field(option))
    return form


@_with_rule_fields
class RulesForm(EngineForm):
    """The rule options a session is played with, as a session is started or imported: a field
    for each, named as the API names it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Rules a share link gave, so the page opens its House rules part to show them.
        self.preset = False

    def rule_groups(self) -> list[RuleGroup]:
        """The rule options' fields by group, in the order the form shows them."""
        groups = []
        for group in rules.Group:
            options = [option for option in rules.OPTIONS if option.about.group is group]
            flags = [o for o in options if o.kind is bool]
            # The flags first, then the choices, then the numbers.
            others = sorted((o for o in options if o.kind is not bool), key=lambda o: o.kind is int)
            ordered = [*flags, *others]
            groups.append(
                RuleGroup(
                    group,
                    FLAGS_LEGEND.get(group, ""),
                    [getattr(self, o.name) for o in flags],
                    [getattr(self, o.name) for o in others],
                    ", ".join(o.about.short or o.name for o in ordered),
                )
            )
        return groups

    def options(self) -> rules.Options:
        given: dict[str, Any] = {
            option.name: self._typed(getattr(self, option.name)) for option in rules.OPTIONS
        }
        # Each option alone first, so that a refusal is shown at the option it is about.
        for key, value in given.items():
            try:
                rules.options_from(**{key: value})
            except RuleError as error:
                raise RuleError(error.message, key) from None
        return rules.options_from(**given)

    @staticmethod
    def _typed(field: Field) -> object:
        return field.typed() if isinstance(field, CapField | MoneyField) else field.data

    def choose(self, given: Mapping[str, str]) -> None:
        """Choose the rules a link gives by the API's names (booleans `true`/`false`, the stake
        in cents), as a shared rule set opens this form; what it doesn't give keeps its default,
        and what can't be read is said and left at its default."""
        for key in rules.OPTION_NAMES:
            if key not in given:
                continue
            text = given[key].strip()
            field = getattr(self, key)
            value: object = None
            if isinstance(field, BooleanField):
                value = {"true": True, "false": False}.get(text.lower())
            elif isinstance(field, MoneyField):
                if _digits(text) and int(text) <= MAX_STAKE:
                    value = decimal(int(text))
            elif text in [choice.value for choice in field.choices]:
                value = text
            if value is None:
                self.form_errors.append(
                    f"The link's {key.replace('_', ' ')}, “{text}”, is not a choice here; "
                    "it is left as usual."
                )
                continue
            field.data = value
            self.preset = True


class SessionForm(RulesForm, NewPlayersForm):
    """A new session: up to eight seats, of which blank trailing ones are ignored (the page shows
    five to start with and lets a script add and remove rows)."""

    name = StringField("Name (optional)")
    seat_1 = StringField("Seat 1")
    seat_2 = StringField("Seat 2")
    seat_3 = StringField("Seat 3")
    seat_4 = StringField("Seat 4")
    seat_5 = StringField("Seat 5")
    seat_6 = StringField("Seat 6")
    seat_7 = StringField("Seat 7")
    seat_8 = StringField("Seat 8")
    first_dealer = SelectField(
        "First dealer",
        choices=[SelectChoice(str(i), f"Seat {i + 1}") for i in range(rules.MAX_SEATS)],
        default="0",
    )
    rounds = StringField("Rounds", default="2")

    FIELD_FOR: ClassVar[dict[str, str]] = {"players": "seat_1", "rules": "no_bid"}

    @property
    def seats(self) -> list[Field]:
        return [getattr(self, f"seat_{seat}") for seat in range(1, rules.MAX_SEATS + 1)]

    def players(self) -> list[str]:
        names = [field.data or "" for field in self.seats]
        while names and not names[-1].strip():
            names.pop()
        return names

    def rounds_number(self) -> int:
        rounds = typed_rounds(self.rounds.data)
        if rounds is None:
            raise rules.rounds_error()
        return rounds

    def first_dealer_name(self) -> str:
        try:
            return self.players()[int(self.first_dealer.data)]
        except (TypeError, ValueError, IndexError):
            raise RuleError("Choose the first dealer.", "first_dealer") from None


class HandForm(EngineForm):
    """One hand as tapped in: which fields count depends on the kind of hand and the session's
    rule for when everyone passes."""

    kind = RadioField(
        "Kind of hand",
        choices=[
            SelectChoice("pick", "Picked"),
            SelectChoice(PASSED, "Everyone passed"),
            SelectChoice(PENALTY, "Penalty"),
        ],
        default="pick",
        validate_choice=False,
    )
    picker = RadioField("Picker", validate_choice=False)
    partner = RadioField("Partner", validate_choice=False)
    called_card = SelectField("Called card", validate_choice=False)
    picking_points = StringField("Picking team points")
    opponent_points = StringField("Opponents' points")
    result = RadioField("Result", choices=RESULTS, validate_choice=False)
    penalized = RadioField("Penalized", validate_choice=False)
    cracked_by = RadioField("Cracked by", validate_choice=False, default=NO_CRACK)
    recracked = BooleanField("Re-cracked")
    black_blitz = BooleanField("Black blitz")
    red_blitz = BooleanField("Red blitz")
    winner = RadioField("Leaster winner", validate_choice=False)
    dealer = SelectField("Dealer", validate_choice=False)
    number = HiddenField()
    # On the edit form: the hand as it was when the form opened, to notice a change meanwhile.
    original = HiddenField()

    FIELD_FOR: ClassVar[dict[str, str]] = {
        "blitzes": "black_blitz",
        "forced": "kind",
        "tricks": "points",
    }

    def __init__(self, table: rules.Table, dealer: str, *args: Any, **kwargs: Any) -> None:
        """`table` has the seats the hand is played with, `dealer` its dealer: only the players
        of the hand are offered."""
        super().__init__(*args, **kwargs)
        self.table = table
        self.players = table.players_of_hand(dealer)
        players = [SelectChoice(p) for p in self.players]
        self.picker.choices = players
        self.partner.choices = [*players, SelectChoice(ALONE, "Alone")]
        self.cracked_by.choices = [SelectChoice(NO_CRACK, "No crack"), *players]
        self.winner.choices = players
        self.penalized.choices = players
        self.dealer.choices = [SelectChoice(p) for p in table.seats]
        cards = rules.CALLED_CARDS[table.options.partner]
        self.called_card.choices = [SelectChoice("", "—"), *map(SelectChoice, cards)]
        self.leaster_points: dict[str, str] = {}
        self.leaster_tricks: dict[str, str] = {}
        self.extra_errors["points"] = []

    def validate_dealer(self, field: Field) -> None:
        if field.data and field.data not in self.table.seats:
            typed = field.data
            # The list then shows the hand's dealer again, as the page can only offer players.
            field.data = None
            raise ValidationError(f"{typed} is not playing in this session: choose the dealer.")

    def validate_number(self, field: Field) -> None:
        if field.data and not _digits(field.data):
            raise ValidationError(
                f"This form's hand number, “{field.data}”, is not a number. "
                "Reload the page and enter the hand again."
            )

    def read_leaster_counts(self, formdata: Any) -> None:
        """Per-player points and tricks of a leaster, named by the player's place among the
        hand's players: points-1 ... tricks-5."""
        for seat, player in enumerate(self.players, start=1):
            self.leaster_points[player] = formdata.get(f"points-{seat}", "")
            self.leaster_tricks[player] = formdata.get(f"tricks-{seat}", "")

    @property
    def no_bid(self) -> rules.NoBid:
        return self.table.options.no_bid

    @property
    def alone(self) -> bool:
        """Whether the picker always plays alone, so the form asks for no partner."""
        return self.table.options.partner is rules.PartnerMode.ALONE

    def hand_input(self, dealer: str) -> rules.HandInput:
        if self.kind.data == PENALTY:
            return rules.HandInput(kind=rules.Kind.PENALTY, penalized=self.penalized.data or None)
        passed = self.kind.data == PASSED
        if passed and self.no_bid is rules.NoBid.LEASTER:
            return rules.HandInput(
                kind=rules.Kind.LEASTER,
                winner=self.winner.data or None,
                points=self._counts(
                    self.leaster_points, "points", "points", rules.CARD_POINTS_TOTAL
                ),
                tricks=self._counts(
                    self.leaster_tricks,
                    "tricks",
                    "tricks",
                    rules.TRICKS_PER_HAND[len(self.players)],
                ),
            )
        if passed and self.no_bid is not rules.NoBid.FORCED_PICK:
            return rules.HandInput(kind=rules.Kind.PASS)
        # With no picker chosen, the engine asks for one first; where the picker always plays
        # alone, the form asks for no partner.
        if passed or self.picker.data:
            rules.check_partner_said(rules.Kind.PICK, self.partner.data is not None or self.alone)
        blitzes = [rules.Blitz.BLACK] * bool(self.black_blitz.data) + [rules.Blitz.RED] * bool(
            self.red_blitz.data
        )
        return rules.HandInput(
            kind=rules.Kind.PICK,
            picker=self.table.forced_picker(dealer) if passed else self.picker.data or None,
            partner=self.partner.data or None,
            called_card=self.called_card.data or None,
            forced=passed,
            picking_points=whole_number(
                self.picking_points.data,
                rules.PICKING_POINTS_LABEL,
                "picking_points",
                rules.CARD_POINTS_TOTAL,
            ),
            opponent_points=whole_number(
                self.opponent_points.data,
                rules.OPPONENT_POINTS_LABEL,
                "opponent_points",
                rules.CARD_POINTS_TOTAL,
            ),
            cracked_by=self.cracked_by.data or None,
            recracked=bool(self.recracked.data),
            blitzes=tuple(blitzes),
            result=self.result.data or None,
        )

    def clear_for(self, dealer: str) -> list[str]:
        """Clear the choices another dealer rules out (`rules.ruled_out`), as an edit that
        changes the dealer may. A sentence for each."""
        fields = {
            "picker": self.picker,
            "partner": self.partner,
            "cracked_by": self.cracked_by,
            "winner": self.winner,
            "penalized": self.penalized,
        }
        chosen = {name: field.data for name, field in fields.items()}
        said = []
        for cleared in rules.ruled_out(self.table, dealer, chosen, self.kind.data == PASSED):
            field = fields[cleared.field]
            said.append(f"{field.label.text} {cleared.player} cleared: {cleared.why}")
            field.data = NO_CRACK if field is self.cracked_by else None
            if cleared.ruling is rules.Ruling.BIDS_BEFORE_PICKER:
                self.recracked.data = False
        return said

    def _counts(
        self, typed: dict[str, str], field: str, label: str, high: int
    ) -> dict[str, int] | None:
        counts = {
            player: whole_number(text, f"{player}'s {label}", field, high)
            for player, text in typed.items()
        }
        if all(value is None for value in counts.values()):
            return None
        return {player: value or 0 for player, value in counts.items()}

    def fill(self, hand: rules.Hand) -> None:
        """Prefill the form with a recorded hand, to edit it."""
        self.dealer.data = hand.dealer
        if hand.kind is rules.Kind.PENALTY:
            self.kind.data = PENALTY
            self.penalized.data = hand.penalized
            return
        if hand.kind is rules.Kind.PASS or hand.kind is rules.Kind.LEASTER or hand.forced:
            self.kind.data = PASSED
        if hand.kind is rules.Kind.LEASTER:
            self.winner.data = hand.winner
            for player in self.players:
                if hand.points is not None:
                    self.leaster_points[player] = str(hand.points[player])
                if hand.tricks is not None:
                    self.leaster_tricks[player] = str(hand.tricks[player])
        if hand.kind is not rules.Kind.PICK:
            return
        self.picker.data = hand.picker
        self.partner.data = hand.partner or ALONE
        self.called_card.data = hand.called_card or ""
        self.picking_points.data = "" if hand.picking_points is None else str(hand.picking_points)
        # A result that only follows from the points is left for them to give again, so that
        # correcting the points alone (without a script to move the result) is enough.
        derived = hand.picking_points is not None and hand.result is rules.result_of_points(
            hand.picking_points
        )
        self.result.data = None if hand.result is None or derived else hand.result.value
        self.cracked_by.data = hand.cracked_by or NO_CRACK
        self.recracked.data = hand.recracked
        self.black_blitz.data = rules.Blitz.BLACK in hand.blitzes
        self.red_blitz.data = rules.Blitz.RED in hand.blitzes


class SeatsForm(NewPlayersForm):
    """The table as the Seats page holds it between hands: the seat order (one hidden `seat`
    input a seat), someone arriving and where they sit, and the seats when the page opened."""

    arrive_name = StringField("Name")
    arrive_after = SelectField("Sits", validate_choice=False)
    before = HiddenField()

    FIELD_FOR: ClassVar[dict[str, str]] = {"players": "seats"}

    def __init__(self, seats: Sequence[str], *args: Any, **kwargs: Any) -> None:
        """`seats` are the seats now, shown when the page opens."""
        super().__init__(*args, **kwargs)
        self.extra_errors["seats"] = []
        self.seats = list(seats)
        if not self.before.data:
            self.before.data = seats_print(seats)

    def arrange(self, formdata: Any) -> None:
        """The seats as sent; whoever arrives seated; then the seat whose button was tapped
        moved or removed."""
        self.seats = [name.strip() for name in formdata.getlist("seat") if name.strip()]
        name = (self.arrive_name.data or "").strip()
        if name:
            name = rules.player_name(name, "arrive_name")
            after = self.arrive_after.data
            at = self.seats.index(after) + 1 if after in self.seats else len(self.seats)
            self.seats.insert(at, name)
            self.arrive_name.data = ""
        for action, step in (("up", -1), ("down", 1), ("leave", 0)):
            index = _index(formdata.get(action), len(self.seats))
            if index is None:
                continue
            if step == 0:
                self.seats.pop(index)
            elif 0 <= index + step < len(self.seats):
                seats = self.seats
                seats[index], seats[index + step] = seats[index + step], seats[index]

    def offer_places(self) -> None:
        self.arrive_after.choices = [SelectChoice(p, f"after {p}") for p in self.seats]
        if self.arrive_after.data not in self.seats and self.seats:
            self.arrive_after.data = self.seats[-1]


def seats_print(seats: Sequence[str]) -> str:
    """Seats as a form carries them, to notice a change made meanwhile (as JSON: a browser
    sends line breaks back changed)."""
    return json.dumps(list(seats))


def _index(text: str | None, length: int) -> int | None:
    """A seat's index as a button sends it, if it is one."""
    if text is None or not _digits(text) or not 0 <= int(text) < length:
        return None
    return int(text)
