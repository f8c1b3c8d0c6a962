"""Reads of a league's history made of each year's part (every player's totals for the
leaderboard and the players list, each year's champion, a player's season, partners, opponents
and best and worst nights): each part is kept by the stamp of its own year's sessions
(`memo.kept_in_parts`), so that the first view after tonight's hands reads this year's sessions
again, and not the forty years before. A year is its days in the server's time zone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from datetime import date
from typing import TypeVar

from sqlalchemy import case, func, literal, select

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
    first, last = db.session.execute(
        select(func.min(Session.created_at), func.max(Session.created_at)).where(*scope)
    ).one()
    if first is None:
        return {}
    years = range(local(first).year, local(last).year + 1)
    later = [(Session.created_at >= start_of(date(y, 1, 1)), y) for y in reversed(years[1:])]
    year = (case(*later, else_=years[0]) if later else literal(years[0])).label("year")
    rows = db.session.execute(
        select(year, func.count(), func.sum(Session.version), func.max(Session.id))
        .where(*scope)
        .group_by(year)
    )
    return {played_in: (count, versions, largest) for played_in, count, versions, largest in rows}
