"""Cell values as registries write them, read as the types the records hold.

Spreadsheets give numbers as floats (an id 1000000 is 1000000.0, a year 2030.0), CSV gives text
with thousands separators ("7,405,060"), and registries mark "nothing" as an empty cell, "-" or
"N/A". Each function returns None for nothing and raises ValueError (with what it got) for a value
of the wrong kind, which the caller turns into a refusal naming the row and column.
"""

from __future__ import annotations

import datetime
import re

#: A cell as calamine or the CSV reader gives it.
Cell = (
    int | float | str | bool | datetime.date | datetime.datetime | datetime.time | datetime.timedelta | None
)

_NOTHING = frozenset({"", "-", "n/a", "na", "none", "null"})
_YEAR = re.compile(r"^(?:FY\s*)?(\d{4})(?:\.0+)?$", re.IGNORECASE)
_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[ T][\d:.]+)?$")


def is_nothing(cell: Cell) -> bool:
    return cell is None or cell == "" or (isinstance(cell, str) and cell.strip().casefold() in _NOTHING)


def text(cell: Cell) -> str | None:
    """The cell as text, stripped; a whole float without its ".0" (ids and codes are read as floats)."""
    if isinstance(cell, str):
        stripped = cell.strip()
        return None if stripped.casefold() in _NOTHING else stripped
    if cell is None:
        return None
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    if isinstance(cell, datetime.datetime | datetime.date):
        return cell.isoformat()
    return str(cell).strip()


def number(cell: Cell) -> float | None:
    """A quantity: a number cell, or text such as "7,405,060" or "13.6"."""
    if is_nothing(cell):
        return None
    if isinstance(cell, bool):
        raise ValueError(f"expected a number, got {cell!r}")
    if isinstance(cell, int | float):
        return float(cell)
    if isinstance(cell, str):
        try:
            return float(cell.replace(",", "").strip())
        except ValueError:
            raise ValueError(f"expected a number, got {cell.strip()!r}") from None
    raise ValueError(f"expected a number, got {cell!r}")


def whole(cell: Cell) -> int | None:
    """A quantity registries publish in whole tonnes or gigajoules."""
    value = number(cell)
    return None if value is None else round(value)


def year(cell: Cell) -> int | None:
    """A year: 2030, 2030.0, "2030" or a fiscal "FY2030"."""
    if is_nothing(cell):
        return None
    if isinstance(cell, int | float) and not isinstance(cell, bool) and float(cell).is_integer():
        return int(cell)
    match = _YEAR.match(str(cell).strip())
    if match is None:
        raise ValueError(f"expected a year, got {cell!r}")
    return int(match.group(1))


def day(cell: Cell) -> datetime.date | None:
    """A date: a date cell, or text starting "YYYY-MM-DD" (a time after it is dropped)."""
    if is_nothing(cell):
        return None
    if isinstance(cell, datetime.datetime):
        return cell.date()
    if isinstance(cell, datetime.date):
        return cell
    match = _DAY.match(str(cell).strip())
    if match is None:
        raise ValueError(f"expected a date, got {cell!r}")
    return datetime.date(*(int(part) for part in match.groups()))
