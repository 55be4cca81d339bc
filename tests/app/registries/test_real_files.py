"""The real registry downloads beside the project (skipped when ../shared is absent), imported whole.

Only counts and a few values read from the files are asserted; no row is copied into the
repository. Import times are measured by `bench.registry_import`, not asserted here (machines
differ in speed).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import RegistryRecord
from app.db.session import SessionFactory
from app.registries.importer import ImportOutcome, import_registry
from app.registries.records import RegistryKind

REGISTRIES = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "registries"
SBTI = "sbti-companies-taking-action-2026-03-05.xlsx"
NZT = "net-zero-tracker-companies-2025-11-09.xlsx"
UK_ETS = "uk-ets-compliance-report-2025-06-11.xlsx"
GHGRP = ("us-epa-ghgrp-2020-data-summary.xlsx", "us-epa-ghgrp-parent-companies-2010-2020.xlsx")
NGER = "au-nger-corporate-emissions-2021-22.csv"

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(not REGISTRIES.is_dir(), reason="../shared/data/registries is not present"),
    pytest.mark.usefixtures("no_registries"),
]


async def imported(session_factory: SessionFactory, kind: RegistryKind, *names: str) -> ImportOutcome:
    return await import_registry(session_factory, kind, [REGISTRIES / name for name in names])


async def records_named(session_factory: SessionFactory, normalised_name: str) -> list[RegistryRecord]:
    async with session_factory() as session:
        found = await session.scalars(
            select(RegistryRecord).where(RegistryRecord.normalised_name == normalised_name)
        )
        return list(found)


async def test_sbti(session_factory: SessionFactory) -> None:
    outcome = await imported(session_factory, RegistryKind.SBTI, SBTI)

    assert (outcome.snapshot.record_count, outcome.snapshot.snapshot_date) == (14152, date(2026, 3, 5))
    (siemens,) = await records_named(session_factory, "siemens")
    assert siemens.entity_name == "Siemens AG" and siemens.country == "DE"
    assert siemens.identifiers == {
        "isin": "DE0007236101",
        "lei": "W38RGI023J3WT1HWRP32",
        "sbti_id": "40003681",
    }
    assert siemens.data["near_term"] == {
        "status": "Targets set",
        "classification": "1.5°C",
        "year": 2030,
        "fiscal_year": True,
    }
    assert siemens.data["net_zero"]["year"] == 2050
    (volkswagen,) = await records_named(session_factory, "volkswagen")
    assert volkswagen.entity_name == "Volkswagen AG" and volkswagen.identifiers["isin"] == "DE0007664039"
    assert volkswagen.data["near_term"]["classification"] == "1.5°C/2°C"
    assert volkswagen.data["net_zero"]["status"] is None


async def test_net_zero_tracker(session_factory: SessionFactory) -> None:
    outcome = await imported(session_factory, RegistryKind.NET_ZERO_TRACKER, NZT)

    assert (outcome.snapshot.record_count, outcome.snapshot.snapshot_date) == (2087, date(2025, 11, 9))
    (siemens,) = await records_named(session_factory, "siemens")
    assert siemens.record_key == "COM-0071" and siemens.identifiers["isin"] == "DE0007236101"
    assert (siemens.data["end_target"], siemens.data["end_target_year"]) == ("Net zero", 2050)
    assert siemens.data["interim_target_percentage_reduction"] == 55.0


async def test_uk_ets(session_factory: SessionFactory) -> None:
    outcome = await imported(session_factory, RegistryKind.UK_ETS, UK_ETS)

    snapshot = outcome.snapshot
    assert (snapshot.record_count, snapshot.snapshot_date, snapshot.period) == (
        4674,
        date(2025, 6, 11),
        "2021-2024",
    )
    years = {record.period: record for record in await records_named(session_factory, "aak international")}
    assert sorted(years) == ["2021", "2022", "2023", "2024"]
    assert years["2021"].record_key == "1000000/2021"
    assert [years[year].data["verified_emissions_t_co2e"] for year in sorted(years)] == [
        22319,
        21684,
        18190,
        17507,
    ]


async def test_epa_ghgrp(session_factory: SessionFactory) -> None:
    outcome = await imported(session_factory, RegistryKind.EPA_GHGRP, *GHGRP)

    assert (outcome.snapshot.record_count, outcome.snapshot.period) == (8077, "2020")
    (plant,) = await records_named(session_factory, "james h miller jr")
    assert plant.record_key == "1007227" and plant.data["direct_emissions_t_co2e"] == 17232897.61
    assert [(p["name"], p["share_percent"]) for p in plant.data["parents"]] == [
        ("THE SOUTHERN CO", 95.92),
        ("POWERSOUTH ENERGY COOPERATIVE", 4.08),
    ]


async def test_nger(session_factory: SessionFactory) -> None:
    outcome = await imported(session_factory, RegistryKind.NGER, NGER)

    assert (outcome.snapshot.record_count, outcome.snapshot.period) == (417, "2021-22")
    (rio,) = await records_named(session_factory, "rio tinto")
    assert (rio.entity_name, rio.identifiers, rio.period) == (
        "RIO TINTO LIMITED",
        {"abn": "96004458404"},
        "2021-22",
    )
    assert (rio.data["scope1_t_co2e"], rio.data["scope2_t_co2e"]) == (7405060, 7690487)
