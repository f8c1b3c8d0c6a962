"""Settle-up against RULES.md "Stake and settle-up" and API.md "Settle-up": the API example, cases
where greedy matching pays more often than needed, zero and empty balances, refusals, and
properties over random balances (payments settle every balance exactly, never between two players
on the same side, and are the fewest, checked against a brute-force partition search). No app, no
database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import EXACT_LIMIT, Payment, RuleError, Settlement, settle_up

NAMES = tuple(f"P{i:02}" for i in range(40))
quick = settings(max_examples=150, database=None, deadline=None)


def paid(*payments: tuple[str, str, int]) -> tuple[Payment, ...]:
    return tuple(Payment(payer, payee, amount) for payer, payee, amount in payments)


def test_the_api_example() -> None:
    balances = {"Ann": 150, "Bob": -75, "Cat": -75, "Dan": 25, "Eve": -25}
    assert settle_up(balances) == Settlement(
        paid(("Bob", "Ann", 75), ("Cat", "Ann", 75), ("Eve", "Dan", 25)), exact=True
    )


def test_greedy_matching_pays_five_times_where_four_settle() -> None:
    # Largest debtor to largest creditor: Fay pays Ann 4, then Fay pays Bob 2, Dan pays Bob 1,
    # Dan pays Cat 1, Eve pays Cat 2: five payments. {4, -2, -2} and {3, 3, -6} need four.
    balances = {"Ann": 4, "Bob": 3, "Cat": 3, "Dan": -2, "Eve": -2, "Fay": -6}
    assert settle_up(balances) == Settlement(
        paid(("Dan", "Ann", 2), ("Eve", "Ann", 2), ("Fay", "Bob", 3), ("Fay", "Cat", 3)),
        exact=True,
    )


def test_three_groups_hidden_among_ten_players() -> None:
    # {10, -5, -5}, {8, -4, -4} and {7, 6, -9, -4}: 10 - 3 = 7 payments, where greedy makes 8.
    balances = {
        "Ann": 10, "Bob": 8, "Cat": 7, "Dan": 6, "Eve": -5,
        "Fay": -5, "Gus": -4, "Hal": -4, "Ida": -9, "Jon": -4,
    }  # fmt: skip
    assert settle_up(balances) == Settlement(
        paid(
            ("Eve", "Ann", 5),
            ("Fay", "Ann", 5),
            ("Gus", "Bob", 4),
            ("Hal", "Bob", 4),
            ("Ida", "Cat", 7),
            ("Ida", "Dan", 2),
            ("Jon", "Dan", 4),
        ),
        exact=True,
    )


def test_six_groups_among_twenty_with_no_two_opposite() -> None:
    # Five groups of 3 and one of 5 (the most 20 can make when no two are opposite): 14
    # payments, where greedy matching makes 18.
    amounts = [-36, 93, 40, 71, 20, 16, -46, -79, -64, -28]
    amounts += [-72, -57, -25, 8, 33, 39, -50, 3, 56, 78]
    balances = {NAMES[i]: amount for i, amount in enumerate(amounts)}
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    assert len(settlement.payments) == 14
    assert settlement.exact


def test_opposite_balances_settle_each_other() -> None:
    balances = {"Ann": 6, "Bob": 4, "Cat": -3, "Dan": -3, "Eve": -4}
    assert settle_up(balances).payments == paid(
        ("Cat", "Ann", 3), ("Dan", "Ann", 3), ("Eve", "Bob", 4)
    )


def test_payments_are_ordered_by_payer_then_payee_as_the_balances_name_them() -> None:
    balances = {"Zoe": 5, "Ann": -10, "Max": 5, "Bob": 3, "Cat": -3}
    assert settle_up(balances).payments == paid(
        ("Ann", "Zoe", 5), ("Ann", "Max", 5), ("Cat", "Bob", 3)
    )


def test_no_balances_and_zero_balances_need_no_payments() -> None:
    assert settle_up({}) == Settlement((), exact=True)
    assert settle_up({"Ann": 0, "Bob": 0, "Cat": 0}) == Settlement((), exact=True)
    assert settle_up({"Ann": 0, "Bob": 25, "Cat": -25, "Dan": 0}) == Settlement(
        paid(("Cat", "Bob", 25)), exact=True
    )


def test_balances_that_do_not_add_up_to_zero_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        settle_up({"Ann": 150, "Bob": -75, "Cat": -50})
    assert refused.value.message == "Balances must add up to 0 to settle; these add up to 25."
    assert refused.value.field == "balances"


@pytest.mark.parametrize("amount", [1.5, True, "3"])
def test_a_balance_must_be_a_whole_number(amount: object) -> None:
    with pytest.raises(RuleError) as refused:
        settle_up({"Ann": amount, "Bob": -1})  # type: ignore[dict-item]
    assert refused.value.message == "A balance must be a whole number."


def test_twenty_non_zero_balances_are_exact_and_twenty_one_are_not() -> None:
    twenty = {NAMES[i]: amount for i, amount in enumerate([1, 2, -3] * 5 + [1, 1, 1, 1, -4])}
    assert len(settle_up(twenty).payments) == 20 - 6
    assert settle_up(twenty).exact
    twenty_one = {**twenty, NAMES[19]: -3, NAMES[20]: -1}
    settlement = settle_up(twenty_one)
    assert not settlement.exact
    assert_settles(twenty_one, settlement.payments)


def test_beyond_the_limit_opposites_still_pair_off() -> None:
    balances = {NAMES[i]: (i // 2 + 1) * (-1) ** i for i in range(30)}
    settlement = settle_up(balances)
    assert not settlement.exact
    assert settlement.payments == paid(
        *((NAMES[i + 1], NAMES[i], i // 2 + 1) for i in range(0, 30, 2))
    )


def assert_settles(balances: Mapping[str, int], payments: Sequence[Payment]) -> None:
    """Every balance settled exactly, every payment whole, positive and from a debtor to a
    creditor, in the documented order."""
    left = dict(balances)
    for payment in payments:
        assert isinstance(payment.amount, int)
        assert payment.amount > 0
        assert balances[payment.payer] < 0 < balances[payment.payee]
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert set(left.values()) <= {0}
    order = list(balances)
    keys = [(order.index(p.payer), order.index(p.payee)) for p in payments]
    assert keys == sorted(set(keys))


def most_groups(amounts: Sequence[int]) -> int:
    """The most disjoint zero-sum groups the non-zero amounts split into: every group holding
    the first amount left, then the best split of the rest."""

    @cache
    def best(left: frozenset[int]) -> int:
        if not left:
            return 0
        first, *others = sorted(left)
        found = 0
        for chosen in range(1 << len(others)):
            group = [first, *(others[i] for i in range(len(others)) if chosen >> i & 1)]
            if sum(amounts[i] for i in group) == 0:
                found = max(found, 1 + best(left - set(group)))
        return found

    return best(frozenset(i for i, amount in enumerate(amounts) if amount))


def balances_of(players: int, low: int, high: int) -> st.SearchStrategy[dict[str, int]]:
    """`players` balances summing to zero: random ones of a few sizes, often repeated or
    opposite, and a last one that makes the sum zero, all times a stake."""

    def build(amounts: list[int], stake: int) -> dict[str, int]:
        closing = -sum(amounts)
        return {NAMES[i]: amount * stake for i, amount in enumerate([*amounts, closing])}

    return st.builds(
        build,
        st.lists(st.integers(low, high), min_size=0, max_size=players - 1),
        st.sampled_from([1, 25, 100]),
    )


@quick
@given(balances_of(10, -8, 8))
def test_payments_are_the_fewest_a_partition_search_finds(balances: dict[str, int]) -> None:
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    non_zero = sum(1 for amount in balances.values() if amount)
    assert len(settlement.payments) == non_zero - most_groups(list(balances.values()))
    assert settlement.exact


@quick
@given(balances_of(12, -30, 30))
def test_payments_of_up_to_twelve_settle_exactly_between_sides(balances: dict[str, int]) -> None:
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    assert settlement.exact
    assert settle_up(balances) == settlement


@quick
@given(st.data())
def test_up_to_twenty_non_zero_balances_are_exact(data: st.DataObject) -> None:
    balances = data.draw(balances_of(20, -12, 12))
    non_zero = sum(1 for amount in balances.values() if amount)
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    assert settlement.exact
    owed = sum(1 for amount in balances.values() if amount > 0)
    owing = sum(1 for amount in balances.values() if amount < 0)
    # Every group holds at least one who is owed and one who owes.
    assert len(settlement.payments) >= non_zero - min(owed, owing)


@quick
@given(balances_of(40, -12, 12))
def test_beyond_twenty_the_greedy_match_still_settles(balances: dict[str, int]) -> None:
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    non_zero = sum(1 for amount in balances.values() if amount)
    assert settlement.exact == (non_zero <= EXACT_LIMIT)
    assert len(settlement.payments) <= max(non_zero - 1, 0)


@st.composite
def hidden_groups(draw: st.DrawFn) -> tuple[dict[str, int], int]:
    """Up to 20 balances made of zero-sum groups of 2 to 5 players, shuffled together, and how
    many groups there are. Greedy matching finds fewer groups in most of them."""
    players = draw(st.integers(2, 20))
    amounts: list[int] = []
    groups = 0
    while len(amounts) <= players - 2:
        size = draw(st.integers(2, min(5, players - len(amounts))))
        group = draw(st.lists(st.integers(1, 99), min_size=size - 1, max_size=size - 1))
        sign = draw(st.sampled_from([1, -1]))
        amounts += [sign * amount for amount in group] + [-sign * sum(group)]
        groups += 1
    order = draw(st.permutations(range(len(amounts))))
    return {NAMES[i]: amounts[i] for i in order}, groups


@quick
@given(hidden_groups())
def test_hidden_groups_of_up_to_twenty_are_found(case: tuple[dict[str, int], int]) -> None:
    balances, groups = case
    settlement = settle_up(balances)
    assert_settles(balances, settlement.payments)
    assert settlement.exact
    assert len(settlement.payments) <= len(balances) - groups
