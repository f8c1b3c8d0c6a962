"""Properties of the rules engine over random valid sessions: every hand and every sheet sums to
zero, totals and hands won agree with the hands, multipliers are the right powers of two, and a
sheet depends only on its hands."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    CALLED_CARDS,
    Blitz,
    Hand,
    HandInput,
    Kind,
    NoBid,
    Options,
    PartnerMode,
    Table,
    opponent_value,
    score_sheet,
    validate_hand,
)

SEATS = ("Ann", "Bob", "Cat", "Dan", "Eve")
# Card points of a side, often at a row boundary of the scoring table.
ROW_BOUNDARIES = [0, 2, 30, 31, 60, 61, 90, 91, 118, 120]
POSSIBLE_POINTS = st.integers(0, 120).filter(lambda points: points not in (1, 119))
CARD_POINTS = st.sampled_from(ROW_BOUNDARIES) | POSSIBLE_POINTS

# No example database: the tests leave no files behind in the checkout.
quick = settings(max_examples=60, database=None)


@st.composite
def typed(draw: st.DrawFn, name: str) -> str:
    """A seated player's name the way someone might type it."""
    return draw(st.sampled_from([name, name.lower(), name.upper(), f" {name} "]))


@st.composite
def tables(draw: st.DrawFn) -> Table:
    options = Options(
        partner=draw(st.sampled_from(PartnerMode)),
        no_bid=draw(st.sampled_from(NoBid)),
        cracking=draw(st.booleans()),
        blitzing=draw(st.booleans()),
    )
    return Table(
        seats=SEATS,
        options=options,
        rounds=draw(st.integers(0, 3)),
        first_dealer=draw(st.sampled_from(SEATS)),
    )


@st.composite
def picks(draw: st.DrawFn, table: Table, dealer: str) -> HandInput:
    options = table.options
    picker = draw(st.sampled_from(SEATS))
    partner = draw(st.none() | st.sampled_from([p for p in SEATS if p != picker]))
    order = table.bidding_order(dealer)
    later = order[order.index(picker) + 1 :]
    cracked_by = draw(st.none() | st.sampled_from(later)) if options.cracking and later else None
    points = draw(CARD_POINTS)
    by_opponents = draw(st.booleans())
    blitzes = draw(st.lists(st.sampled_from(Blitz), unique=True)) if options.blitzing else []
    return HandInput(
        kind="pick",
        picker=draw(typed(picker)),
        partner=None if partner is None else draw(typed(partner)),
        called_card=draw(st.none() | st.sampled_from(CALLED_CARDS[options.partner])),
        forced=options.no_bid is NoBid.FORCED_PICK and picker == dealer and draw(st.booleans()),
        picking_points=None if by_opponents else points,
        opponent_points=120 - points if by_opponents else None,
        cracked_by=None if cracked_by is None else draw(typed(cracked_by)),
        recracked=cracked_by is not None and draw(st.booleans()),
        blitzes=tuple(blitzes),
    )


@st.composite
def leasters(draw: st.DrawFn) -> HandInput:
    """A leaster whose winner took a trick and the fewest points of those who took one."""
    winner = draw(st.sampled_from(SEATS))
    other_tricks = draw(st.lists(st.sampled_from(SEATS), min_size=5, max_size=5))
    tricks = {p: (p == winner) + other_tricks.count(p) for p in SEATS}
    takers = [p for p in SEATS if tricks[p] and p != winner]
    cuts = sorted(draw(st.lists(st.integers(0, 120), min_size=len(takers), max_size=len(takers))))
    shares = sorted(b - a for a, b in zip([0, *cuts], [*cuts, 120], strict=True))
    assume(not {1, 119} & set(shares))
    # The smallest share goes to the winner, the others in any order to the other trick takers.
    owners = [winner, *draw(st.permutations(takers))]
    points = dict.fromkeys(SEATS, 0) | dict(zip(owners, shares, strict=True))
    shown = draw(st.sampled_from(["winner", "points", "tricks", "both"]))
    return HandInput(
        kind="leaster",
        winner=draw(typed(winner)),
        points=points if shown in ("points", "both") else None,
        tricks=tricks if shown in ("tricks", "both") else None,
    )


@st.composite
def hands(draw: st.DrawFn, table: Table) -> Hand:
    """Any valid hand of the table's session, dealt by any seat."""
    dealer = draw(st.sampled_from(SEATS))
    kinds = [picks(table, dealer)]
    if table.options.no_bid is NoBid.LEASTER:
        kinds.append(leasters())
    if table.options.no_bid in (NoBid.REDEAL, NoBid.DOUBLER):
        kinds.append(st.just(HandInput(kind="pass")))
    return validate_hand(table, draw(typed(dealer)), draw(st.one_of(kinds)))


