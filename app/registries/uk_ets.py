"""The UK ETS compliance report: verified emissions of each installation and aircraft operator by year.

The report (.xlsx, sheet "Data") has one row per account: regulator, account holder (the operator
company), account type and status, operator id, permit, installation name (blank for aircraft
operators), first and last year of operation, "Recorded emissions <year>" and "Static surrender
status <year>" for each year so far, and the NACE sector. A record is one account and one year of
its operation, keyed "<operator id>/<year>"; the entity is the account holder, since claims name
companies. The snapshot date comes from the file name or `--snapshot-date`; the period is the span
of years the report covers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.registries.cells import Cell
from app.registries.dating import required, settle, snapshot_date_of
from app.registries.records import (
    ParsedRecord,
    ParsedSnapshot,
    RegistryFileProblem,
    RegistryKind,
    SnapshotOptions,
)
from app.registries.tables import Table, column_key, find_table, read_workbook

WHAT = "the UK ETS compliance report"
HOLDER = "Account Holder Name"
OPERATOR_ID = "Operator ID"
REQUIRED = (HOLDER, OPERATOR_ID, "Installation name", "First Year of Operation", "Last Year of Operation")
_EMISSIONS = re.compile(r"^recorded emissions (\d{4})$")
#: How the report marks an aircraft operator that never operated under the UK ETS.
EXCLUDED = "EXCLUDED"


@dataclass(frozen=True)
class UkEtsYear:
    """One account's year."""

    year: int
    verified_emissions_t_co2e: int | None  # None: excluded, or not submitted by the deadline
    emissions_status: str  # "recorded", "excluded" or "not submitted"
    surrender_status: str | None  # A: surrendered enough; B: too few; C: emissions not entered in time
    operator_id: str
    permit_id: str | None
    installation_name: str | None  # blank for aircraft operators
    account_type: str | None
    account_status: str | None
    regulator: str | None
    first_year: int | None
    last_year: int | None
    nace_code: str | None
    nace_description: str | None


def parse_uk_ets(paths: Sequence[Path], options: SnapshotOptions) -> ParsedSnapshot:
    """The accounts' years of one compliance report.

    Raises:
        RegistryFileProblem: Not one readable report with the columns above and at least one
            "Recorded emissions <year>" column, or no snapshot date known.
    """
    (path,) = paths
    table = find_table(read_workbook(path), REQUIRED, WHAT)
    years = sorted(int(m.group(1)) for key in table.columns if (m := _EMISSIONS.match(key)))
    if not years:
        raise RegistryFileProblem(
            f"{table.where} lacks the 'Recorded emissions <year>' columns that {WHAT} has."
        )
    stated = snapshot_date_of(path, options.snapshot_date)
    snapshot_date = required(stated, "snapshot date", "--snapshot-date YYYY-MM-DD", path.name)
    covered = f"{years[0]}-{years[-1]}" if len(years) > 1 else str(years[0])
    records = [
        record for row in table.rows if table.text(row, OPERATOR_ID) for record in _records(table, row, years)
    ]
    period = settle(covered, options.period, "period", table.where)
    return ParsedSnapshot(RegistryKind.UK_ETS, snapshot_date, period, records)


def _records(table: Table, row: Sequence[Cell], years: list[int]) -> list[ParsedRecord[UkEtsYear]]:
    """The account's years of operation the report covers (first year to last, or to the latest)."""
    first, last = table.year(row, "First Year of Operation"), table.year(row, "Last Year of Operation")
    operator_id = table.text(row, OPERATOR_ID) or ""
    holder = table.text(row, HOLDER) or operator_id
    return [
        ParsedRecord(
            f"{operator_id}/{year}",
            holder,
            _year(table, row, year, first, last),
            {"uk_ets_operator_id": operator_id},
            "GB",
            str(year),
        )
        for year in years
        if (first is None or year >= first) and (last is None or year <= last)
    ]


def _year(table: Table, row: Sequence[Cell], year: int, first: int | None, last: int | None) -> UkEtsYear:
    emissions_cell = table.cell(row, f"Recorded emissions {year}")
    excluded = isinstance(emissions_cell, str) and column_key(emissions_cell) == column_key(EXCLUDED)
    emissions = None if excluded else table.whole(row, f"Recorded emissions {year}")
    status = "excluded" if excluded else "not submitted" if emissions is None else "recorded"
    return UkEtsYear(
        year=year,
        verified_emissions_t_co2e=emissions,
        emissions_status=status,
        surrender_status=table.text(row, f"Static surrender status {year}"),
        operator_id=table.text(row, OPERATOR_ID) or "",
        permit_id=table.text(row, "Permit ID or Monitoring plan ID"),
        installation_name=table.text(row, "Installation name"),
        account_type=table.text(row, "Account type"),
        account_status=table.text(row, "Account status"),
        regulator=table.text(row, "Regulator"),
        first_year=first,
        last_year=last,
        nace_code=table.text(row, "NACE Code"),
        nace_description=table.text(row, "NACE Description"),
    )
