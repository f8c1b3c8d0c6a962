"""Settling a player who leaves, against RULES.md "Settling a leaver": paid to or by the players
still seated whose balance has the opposite sign, the largest first, each paying or receiving at
most their own balance, in the fewest payments; what is left for the final settle-up. No app, no
database."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Payment,
    RuleError,
    SettleRefused,
    check_stake_change,
    left_to_settle,
    settle_leaver,
    settle_up,
)

quick = settings(max_examples=200, database=None, deadline=None)

# Worked examples 1 and 4 at 50 cents a point: Ann picks with Bob, P = 75 (Ann +2, Bob +1, the
# others -1), then a leaster won by Cat (Cat +4, the others -1). Totals Ann 1, Bob 0, Cat 3,
# Dan -2, Eve -2; Cat leaves with $1.50 and Fay sits down.
BALANCES = {"Ann": 50, "Bob": 0, "Cat": 150, "Dan": -100, "Eve": -100, "Fay": 0}
SEATED = ("Ann", "Bob", "Dan", "Eve", "Fay")


def test_the_leaver_is_paid_by_the_largest_opposite_balances_each_at_most_their_own() -> None:
    assert settle_leaver(BALANCES, SEATED, {}, "cat", 50) == (
        "Cat",
        (Payment("Dan", "Cat", 100), Payment("Eve", "Cat", 50)),
    )


def test_what_is_left_settles_without_paying_twice() -> None:
    _, payments = settle_leaver(BALANCES, SEATED, {}, "Cat", 50)
    left = left_to_settle(BALANCES, payments)
    assert left == {"Ann": 50, "Bob": 0, "Cat": 0, "Dan": 0, "Eve": -50, "Fay": 0}
    assert settle_up(left).payments == (Payment("Eve", "Ann", 50),)


def test_a_leaver_who_owes_pays_the_largest_balances_owed_first() -> None:
    # Example 1 at 25 cents, Ann leaves owing nothing but Dan leaves owing 25: Ann +50, Bob +25.
    balances = {"Ann": 50, "Bob": 25, "Cat": -25, "Dan": -25, "Eve": -25}
    seated = ("Ann", "Bob", "Cat", "Eve")
    assert settle_leaver(balances, seated, {}, "Dan", 25) == ("Dan", (Payment("Dan", "Ann", 25),))


def test_equal_balances_go_in_seat_order() -> None:
    balances = {"Ann": 50, "Bob": 25, "Cat": -25, "Dan": -25, "Eve": -25, "Fay": 0}
    seated = ("Bob", "Eve", "Cat", "Dan", "Fay")
    assert settle_leaver(balances, seated, {}, "Ann", 25)[1] == (
        Payment("Eve", "Ann", 25),
        Payment("Cat", "Ann", 25),
    )


def test_a_second_leaver_counts_what_was_settled_before() -> None:
    _, first = settle_leaver(BALANCES, SEATED, {}, "Cat", 50)
    # Then Ann leaves too: Eve, who still owes 50, pays her.
    seated = ("Bob", "Dan", "Eve", "Fay")
    assert settle_leaver(BALANCES, seated, {"Cat": first}, "Ann", 50) == (
        "Ann",
        (Payment("Eve", "Ann", 50),),
    )


@pytest.mark.parametrize(
    ("seated", "settled", "typed", "stake", "sentence"),
    [
        (SEATED, {}, "Cat", 0, "This session has no stake, so there is no money to settle early."),
        (
            SEATED,
            {},
            "Dan",
            50,
            "Dan is still seated: only a player who has left can be settled early.",
        ),
        (SEATED, {"Cat": (Payment("Dan", "Cat", 150),)}, "Cat", 50, "Cat is settled already."),
        (("Ann", "Cat", "Dan", "Eve"), {}, "Bob", 50, "Bob is even: there is nothing to settle."),
        (
            ("Ann", "Bob", "Eve", "Fay"),
            {},
            "Dan",
            50,
            "Dan can't be settled now: the players still seated are owed less than Dan owes. "
            "Settle up at the end instead.",
        ),
    ],
)  # fmt: skip
def test_a_leaver_who_cannot_be_settled_now_is_refused(
    seated: tuple[str, ...],
    settled: dict[str, tuple[Payment, ...]],
    typed: str,
    stake: int,
    sentence: str,
) -> None:
    with pytest.raises(SettleRefused) as refused:
        settle_leaver(BALANCES, seated, settled, typed, stake)
    assert (refused.value.message, refused.value.field) == (sentence, "player")


@pytest.mark.parametrize(
    ("typed", "sentence"),
    [("Zed", "Zed has not played in this session."), (" ", "Give a player's name.")],
)
def test_a_player_not_of_the_session_is_refused(typed: str, sentence: str) -> None:
    with pytest.raises(RuleError) as refused:
        settle_leaver(BALANCES, SEATED, {}, typed, 50)
    assert not isinstance(refused.value, SettleRefused)
    assert refused.value.message == sentence


def test_the_stake_stays_once_someone_is_settled() -> None:
    check_stake_change({}, 50, 25)
    check_stake_change({"Cat": ()}, 50, 50)
    with pytest.raises(SettleRefused, match="Cat settled early at this stake"):
        check_stake_change({"Cat": ()}, 50, 25)


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, int], tuple[str, ...], str]:
    """Balances summing to zero, the players seated now, and one who left."""
    players = [f"P{i}" for i in range(draw(st.integers(4, 9)))]
    amounts = draw(
        st.lists(st.integers(-40, 40), min_size=len(players) - 1, max_size=len(players) - 1)
    )
    balances = dict(zip(players, [*amounts, -sum(amounts)], strict=True))
    leaver = draw(st.sampled_from(players))
    others = [p for p in players if p != leaver]
    seated = draw(st.lists(st.sampled_from(others), min_size=3, unique=True))
    return balances, tuple(seated), leaver


@quick
@given(tables())
def test_a_settlement_clears_the_leaver_exactly_within_each_balance(
    table: tuple[dict[str, int], tuple[str, ...], str],
) -> None:
    balances, seated, leaver = table
    owed = balances[leaver]
    assume(owed != 0)
    sign = 1 if owed > 0 else -1
    opposite = {p: -balances[p] * sign for p in seated if balances[p] * sign < 0}
    if sum(opposite.values()) < abs(owed):
        with pytest.raises(SettleRefused, match="can't be settled now"):
            settle_leaver(balances, seated, {}, leaver, 5)
        return
    _, payments = settle_leaver(balances, seated, {}, leaver, 5)
    # Only between the leaver and seated players on the other side, each at most their balance.
    for payment in payments:
        other = payment.payer if payment.payee == leaver else payment.payee
        assert leaver in (payment.payer, payment.payee) and other in opposite
        assert 0 < payment.amount <= opposite[other]
        assert (payment.payer == leaver) == (owed < 0)
    assert len({p.payer for p in payments} | {p.payee for p in payments}) == len(payments) + 1
    # The leaver is cleared exactly.
    assert left_to_settle(balances, payments)[leaver] == 0
    # The fewest payments: no fewer of the opposite balances could cover the leaver.
    largest = sorted(opposite.values(), reverse=True)
    assert sum(largest[: len(payments) - 1]) < abs(owed)
