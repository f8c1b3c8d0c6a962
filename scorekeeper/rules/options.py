"""The rule options a session is played with, each declared once on `Options`: its kind,
default and values, and how the engine's refusals, the API, the command line, the forms, the
statistics' filters and a summary in words name and show it (`OPTIONS`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import cast, get_type_hints

from .choices import choice
from .errors import RuleError


class PartnerMode(StrEnum):
    JACK_OF_DIAMONDS = "jack_of_diamonds"
    CALLED_ACE = "called_ace"
    ALONE = "alone"


class SittingOut(StrEnum):
    """Who sits out a hand when more than five are seated."""

    DEALER = "dealer"
    NONE = "none"


class Schwarz(StrEnum):
    """What makes the x3 row of the scoring table: 0 or 120 card points, or a side taking no
    trick."""

    POINTS = "points"
    TRICKS = "tricks"


class Doublers(StrEnum):
    """Whether pending doublers double the next picks one each, or all the next pick."""

    QUEUE = "queue"
    STACK = "stack"


MULTIPLIER_CAPS = (0, 2, 4, 8, 16, 32, 64)
MAX_STAKE = 10_000


class NoBid(StrEnum):
    """What happens when everyone passes."""

    FORCED_PICK = "forced_pick"
    REDEAL = "redeal"
    DOUBLER = "doubler"
    LEASTER = "leaster"


class Group(StrEnum):
    """Where the rules form asks for an option: among the main rules, the doubling rules, or
    the house rules, folded away."""

    MAIN = "main"
    DOUBLING = "doubling"
    HOUSE = "house"


@dataclass(frozen=True)
class About:
    """What is known of a rule option besides its type and default: the values a whole number
    takes, and how the engine's refusals, the API's schema, the command line, a summary in
    words, the statistics' filters and the rules form name and show it."""

    # The subject of its refusals: "The partner rule is one of ...".
    refusal: str = ""
    # A whole number: its allowed values, or else 0 to `high`.
    values: tuple[int, ...] = ()
    high: int = 0
    # A whole number: what 0 means, or what it counts.
    zero: str = ""
    unit: str = ""
    # What the API's schema says of it, beyond its values.
    note: str = ""
    # The line `flask import-session --help` gives it.
    cli_help: str = ""
    # How a summary of the rules says it, by value (a value not here goes without saying);
    # said in the order of `said_at`, and only with the options `said_with` allows.
    words: Mapping[object, str] = field(default_factory=dict)
    said_at: int = 0
    said_with: Callable[[Options], bool] | None = None
    # The statistics pages find the sessions played with it at other than its default as a
    # house rule, by this key and label.
    filter_key: str = ""
    filter_label: str = ""
    # How the rules form asks for it: its label, a line saying what it means (or, for each
    # value, a label and a line), its group, and its name in the group's summary.
    label: str = ""
    line: str = ""
    choices: Mapping[object, tuple[str, str]] = field(default_factory=dict)
    group: Group = Group.MAIN
    short: str = ""


