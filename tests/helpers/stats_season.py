"""What the statistics' tests add up (`tests/insights/`): a season of every kind of hand, the
house rules nights after it, and nights of three years. Each hand's scores are written next to
it, so every number the tests expect can be added up from these comments."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper.insights import player_numbers, scope, stats
from scorekeeper.insights.dates import DateRange
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, Session

from .api import Api, pick
from .tables import house_rules_night

SEASON: list[dict[str, Any]] = [
    {
        # Session A, 2025-03-01, one round, the default rules. Dealers Ann, Bob, Cat, Dan, Eve.
        "started": datetime(2025, 3, 1, 19, tzinfo=UTC),
        "session": {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 1},
        "hands": [
            # Bob & Cat 75: Bob +2, Cat +1, Ann Dan Eve -1. Won by Bob, Cat.
            pick("Bob", "Cat", 75),
            # Cat alone 45, cracked by Eve (x2): Cat -8, the others +2. Won by the others.
            pick("Cat", None, 45, cracked_by="Eve"),
            # Dan & Ann 95, cracked by Bob, re-cracked (x4): Dan +16, Ann +8, Bob Cat Eve -8.
            # Won by Dan, Ann; Bob, Cat, Eve schneidered.
            pick("Dan", "Ann", 95, cracked_by="Bob", recracked=True),
            # Dan forced, with Eve, 20, red blitz (x2): Dan -8, Eve -4, Ann Bob Cat +4.
            # Won by Ann, Bob, Cat; Dan, Eve schneidered.
            pick("Dan", "Eve", 20, forced=True, blitzes=["red"]),
            # Ann alone 120: Ann +12, the others -3. Won by Ann; the others schneidered.
            pick("Ann", None, 120),
        ],
        # Ann -1+2+8+4+12 = 25, Bob 2+2-8+4-3 = -3, Cat 1-8-8+4-3 = -14, Dan -1+2+16-8-3 = 6,
        # Eve -1+2-8-4-3 = -14. Hands won: Ann 4, Bob 3, Cat 2, Dan 2, Eve 1. Ann wins.
        "totals": {"Ann": 25, "Bob": -3, "Cat": -14, "Dan": 6, "Eve": -14},
    },
    {
        # Session B, 2025-03-08, one round, doublers. Dealers Ann, Bob, Cat, Dan, Fay.
        "started": datetime(2025, 3, 8, 19, tzinfo=UTC),
        "session": {
            "players": ["Ann", "Bob", "Cat", "Dan", "Fay"],
            "rounds": 1,
            "rules": {"no_bid": "doubler"},
        },
        "hands": [
            # Everyone passed: no scores, one doubler waits.
            {"kind": "pass"},
            # Cat & Dan 61, doubled (x2): Cat +4, Dan +2, Ann Bob Fay -2. Won by Cat, Dan.
            pick("Cat", "Dan", 61),
            # Ann & Fay 30: Ann -4, Fay -2, Bob Cat Dan +2. Won by Bob, Cat, Dan; Ann, Fay
            # schneidered.
            pick("Ann", "Fay", 30),
            # Fay & Bob 75: Fay +2, Bob +1, Ann Cat Dan -1. Won by Fay, Bob.
            pick("Fay", "Bob", 75),
            # Bob & Dan 61: Bob +2, Dan +1, Ann Cat Fay -1. Won by Bob, Dan.
            pick("Bob", "Dan", 61),
        ],
        # Ann -2-4-1-1 = -8, Bob -2+2+1+2 = 3, Cat 4+2-1-1 = 4, Dan 2+2-1+1 = 4,
        # Fay -2-2+2-1 = -3. Hands won: Ann 0, Bob 3, Cat 2, Dan 3, Fay 1.
        # Cat and Dan both +4: Dan won more hands, so Dan wins.
        "totals": {"Ann": -8, "Bob": 3, "Cat": 4, "Dan": 4, "Fay": -3},
    },
    {
        # Session C, late on 2025-03-15 (UTC), one round, leasters. Seats Eve, Dan, Cat, Bob,
        # Ann, so the dealers are Eve, Dan, Cat, Bob, Ann.
        "started": datetime(2025, 3, 15, 23, 30, tzinfo=UTC),
        "session": {
            "players": ["Eve", "Dan", "Cat", "Bob", "Ann"],
            "rounds": 1,
            "rules": {"no_bid": "leaster"},
        },
        "hands": [
            # Leaster won by Ann: Ann +4, the others -1.
            {"kind": "leaster", "winner": "Ann"},
            # Leaster won by Bob: Bob +4, the others -1.
            {"kind": "leaster", "winner": "Bob"},
            # Cat & Dan 50: Cat -2, Dan -1, Ann Bob Eve +1. Won by Ann, Bob, Eve.
            pick("Cat", "Dan", 50),
            # Eve alone 0: Eve -12, the others +3. Won by the others; Eve schneidered.
            pick("Eve", None, 0),
            # Leaster won by Dan: Dan +4, the others -1.
            {"kind": "leaster", "winner": "Dan"},
        ],
        # Ann 4-1+1+3-1 = 6, Bob -1+4+1+3-1 = 6, Cat -1-1-2+3-1 = -2, Dan -1-1-1+3+4 = 4,
        # Eve -1-1+1-12-1 = -14. Hands won: Ann 3, Bob 3, Cat 1, Dan 2, Eve 1.
        # Ann and Bob are equal on both, so both win.
        "totals": {"Ann": 6, "Bob": 6, "Cat": -2, "Dan": 4, "Eve": -14},
    },
    {
        # Session D, 2025-04-01, two rounds of which three hands are played: still in progress.
        "started": datetime(2025, 4, 1, 19, tzinfo=UTC),
        "session": {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": 2},
        "hands": [
            # Bob & Eve 100: Bob +4, Eve +2, Ann Cat Dan -2. Won by Bob, Eve; Ann, Cat, Dan
            # schneidered.
            pick("Bob", "Eve", 100),
            # Ann & Cat 40, cracked by Bob (x2): Ann -4, Cat -2, Bob Dan Eve +2.
            # Won by Bob, Dan, Eve.
            pick("Ann", "Cat", 40, cracked_by="Bob"),
            # Eve alone 61: Eve +4, the others -1. Won by Eve.
            pick("Eve", None, 61),
        ],
        # Ann -2-4-1 = -7, Bob 4+2-1 = 5, Cat -2-2-1 = -5, Dan -2+2-1 = -1, Eve 2+2+4 = 8.
        # Eve leads, but nobody has won an unfinished session.
        "totals": {"Ann": -7, "Bob": 5, "Cat": -5, "Dan": -1, "Eve": 8},
    },
]


# (sessions played, sessions won, (hands won, hands played), total, (picks won, picks),
#  (alone won, alone), (won as partner, partner), (cracks won, cracks), re-cracked,
#  crack points, (leasters won, leasters), schneidered) over the whole season.
EVERYTHING = {
    # A, B, C, D; won A and C (shared). Hands 5+5+5+3 = 18, won 4+0+3+0 = 7.
    # Total 25-8+6-7 = 16. Picks: A5 alone won, B3 lost, D2 lost. Partner: A3 won.
    # Leasters: won C1, lost C2, C5. Schneidered: B3, D1.
    "Ann": (4, 2, (7, 18), 16, (1, 3), (1, 1), (1, 1), (0, 0), 0, 0, (1, 3), 2),
    # A, B, C, D; won C (shared). Hands 18, won 3+3+3+2 = 11. Total -3+3+6+5 = 11.
    # Picks A1, B5, D1 all won. Partner: B4 won. Cracks: A3 lost and re-cracked (-8),
    # D2 won (+2): -6. Leasters: won C2. Schneidered: A3, A5.
    "Bob": (4, 1, (11, 18), 11, (3, 3), (0, 0), (1, 1), (1, 2), 1, -6, (1, 3), 2),
    # A, B, C, D; won none. Hands 18, won 2+2+1+0 = 5. Total -14+4-2-5 = -17.
    # Picks: A2 alone lost, B2 won, C3 lost. Partner: A1 won, D2 lost. Schneidered: A3, A5, D1.
    "Cat": (4, 0, (5, 18), -17, (1, 3), (0, 1), (1, 2), (0, 0), 0, 0, (0, 3), 3),
    # A, B, C, D; won B. Hands 18, won 2+3+2+1 = 8. Total 6+4+4-1 = 13.
    # Picks: A3 won, A4 lost. Partner: B2, B5 won, C3 lost. Leasters: won C5.
    # Schneidered: A4, A5, D1.
    "Dan": (4, 1, (8, 18), 13, (1, 2), (0, 0), (2, 3), (0, 0), 0, 0, (1, 3), 3),
    # A, C, D; won none (D is unfinished). Hands 5+5+3 = 13, won 1+1+3 = 5.
    # Total -14-14+8 = -20. Picks: C4 alone lost, D3 alone won. Partner: A4 lost, D1 won.
    # Cracks: A2 won (+2). Schneidered: A3, A4, A5, C4.
    "Eve": (3, 0, (5, 13), -20, (1, 2), (1, 2), (1, 2), (1, 1), 0, 2, (0, 3), 4),
    # B only. Hands 5, won 1 (B4). Total -3. Picks: B4 won. Partner: B3 lost.
    # Schneidered: B3.
    "Fay": (1, 0, (1, 5), -3, (1, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 1),
}


def record_season(app: Flask, api: Api, season: list[dict[str, Any]] = SEASON) -> list[int]:
    ids = []
    for entry in season:
        session_id = api.new_session(**entry["session"])["id"]
        for hand in entry["hands"]:
            api.record(session_id, **hand)
        assert api.session(session_id)["totals"] == entry["totals"]
        ids.append(session_id)
        with app.app_context():
            db.session.execute(
                update(Session).where(Session.id == session_id).values(created_at=entry["started"])
            )
            db.session.commit()
    return ids


def summary(numbers: player_numbers.PlayerStats) -> tuple[Any, ...]:
    def pair(rate: stats.Rate) -> tuple[int, int]:
        return (rate.count, rate.of)

    return (
        numbers.sessions_played,
        numbers.sessions_won,
        pair(numbers.hands),
        numbers.total,
        pair(numbers.picks),
        pair(numbers.alone),
        pair(numbers.partner),
        pair(numbers.cracks),
        numbers.recracked,
        numbers.crack_points,
        pair(numbers.leasters),
        numbers.schneidered,
    )


def stats_of(
    app: Flask, name: str, dates: DateRange, house: scope.RuleFilter | None = None
) -> player_numbers.PlayerStats:
    with app.app_context():
        player = db.session.scalars(select(Player).where(Player.name == name)).one()
        return player_numbers.player_stats(player, dates, house)


def sizes(numbers: player_numbers.PlayerStats) -> list[tuple[int, int, int, int, int, int]]:
    """(seated, hands played, hands won, total, picks, picks won) for each table size."""
    return [
        (s.seated, s.hands.of, s.hands.count, s.total, s.picks.of, s.picks.count)
        for s in numbers.by_size
    ]


# The night of test_csv_export.house_rules_night, every hand played by all five:
# 1 Ann & Bob, result lost, no points (bump): Ann -4, Bob -2, Cat Dan Eve +2. Won by Cat Dan Eve.
# 2, 3 passes: nobody wins.
# 4 penalty, Dan: Dan -4, the others +1. Won by nobody.
# 5 Bob & Cat 95 (won schneider), cracked by Dan, re-cracked, two stacked doublers: x16 capped
#   at x8: Bob +32, Cat +16, Ann Dan Eve -16. Won by Bob, Cat; Ann, Dan, Eve schneidered.
# 6 Cat alone 120, result won schneider (by tricks): Cat +8, the others -2. Won by Cat; the
#   others schneidered.
# 7 Eve & Ann 10, lost schwarz (bump): Ann -6, Eve -12, Bob Cat Dan +6. Won by Bob, Cat, Dan;
#   Eve, Ann schneidered.
HOUSE_NIGHT = {
    # Won none; picked 1 (lost, by result only); partner 1 (lost); schneidered 5, 6, 7.
    "Ann": (1, 0, (0, 7), -27, (0, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 3),
    # Won 5, 7; picked 5 (won); partner 1 (lost); schneidered 6. An open-ended session has no
    # winner.
    "Bob": (1, 0, (2, 7), 35, (1, 1), (0, 0), (0, 1), (0, 0), 0, 0, (0, 0), 1),
    # Won 1, 5, 6, 7; picked 6 alone (won by its result); partner 5 (won).
    "Cat": (1, 0, (4, 7), 33, (1, 1), (1, 1), (1, 1), (0, 0), 0, 0, (0, 0), 0),
    # Won 1, 7; cracked 5 (lost, re-cracked, -16); schneidered 5, 6.
    "Dan": (1, 0, (2, 7), -14, (0, 0), (0, 0), (0, 0), (0, 1), 1, -16, (0, 0), 2),
    # Won 1; picked 7 (lost); schneidered 5, 6, 7.
    "Eve": (1, 0, (1, 7), -27, (0, 1), (0, 0), (0, 0), (0, 0), 0, 0, (0, 0), 3),
}


# (penalties, (card points, picks with points, picks by result only)) on that night.
HOUSE_CARD_POINTS = {
    "Ann": (0, (0, 0, 1)),
    "Bob": (0, (95, 1, 0)),
    "Cat": (0, (120, 1, 0)),
    "Dan": (1, (0, 0, 0)),
    "Eve": (0, (10, 1, 0)),
}


HOUSE = scope.RuleFilter(frozenset({"bump"}))


PLAIN = scope.RuleFilter(plain=True)


def record_house_nights(app: Flask, api: Api) -> tuple[int, int]:
    """The season (played with no house rule), the house rules night on 2025-05-01, and on
    2025-05-02 a night of bump alone: Ann & Bob 45, Ann -4, Bob -2, Cat Dan Eve +2."""
    night = house_rules_night(api)
    bump = api.new_session(name="Bump only", rules={"bump": True})["id"]
    api.record(bump, **pick("Ann", "Bob", 45))
    with app.app_context():
        for session_id, day in ((night, 1), (bump, 2)):
            started = datetime(2025, 5, day, 19, tzinfo=UTC)
            db.session.execute(
                update(Session).where(Session.id == session_id).values(created_at=started)
            )
        db.session.commit()
    return night, bump


# Nights of three years: Ann wins 2010; Bob and Cat share 2011; Bob has the best total of all.
YEARS = [
    ("2010-03-01", {"Ann": 5, "Bob": -5}),
    ("2010-06-01", {"Bob": 3, "Cat": -3}),
    ("2011-02-01", {"Cat": 7, "Ann": -7}),
    ("2011-02-02", {"Bob": 7, "Ann": -7}),
]


def nights_of_years(client: FlaskClient) -> None:
    for day, totals in YEARS:
        made = client.post("/api/sessions", json={"played_on": day, "totals": totals})
        assert made.status_code == 201, made.json
