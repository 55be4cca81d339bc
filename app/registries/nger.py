"""Australia's NGER corporate emissions: each controlling corporation's Scope 1 and Scope 2 for one year.

The Clean Energy Regulator publishes one CSV per reporting year (1 July to 30 June), with the
corporation's name, its "identifying details" (the ABN), total Scope 1 and Scope 2 in t CO2-e, net
energy consumed in GJ and notes (such as a facility reported by two corporations). A record's key
is its ABN (or ACN), which outlives a change of name; the name where it has neither. The file does
not state its year: the period comes from the file name ("...-2021-22.csv") or `--period`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.registries.cells import Cell
from app.registries.dating import check_period, financial_year_in_name, required, settle
from app.registries.records import ParsedRecord, ParsedSnapshot, RegistryKind, SnapshotOptions
from app.registries.tables import Table, find_table, read_csv

WHAT = "the NGER corporate emissions and energy data"
NAME = "Organisation name"
IDENTIFIERS = "Identifying details"
SCOPE_1 = "Total scope 1 emissions (t CO2-e)"
SCOPE_2 = "Total scope 2 emissions (t CO2-e)"
ENERGY = "Net energy consumed (GJ)"
NOTES = "Important notes"
REQUIRED = (NAME, IDENTIFIERS, SCOPE_1, SCOPE_2)
_DIGITS = re.compile(r"\D")


@dataclass(frozen=True)
class NgerEmissions:
    """A controlling corporation's totals for the reporting year."""

    scope1_t_co2e: int | None
    scope2_t_co2e: int | None
    net_energy_consumed_gj: int | None
    identifying_details: str | None  # as published, usually the ABN with spaces
    notes: str | None  # the regulator's note, e.g. a facility that two corporations both report


def parse_nger(paths: Sequence[Path], options: SnapshotOptions) -> ParsedSnapshot:
    """The corporations of one NGER year.

    Raises:
        RegistryFileProblem: Not one readable CSV with the columns above, or no period known.
    """
    (path,) = paths
    table = find_table(read_csv(path), REQUIRED, WHAT)
    given = check_period(options.period) if options.period else None
    period = required(
        settle(financial_year_in_name(path), given, "period", path.name),
        "reporting period",
        "--period 2021-22",
        path.name,
    )
    records = [_record(table, row, period) for row in table.rows if table.text(row, NAME)]
    return ParsedSnapshot(RegistryKind.NGER, options.snapshot_date, period, records)


def _record(table: Table, row: Sequence[Cell], period: str) -> ParsedRecord[NgerEmissions]:
    name = table.text(row, NAME) or ""
    details_text = table.text(row, IDENTIFIERS)
    details = NgerEmissions(
        scope1_t_co2e=table.whole(row, SCOPE_1),
        scope2_t_co2e=table.whole(row, SCOPE_2),
        net_energy_consumed_gj=table.whole(row, ENERGY),
        identifying_details=details_text,
        notes=table.text(row, NOTES),
    )
    identifiers = _identifiers(details_text)
    key = next((f"{kind}:{value}" for kind, value in identifiers.items()), name)
    return ParsedRecord(key, name, details, identifiers, "AU", period)


def _identifiers(details: str | None) -> dict[str, str]:
    """The ABN (11 digits) or ACN (9 digits) in the identifying details, without spaces."""
    digits = _DIGITS.sub("", details or "")
    if len(digits) == 11:
        return {"abn": digits}
    if len(digits) == 9:
        return {"acn": digits}
    return {}