@dataclass(frozen=True)
class Options:
    partner: PartnerMode = field(
        default=PartnerMode.JACK_OF_DIAMONDS,
        metadata={
            "about": About(
                "The partner rule",
                label="Partner",
                choices={
                    PartnerMode.JACK_OF_DIAMONDS: (
                        "Jack of diamonds",
                        "Whoever holds the J♦ plays with the picker.",
                    ),
                    PartnerMode.CALLED_ACE: (
                        "Called ace",
                        "The picker calls a fail ace; its holder plays with the picker.",
                    ),
                    PartnerMode.ALONE: (
                        "Alone",
                        "The picker always plays alone: usual with three or four seated, "
                        "the only rule with three.",
                    ),
                },
                words={
                    PartnerMode.JACK_OF_DIAMONDS: "Jack of diamonds partner",
                    PartnerMode.CALLED_ACE: "Called ace partner",
                    PartnerMode.ALONE: "Picker always alone",
                },
            )
        },
    )
    no_bid: NoBid = field(
        default=NoBid.FORCED_PICK,
        metadata={
            "about": About(
                "When everyone passes, the rule",
                cli_help="What happens when everyone passes.",
                words={
                    NoBid.FORCED_PICK: "all pass: the dealer picks",
                    NoBid.REDEAL: "all pass: re-deal",
                    NoBid.DOUBLER: "all pass: re-deal and double",
                    NoBid.LEASTER: "all pass: leaster",
                },
                said_at=1,
                label="When everyone passes",
                choices={
                    NoBid.FORCED_PICK: ("Dealer must pick", "The dealer has to take the blind."),
                    NoBid.REDEAL: ("Re-deal", "Throw the cards in; the next seat deals."),
                    NoBid.DOUBLER: (
                        "Re-deal and double",
                        "Deal again, and the next pick counts double.",
                    ),
                    NoBid.LEASTER: ("Leaster", "Everyone plays alone; the fewest points wins."),
                },
            )
        },
    )
    cracking: bool = field(
        default=True,
        metadata={
            "about": About(
                words={False: "no cracking"},
                said_at=2,
                label="Cracking",
                line="A player who bid after the picker may double the hand.",
                group=Group.DOUBLING,
            )
        },
    )
    blitzing: bool = field(
        default=True,
        metadata={
            "about": About(
                words={False: "no blitzing"},
                said_at=3,
                label="Blitzing",
                line="Both black queens (picker) or both red queens double the hand.",
                group=Group.DOUBLING,
            )
        },
    )
    sitting_out: SittingOut = field(
        default=SittingOut.DEALER,
        metadata={
            "about": About(
                "Who sits out",
                cli_help="Who sits out a hand with six or more seated: the dealer's side, or none.",
                label="With six or more seated",
                choices={
                    SittingOut.DEALER: (
                        "The dealer sits out",
                        "Five play each hand: the dealer sits out, with seven or eight the players "
                        "just before the dealer too.",
                    ),
                    SittingOut.NONE: (
                        "Everyone plays",
                        "Six or seven all play each hand (eight can't: there are not enough "
                        "cards).",
                    ),
                },
            )
        },
    )
    bump: bool = field(
        default=False,
        metadata={
            "about": About(
                cli_help="A lost pick's scores double.",
                words={True: "bump doubles a loss"},
                said_at=5,
                filter_key="bump",
                filter_label="Bump",
                label="Double on the bump",
                line="A lost pick scores double: the picking team pays twice the table's value.",
                group=Group.HOUSE,
            )
        },
    )
    schwarz: Schwarz = field(
        default=Schwarz.POINTS,
        metadata={
            "about": About(
                "What makes schwarz",
                cli_help="What makes schwarz: 0 or 120 card points, or a side taking no trick.",
                words={Schwarz.TRICKS: "schwarz by tricks"},
                said_at=7,
                filter_key="tricks",
                filter_label="Schwarz by tricks",
                label="What makes schwarz",
                choices={
                    Schwarz.POINTS: ("By points", "Schwarz is 0 or 120 card points."),
                    Schwarz.TRICKS: (
                        "By tricks",
                        "Schwarz is a side taking no trick, whatever its points.",
                    ),
                },
                group=Group.HOUSE,
            )
        },
    )
    doublers: Doublers = field(
        default=Doublers.QUEUE,
        metadata={
            "about": About(
                "How doublers double",
                cli_help="Pending doublers double the next picks one each (queue), "
                "or all the next pick.",
                words={Doublers.STACK: "Doublers stack"},
                said_at=4,
                # Only a re-deal and double makes doublers.
                said_with=lambda options: options.no_bid is NoBid.DOUBLER,
                filter_key="stack",
                filter_label="Stacked doublers",
                label="Doublers after everyone passed",
                choices={
                    Doublers.QUEUE: (
                        "One pick each",
                        "Each doubler waiting doubles one of the next picks.",
                    ),
                    Doublers.STACK: (
                        "Stacked on the next pick",
                        "Every doubler waiting doubles the next pick: pass, pass, then a pick at "
                        "x4.",
                    ),
                },
                group=Group.HOUSE,
            )
        },
    )
    max_multiplier: int = field(
        default=0,
        metadata={
            "about": About(
                "The multiplier cap",
                values=MULTIPLIER_CAPS,
                zero="no cap",
                note="0: no cap.",
                cli_help="The highest multiplier (0: no cap).",
                words={cap: f"cap x{cap}" for cap in MULTIPLIER_CAPS[1:]},
                said_at=6,
                filter_key="cap",
                filter_label="Multiplier cap",
                label="Multiplier cap",
                line="No hand scores more than this many times its value, whatever the cracks, "
                "blitzes and doublers.",
                choices={cap: (f"x{cap}" if cap else "No cap", "") for cap in MULTIPLIER_CAPS},
                group=Group.HOUSE,
                short="cap",
            )
        },
    )
    penalties: bool = field(
        default=False,
        metadata={
            "about": About(
                cli_help="Penalty hands allowed.",
                words={True: "penalty hands"},
                said_at=8,
                filter_key="penalties",
                filter_label="Penalty hands",
                label="Penalty hands",
                line="A deal thrown in for a misplay (a renege, a Mauer): the penalized player "
                "pays 1 to every other player.",
                group=Group.HOUSE,
            )
        },
    )
    # Cents per point, for the settle-up; scores stay in points.
    stake: int = field(
        default=0,
        metadata={
            "about": About(
                "The stake",
                high=MAX_STAKE,
                unit="cents per point",
                note="Cents per point, for the settle-up.",
                cli_help="Cents per point, for the settle-up.",
                label="Stake a point",
                line="Money a point, such as 0.25, for the settle-up; scores stay in points. "
                "Empty: play for points.",
                group=Group.HOUSE,
            )
        },
    )

    def capped(self, multiplier: int) -> int:
        cap = self.max_multiplier
        return min(multiplier, cap) if cap else multiplier


