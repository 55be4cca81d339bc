"""Reporting periods of claims and of registry records, and when two are the same period.

An emission figure is only comparable with a registry's figure for the same twelve months. NGER's
"2021-22" is the Australian financial year 1 July 2021 – 30 June 2022, which a claim writes "FY2022",
"FY22", "2021-22", "2021/22" or "year ended 30 June 2022"; "in 2022" is the calendar year, another
period. UK ETS and GHGRP years are calendar years, which a claim writes "2022" or "year ended 31
December 2022"; a bare "FY2022" may end in any month, so it matches only a registry whose years are
financial years ending in a known month (NGER), as Australian reports write them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.verification.registries.proof import PROOFS

_I = re.IGNORECASE
_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = "|".join(_MONTHS)
#: Period mentions, most specific first; a span such as "2021-2024" is read as no one period.
_YEAR_ENDED = re.compile(
    rf"\b(?:(?:financial|fiscal|reporting)\s)?(?:year|12 months|twelve months)\s(?:ended|ending|to)\s"
    rf"(?:(?:\d{{1,2}}\s)?(?P<month>{_MONTH})\s(?:\d{{1,2}},?\s)?)(?P<year>20\d\d)\b",
    _I,
)
_RANGE = re.compile(r"\b(?:FY\s?)?(?P<first>20\d\d)\s?[-–/]\s?(?P<second>20\d\d|\d\d)\b", _I)
_FISCAL = re.compile(
    r"\b(?:FY\s?|fiscal\s(?:year\s)?|financial\s(?:year\s)?)(?P<year>20\d\d|\d\d)\b"
    r"|\b(?P<year2>20\d\d)\s(?:financial|fiscal)\syear\b",
    _I,
)
_CALENDAR = re.compile(
    r"(?<![\w.,/-])(?:CY\s?|calendar\s(?:year\s)?)?(?P<year>(?:19|20)\d\d)(?![\w.,]\d)", _I
)
_AFTER = re.compile(r"^\s*,?\s*(?:in|for|during|over)\s(?:the\s)?$", _I)


@dataclass(frozen=True)
class Period:
    """Twelve months: a calendar year, or a financial year ending in `end_month` (None: not said)."""

    calendar: bool
    end_year: int
    end_month: int | None

    def label(self) -> str:
        if self.calendar:
            return str(self.end_year)
        return (
            f"FY{self.end_year}"
            if self.end_month is None
            else f"year ended {_MONTHS[self.end_month - 1]} {self.end_year}"
        )


@dataclass(frozen=True)
class PeriodMention:
    """A period (None: a span or an unreadable range) as written at `start`-`end` of a text."""

    period: Period | None
    start: int
    end: int


def period_mentions(text: str) -> list[PeriodMention]:
    """Every period written in `text`, in order; overlapping readings keep the most specific."""
    found: list[PeriodMention] = []
    taken: list[tuple[int, int]] = []
    for pattern, read in (
        (_YEAR_ENDED, _year_ended),
        (_RANGE, _range),
        (_FISCAL, _fiscal),
        (_CALENDAR, _calendar),
    ):
        for match in pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue
            taken.append((match.start(), match.end()))
            found.append(PeriodMention(read(match), match.start(), match.end()))
    return sorted(found, key=lambda mention: mention.start)


def _year_ended(match: re.Match[str]) -> Period:
    month = _MONTHS.index(match["month"].lower()) + 1
    return Period(month == 12, int(match["year"]), 12 if month == 12 else month)


def _range(match: re.Match[str]) -> Period | None:
    first, second = int(match["first"]), int(match["second"])
    second = second if second > 99 else first // 100 * 100 + second
    return Period(False, second, None) if second == first + 1 else None


def _fiscal(match: re.Match[str]) -> Period:
    year = int(match["year"] or match["year2"])
    return Period(False, year + 2000 if year < 100 else year, None)


def _calendar(match: re.Match[str]) -> Period:
    return Period(True, int(match["year"]), 12)


def period_at(text: str, start: int, end: int) -> Period | None:
    """The period of the figure written at `start`-`end`: one written right after it ("2.3 Mt in
    2022") or labelling it ("2022: 2.3 Mt"), else the text's only period; None when unclear."""
    mentions = period_mentions(text)
    for mention in mentions:
        if mention.start >= end and _AFTER.match(text[end : mention.start]):
            return mention.period
        if mention.end <= start and re.fullmatch(r"\s?:\s?", text[mention.end : start]):
            return mention.period
    distinct = {mention.period for mention in mentions}
    return distinct.pop() if len(distinct) == 1 else None


def registry_period(kind: str, period: str | None) -> Period | None:
    """A registry record's period ("2021-22" for NGER, "2020" for GHGRP and UK ETS) as a `Period`."""
    if period is None:
        return None
    if re.fullmatch(r"(?:19|20)\d\d", period):
        return Period(True, int(period), 12)
    match = re.fullmatch(r"(20\d\d)-(\d\d)", period)
    month = PROOFS[kind].fiscal_year_end_month if kind in PROOFS else None
    if match is None or month is None:
        return None
    first = int(match.group(1))
    return Period(False, first + 1, month) if int(match.group(2)) == (first + 1) % 100 else None


def same_period(claimed: Period, recorded: Period) -> bool:
    """Whether a claim's period is the registry's: same kind of year, same end, and for a financial
    year the same end month where the claim states one."""
    if claimed.calendar or recorded.calendar:
        return claimed.calendar and recorded.calendar and claimed.end_year == recorded.end_year
    month_agrees = claimed.end_month is None or claimed.end_month == recorded.end_month
    return claimed.end_year == recorded.end_year and month_agrees
