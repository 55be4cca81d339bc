"""Hand-built snapshots and matched records of made-up companies (never real registry rows)."""

from __future__ import annotations

from datetime import date
from typing import Any

from app.registries.matched import MatchedRecord, SnapshotRef

SBTI = SnapshotRef(
    "s-sbti",
    "sbti",
    "SBTi Companies Taking Action",
    "Science Based Targets initiative",
    date(2026, 3, 5),
    None,
)
OLD_SBTI = SnapshotRef(
    "s-sbti-old",
    "sbti",
    "SBTi Companies Taking Action",
    "Science Based Targets initiative",
    date(2022, 6, 1),
    None,
)
TRACKER = SnapshotRef(
    "s-nzt", "net_zero_tracker", "Net Zero Tracker", "Net Zero Tracker", date(2026, 1, 15), None
)
NGER = SnapshotRef(
    "s-nger",
    "nger",
    "NGER corporate emissions and energy data",
    "Clean Energy Regulator (Australia)",
    None,
    "2021-22",
)
UK_ETS = SnapshotRef(
    "s-ukets", "uk_ets", "UK ETS compliance report", "UK ETS Authority", date(2025, 5, 1), "2021-2024"
)
GHGRP = SnapshotRef(
    "s-ghgrp",
    "epa_ghgrp",
    "US EPA Greenhouse Gas Reporting Program",
    "US Environmental Protection Agency",
    None,
    "2020",
)
ALL_SNAPSHOTS = (SBTI, TRACKER, NGER, UK_ETS, GHGRP)

WORDING = (
    "Vexmoor commits to reduce absolute scope 1 and 2 GHG emissions 72% by FY2031 from a FY2018 base year. "
    "Vexmoor also commits to reduce absolute scope 3 GHG emissions 28% within the same timeframe."
)


def _frame(
    status: str | None, year: int | None = None, classification: str | None = None, fiscal: bool = False
) -> dict[str, Any]:
    return {"status": status, "classification": classification, "year": year, "fiscal_year": fiscal}


def sbti_record(
    near_term: str | None = "Targets set",
    net_zero: str | None = None,
    *,
    long_term: str | None = None,
    wording: str | None = WORDING,
    updated: str | None = "2021-04-12",
    snapshot: SnapshotRef = SBTI,
    name: str = "Vexmoor AG",
    confidence: float = 0.98,
) -> MatchedRecord:
    data = {
        "sbti_id": "77",
        "near_term": _frame(near_term, 2031, "1.5°C", fiscal=True),
        "long_term": _frame(long_term, 2045 if long_term else None),
        "net_zero": _frame(net_zero, 2050 if net_zero else None),
        "target_wording": wording,
        "date_updated": updated,
    }
    return MatchedRecord(snapshot, "id:77", name, None, data, "isin", confidence)


def tracker_record(**fields: Any) -> MatchedRecord:
    data: dict[str, Any] = {
        "id_code": "COM-9",
        "end_target": "Net zero",
        "end_target_year": 2050,
        "end_target_status": "In corporate strategy",
        "interim_target": "Emissions reduction target",
        "scope1_coverage": "Yes",
        "scope2_coverage": "Yes",
        "scope3_coverage": "Partial",
        "published_plan": "Yes",
        "carbon_credits": "No",
        "last_updated": "2023-05-02",
    }
    data.update(fields)
    return MatchedRecord(TRACKER, "COM-9", "Vexmoor AG", None, data, "isin", 0.97)


def nger_record(
    scope1: int | None,
    scope2: int | None,
    *,
    key: str = "abn:11111111111",
    name: str = "Wombara Resources Ltd",
    period: str = "2021-22",
) -> MatchedRecord:
    data = {
        "scope1_t_co2e": scope1,
        "scope2_t_co2e": scope2,
        "net_energy_consumed_gj": None,
        "identifying_details": "11 111 111 111",
        "notes": None,
    }
    return MatchedRecord(NGER, key, name, period, data, "name", 0.95)


def uk_ets_record(emissions: int | None, *, operator: str, year: int, installation: str) -> MatchedRecord:
    data = {
        "year": year,
        "verified_emissions_t_co2e": emissions,
        "emissions_status": "recorded" if emissions is not None else "not submitted",
        "operator_id": operator,
        "installation_name": installation,
    }
    return MatchedRecord(UK_ETS, f"{operator}/{year}", "Harrowgate Cement plc", str(year), data, "name", 0.9)


def ghgrp_record(direct: float | None, *, facility: str, name: str, share: float | None) -> MatchedRecord:
    data: dict[str, Any] = {"facility_id": facility, "direct_emissions_t_co2e": direct, "parents": []}
    return MatchedRecord(GHGRP, facility, name, "2020", data, "parent_company", 0.92, share)
