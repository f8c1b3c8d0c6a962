"""Reads of a league's history made of each year's part (every player's totals for the
leaderboard and the players list, each year's champion, a player's season, partners, opponents
and best and worst nights): each part is kept by the stamp of its own year's sessions
(`memo.kept_in_parts`), so that the first view after tonight's hands reads this year's sessions
again, and not the forty years before. A year is its days in the server's time zone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from datetime import date
from typing import TypeVar

from sqlalchemy import ColumnElement, case, func, literal, select

from ..sessions.extensions import db
from ..sessions.models import Session
from . import memo
from .dates import DateRange, local, start_of
from .scope import RuleFilter

T = TypeVar("T")

# Each year's sessions as (how many, their versions added up, the largest id), by year.
YearStamps = dict[int, tuple[int, int, int]]


def each_year(
    key: Hashable, dates: DateRange, house: RuleFilter | None, read: Callable[[DateRange], T]
) -> dict[int, T]:
    """What `read` answers for each year's part of `dates` (the days of the year in the range),
    for each year with a session in the range played by `house`'s rules: kept under `key`,
    each year read again only when its sessions changed."""
    stamps = memo.kept(("each year's sessions", dates, house), lambda: _stamps(dates, house))
    return memo.kept_in_parts(key, stamps, lambda year: read(in_year(dates, year)))


def in_year(dates: DateRange, year: int) -> DateRange:
    """The days of the range in `year`."""
    first, last = date(year, 1, 1), date(year, 12, 31)
    start = first if dates.start is None else max(dates.start, first)
    end = last if dates.end is None else min(dates.end, last)
    return replace(dates, start=start, end=end)


def _stamps(dates: DateRange, house: RuleFilter | None) -> YearStamps:
    scope = [*dates.session_conditions(), *(house or RuleFilter()).session_conditions()]
    # Apart, so that each is read from the index of the sessions' starts when nothing else
    # narrows them.
    first, last = (
        db.session.scalar(select(func.min(Session.created_at)).where(*scope)),
        db.session.scalar(select(func.max(Session.created_at)).where(*scope)),
    )
    if first is None or last is None:
        return {}
    year = _year_of(range(local(first).year, local(last).year + 1)).label("year")
    rows = db.session.execute(
        select(year, func.count(), func.sum(Session.version), func.max(Session.id))
        .where(*scope)
        .group_by(year)
    )
    return {played_in: (count, versions, largest) for played_in, count, versions, largest in rows}


def _year_of(years: Sequence[int]) -> ColumnElement[int]:
    """The year of `years` a session started in, halving them at each step: a few comparisons
    a session, not one a year."""
    if len(years) == 1:
        return literal(years[0])
    middle = len(years) // 2
    return case(
        (Session.created_at >= start_of(date(years[middle], 1, 1)), _year_of(years[middle:])),
        else_=_year_of(years[:middle]),
    )
