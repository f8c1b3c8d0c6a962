"""Settle-up: who pays whom so that every balance is settled exactly, with the fewest payments.

Payments never run between two players who are both owed or both owing. The fewest payments is
(non-zero balances) - (the largest number of disjoint zero-sum groups the balances split into):
a group of k players settles in k - 1 payments and no fewer, and every payment joins two groups.

Finding the most groups is exact for up to `EXACT_LIMIT` non-zero balances:

1. Opposite balances {a, -a} are paired off first, each pair a group of its own. This keeps the
   optimum: in a best split, if a lies in group A and -a in group B != A, then {a, -a} and
   (A - a) + (B - (-a)) are two zero-sum groups (the second sums to -a + a and is not empty,
   as A != {a}), so the count is unchanged; if both lie in one group, splitting it off only adds.
2. The other m balances, one of them (the first, x) set aside for the last group, give a lattice
   of 2^(m-1) subsets. Every subset is a bit of one Python integer, so each step below is a few
   whole-integer operations (C speed), not a loop over subsets:
   Z = the zero-sum subsets; E_0 = {the empty set}; E_(k+1) = Z & (the sets strictly above some
   set of E_k). E_k are the zero-sum sets that split into at least k groups, so the most groups
   is 1 + the last k with E_k non-empty (the rest and x make the last group).
3. Walking back down, a set of E_k holds a set of E_(k-1): the chain of sets gives the groups.

Beyond `EXACT_LIMIT` it pairs opposites and then matches greedily, and says the count is not
proven. Within a group the largest debtor pays the largest creditor until all are settled
(ties go to whoever comes first in the balances).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from .errors import RuleError, SettleRefused
from .names import name_key
from .sheet import Sheet

EXACT_LIMIT = 20
# Below this many balances the zero-sum subsets are listed one by one; above it, two halves
# of the balances are matched by their sums, a row of LOW_BITS subsets at a time.
LOW_BITS = 10


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class Settlement:
    """`payments` are ordered by payer, then payee, each in the order the balances name them.
    `exact` is True when the number of payments is proven the fewest."""

    payments: tuple[Payment, ...]
    exact: bool


def settle_up(balances: Mapping[str, int]) -> Settlement:
    """The payments that settle `balances` (each player's money or points, summing to zero)."""
    for amount in balances.values():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise RuleError("A balance must be a whole number.", "balances")
    total = sum(balances.values())
    if total != 0:
        raise RuleError(
            f"Balances must add up to 0 to settle; these add up to {total}.", "balances"
        )
    order = {name: index for index, name in enumerate(balances)}
    owed = [(name, amount) for name, amount in balances.items() if amount != 0]
    exact = len(owed) <= EXACT_LIMIT
    pairs, rest = _pair_opposites(owed)
    groups = [*pairs, *(_most_groups(rest) if exact else [rest] if rest else [])]
    payments = [payment for group in groups for payment in _settle_group(group)]
    payments.sort(key=lambda p: (order[p.payer], order[p.payee]))
    return Settlement(tuple(payments), exact)


Balance = tuple[str, int]


def _pair_opposites(owed: Sequence[Balance]) -> tuple[list[list[Balance]], list[Balance]]:
    """Each balance paired with the first unpaired opposite one, and the balances left over."""
    waiting: dict[int, list[int]] = {}
    partner: dict[int, int] = {}
    for index, (_, amount) in enumerate(owed):
        opposites = waiting.get(-amount)
        if opposites:
            partner[opposites.pop(0)] = index
        else:
            waiting.setdefault(amount, []).append(index)
    pairs = [[owed[first], owed[second]] for first, second in partner.items()]
    paired = {*partner, *partner.values()}
    return pairs, [balance for index, balance in enumerate(owed) if index not in paired]


def _most_groups(owed: Sequence[Balance]) -> list[list[Balance]]:
    """`owed` split into the largest number of zero-sum groups (see the module's comment)."""
    if not owed:
        return []
    first, others = owed[0], owed[1:]
    bits = len(others)
    every = (1 << (1 << bits)) - 1
    zero_sum = _zero_sum_sets([amount for _, amount in others])
    levels = [1]  # E_0: the empty set alone
    while True:
        above = _strictly_above(levels[-1], bits) & zero_sum
        if not above:
            break
        levels.append(above)
    chain = [_lowest(levels[-1])]
    for level in reversed(levels[:-1]):
        inside = every
        for i in range(bits):
            if not chain[-1] >> i & 1:
                inside &= _without(bits, i)
        chain.append(_lowest(level & inside & ~(1 << chain[-1])))
    chain.reverse()  # from the empty set up
    groups = [
        [others[i] for i in range(bits) if (larger & ~smaller) >> i & 1]
        for smaller, larger in pairwise(chain)
    ]
    last = [first, *(others[i] for i in range(bits) if not chain[-1] >> i & 1)]
    return [*groups, last]


def _zero_sum_sets(amounts: Sequence[int]) -> int:
    """The subsets of `amounts` summing to 0, as the set bits (subset i = bit i) of one int."""
    low = _subset_sums(amounts[:LOW_BITS])
    if len(amounts) <= LOW_BITS:
        return sum(1 << subset for subset, total in enumerate(low) if total == 0)
    rows: dict[int, int] = {}
    for subset, total in enumerate(low):
        rows[-total] = rows.get(-total, 0) | 1 << subset
    width = (1 << LOW_BITS) // 8
    empty = bytes(width)
    return int.from_bytes(
        b"".join(
            rows[total].to_bytes(width, "little") if total in rows else empty
            for total in _subset_sums(amounts[LOW_BITS:])
        ),
        "little",
    )


def _subset_sums(amounts: Sequence[int]) -> list[int]:
    sums = [0]
    for amount in amounts:
        sums += [total + amount for total in sums]
    return sums


def _strictly_above(sets: int, bits: int) -> int:
    """Every subset that strictly contains one of `sets` (a bit set of subsets of `bits`)."""
    grown = 0
    for i in range(bits):
        grown |= (sets & _without(bits, i)) << (1 << i)
    for i in range(bits):
        grown |= (grown & _without(bits, i)) << (1 << i)
    return grown


@cache
def _without(bits: int, i: int) -> int:
    """The subsets of `bits` elements that leave element i out, as a bit set."""
    pattern, width = (1 << (1 << i)) - 1, 1 << (i + 1)
    while width < 1 << bits:
        pattern |= pattern << width
        width *= 2
    return pattern


def _lowest(sets: int) -> int:
    return (sets & -sets).bit_length() - 1


def _settle_group(group: Sequence[Balance]) -> list[Payment]:
    """Largest debtor pays largest creditor until the (zero-sum) group is settled."""
    left = {name: amount for name, amount in group}
    payments = []
    while any(left.values()):
        debtor = min(left, key=lambda name: left[name])
        creditor = max(left, key=lambda name: left[name])
        amount = min(-left[debtor], left[creditor])
        payments.append(Payment(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return payments


# Each player settled early (a player who left), with the payments that settled them.
Settled = Mapping[str, Sequence[Payment]]


def left_to_settle(balances: Mapping[str, int], paid: Iterable[Payment]) -> dict[str, int]:
    """Each balance less what was paid (or plus what was received) early."""
    left = dict(balances)
    for payment in paid:
        left[payment.payer] = left.get(payment.payer, 0) + payment.amount
        left[payment.payee] = left.get(payment.payee, 0) - payment.amount
    return left


def settle_leaver(
    balances: Mapping[str, int],
    seated: Sequence[str],
    settled: Settled,
    typed: str,
    stake: int,
) -> tuple[str, tuple[Payment, ...]]:
    """The player `typed` names among the `balances` (everyone the session names, each total
    times the stake), and the payments that settle them at once, once they have left: their
    balance (less what was settled early already) is paid to or by the players still `seated`
    whose balance has the opposite sign, the largest first (then in seat order), each paying or
    receiving at most their own balance: the fewest payments that clear the leaver exactly.
    Refused when the session has no stake, the leaver is seated or settled already, is even,
    or can't be cleared by the players seated."""
    key = name_key(typed)
    leaver = next((name for name in balances if name_key(name) == key), None)
    if not key:
        raise RuleError("Give a player's name.", "player")
    if leaver is None:
        raise RuleError(f"{typed.strip()} has not played in this session.", "player")
    if not stake:
        raise SettleRefused(
            "This session has no stake, so there is no money to settle early.", "player"
        )
    if leaver in seated:
        raise SettleRefused(
            f"{leaver} is still seated: only a player who has left can be settled early.",
            "player",
        )
    if leaver in settled:
        raise SettleRefused(f"{leaver} is settled already.", "player")
    left = left_to_settle(balances, (p for payments in settled.values() for p in payments))
    owed = left.get(leaver, 0)
    if owed == 0:
        raise SettleRefused(f"{leaver} is even: there is nothing to settle.", "player")
    sign = 1 if owed > 0 else -1
    others = [p for p in seated if left.get(p, 0) * sign < 0]
    others.sort(key=lambda p: abs(left[p]), reverse=True)
    if sum(abs(left[p]) for p in others) < abs(owed):
        short = (
            f"the players still seated owe less than {leaver} is owed"
            if owed > 0
            else f"the players still seated are owed less than {leaver} owes"
        )
        raise SettleRefused(
            f"{leaver} can't be settled now: {short}. Settle up at the end instead.", "player"
        )
    payments = []
    rest = abs(owed)
    for player in others:
        if rest == 0:
            break
        amount = min(rest, abs(left[player]))
        rest -= amount
        payer, payee = (player, leaver) if owed > 0 else (leaver, player)
        payments.append(Payment(payer, payee, amount))
    return leaver, tuple(payments)


def check_stake_change(settled: Settled, stake: int, new_stake: int) -> None:
    """The stake stays once someone is settled early: the money paid was at that stake."""
    if settled and new_stake != stake:
        raise SettleRefused(
            f"{', '.join(settled)} settled early at this stake, so it can't change now.",
            "rules",
        )


@dataclass(frozen=True)
class SettleUp:
    """`stake` is None when the sessions counted have different stakes; `unit` is "cents" with a
    stake, "points" without one. `paid` is what was paid early to settle players who left;
    `payments` settle each balance less that. `exact` says the payments are proven the
    fewest."""

    stake: int | None
    unit: str
    balances: dict[str, int]
    payments: tuple[Payment, ...]
    exact: bool
    paid: tuple[Payment, ...] = ()


def settle_balances(
    stakes: set[int], balances: dict[str, int], paid: Sequence[Payment] = ()
) -> SettleUp:
    settlement = settle_up(left_to_settle(balances, paid))
    staked = stakes != {0}
    return SettleUp(
        stake=(next(iter(stakes)) if len(stakes) == 1 else None) if staked else 0,
        unit="cents" if staked else "points",
        balances=balances,
        payments=settlement.payments,
        exact=settlement.exact,
        paid=tuple(paid),
    )


def sheet_settle_up(sheet: Sheet, settled: Settled) -> SettleUp:
    """A session's settle-up: everyone its totals name, each total times the stake, less what
    the players `settled` early paid or received."""
    stake = sheet.table.options.stake
    balances = {player: total * (stake or 1) for player, total in sheet.totals.items()}
    return settle_balances(
        {stake}, balances, [p for payments in settled.values() for p in payments]
    )
