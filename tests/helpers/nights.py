"""A league's paper history for the tests, made up by a seeded random generator: ten yearly
spreadsheets of nights kept without hands (2004 to 2013, 1,435 nights, 42 players), as a club's
sheets come: dates with and without leading zeros, lines in any order, blank lines, a byte order
mark and `\\r\\n` in some years, a player who broke even written 0 (empty where absent), two
nights on one day, and one player's name spelt another way one year ("Tom Kiebzak" in 2008,
"Tom Kiebzack" the others). Beside the files, what they hold, to check an import against."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta

PLAYERS = [
    "Blake Adams", "Dave Bauer", "Greg Brandt", "Jacob Fischer", "Mark Hoffmann", "Ann Koch",
    "Bob Krueger", "Carl Lange", "Dan Meyer", "Ed Neumann", "Frank Peters", "Gary Richter",
    "Hank Schmidt", "Jim Schneider", "Ken Schulz", "Larry Vogel", "Mike Wagner", "Nick Weber",
    "Otto Wolf", "Pete Zimmermann", "Ralph Becker", "Steve Braun", "Ted Hartmann", "Vern Jung",
    "Walt Keller", "Al Kraus", "Bill Lehmann", "Chuck Maier", "Don Schwarz", "Earl Sommer",
    "Fritz Stein", "Gus Thiel", "Herb Ulrich", "Ike Vetter", "Joe Winkler", "Kurt Ziegler",
    "Lou Albrecht", "Max Dietrich", "Ray Engel", "Sam Frank", "Tony Graf", "Tom Kiebzack",
]  # fmt: skip
DRIFTED = ("Tom Kiebzak", "Tom Kiebzack")
DRIFT_YEAR = 2008
# Nights a year: 1,435 in all, the last year until May.
NIGHTS = dict(zip(range(2004, 2014), [150] * 9 + [85], strict=True))
FIRST_DAY, LAST_DAY = date(2004, 1, 5), date(2013, 5, 2)
TWO_NIGHTS_YEAR = 2009


@dataclass(frozen=True)
class Night:
    day: date
    nets: dict[str, int]


@dataclass
class League:
    """The yearly files, and the nights they hold under each player's one name."""

    files: dict[int, str] = field(default_factory=dict)
    nights: list[Night] = field(default_factory=list)

    def of_year(self, year: int) -> list[Night]:
        return [night for night in self.nights if night.day.year == year]

    def totals(self, year: int | None = None) -> Counter[str]:
        totals: Counter[str] = Counter()
        for night in self.nights if year is None else self.of_year(year):
            totals.update(night.nets)
            totals.update(dict.fromkeys(night.nets, 0))
        return totals

    def sessions(self, year: int | None = None) -> Counter[str]:
        return Counter(
            name
            for night in (self.nights if year is None else self.of_year(year))
            for name in night.nets
        )

    def combined(self) -> str:
        """Every year in one sheet, a column for each player (the drifted name in its own)."""
        columns = [*PLAYERS, DRIFTED[0]]
        lines = ["Date," + ",".join(columns)]
        for night in self.nights:
            nets = dict(night.nets)
            if night.day.year == DRIFT_YEAR and DRIFTED[1] in nets:
                nets[DRIFTED[0]] = nets.pop(DRIFTED[1])
            cells = ["" if name not in nets else str(nets[name]) for name in columns]
            lines.append(f"{night.day.year}-{night.day.month}-{night.day.day}," + ",".join(cells))
        return "\n".join(lines) + "\n"


def league(seed: int = 2004) -> League:
    rng = random.Random(seed)
    # Each player comes for some years; a few only near the end, a few only at first; Tom always.
    spans = {}
    for index, name in enumerate(PLAYERS):
        first = 2004 if index < 24 else rng.randint(2005, 2012)
        last = 2013 if index % 5 else rng.randint(first, 2013)
        spans[name] = (first, last)
    spans[DRIFTED[1]] = (2004, 2013)
    made = League()
    for year, count in NIGHTS.items():
        days = _days(rng, year, count)
        roster = [name for name, (first, last) in spans.items() if first <= year <= last]
        nights = []
        for number, day in enumerate(days):
            seated = rng.sample(roster, rng.randint(3, 8))
            if DRIFTED[1] not in seated and number % 3 == 0:
                seated[0] = DRIFTED[1]
            nets = [rng.randint(-60, 60) for _ in seated[:-1]]
            if number % 10 == 0:
                nets[0] = 0
            nets.append(-sum(nets))
            nights.append(Night(day, dict(zip(seated, nets, strict=True))))
        made.nights.extend(nights)
        made.files[year] = _sheet(rng, year, nights)
    return made


def _days(rng: random.Random, year: int, count: int) -> list[date]:
    start = FIRST_DAY if year == FIRST_DAY.year else date(year, 1, 1)
    end = LAST_DAY if year == LAST_DAY.year else date(year, 12, 31)
    between = [start + timedelta(days=n) for n in range(1, (end - start).days)]
    days = sorted([start, end, *rng.sample(between, count - 2)])
    if year == TWO_NIGHTS_YEAR:
        # Two nights on one day: the second of them in place of another day.
        days[-2] = days[-3]
    return sorted(days)


def _sheet(rng: random.Random, year: int, nights: list[Night]) -> str:
    names = list(dict.fromkeys(name for night in nights for name in night.nets))
    rng.shuffle(names)
    shown = [DRIFTED[0] if year == DRIFT_YEAR and name == DRIFTED[1] else name for name in names]
    padded = year % 2 == 0
    lines = [("Date", "DATE", "date")[year % 3] + "," + ",".join(shown)]
    for night in nights:
        day = night.day
        when = f"{day:%Y-%m-%d}" if padded else f"{day.year}-{day.month}-{day.day}"
        lines.append(when + "," + ",".join(str(night.nets.get(name, "")) for name in names))
    body = lines[1:]
    if year % 4 == 1:
        rng.shuffle(body)
    if year % 4 == 2:
        body.insert(len(body) // 2, "")
        body.append(",," * 3)
    if year == 2006:
        # A night called off: its date, and no player.
        body.append("2006-12-24" + "," * len(names))
    newline = "\r\n" if year % 2 else "\n"
    text = newline.join([lines[0], *body]) + newline
    return ("\ufeff" + text) if year % 3 == 0 else text
