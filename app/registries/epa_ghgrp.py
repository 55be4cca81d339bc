"""US EPA GHGRP: each facility's reported emissions for one year, with its parent companies' shares.

Two files make one snapshot: the year's data summary (.xlsx: a "Direct Emitters" sheet and one
sheet per other segment, such as onshore oil and gas production, transmission pipelines or SF6 from
electrical equipment, plus "Suppliers", whose quantities are greenhouse gases in products supplied,
not the facility's own emissions) and the parent companies workbook (one row per facility and
parent, with the parent's ownership share and the emissions attributed to it). They may be given in
either order; each is recognised by its columns. A record is one facility, keyed by its GHGRP
facility id. The year comes from the summary's file name and the parents' REPORTING YEAR, else
`--period`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.registries.cells import Cell
from app.registries.dating import required, settle
from app.registries.records import (
    ParsedRecord,
    ParsedSnapshot,
    RegistryFileProblem,
    RegistryKind,
    SnapshotOptions,
)
from app.registries.tables import Sheet, Table, find_table, read_workbook

SUMMARY = "the GHGRP data summary"
PARENTS = "the GHGRP parent companies workbook"
FACILITY_ID = "Facility Id"
FACILITY_NAME = "Facility Name"
#: The emitter segments' sheets, by their total column, and the name a record gives each segment.
SEGMENTS = {
    "Total reported direct emissions": "direct emitters",
    "Total reported emissions from Onshore Oil & Gas Production": "onshore oil and gas production",
    "Total reported emissions from Gathering & Boosting": "gathering and boosting",
    "Total reported direct emissions from Transmission Pipelines": "transmission pipelines",
    "Total reported direct emissions from Local Distribution Companies": "local distribution companies",
    "Total reported direct emissions from Electrical Equipment Use": "electrical equipment use",
}
SUPPLIED = "total"
PARENT_COLUMNS = (
    "GHGRP FACILITY ID",
    "REPORTING YEAR",
    "PARENT COMPANY NAME",
    "PARENT CO. PERCENT OWNERSHIP",
)
_YEAR_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d|-\d)")


@dataclass(frozen=True)
class GhgrpParent:
    """A parent company of a facility."""

    name: str
    share_percent: float | None
    attributed_emissions_t_co2e: float | None  # the facility's emissions times the share (EPA's figure)


@dataclass(frozen=True)
class GhgrpFacility:
    """A facility's year."""

    facility_id: str
    frs_id: str | None
    city: str | None
    state: str | None
    naics_code: str | None
    subparts: str | None  # the GHGRP subparts it reports under ("C,D,PP")
    direct_emissions_t_co2e: float | None  # the sum over its emitter segments; None for a supplier only
    emissions_by_segment: dict[str, float] = field(default_factory=dict)
    supplied_t_co2e: float | None = None  # greenhouse gases in the products it supplies
    parents: list[GhgrpParent] = field(default_factory=list)


@dataclass
class _Facility:
    name: str
    facts: dict[str, str | None]
    segments: dict[str, float] = field(default_factory=dict)
    supplied: float | None = None


def parse_epa_ghgrp(paths: Sequence[Path], options: SnapshotOptions) -> ParsedSnapshot:
    """The facilities of one GHGRP year.

    Raises:
        RegistryFileProblem: Not the two workbooks, a required column missing, or no year known.
    """
    if len(paths) != 2:
        raise RegistryFileProblem(
            f"epa_ghgrp takes two files, the data summary and the parent companies workbook "
            f"({len(paths)} given)."
        )
    (summary_path, summary), (_, parent_sheets) = _roles([(path, read_workbook(path)) for path in paths])
    parents = find_table(parent_sheets, PARENT_COLUMNS, PARENTS)
    period = _period(summary_path, parents, options)
    facilities = _facilities(summary)
    owners = _parents(parents, int(period))
    records = [_record(key, facility, owners.get(key, []), period) for key, facility in facilities.items()]
    return ParsedSnapshot(RegistryKind.EPA_GHGRP, options.snapshot_date, period, records)


Book = tuple[Path, list[Sheet]]


def _roles(books: list[Book]) -> tuple[Book, Book]:
    """(the summary, the parents workbook), told apart by the parents' columns."""
    first, second = books
    try:
        find_table(second[1], PARENT_COLUMNS, PARENTS)
    except RegistryFileProblem:
        find_table(first[1], PARENT_COLUMNS, PARENTS)
        return second, first
    return first, second