@dataclass(frozen=True)
class Option:
    """A rule option as `Options` declares it: its name (the API's rule key), its kind (bool,
    int, or the StrEnum of its values), its default, and the rest of what is known of it."""

    name: str
    kind: type
    default: object
    about: About

    def check(self, given: object) -> object:
        """The option's value from what was given, refusing a value it doesn't take (not a
        type: a flag passes as given, the callers check types)."""
        about = self.about
        if issubclass(self.kind, StrEnum):
            return choice(self.kind, cast(str, given), about.refusal, "rules")
        if self.kind is int:
            if about.values and given not in about.values:
                listed = ", ".join(map(str, about.values[1:]))
                raise RuleError(f"{about.refusal} is 0 ({about.zero}) or one of {listed}.", "rules")
            if not about.values and not 0 <= cast(int, given) <= about.high:
                raise RuleError(
                    f"{about.refusal} is a whole number of {about.unit} from 0 to {about.high}.",
                    "rules",
                )
        return given

    def said(self, options: Options) -> str:
        """How a summary of the rules says this option of `options`; empty if it goes without
        saying."""
        about = self.about
        if about.said_with is not None and not about.said_with(options):
            return ""
        return about.words.get(getattr(options, self.name), "")

    def played(self, options: Options) -> bool:
        """Whether `options` play this option at other than its default."""
        return bool(getattr(options, self.name) != self.default)


_KINDS = get_type_hints(Options)
OPTIONS: tuple[Option, ...] = tuple(
    Option(each.name, _KINDS[each.name], each.default, each.metadata["about"])
    for each in fields(Options)
)
OPTION_NAMES = tuple(option.name for option in OPTIONS)


def default_partner(seated: int) -> PartnerMode:
    """Cutthroat with three or four seated, the jack of diamonds with more."""
    return PartnerMode.ALONE if seated <= 4 else PartnerMode.JACK_OF_DIAMONDS