@st.composite
def sessions(draw: st.DrawFn) -> tuple[Table, list[Hand]]:
    table = draw(tables())
    return table, draw(st.lists(hands(table), max_size=10))


def winners_of(hand: Hand) -> set[str]:
    if hand.kind is Kind.PICK:
        assert hand.picker is not None and hand.picking_points is not None
        team = {hand.picker} | ({hand.partner} if hand.partner else set())
        return team if hand.picking_points >= 61 else set(SEATS) - team
    if hand.kind is Kind.LEASTER:
        assert hand.winner is not None
        return {hand.winner}
    return set()


@quick
@given(sessions())
def test_every_hand_and_the_totals_sum_to_zero(session: tuple[Table, list[Hand]]) -> None:
    table, played = session
    sheet = score_sheet(table, played)
    for result in sheet.results:
        assert set(result.scores) == set(SEATS)
        assert sum(result.scores.values()) == 0
    assert sum(sheet.totals.values()) == 0
    assert sheet.totals == {p: sum(r.scores[p] for r in sheet.results) for p in SEATS}
    assert sheet.totals == (sheet.running_totals[-1] if played else dict.fromkeys(SEATS, 0))
    assert [r.hand for r in sheet.results] == played


@quick
@given(sessions())
def test_hands_won_follow_the_winners(session: tuple[Table, list[Hand]]) -> None:
    table, played = session
    sheet = score_sheet(table, played)
    for result in sheet.results:
        assert result.winners == winners_of(result.hand)
    assert sheet.hands_won == {p: sum(p in winners_of(h) for h in played) for p in SEATS}
    rank = {p: (sheet.totals[p], sheet.hands_won[p]) for p in SEATS}
    assert [s.player for s in sheet.standings] == sorted(SEATS, key=rank.get, reverse=True)
    for standing in sheet.standings:
        assert standing.place == 1 + sum(rank[p] > rank[standing.player] for p in SEATS)


@quick
@given(sessions())
def test_multiplier_is_two_to_the_doublings(session: tuple[Table, list[Hand]]) -> None:
    table, played = session
    sheet = score_sheet(table, played)
    passes = doubled = 0
    for result in sheet.results:
        hand = result.hand
        if hand.kind is Kind.PICK:
            assert hand.picking_points is not None
            # The queue: a pick takes a doubler while the passes so far outnumber those taken.
            assert result.doubled == (table.options.no_bid is NoBid.DOUBLER and passes > doubled)
            doublings = (
                (hand.cracked_by is not None) + hand.recracked + len(hand.blitzes) + result.doubled
            )
            assert result.multiplier == 2**doublings
            opponents = set(SEATS) - {hand.picker, hand.partner}
            opponent_score = opponent_value(hand.picking_points) * result.multiplier
            assert {result.scores[p] for p in opponents} == {opponent_score}
        else:
            assert (result.multiplier, result.doubled) == (1, False)
        passes += hand.kind is Kind.PASS
        doubled += result.doubled
    expected_pending = passes - doubled if table.options.no_bid is NoBid.DOUBLER else 0
    assert sheet.pending_doublers == expected_pending


@quick
@given(sessions())
def test_rounds_and_next_dealer(session: tuple[Table, list[Hand]]) -> None:
    table, played = session
    sheet = score_sheet(table, played)
    assert sheet.complete == (table.rounds > 0 and len(played) >= table.rounds * len(SEATS))
    if sheet.complete:
        assert sheet.next_dealer is None
    elif played:
        assert sheet.next_dealer == table.dealer_after(played[-1].dealer)
    else:
        assert sheet.next_dealer == table.first_dealer


@st.composite
def edits(draw: st.DrawFn) -> tuple[Table, list[Hand], int, Hand]:
    """A session with at least one hand, the index of one of them, and a hand to put there."""
    table = draw(tables())
    played = draw(st.lists(hands(table), min_size=1, max_size=10))
    return table, played, draw(st.integers(0, len(played) - 1)), draw(hands(table))


@quick
@given(edits())
def test_replacing_a_hand_and_restoring_it_restores_the_sheet(
    edit: tuple[Table, list[Hand], int, Hand],
) -> None:
    table, played, index, other = edit
    before = score_sheet(table, played)
    replaced = [*played[:index], other, *played[index + 1 :]]
    edited = score_sheet(table, replaced)
    assert edited.results[:index] == before.results[:index]
    assert edited.running_totals[:index] == before.running_totals[:index]
    replaced[index] = played[index]
    assert score_sheet(table, replaced) == before
