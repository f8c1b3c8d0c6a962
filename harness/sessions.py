"""Sessions whose players come and go, built through the write path one request's write at a
time, inside an app context."""

from __future__ import annotations

import random

from scorekeeper import rules
from scorekeeper.sessions import loading, rows, writes

SIX = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
COMERS = ["Gus", "Hal", "Ida", "Jon"]


def seat_order(rng: random.Random) -> list[str]:
    """Four to eight of everyone, in any order: some of the six leave, newcomers arrive."""
    everyone = SIX + COMERS
    return rng.sample(everyone, rng.randint(4, 8))


def session_of(hand_count: int, change_every: int = 0, seed: int = 6) -> int:
    """A session of six seated, with `hand_count` hands, each dealt in rotation and picked by
    one of its players; every `change_every` hands (0: never) the seats change. One write for
    each hand and each change, as a request would make."""
    rng = random.Random(seed)
    with writes.roster_write():
        session_id: int = rows.new_session("", SIX, 0, None, rules.Options()).id
    for number in range(hand_count):
        if change_every and number and number % change_every == 0:
            with writes.session_write(session_id) as write:
                write.update(None, None, seat_order(rng))
        with writes.session_write(session_id) as write:
            order = loading.table_of(write.session).bidding_order(write.tail().next_dealer)
            picker, partner = rng.sample(order, 2)
            entry = rules.HandInput(
                kind="pick",
                picker=picker,
                partner=rng.choice([partner, None]),
                picking_points=rng.randrange(2, 119),
            )
            write.record_hand(entry, None)
    return session_id
