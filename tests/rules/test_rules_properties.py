"""Properties of the rules engine over random valid sessions of 3 to 8 seated, with players
arriving, leaving and changing places between hands, under any combination of the house rules
(bump, schwarz by tricks, stacked doublers, a multiplier cap, penalty hands, a stake), picks given
by points, by result or both: every hand and every sheet sums to zero, totals and hands won agree
with the hands, who sits out and who plays follow the table size, multipliers are the right powers
of two up to the cap, the bump changes only lost picks, stacked doublers empty the queue, penalty
hands leave the doublers alone, the deal rotates as RULES.md says after every change, and a sheet
depends only on its hands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    CALLED_CARDS,
    MULTIPLIER_CAPS,
    TRICKS_PER_HAND,
    Blitz,
    Doublers,
    Hand,
    HandInput,
    HandResult,
    HandsPlayed,
    Kind,
    NoBid,
    Options,
    PartnerMode,
    Result,
    Schwarz,
    SittingOut,
    Table,
    change_seats,
    score_sheet,
    validate_hand,
)

POOL = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Joe")
# Card points of a side, often at a row boundary of the scoring table.
ROW_BOUNDARIES = [0, 2, 30, 31, 60, 61, 90, 91, 118, 120]
POSSIBLE_POINTS = st.integers(0, 120).filter(lambda points: points not in (1, 119))
CARD_POINTS = st.sampled_from(ROW_BOUNDARIES) | POSSIBLE_POINTS

# No example database: the tests leave no files behind in the checkout.
quick = settings(max_examples=40, database=None)


# What RULES.md says, written out here so that the engine is checked against it.

# Each opponent's score at M = 1 by the row of the scoring table a result is.
OPPONENT_VALUE = {
    Result.WON_SCHWARZ: -3,
    Result.WON_SCHNEIDER: -2,
    Result.WON: -1,
    Result.LOST: 1,
    Result.LOST_SCHNEIDER: 2,
    Result.LOST_SCHWARZ: 3,
}


def results_allowed(points: int, schwarz: Schwarz) -> list[Result]:
    """The results the picking team's points agree with ("Results instead of points"); the
    first is the one the points give on their own."""
    by_points = [
        (Result.WON_SCHWARZ, points == 120),
        (Result.WON_SCHNEIDER, 91 <= points <= 119),
        (Result.WON, 61 <= points <= 90),
        (Result.LOST, 31 <= points <= 60),
        (Result.LOST_SCHNEIDER, 1 <= points <= 30),
        (Result.LOST_SCHWARZ, points == 0),
    ]
    allowed = [result for result, fits in by_points if fits]
    if schwarz is Schwarz.TRICKS:
        # A side that took a trick worth nothing, or a picking team with only the buried cards.
        allowed += [Result.WON_SCHNEIDER] if points == 120 else []
        allowed += [Result.LOST_SCHNEIDER] if points == 0 else []
        allowed += [Result.LOST_SCHWARZ] if 0 < points <= 22 else []
    return allowed


def expected_sitting_out(seats: Sequence[str], dealer: str, options: Options) -> tuple[str, ...]:
    """With more than five seated and `dealer`: the dealer and the players just before them."""
    if options.sitting_out is SittingOut.NONE or len(seats) <= 5:
        return ()
    at = seats.index(dealer)
    out = [seats[at - back] for back in range(len(seats) - 5)]
    return tuple(p for p in seats if p in out)


def expected_dealer_after(now: Sequence[str], dealer: str, dealt_with: Sequence[str]) -> str:
    """The deal passes left in the new order; a dealer who left passes it to the first player
    after them, in the seats they dealt with, still seated; or else to the first seat."""
    if dealer in now:
        return now[(now.index(dealer) + 1) % len(now)]
    at = dealt_with.index(dealer)
    later = [dealt_with[(at + step) % len(dealt_with)] for step in range(1, len(dealt_with))]
    return next((p for p in later if p in now), now[0])


# Random sessions


@st.composite
def typed(draw: st.DrawFn, name: str) -> str:
    """A seated player's name the way someone might type it."""
    return draw(st.sampled_from([name, name.lower(), name.upper(), f" {name} "]))


