"""Nights at a table, shared by the statistics, history, CSV and chart tests.

The any-table night: six seated, a seventh arrives after two hands, one leaves after four. Every
number the tests expect can be added up from the comments here.

Seats Ann Bob Cat Dan Eve Fay, one round, first dealer Ann; the dealer's side sits out.
"""

from __future__ import annotations

from typing import Any

from .api import Api, pick

FIRST_SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
# Gus sits down between Cat and Dan; the next dealer is the seat after Bob: Cat.
WITH_GUS = ["Ann", "Bob", "Cat", "Gus", "Dan", "Eve", "Fay"]
# Dan leaves; the next dealer is the seat after Gus: Eve.
WITHOUT_DAN = ["Ann", "Bob", "Cat", "Gus", "Eve", "Fay"]

HANDS: list[tuple[list[str] | None, dict[str, Any]]] = [
    # 1. Six seated, dealer Ann sits out. Bob & Cat 75: Bob +2, Cat +1, Dan Eve Fay -1.
    #    Won by Bob, Cat.
    (None, pick("Bob", "Cat", 75)),
    # 2. Dealer Bob sits out. Cat & Dan 45: Cat -2, Dan -1, Ann Eve Fay +1. Won by Ann, Eve, Fay.
    (None, pick("Cat", "Dan", 45)),
    # 3. Seven seated, dealer Cat: Bob and Cat sit out. Gus alone 95: Gus +8, Ann Dan Eve Fay
    #    -2. Won by Gus; Ann, Dan, Eve, Fay schneidered.
    (WITH_GUS, pick("Gus", None, 95)),
    # 4. Dealer Gus: Cat and Gus sit out. Ann & Eve 61: Ann +2, Eve +1, Bob Dan Fay -1.
    #    Won by Ann, Eve.
    (None, pick("Ann", "Eve", 61)),
    # 5. Six seated, dealer Eve sits out. Fay & Gus 120: Fay +6, Gus +3, Ann Bob Cat -3.
    #    Won by Fay, Gus; Ann, Bob, Cat schneidered.
    (WITHOUT_DAN, pick("Fay", "Gus", 120)),
    # 6. Dealer Fay sits out. Eve & Ann 30: Eve -4, Ann -2, Bob Cat Gus +2. Won by Bob, Cat,
    #    Gus; Eve, Ann schneidered. Six hands: the round of six is complete.
    (None, pick("Eve", "Ann", 30)),
]

# Ann 0+1-2+2-3-2 = -4, Bob 2+0+0-1-3+2 = 0, Cat 1-2+0+0-3+2 = -2, Dan -1-1-2-1 = -5,
# Eve -1+1-2+1+0-4 = -5, Fay -1+1-2-1+6+0 = 3, Gus 8+0+3+2 = 13.
TOTALS = {"Ann": -4, "Bob": 0, "Cat": -2, "Dan": -5, "Eve": -5, "Fay": 3, "Gus": 13}
# Hands played (sat out: Ann 1, Bob 2 3, Cat 3 4, Eve 5, Fay 6, Gus 4; Dan left after 4,
# Gus came for 3) and won.
PLAYED = {"Ann": 5, "Bob": 4, "Cat": 4, "Dan": 4, "Eve": 5, "Fay": 5, "Gus": 3}
WON = {"Ann": 2, "Bob": 2, "Cat": 2, "Dan": 0, "Eve": 2, "Fay": 2, "Gus": 3}


def play_the_night(api: Api) -> int:
    session_id: int = api.new_session(players=FIRST_SEATS, rounds=1)["id"]
    for seats, hand in HANDS:
        if seats is not None:
            response = api.client.patch(f"/api/sessions/{session_id}", json={"players": seats})
            assert response.status_code == 200, response.json
        api.record(session_id, **hand)
    session = api.session(session_id)
    assert session["totals"] == TOTALS
    assert session["complete"]
    return session_id


HOUSE_RULES = {"no_bid": "doubler", "bump": True, "schwarz": "tricks", "doublers": "stack",
               "max_multiplier": 8, "penalties": True, "stake": 25}  # fmt: skip


def house_rules_night(api: Api) -> int:
    """RULES.md's house rules at play: example 12 recorded by result only, two passes whose
    doublers stack and wait past a penalty hand, a pick capped at x8, a won schneider of 120
    points (schwarz by tricks) and a lost schwarz on the bump."""
    session_id = api.new_session(name="House rules", rules=HOUSE_RULES)["id"]
    for hand in (
        {"kind": "pick", "picker": "Ann", "partner": "Bob", "result": "lost"},
        {"kind": "pass"},
        {"kind": "pass"},
        {"kind": "penalty", "penalized": "Dan"},
        pick("Bob", "Cat", 95, cracked_by="Dan", recracked=True),
        pick("Cat", None, 120, result="won_schneider"),
        pick("Eve", "Ann", 10, result="lost_schwarz"),
    ):
        api.record(session_id, **hand)
    return session_id
