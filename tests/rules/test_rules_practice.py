"""Made-up hands for a practice event (`rules.made_up_hands`): at any table of three to eight
by any rules, every hand is one the rules allow there, dealt in turn, scored to sum to zero,
and the same for the same seed. No app, no database."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Doublers,
    Kind,
    NoBid,
    PartnerMode,
    Schwarz,
    SittingOut,
    Table,
    made_up_hands,
    options_from,
    score_sheet,
    table_options,
    validate_hand,
)

quick = settings(max_examples=60, database=None, deadline=None)


@st.composite
def tables(draw_from: st.DrawFn) -> Table:
    seated = draw_from(st.integers(3, 8))
    sitting_out = draw_from(
        st.sampled_from([SittingOut.DEALER] if seated == 8 else list(SittingOut))
    )
    rules = options_from(
        partner=draw_from(st.sampled_from(list(PartnerMode))).value,
        no_bid=draw_from(st.sampled_from(list(NoBid))).value,
        cracking=draw_from(st.booleans()),
        blitzing=draw_from(st.booleans()),
        penalties=draw_from(st.booleans()),
        schwarz=draw_from(st.sampled_from(list(Schwarz))).value,
        doublers=draw_from(st.sampled_from(list(Doublers))).value,
        sitting_out=sitting_out.value,
    )
    if seated < 5 and rules.partner is PartnerMode.JACK_OF_DIAMONDS:
        rules = options_from(**{**rules.__dict__, "partner": "alone"})
    seats = tuple(f"Seat {n}" for n in range(1, seated + 1))
    return Table(seats=seats, options=table_options(rules, seated), rounds=4)


@quick
@given(tables(), st.text(max_size=8))
def test_every_made_up_hand_is_one_the_rules_allow_at_its_table(table: Table, seed: str) -> None:
    count = table.rounds * len(table.seats)
    made = made_up_hands(table, table.seats[0], count, seed)
    assert len(made) == count
    hands = []
    dealer = table.seats[0]
    for entry in made:
        hands.append(validate_hand(table, dealer, entry))
        dealer = table.next_dealer(dealer)
    sheet = score_sheet(table, hands)
    assert table.is_complete(len(sheet.results))
    assert sum(sheet.totals.values()) == 0
    assert made_up_hands(table, table.seats[0], count, seed) == made


def test_a_night_of_made_up_hands_looks_like_a_night() -> None:
    table = Table(seats=("Ann", "Bob", "Cat", "Dan", "Eve"), options=options_from(), rounds=20)
    made = made_up_hands(table, "Ann", 100, "event 3 round 1 table 1")
    kinds = {entry.kind for entry in made}
    assert kinds == {Kind.PICK.value}
    assert len({entry.picker for entry in made}) == 5
    assert any(entry.partner is None for entry in made)
    assert any(entry.forced for entry in made)
    assert any(entry.cracked_by for entry in made)
    assert len({entry.picking_points for entry in made}) > 10