@st.composite
def rule_options(draw: st.DrawFn, /, **fixed: Any) -> Options:
    """Any combination of the options (they combine freely), but those `fixed`."""
    drawn = Options(
        partner=draw(st.sampled_from(PartnerMode)),
        no_bid=draw(st.sampled_from(NoBid)),
        cracking=draw(st.booleans()),
        blitzing=draw(st.booleans()),
        sitting_out=draw(st.sampled_from(SittingOut)),
        bump=draw(st.booleans()),
        schwarz=draw(st.sampled_from(Schwarz)),
        doublers=draw(st.sampled_from(Doublers)),
        max_multiplier=draw(st.sampled_from(MULTIPLIER_CAPS)),
        penalties=draw(st.booleans()),
        stake=draw(st.sampled_from([0, 1, 25, 10_000])),
    )
    return replace(drawn, **fixed)


def sizes(options: Options) -> range:
    """The table sizes the options can be played at: three only alone, eight only with the
    dealer's side sitting out."""
    low = 3 if options.partner is PartnerMode.ALONE else 4
    high = 8 if options.sitting_out is SittingOut.DEALER else 7
    return range(low, high + 1)


@st.composite
def seat_orders(draw: st.DrawFn, options: Options) -> tuple[str, ...]:
    size = draw(st.sampled_from(sizes(options)))
    return tuple(draw(st.permutations(POOL))[:size])


@st.composite
def picks(draw: st.DrawFn, table: Table, dealer: str) -> HandInput:
    options = table.options
    order = table.bidding_order(dealer)
    picker = draw(st.sampled_from(order))
    others = [p for p in order if p != picker]
    alone = options.partner is PartnerMode.ALONE
    partner = None if alone else draw(st.none() | st.sampled_from(others))
    later = order[order.index(picker) + 1 :]
    cracked_by = draw(st.none() | st.sampled_from(later)) if options.cracking and later else None
    points = draw(CARD_POINTS)
    by_opponents = draw(st.booleans())
    # Points alone, a result alone, or both (agreeing).
    given = draw(st.sampled_from(["points", "result", "both"]))
    result = draw(st.sampled_from(results_allowed(points, options.schwarz)))
    if given == "result":
        by_opponents, points_given = False, None
    else:
        points_given = points
    blitzes = draw(st.lists(st.sampled_from(Blitz), unique=True)) if options.blitzing else []
    cards = CALLED_CARDS[options.partner]
    return HandInput(
        kind="pick",
        picker=draw(typed(picker)),
        partner=None if partner is None else draw(typed(partner)),
        called_card=draw(st.none() | st.sampled_from(cards)) if cards else None,
        forced=options.no_bid is NoBid.FORCED_PICK and picker == order[-1] and draw(st.booleans()),
        picking_points=None if by_opponents else points_given,
        opponent_points=120 - points if by_opponents else None,
        result=None if given == "points" else draw(typed(result.value)),
        cracked_by=None if cracked_by is None else draw(typed(cracked_by)),
        recracked=cracked_by is not None and draw(st.booleans()),
        blitzes=tuple(blitzes),
    )


@st.composite
def leasters(draw: st.DrawFn, players: tuple[str, ...]) -> HandInput:
    """A leaster whose winner took a trick and the fewest points of those who took one."""
    winner = draw(st.sampled_from(players))
    in_hand = TRICKS_PER_HAND[len(players)]
    other_tricks = draw(
        st.lists(st.sampled_from(players), min_size=in_hand - 1, max_size=in_hand - 1)
    )
    tricks = {p: (p == winner) + other_tricks.count(p) for p in players}
    takers = [p for p in players if tricks[p] and p != winner]
    cuts = sorted(draw(st.lists(st.integers(0, 120), min_size=len(takers), max_size=len(takers))))
    shares = sorted(b - a for a, b in zip([0, *cuts], [*cuts, 120], strict=True))
    assume(not {1, 119} & set(shares))
    # The smallest share goes to the winner, the others in any order to the other trick takers.
    owners = [winner, *draw(st.permutations(takers))]
    points = dict.fromkeys(players, 0) | dict(zip(owners, shares, strict=True))
    shown = draw(st.sampled_from(["winner", "points", "tricks", "both"]))
    return HandInput(
        kind="leaster",
        winner=draw(typed(winner)),
        points=points if shown in ("points", "both") else None,
        tricks=tricks if shown in ("tricks", "both") else None,
    )


