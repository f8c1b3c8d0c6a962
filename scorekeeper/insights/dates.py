"""What a date means here: a day in the server's time zone, everywhere.

Sessions keep the moment they started in UTC. A range of days (the filters of the Sessions,
Leaderboard, player and Settle up pages, and the API's `from` and `to`) finds the sessions
started from the first moment of its first day to the last moment of its last, in the server's
time zone; and the day a session is shown under is the day it started there. So a session
begun at 8 pm in Wisconsin is on that evening's date, though it is past midnight in UTC.
"""

from __future__ import annotations

import time as clock
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import ColumnElement

from ..rules import RuleError
from ..sessions.models import Session, as_utc

# The days whose first and last moment, in any time zone, are still times in UTC that Python
# can hold (from the year 1 to 9999).
FIRST_DAY = date(1, 1, 2)
LAST_DAY = date(9999, 12, 30)


@dataclass(frozen=True)
class DateRange:
    """Sessions started on these days (both ends included); None leaves that end open."""

    start: date | None = None
    end: date | None = None

    def session_conditions(self) -> list[ColumnElement[bool]]:
        """What keeps only the sessions in the range; a day too far off to say when it begins
        or ends is refused."""
        check_day(self.start, "from")
        check_day(self.end, "to")
        # In UTC, as the sessions' times are kept: SQLite compares them as text, without the
        # offset.
        started = []
        if self.start is not None:
            started.append(Session.created_at >= _utc(datetime.combine(self.start, time.min)))
        if self.end is not None:
            started.append(Session.created_at <= _utc(datetime.combine(self.end, time.max)))
        return started


def check_day(day: date | None, field: str) -> None:
    if day is not None and not FIRST_DAY <= day <= LAST_DAY:
        raise RuleError(f"The {field} date must be a day from {FIRST_DAY} to {LAST_DAY}.", field)


def start_of(day: date, field: str = "played_on") -> datetime:
    """The first moment of a day in the server's time zone, in UTC: when a night kept without
    hands started."""
    check_day(day, field)
    return _utc(datetime.combine(day, time.min))


def today() -> date:
    """Today in the server's time zone."""
    return datetime.now().astimezone().date()


def _utc(local: datetime) -> datetime:
    return local.astimezone().astimezone(UTC)


def local(moment: datetime) -> datetime:
    """A stored moment in the server's time zone."""
    return as_utc(moment).astimezone()


def days_of(moments: Iterable[datetime]) -> list[date]:
    """The day each of many stored moments falls on in the server's time zone, as `day_of`
    but faster: time zones change their offsets only on a quarter hour, so the moments of one
    quarter hour share an offset, found once."""
    offsets: dict[tuple[int, int, int, int, int], timedelta] = {}
    days = []
    for moment in moments:
        moment = as_utc(moment)
        quarter = (moment.year, moment.month, moment.day, moment.hour, moment.minute // 15)
        offset = offsets.get(quarter)
        if offset is None:
            start = moment.replace(minute=quarter[-1] * 15, second=0, microsecond=0)
            offset = offsets[quarter] = start.astimezone().utcoffset() or timedelta()
        days.append((moment + offset).date())
    return days


# A quarter hour and a day, in seconds; and the day 0 seconds falls on in UTC.
QUARTER = 15 * 60
DAY = 24 * 60 * 60
EPOCH_DAY = date(1970, 1, 1).toordinal()


def days_of_quarters(spans: Iterable[tuple[int, int]]) -> list[date | None]:
    """The day each of many spans of moments falls on in the server's time zone, as `days_of`
    finds it for each moment: a span is the first and last moment of some within one quarter
    hour, in whole seconds from 1970 in UTC (rounded down). None for a span that falls on two
    days, as it can only where the offset is not whole quarter hours (local mean time)."""
    days: list[date | None] = []
    for first, last in spans:
        # The offset `datetime.astimezone` finds for the quarter's first moment.
        offset = clock.localtime(first - first % QUARTER).tm_gmtoff
        day = (first + offset) // DAY
        days.append(date.fromordinal(EPOCH_DAY + day) if (last + offset) // DAY == day else None)
    return days


def day_of(moment: datetime | str) -> str:
    """The day, as YYYY-MM-DD, that a stored moment (or one written in ISO 8601, as the API
    and a backup write it) falls on in the server's time zone."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return f"{local(moment):%Y-%m-%d}"
