"""The period a claim is about, read from the years it names, and the two seasons to compare.

"since 2020" runs from 1 January 2020 to today; "between 2019 and 2023" (or "from 2019 to 2023",
"2019–2023") to 31 December 2023; otherwise the earliest past year the claim names, to today
("restored in 2021"). Future years are targets, not history ("by 2030"). A claim with no usable
year is checked over the last `DEFAULT_YEARS` years.

Vegetation changes with the seasons, so the comparison looks at the same season at both ends: a
window of `WINDOW_DAYS` from the period's start, and the same calendar days in the last year of
the period that still fits. Only a period shorter than that compares its first and last days.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

DEFAULT_YEARS = 3
WINDOW_DAYS = 92  # about one season
_YEAR = r"(?<!\d)((?:19|20)\d\d)(?!\d)"
_RANGE = re.compile(
    rf"\b(?:between|from)\s+(?:fy\s*)?{_YEAR}\s+(?:and|to|until|through|till)\s+(?:fy\s*)?{_YEAR}"
    rf"|{_YEAR}\s*[-–—]\s*{_YEAR}",
    re.IGNORECASE,
)
_SINCE = re.compile(rf"\b(?:since|from|starting in|beginning in)\s+(?:fy\s*)?{_YEAR}", re.IGNORECASE)
_ANY_YEAR = re.compile(_YEAR)


@dataclass(frozen=True)
class ClaimedPeriod:
    """From `start` to `end` (inclusive); `basis` says which words of the claim set it."""

    start: date
    end: date
    basis: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat(), "basis": self.basis}


@dataclass(frozen=True)
class Window:
    """Days whose scenes stand for one end of the period."""

    start: date
    end: date

    def interval(self) -> str:
        """The window as a STAC `datetime` interval (RFC 3339, UTC, both days whole)."""
        return f"{self.start.isoformat()}T00:00:00Z/{self.end.isoformat()}T23:59:59Z"

    def to_dict(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def claimed_period(text: str, *, today: date) -> ClaimedPeriod:
    """The period `text` claims something over (see the module docstring for the rules)."""
    if match := _RANGE.search(text):
        first, last = sorted(int(year) for year in match.groups() if year)
        if first <= today.year:
            end = min(date(last, 12, 31), today)
            return ClaimedPeriod(date(first, 1, 1), end, f"'{match.group(0)}' in the claim")
    if match := _SINCE.search(text):
        year = int(match.group(1))
        if year <= today.year:
            return ClaimedPeriod(date(year, 1, 1), today, f"'{match.group(0)}' in the claim")
    past = sorted(int(year) for year in _ANY_YEAR.findall(text) if int(year) <= today.year)
    if past and past[0] < today.year:
        return ClaimedPeriod(
            date(past[0], 1, 1), today, f"{past[0]}, the earliest year the claim names, to today"
        )
    return ClaimedPeriod(
        _years_before(today, DEFAULT_YEARS),
        today,
        f"no year before this one in the claim: the last {DEFAULT_YEARS} years",
    )


def season_windows(period: ClaimedPeriod, *, earliest: date) -> tuple[Window, Window] | None:
    """A window at the start of the period and the same season at its end; None if too short.

    `earliest` is the first day imagery exists; a period starting before it starts there.
    """
    start = max(period.start, earliest)
    span = timedelta(days=WINDOW_DAYS - 1)
    first = Window(start, start + span)
    year = period.end.year
    while year > start.year and _same_day(start, year) + span > period.end:
        year -= 1
    if year > start.year:
        last_start = _same_day(start, year)
        return first, Window(last_start, last_start + span)
    last = Window(period.end - span, period.end)
    return (first, last) if last.start > first.end else None


def _same_day(day: date, year: int) -> date:
    """The same month and day in `year` (28 February for 29 February in a common year)."""
    try:
        return day.replace(year=year)
    except ValueError:
        return day.replace(year=year, day=28)


def _years_before(day: date, years: int) -> date:
    return _same_day(day, day.year - years)