@st.composite
def hands(draw: st.DrawFn, table: Table, dealer: str) -> Hand:
    """Any valid hand of the table's session dealt by `dealer`, with the table's seats."""
    kinds = [picks(table, dealer)]
    if table.options.no_bid is NoBid.LEASTER:
        kinds.append(leasters(table.players_of_hand(dealer)))
    if table.options.no_bid in (NoBid.REDEAL, NoBid.DOUBLER):
        kinds.append(st.just(HandInput(kind="pass")))
    if table.options.penalties:
        penalized = st.sampled_from(table.players_of_hand(dealer)).flatmap(typed)
        kinds.append(penalized.map(lambda name: HandInput(kind="penalty", penalized=name)))
    return validate_hand(table, draw(typed(dealer)), draw(st.one_of(kinds)))


@dataclass(frozen=True)
class Moment:
    """A session between hands: its table then, how many hands were played, and who RULES.md
    says deals first (it moves on when the first dealer leaves before any hand)."""

    table: Table
    played: int
    first_dealer: str


@dataclass(frozen=True)
class Played:
    table: Table  # as it is now
    hands: list[Hand]
    moments: list[Moment]  # after every hand and every seat change, the start included

    @property
    def options(self) -> Options:
        return self.table.options


@st.composite
def sessions(
    draw: st.DrawFn,
    /,
    min_hands: int = 0,
    max_hands: int = 10,
    **fixed: Any,
) -> Played:
    """A session with seat changes between hands; each hand is dealt in turn or, now and then,
    by any seated player (the dealer corrected)."""
    options = draw(rule_options(**fixed))
    seats = draw(seat_orders(options))
    table = Table(
        seats=seats,
        options=options,
        rounds=draw(st.integers(0, 3)),
        first_dealer=draw(st.sampled_from(seats)),
    )
    first_dealer = table.first_dealer
    played: list[Hand] = []
    moments = [Moment(table, 0, first_dealer)]
    wanted = draw(st.integers(min_hands, max_hands))
    while len(played) < wanted:
        if draw(st.integers(0, 3)) == 0:
            new = draw(seat_orders(options))
            try:
                table = change_seats(table, list(new), len(played))
            except HandsPlayed:
                pass
            else:
                if not played and first_dealer not in new:
                    first_dealer = expected_dealer_after(new, first_dealer, moments[-1].table.seats)
                moments.append(Moment(table, len(played), first_dealer))
        if table.is_complete(len(played)):
            break
        if draw(st.integers(0, 4)) == 0:
            dealer = draw(st.sampled_from(table.seats))
        elif played:
            dealer = table.next_dealer(played[-1].dealer, played[-1].seats)
        else:
            dealer = table.first_dealer
        played.append(draw(hands(table, dealer)))
        moments.append(Moment(table, len(played), first_dealer))
    return Played(table, played, moments)


def team_of(hand: Hand) -> set[str]:
    assert hand.picker is not None
    return {hand.picker} | ({hand.partner} if hand.partner else set())


def winners_of(hand: Hand, players: Sequence[str]) -> set[str]:
    if hand.kind is Kind.PICK:
        assert hand.result is not None
        team = team_of(hand)
        return team if hand.result.value.startswith("won") else set(players) - team
    if hand.kind is Kind.LEASTER:
        assert hand.winner is not None
        return {hand.winner}
    return set()


def players_of(result: HandResult) -> tuple[str, ...]:
    return tuple(p for p in result.hand.seats if p not in result.sitting_out)


