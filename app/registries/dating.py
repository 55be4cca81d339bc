"""A snapshot's date and reporting period: what the file (or its name) says, else what the user says.

Registries name their downloads by date ("...-2026-03-05.xlsx") or by reporting year
("...-2021-22.csv"). When the file and the user both give one and they differ, the import is
refused rather than one of them silently winning: a snapshot filed under the wrong date would
decide claims against the wrong list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TypeVar

from app.registries.records import RegistryFileProblem

T = TypeVar("T")
_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_FINANCIAL_YEAR = re.compile(r"(?<!\d)(\d{4})-(\d{2})(?![\d-])")
#: What `--period` may say: a year ("2020"), a financial year ("2021-22") or a span ("2021-2024").
PERIOD = re.compile(r"^\d{4}(?:-\d{2}|-\d{4})?$")


def date_in_name(path: Path) -> date | None:
    """The last valid YYYY-MM-DD in the file's name, if any."""
    found = None
    for match in _DATE.finditer(path.name):
        try:
            found = date(*(int(part) for part in match.groups()))
        except ValueError:
            continue
    return found


def financial_year_in_name(path: Path) -> str | None:
    """A financial year such as "2021-22" in the file's name (the second year must follow the first)."""
    for match in _FINANCIAL_YEAR.finditer(path.name):
        first, second = int(match.group(1)), int(match.group(2))
        if (first + 1) % 100 == second:
            return f"{first}-{second:02d}"
    return None


def check_period(period: str) -> str:
    """`period` if it is a year, a financial year or a span of years.

    Raises:
        RegistryFileProblem: It is none of these.
    """
    if not PERIOD.match(period):
        raise RegistryFileProblem(
            f"the period {period!r} is not a year (2020), a financial year (2021-22) or a span (2021-2024)."
        )
    return period


def settle(found: T | None, given: T | None, what: str, source: str) -> T | None:
    """The value `source` (the file or its name) states, or the user's where it states none.

    Raises:
        RegistryFileProblem: Both give one and they differ.
    """
    if found is not None and given is not None and found != given:
        raise RegistryFileProblem(f"{source} gives the {what} {found}, but the command gives {given}.")
    return found if found is not None else given


def snapshot_date_of(path: Path, given: date | None, last_updates: Iterable[date | None] = ()) -> date | None:
    """The snapshot date the file's name states, or the command's where it states none, else the
    latest of `last_updates` (when its records were last updated); None when nothing says.

    Raises:
        RegistryFileProblem: The name and the command give different dates.
    """
    stated = settle(date_in_name(path), given, "snapshot date", path.name)
    return stated if stated is not None else max((day for day in last_updates if day), default=None)


def required(value: T | None, what: str, option: str, label: str) -> T:
    """`value`, or a refusal saying how to give it.

    Raises:
        RegistryFileProblem: It is None.
    """
    if value is None:
        raise RegistryFileProblem(f"{label} does not state its {what}: give it with {option}.")
    return value
