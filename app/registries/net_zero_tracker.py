"""The Net Zero Tracker: companies' own end targets (net zero or other), interim targets and integrity.

The export (.xlsx, sheet "Current Snapshot") has a band of category names above its header row,
and tracks countries, regions and cities too: only rows whose `Entity_type` is "Company" are
imported. A record is keyed by the tracker's `ID_Code`. The snapshot date comes from the file name,
else `--snapshot-date`, else the latest `Last_updated` in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from app.registries.cells import Cell
from app.registries.countries import country_code_of_iso3
from app.registries.dating import snapshot_date_of
from app.registries.records import ParsedRecord, ParsedSnapshot, RegistryKind, SnapshotOptions
from app.registries.tables import Table, column_key, find_table, read_workbook

WHAT = "the Net Zero Tracker export"
REQUIRED = (
    "ID_Code",
    "ISIN_ID",
    "Name",
    "Country",
    "Entity_type",
    "End_target",
    "End_target_year",
    "Status_of_end_target",
    "Interim_target",
    "Interim_target_year",
    "Published_plan",
    "Carbon_credits",
)
COMPANY = "company"


@dataclass(frozen=True)
class NetZeroTarget:
    """A company's targets as the tracker records them."""

    id_code: str
    country_iso3: str | None
    end_target: str | None  # "Net zero", "Carbon neutral(ity)", "Emissions reduction target", "No target"...
    end_target_year: int | None
    end_target_percentage_reduction: float | None
    end_target_baseline_year: int | None
    end_target_status: (
        str | None
    )  # "In corporate strategy", "Declaration / pledge", "Achieved (self-declared)"...
    end_target_status_year: int | None
    end_target_text: str | None
    end_target_source_url: str | None
    interim_target: str | None
    interim_target_year: int | None
    interim_target_percentage_reduction: float | None
    interim_target_baseline_year: int | None
    interim_target_text: str | None
    scope1_coverage: str | None  # "Yes", "No", "Partial", "Not Specified"
    scope2_coverage: str | None
    scope3_coverage: str | None
    published_plan: str | None
    carbon_credits: str | None  # whether the target may be met with offsets
    carbon_credits_conditions: str | None
    separate_removal_target: str | None
    planning_removals: str | None
    industry: str | None
    last_updated: date | None


def parse_net_zero_tracker(paths: Sequence[Path], options: SnapshotOptions) -> ParsedSnapshot:
    """The companies of one tracker export.

    Raises:
        RegistryFileProblem: Not one readable export with the columns above, or dates in conflict.
    """
    (path,) = paths
    table = find_table(read_workbook(path), REQUIRED, WHAT)
    records = [
        _record(table, row)
        for row in table.rows
        if column_key(table.text(row, "Entity_type")) == COMPANY and table.text(row, "ID_Code")
    ]
    updates = (record.details.last_updated for record in records)
    snapshot_date = snapshot_date_of(path, options.snapshot_date, updates)
    return ParsedSnapshot(RegistryKind.NET_ZERO_TRACKER, snapshot_date, options.period, records)


def _record(table: Table, row: Sequence[Cell]) -> ParsedRecord[NetZeroTarget]:
    id_code, isin, iso3 = (
        table.text(row, "ID_Code") or "",
        table.text(row, "ISIN_ID"),
        table.text(row, "Country"),
    )
    details = NetZeroTarget(
        id_code=id_code,
        country_iso3=iso3,
        end_target=table.text(row, "End_target"),
        end_target_year=table.year(row, "End_target_year"),
        end_target_percentage_reduction=table.number(row, "End_target_percentage_reduction"),
        end_target_baseline_year=table.year(row, "End_target_baseline_year"),
        end_target_status=table.text(row, "Status_of_end_target"),
        end_target_status_year=table.year(row, "Date_of_last_status_update"),
        end_target_text=table.text(row, "End_target_text"),
        end_target_source_url=table.text(row, "End_target_source_url"),
        interim_target=table.text(row, "Interim_target"),
        interim_target_year=table.year(row, "Interim_target_year"),
        interim_target_percentage_reduction=table.number(row, "Interim_target_percentage_reduction"),
        interim_target_baseline_year=table.year(row, "Interim_target_baseline_year"),
        interim_target_text=table.text(row, "Interim_target_text"),
        scope1_coverage=table.text(row, "Scope_1_coverage"),
        scope2_coverage=table.text(row, "Scope_2_coverage"),
        scope3_coverage=table.text(row, "Scope_3_coverage"),
        published_plan=table.text(row, "Published_plan"),
        carbon_credits=table.text(row, "Carbon_credits"),
        carbon_credits_conditions=table.text(row, "Carbon_credits_conditions"),
        separate_removal_target=table.text(row, "Separate_removal_target"),
        planning_removals=table.text(row, "Planning_removals"),
        industry=table.text(row, "Industry"),
        last_updated=table.day(row, "Last_updated"),
    )
    identifiers = {"isin": isin, "net_zero_tracker_id": id_code} if isin else {"net_zero_tracker_id": id_code}
    name = table.text(row, "Name") or id_code
    return ParsedRecord(id_code, name, details, identifiers, country_code_of_iso3(iso3))