def expected_named(session: Played) -> tuple[str, ...]:
    """Everyone who played a hand or is seated now: by the first hand each sat at, in that
    hand's seat order, then the seats now."""
    order: list[str] = []
    for hand in [*session.hands, Hand(dealer="", kind=Kind.PASS, seats=session.table.seats)]:
        order.extend(p for p in hand.seats if p not in order)
    played = {
        p
        for hand in session.hands
        for p in hand.seats
        if p not in expected_sitting_out(hand.seats, hand.dealer, session.options)
    }
    return tuple(p for p in order if p in played or p in session.table.seats)


# Properties


@quick
@given(sessions())
def test_every_hand_and_the_totals_sum_to_zero(session: Played) -> None:
    sheet = score_sheet(session.table, session.hands)
    assert [r.hand for r in sheet.results] == session.hands
    assert sheet.named == expected_named(session)
    assert list(sheet.totals) == list(sheet.named)
    for result in sheet.results:
        assert set(result.scores) == set(result.hand.seats)
        assert sum(result.scores.values()) == 0
        assert list(result.scores_naming(sheet.named)) == list(sheet.named)
        assert sum(result.scores_naming(sheet.named).values()) == 0
    assert sum(sheet.totals.values()) == 0
    assert sheet.totals == {
        p: sum(r.scores_naming(sheet.named)[p] for r in sheet.results) for p in sheet.named
    }
    assert sheet.totals == (
        sheet.running_totals[-1] if session.hands else dict.fromkeys(sheet.named, 0)
    )


@quick
@given(sessions())
def test_who_plays_and_who_sits_out(session: Played) -> None:
    sheet = score_sheet(session.table, session.hands)
    for result in sheet.results:
        hand = result.hand
        seated = len(hand.seats)
        out = expected_sitting_out(hand.seats, hand.dealer, session.options)
        assert result.sitting_out == out
        playing = min(seated, 5) if session.options.sitting_out is SittingOut.DEALER else seated
        assert len(result.players) == playing
        assert set(result.players) == set(hand.seats) - set(out)
        # Bidding order: seat order from the first player after the dealer.
        at = hand.seats.index(hand.dealer)
        rotated = [*hand.seats[at + 1 :], *hand.seats[: at + 1]]
        assert list(result.players) == [p for p in rotated if p not in out]
        for player in out:
            assert result.scores[player] == 0
            assert player not in result.winners
            assert player not in (
                hand.picker,
                hand.partner,
                hand.cracked_by,
                hand.winner,
                hand.penalized,
            )
        if hand.kind is Kind.LEASTER:
            assert result.scores[hand.winner or ""] == playing - 1


@quick
@given(sessions())
def test_hands_won_follow_the_winners(session: Played) -> None:
    sheet = score_sheet(session.table, session.hands)
    for result in sheet.results:
        assert result.winners == winners_of(result.hand, players_of(result))
    assert sheet.hands_won == {p: sum(p in r.winners for r in sheet.results) for p in sheet.named}
    rank = {p: (sheet.totals[p], sheet.hands_won[p]) for p in sheet.named}
    assert [s.player for s in sheet.standings] == sorted(sheet.named, key=rank.get, reverse=True)
    for standing in sheet.standings:
        assert standing.place == 1 + sum(rank[p] > rank[standing.player] for p in sheet.named)
        assert standing.seated == (standing.player in session.table.seats)


def doubler_sessions(**fixed: Any) -> st.SearchStrategy[Played]:
    """Sessions that pass and double, so the doubler properties see queues often."""
    return sessions(max_hands=12, no_bid=NoBid.DOUBLER, **fixed)


