"""SBTi Companies Taking Action: each company's near-term, long-term and net-zero target status.

The export (`companies-taking-action` .xlsx, one sheet) has one row per company with its SBTi id,
ISIN and LEI where known, country, sector, each time frame's status ("Targets set", "Committed",
"Commitment removed"), temperature classification and target year ("2030" or fiscal "FY2030"),
and the validated target wording. The snapshot date is the file name's date, else `--snapshot-date`,
else the latest `date_updated` in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from app.registries.cells import Cell
from app.registries.countries import country_code
from app.registries.dating import snapshot_date_of
from app.registries.records import ParsedRecord, ParsedSnapshot, RegistryKind, SnapshotOptions
from app.registries.tables import Table, find_table, read_workbook

WHAT = "the SBTi Companies Taking Action export"
REQUIRED = (
    "company_name",
    "isin",
    "lei",
    "location",
    "sector",
    "near_term_status",
    "near_term_target_classification",
    "near_term_target_year",
    "net_zero_status",
    "net_zero_year",
    "full_target_language",
    "date_updated",
)
#: The statuses SBTi gives a time frame (stored as written; other values are kept too).
TARGETS_SET = "Targets set"  # validated by SBTi
COMMITTED = "Committed"  # a commitment to set targets, not yet validated
COMMITMENT_REMOVED = "Commitment removed"  # expired or withdrawn commitment


@dataclass(frozen=True)
class SbtiTarget:
    """One time frame's target (near-term, long-term or net-zero)."""

    status: str | None
    classification: str | None  # "1.5°C", "Well-below 2°C", "2°C"...
    year: int | None
    fiscal_year: bool  # the year was written as a fiscal year ("FY2030")


@dataclass(frozen=True)
class SbtiTargets:
    """A company's entry in the list."""

    sbti_id: str | None
    organisation_type: str | None  # "Corporate", "SME", "Financial Institution"
    location: str | None  # the country as SBTi names it
    region: str | None
    sector: str | None
    near_term: SbtiTarget
    long_term: SbtiTarget
    net_zero: SbtiTarget
    target_wording: str | None  # the validated target language, verbatim
    business_ambition_1_5: bool  # a Business Ambition for 1.5°C member
    business_ambition_1_5_date: date | None
    reason_for_extension_or_removal: str | None
    date_updated: date | None


def parse_sbti(paths: Sequence[Path], options: SnapshotOptions) -> ParsedSnapshot:
    """The companies of one SBTi export.

    Raises:
        RegistryFileProblem: Not one readable export with the columns above, or dates in conflict.
    """
    (path,) = paths
    table = find_table(read_workbook(path), REQUIRED, WHAT)
    records = [_record(table, row) for row in table.rows if table.text(row, "company_name")]
    updates = (record.details.date_updated for record in records)
    snapshot_date = snapshot_date_of(path, options.snapshot_date, updates)
    return ParsedSnapshot(RegistryKind.SBTI, snapshot_date, options.period, records)


def _record(table: Table, row: Sequence[Cell]) -> ParsedRecord[SbtiTargets]:
    name = table.text(row, "company_name") or ""
    isin, lei, sbti_id = table.text(row, "isin"), table.text(row, "lei"), table.text(row, "sbti_id")
    location = table.text(row, "location")
    details = SbtiTargets(
        sbti_id=sbti_id,
        organisation_type=table.text(row, "organization_type"),
        location=location,
        region=table.text(row, "region"),
        sector=table.text(row, "sector"),
        near_term=_target(
            table, row, "near_term_status", "near_term_target_classification", "near_term_target_year"
        ),
        long_term=_target(
            table, row, "long_term_status", "long_term_target_classification", "long_term_target_year"
        ),
        net_zero=_target(table, row, "net_zero_status", None, "net_zero_year"),
        target_wording=table.text(row, "full_target_language"),
        business_ambition_1_5=table.text(row, "ba15_status") is not None,
        business_ambition_1_5_date=table.day(row, "ba15_date"),
        reason_for_extension_or_removal=table.text(row, "reason_for_extension_or_removal"),
        date_updated=table.day(row, "date_updated"),
    )
    identifiers = {key: value for key, value in (("isin", isin), ("lei", lei), ("sbti_id", sbti_id)) if value}
    key = f"id:{sbti_id}" if sbti_id else f"{name}|{isin or ''}"
    return ParsedRecord(key, name, details, identifiers, country_code(location))


def _target(
    table: Table, row: Sequence[Cell], status: str, classification: str | None, year: str
) -> SbtiTarget:
    written = table.text(row, year)
    return SbtiTarget(
        status=table.text(row, status),
        classification=table.text(row, classification) if classification else None,
        year=table.year(row, year),
        fiscal_year=bool(written and written.upper().startswith("FY")),
    )