def _period(summary: Path, parents: Table, options: SnapshotOptions) -> str:
    years = {year for row in parents.rows if (year := parents.year(row, "REPORTING YEAR")) is not None}
    match = _YEAR_IN_NAME.search(summary.name)
    named = str(match.group(1)) if match else None
    found = named or (str(next(iter(years))) if len(years) == 1 else None)
    period = required(
        settle(found, options.period, "year", summary.name), "year", "--period 2020", summary.name
    )
    if int(period) not in years:
        raise RegistryFileProblem(f"{parents.where} has no facility of {period} (the summary's year).")
    return period


def _facilities(sheets: list[Sheet]) -> dict[str, _Facility]:
    """Each facility of the summary, with its emissions per segment (a pipeline's states summed)."""
    direct = find_table(sheets, (FACILITY_ID, FACILITY_NAME, next(iter(SEGMENTS))), SUMMARY)
    tables = [(direct, SEGMENTS[next(iter(SEGMENTS))])]
    for column, segment in list(SEGMENTS.items())[1:]:
        tables.extend((table, segment) for table in _optional(sheets, (FACILITY_ID, FACILITY_NAME, column)))
    facilities: dict[str, _Facility] = {}
    for table, segment in tables:
        total = next(name for name, label in SEGMENTS.items() if label == segment)
        for row in table.rows:
            facility = _facility(facilities, table, row)
            amount = table.number(row, total) if facility else None
            if facility and amount is not None:
                facility.segments[segment] = round(facility.segments.get(segment, 0.0) + amount, 3)
    for table in _optional(sheets, (FACILITY_ID, FACILITY_NAME, SUPPLIED)):
        for row in table.rows:
            if (facility := _facility(facilities, table, row)) is not None:
                facility.supplied = table.number(row, SUPPLIED)
    return facilities


def _optional(sheets: list[Sheet], columns: tuple[str, ...]) -> list[Table]:
    try:
        return [find_table(sheets, columns, SUMMARY)]
    except RegistryFileProblem:
        return []


def _facility(facilities: dict[str, _Facility], table: Table, row: Sequence[Cell]) -> _Facility | None:
    key = table.text(row, FACILITY_ID)
    if key is None:
        return None
    if key not in facilities:
        facts = {
            "frs_id": table.text(row, "FRS Id"),
            "city": table.text(row, "City") or table.text(row, "Reported City"),
            "state": table.text(row, "State") or table.text(row, "Reported State"),
            "naics_code": table.text(row, "Primary NAICS Code"),
            "subparts": table.text(row, "Industry Type (subparts)"),
        }
        facilities[key] = _Facility(table.text(row, FACILITY_NAME) or key, facts)
    return facilities[key]


def _parents(table: Table, year: int) -> dict[str, list[GhgrpParent]]:
    """Each facility's parents in `year`, as listed (EPA may list one parent twice)."""
    owners: dict[str, list[GhgrpParent]] = {}
    for row in table.rows:
        key, name = table.text(row, "GHGRP FACILITY ID"), table.text(row, "PARENT COMPANY NAME")
        if key is None or name is None or table.year(row, "REPORTING YEAR") != year:
            continue
        share = table.number(row, "PARENT CO. PERCENT OWNERSHIP")
        owners.setdefault(key, []).append(
            GhgrpParent(name, share, table.number(row, "FAC_EMISSIONS_ADJUSTED"))
        )
    return owners


def _record(
    key: str, facility: _Facility, parents: list[GhgrpParent], period: str
) -> ParsedRecord[GhgrpFacility]:
    facts = facility.facts
    details = GhgrpFacility(
        facility_id=key,
        frs_id=facts["frs_id"],
        city=facts["city"],
        state=facts["state"],
        naics_code=facts["naics_code"],
        subparts=facts["subparts"],
        direct_emissions_t_co2e=round(sum(facility.segments.values()), 3) if facility.segments else None,
        emissions_by_segment=dict(facility.segments),
        supplied_t_co2e=facility.supplied,
        parents=parents,
    )
    identifiers = {"ghgrp_facility_id": key} | ({"frs_id": facts["frs_id"]} if facts["frs_id"] else {})
    return ParsedRecord(key, facility.name, details, identifiers, "US", period)