@quick
@given(sessions() | doubler_sessions())
def test_multiplier_is_two_to_the_doublings_up_to_the_cap(session: Played) -> None:
    sheet = score_sheet(session.table, session.hands)
    options = session.options
    doubler = options.no_bid is NoBid.DOUBLER
    pending = 0
    for result in sheet.results:
        hand = result.hand
        if hand.kind is Kind.PICK:
            assert hand.result is not None
            if hand.picking_points is not None:
                assert hand.result in results_allowed(hand.picking_points, options.schwarz)
            # A queue: a pick takes one pending doubler; a stack: all of them.
            taken = min(pending, 1) if options.doublers is Doublers.QUEUE else pending
            pending -= taken
            assert result.doubled == (doubler and taken > 0)
            doublings = (hand.cracked_by is not None) + hand.recracked + len(hand.blitzes) + taken
            m = 2**doublings
            if options.max_multiplier:
                m = min(m, options.max_multiplier)
                assert result.multiplier <= options.max_multiplier
            assert result.multiplier == m
            bump = 2 if options.bump and not hand.result.value.startswith("won") else 1
            opponent_score = OPPONENT_VALUE[hand.result] * bump * m
            opponents = set(players_of(result)) - team_of(hand)
            assert {result.scores[p] for p in opponents} == {opponent_score}
            if hand.partner:
                assert result.scores[hand.partner] == -opponent_score
            assert result.scores[hand.picker or ""] == -opponent_score * (
                len(opponents) - (1 if hand.partner else 0)
            )
        else:
            assert (result.multiplier, result.doubled) == (1, False)
        pending += doubler and hand.kind is Kind.PASS
    assert sheet.pending_doublers == pending


@quick
@given(sessions())
def test_the_bump_changes_only_lost_picks(session: Played) -> None:
    bumped = replace(session.table, options=replace(session.options, bump=True))
    plain = replace(session.table, options=replace(session.options, bump=False))
    with_bump, without = score_sheet(bumped, session.hands), score_sheet(plain, session.hands)
    for on, off in zip(with_bump.results, without.results, strict=True):
        hand = on.hand
        lost = hand.kind is Kind.PICK and not (hand.result or "").startswith("won")
        assert on.scores == ({p: 2 * v for p, v in off.scores.items()} if lost else off.scores)
        assert (on.multiplier, on.doubled, on.winners) == (off.multiplier, off.doubled, off.winners)
    assert with_bump.pending_doublers == without.pending_doublers


@quick
@given(doubler_sessions())
def test_stacked_doublers_empty_the_queue_at_every_pick(session: Played) -> None:
    stacked = replace(session.table, options=replace(session.options, doublers=Doublers.STACK))
    passes = 0
    for index, hand in enumerate(session.hands):
        after = score_sheet(stacked, session.hands[: index + 1])
        result = after.results[-1]
        if hand.kind is Kind.PICK:
            assert after.pending_doublers == 0
            assert result.doubled == (passes > 0)
            passes = 0
        else:
            passes += hand.kind is Kind.PASS
            assert after.pending_doublers == passes


@quick
@given(sessions() | doubler_sessions(penalties=True))
def test_penalty_hands_leave_the_doublers_alone(session: Played) -> None:
    sheet = score_sheet(session.table, session.hands)
    for index, result in enumerate(sheet.results):
        hand = result.hand
        if hand.kind is not Kind.PENALTY:
            continue
        assert session.options.penalties
        before = score_sheet(session.table, session.hands[:index]).pending_doublers
        after = score_sheet(session.table, session.hands[: index + 1]).pending_doublers
        assert before == after
        assert (result.multiplier, result.doubled, result.winners) == (1, False, frozenset())
        players = players_of(result)
        assert hand.penalized in players
        assert result.scores == {
            p: -(len(players) - 1) if p == hand.penalized else 1 if p in players else 0
            for p in hand.seats
        }
        # Without it, every later hand is doubled just the same.
        kept = [*session.hands[:index], *session.hands[index + 1 :]]
        without = score_sheet(session.table, kept)
        assert [r.multiplier for r in without.results[index:]] == [
            r.multiplier for r in sheet.results[index + 1 :]
        ]


@quick
@given(sessions())
def test_the_deal_rotates_as_the_rules_say_after_every_change(session: Played) -> None:
    for moment in session.moments:
        table, played = moment.table, session.hands[: moment.played]
        sheet = score_sheet(table, played)
        limit = table.rounds * len(table.seats)
        assert sheet.complete == (table.rounds > 0 and len(played) >= limit)
        if sheet.complete:
            assert (sheet.next_dealer, sheet.sitting_out_next) == (None, ())
            continue
        if played:
            last = played[-1]
            dealer = expected_dealer_after(table.seats, last.dealer, last.seats)
        else:
            dealer = moment.first_dealer
        assert sheet.next_dealer == dealer
        assert sheet.sitting_out_next == expected_sitting_out(table.seats, dealer, table.options)


@quick
@given(sessions(), st.data())
def test_a_seat_change_is_refused_only_when_the_rounds_are_exceeded(
    session: Played, data: st.DataObject
) -> None:
    new = data.draw(seat_orders(session.options))
    count = len(session.hands)
    table = session.table
    # Now and then, exactly as many seats as make the hands played complete the rounds.
    exact = count // table.rounds if table.rounds and count % table.rounds == 0 else 0
    if exact in sizes(session.options) and data.draw(st.booleans()):
        new = (*new, *(p for p in POOL if p not in new))[:exact]
    if table.rounds and count > table.rounds * len(new):
        with pytest.raises(HandsPlayed) as refused:
            change_seats(table, list(new), count)
        assert refused.value.field == "players"
    else:
        changed = change_seats(table, list(new), count)
        assert (changed.seats, changed.options, changed.rounds) == (
            new,
            table.options,
            table.rounds,
        )
        # Earlier hands keep their seats and scores.
        before = score_sheet(table, session.hands)
        after = score_sheet(changed, session.hands)
        assert [r.scores for r in after.results] == [r.scores for r in before.results]
        assert after.named == expected_named(Played(changed, session.hands, []))
        assert [s.player for s in after.standings if not s.seated] == [
            s.player for s in after.standings if s.player not in new
        ]


@st.composite
def edits(draw: st.DrawFn) -> tuple[Played, int, Hand]:
    """A session with at least one hand, the index of one of them, and another hand for that
    place: dealt by the same dealer, with the same seats."""
    session = draw(sessions(min_hands=1))
    index = draw(st.integers(0, len(session.hands) - 1))
    old = session.hands[index]
    return session, index, draw(hands(session.table.seated_as(old.seats), old.dealer))


@quick
@given(edits())
def test_replacing_a_hand_and_restoring_it_restores_the_sheet(
    edit: tuple[Played, int, Hand],
) -> None:
    session, index, other = edit
    table, played = session.table, session.hands
    assert (other.seats, other.dealer) == (played[index].seats, played[index].dealer)
    before = score_sheet(table, played)
    replaced = [*played[:index], other, *played[index + 1 :]]
    edited = score_sheet(table, replaced)
    assert edited.results[:index] == before.results[:index]
    assert edited.running_totals[:index] == before.running_totals[:index]
    assert edited.next_dealer == before.next_dealer
    for was, now in zip(before.results, edited.results, strict=True):
        assert (now.players, now.sitting_out) == (was.players, was.sitting_out)
    assert sum(edited.totals.values()) == 0
    replaced[index] = played[index]
    assert score_sheet(table, replaced) == before


@quick
@given(edits())
def test_deleting_a_hand_keeps_every_other_hands_seats_and_scores(
    edit: tuple[Played, int, Hand],
) -> None:
    session, index, _other = edit
    before = score_sheet(session.table, session.hands)
    kept = [*session.hands[:index], *session.hands[index + 1 :]]
    after = score_sheet(session.table, kept)
    assert [r.hand for r in after.results] == kept
    assert after.results[:index] == before.results[:index]
    if session.options.no_bid is not NoBid.DOUBLER:
        # Without doublers, a hand's scores don't depend on the hands before it.
        assert [r.scores for r in after.results] == [
            r.scores for i, r in enumerate(before.results) if i != index
        ]
    assert set(after.named) <= set(before.named)
    assert sum(after.totals.values()) == 0
