"""Each registry's parser on small files of the real shape: good files, missing columns, wrong files,
and where a snapshot's date and period come from."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from app.registries.epa_ghgrp import GhgrpFacility, GhgrpParent, parse_epa_ghgrp
from app.registries.kinds import registry_spec
from app.registries.net_zero_tracker import parse_net_zero_tracker
from app.registries.nger import parse_nger
from app.registries.records import RegistryFileProblem, RegistryKind, SnapshotOptions, details_json
from app.registries.sbti import parse_sbti
from app.registries.uk_ets import parse_uk_ets
from tests.app.registries import files

NONE = SnapshotOptions()


def test_sbti_reads_each_time_frame_and_identifiers(tmp_path: Path) -> None:
    path = files.write_xlsx(
        tmp_path / "sbti-companies-taking-action-2026-03-05.xlsx", {"Data": files.sbti_rows()}
    )

    parsed = parse_sbti([path], NONE)

    assert (parsed.kind, parsed.snapshot_date, parsed.period) == (RegistryKind.SBTI, date(2026, 3, 5), None)
    karoo, harbour, taipei = parsed.records
    assert karoo.record_key == "id:40000001" and karoo.normalised_name == "karoo metals"
    assert karoo.identifiers == {"isin": "DE0000000001", "lei": "529900KAROO000000001", "sbti_id": "40000001"}
    assert karoo.country == "DE"
    data = details_json(karoo.details)
    assert data["near_term"] == {
        "status": "Targets set",
        "classification": "1.5°C",
        "year": 2030,
        "fiscal_year": True,
    }
    assert data["long_term"]["year"] == 2050 and data["net_zero"]["fiscal_year"] is True
    assert data["business_ambition_1_5"] is True and data["business_ambition_1_5_date"] == "2021-08-19"
    assert data["date_updated"] == "2024-09-19"
    assert harbour.details.near_term.status == "Committed" and harbour.identifiers == {"sbti_id": "40000002"}
    assert taipei.country == "TW" and taipei.normalised_name == "taipei chips"
    assert taipei.details.reason_for_extension_or_removal == "Expired commitment"


def test_sbti_date_comes_from_the_option_or_the_latest_update_when_the_name_has_none(tmp_path: Path) -> None:
    path = files.write_xlsx(tmp_path / "sbti.xlsx", {"Data": files.sbti_rows()})

    assert parse_sbti([path], SnapshotOptions(date(2026, 3, 6))).snapshot_date == date(2026, 3, 6)
    assert parse_sbti([path], NONE).snapshot_date == date(2026, 3, 5)


def test_a_date_in_the_name_and_another_in_the_command_are_refused(tmp_path: Path) -> None:
    path = files.write_xlsx(tmp_path / "sbti-2026-03-05.xlsx", {"Data": files.sbti_rows()})

    with pytest.raises(
        RegistryFileProblem, match="gives the snapshot date 2026-03-05, but the command gives 2026-01-01"
    ):
        parse_sbti([path], SnapshotOptions(date(2026, 1, 1)))


def test_net_zero_tracker_skips_the_band_above_the_header_and_keeps_companies_only(tmp_path: Path) -> None:
    path = files.write_xlsx(
        tmp_path / "net-zero-tracker-companies-2025-11-09.xlsx",
        {"Current Snapshot": files.nzt_rows(), "README": [["README"], ["Thanks."]]},
    )

    parsed = parse_net_zero_tracker([path], NONE)

    assert parsed.snapshot_date == date(2025, 11, 9)
    assert [record.record_key for record in parsed.records] == ["COM-0001", "COM-0002"]
    karoo = parsed.records[0]
    assert karoo.country == "DE" and karoo.identifiers == {
        "isin": "DE0000000001",
        "net_zero_tracker_id": "COM-0001",
    }
    assert (karoo.details.end_target, karoo.details.end_target_year) == ("Net zero", 2050)
    assert karoo.details.interim_target_percentage_reduction == 42.0 and karoo.details.carbon_credits == "Yes"
    assert karoo.details.last_updated == date(2025, 8, 6)
    assert parsed.records[1].details.end_target_year is None


def test_uk_ets_gives_one_record_per_account_and_year_of_operation(tmp_path: Path) -> None:
    path = files.write_xlsx(
        tmp_path / "uk-ets-compliance-report-2025-06-11.xlsx",
        {"Information": [], "Data": files.uk_ets_rows()},
    )

    parsed = parse_uk_ets([path], NONE)

    assert (parsed.snapshot_date, parsed.period) == (date(2025, 6, 11), "2021-2023")
    by_key = {record.record_key: record for record in parsed.records}
    assert sorted(by_key) == [
        "1000000/2021", "1000000/2022", "1000000/2023",
        "1000001/2021", "1000001/2022", "1000001/2023",
        "1000002/2022", "1000002/2023",
    ]  # fmt: skip
    smelter = by_key["1000000/2022"]
    assert (
        smelter.entity_name == "Karoo Metals UK Limited"
        and smelter.period == "2022"
        and smelter.country == "GB"
    )
    assert smelter.details.verified_emissions_t_co2e == 21684 and smelter.details.surrender_status == "A"
    assert smelter.details.installation_name == "Karoo Smelter" and smelter.details.nace_code == "2442"
    assert by_key["1000001/2021"].details.emissions_status == "excluded"
    late = by_key["1000002/2023"].details
    assert (late.verified_emissions_t_co2e, late.emissions_status, late.surrender_status) == (
        None,
        "not submitted",
        "C",
    )


def test_uk_ets_needs_a_snapshot_date(tmp_path: Path) -> None:
    path = files.write_xlsx(tmp_path / "uk-ets.xlsx", {"Data": files.uk_ets_rows()})

    with pytest.raises(
        RegistryFileProblem,
        match="uk-ets.xlsx does not state its snapshot date: give it with --snapshot-date",
    ):
        parse_uk_ets([path], NONE)
    assert parse_uk_ets([path], SnapshotOptions(date(2025, 6, 1))).snapshot_date == date(2025, 6, 1)


def test_ghgrp_sums_segments_and_attaches_parents_whatever_the_order_of_files(tmp_path: Path) -> None:
    summary = files.write_xlsx(tmp_path / "us-epa-ghgrp-2020-data-summary.xlsx", files.ghgrp_summary_sheets())
    parents = files.write_xlsx(tmp_path / "parents.xlsx", files.ghgrp_parent_sheets())

    parsed = parse_epa_ghgrp([parents, summary], NONE)

    assert parsed.period == "2020" and parsed.snapshot_date is None
    by_key = {record.record_key: record for record in parsed.records}
    plant = by_key["1000001"]
    assert isinstance(plant.details, GhgrpFacility)
    assert plant.entity_name == "Karoo Power Plant" and plant.period == "2020" and plant.country == "US"
    assert plant.identifiers == {"ghgrp_facility_id": "1000001", "frs_id": "110000000001"}
    assert plant.details.emissions_by_segment == {
        "direct emitters": 1000000.5,
        "electrical equipment use": 1158.25,
    }
    assert plant.details.direct_emissions_t_co2e == 1001158.75 and plant.details.state == "AL"
    assert plant.details.parents == [
        GhgrpParent("KAROO ENERGY CORP", 95.92, 960311.5),
        GhgrpParent("SOUTHERN COOP", 4.08, 40847.2),
    ]
    assert by_key["1000002"].details.emissions_by_segment == {"transmission pipelines": 400.75}
    supplier = by_key["1000003"].details
    assert (
        supplier.direct_emissions_t_co2e is None
        and supplier.supplied_t_co2e == 5000000.0
        and supplier.parents == []
    )


def test_ghgrp_refuses_two_summaries_and_a_year_the_parents_do_not_have(tmp_path: Path) -> None:
    summary = files.write_xlsx(tmp_path / "us-epa-ghgrp-2021-data-summary.xlsx", files.ghgrp_summary_sheets())
    parents = files.write_xlsx(tmp_path / "parents.xlsx", files.ghgrp_parent_sheets())

    with pytest.raises(RegistryFileProblem, match="has no facility of 2021"):
        parse_epa_ghgrp([summary, parents], NONE)
    with pytest.raises(
        RegistryFileProblem, match="-summary.xlsx has none of the columns of the GHGRP parent"
    ):
        parse_epa_ghgrp([summary, summary], NONE)
    with pytest.raises(RegistryFileProblem, match="takes 2 file"):
        registry_spec(RegistryKind.EPA_GHGRP, [summary])


def test_nger_reads_thousands_separators_abns_and_the_period_in_the_name(tmp_path: Path) -> None:
    path = files.write_csv(tmp_path / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())

    parsed = parse_nger([path], NONE)

    assert (parsed.period, parsed.snapshot_date) == ("2021-22", None)
    karoo, harbour, glen = parsed.records
    assert karoo.record_key == "abn:96004458404" and karoo.entity_name == "KAROO METALS LIMITED"
    assert karoo.normalised_name == "karoo metals" and karoo.period == "2021-22" and karoo.country == "AU"
    assert (karoo.details.scope1_t_co2e, karoo.details.scope2_t_co2e) == (7405060, 7690487)
    assert karoo.details.net_energy_consumed_gj == 144608226 and karoo.details.notes is None
    assert harbour.normalised_name == "harbour shipping asia" and harbour.details.scope2_t_co2e == 0
    assert glen.details.notes is not None and "\n" in glen.details.notes


def test_nger_needs_a_period(tmp_path: Path) -> None:
    path = files.write_csv(tmp_path / "nger.csv", files.nger_rows())

    with pytest.raises(
        RegistryFileProblem, match="nger.csv does not state its reporting period: give it with --period"
    ):
        parse_nger([path], NONE)
    assert parse_nger([path], SnapshotOptions(period="2022-23")).period == "2022-23"
    with pytest.raises(RegistryFileProblem, match="not a year"):
        parse_nger([path], SnapshotOptions(period="last year"))


@pytest.mark.parametrize(
    ("kind", "column"),
    [
        (RegistryKind.SBTI, "near_term_status"),
        (RegistryKind.NET_ZERO_TRACKER, "End_target_year"),
        (RegistryKind.UK_ETS, "Operator ID"),
        (RegistryKind.NGER, "Total scope 1 emissions (t CO2-e)"),
    ],
)
def test_a_missing_column_is_named(tmp_path: Path, kind: RegistryKind, column: str) -> None:
    path = _without_column(tmp_path, kind, column)

    with pytest.raises(RegistryFileProblem) as refused:
        registry_spec(kind, [path]).parse([path], SnapshotOptions(date(2025, 1, 1), "2021-22"))

    assert f"lacks the column(s) {column} that" in str(refused.value)


def test_a_ghgrp_summary_without_its_total_is_named(tmp_path: Path) -> None:
    sheets = files.ghgrp_summary_sheets()
    sheets["Direct Emitters"] = files.without(
        files.GHGRP_DIRECT_HEADER, sheets["Direct Emitters"], "Total reported direct emissions"
    )
    summary = files.write_xlsx(tmp_path / "us-epa-ghgrp-2020-data-summary.xlsx", sheets)
    parents = files.write_xlsx(tmp_path / "parents.xlsx", files.ghgrp_parent_sheets())

    with pytest.raises(RegistryFileProblem, match="lacks the column.s. Total reported direct emissions"):
        parse_epa_ghgrp([summary, parents], NONE)


@pytest.mark.parametrize("kind", [RegistryKind.SBTI, RegistryKind.UK_ETS, RegistryKind.NET_ZERO_TRACKER])
def test_a_file_that_is_not_a_workbook_or_another_registry_is_refused(
    tmp_path: Path, kind: RegistryKind
) -> None:
    not_a_workbook = tmp_path / "report.xlsx"
    not_a_workbook.write_bytes(b"%PDF-1.7 not a spreadsheet")
    other = files.write_xlsx(
        tmp_path / "other-2025-01-01.xlsx", {"Sheet": [["Name", "Revenue"], ["Acme", 1.0]]}
    )
    parse = registry_spec(kind, [other]).parse

    with pytest.raises(RegistryFileProblem, match="report.xlsx is not a readable Excel workbook"):
        parse([not_a_workbook], NONE)
    with pytest.raises(RegistryFileProblem, match="is it the right file|lacks the column"):
        parse([other], NONE)
    with pytest.raises(RegistryFileProblem, match="does not exist"):
        parse([tmp_path / "missing.xlsx"], NONE)


def test_a_csv_that_is_not_nger_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "data-2021-22.csv"
    binary.write_bytes(b"PK\x03\x04\x00\x00 zipped")
    other = files.write_csv(tmp_path / "other-2021-22.csv", [["Company", "Revenue"], ["Acme", "1"]])

    with pytest.raises(RegistryFileProblem, match="is not a CSV file"):
        parse_nger([binary], NONE)
    with pytest.raises(RegistryFileProblem, match="has none of the columns of the NGER"):
        parse_nger([other], NONE)


def test_a_bad_number_is_refused_with_its_row_and_column(tmp_path: Path) -> None:
    rows = files.nger_rows()
    rows[2][2] = "about 120 kt"
    path = files.write_csv(tmp_path / "nger-2021-22.csv", rows)

    with pytest.raises(
        RegistryFileProblem, match="data row 2, column 'Total scope 1 emissions .t CO2-e.': expected a number"
    ):
        parse_nger([path], NONE)


def _without_column(tmp_path: Path, kind: RegistryKind, column: str) -> Path:
    if kind is RegistryKind.NGER:
        return files.write_csv(
            tmp_path / "nger.csv", files.without(files.NGER_HEADER, files.nger_rows(), column)
        )
    if kind is RegistryKind.SBTI:
        sheets = {"Data": files.without(files.SBTI_HEADER, files.sbti_rows(), column)}
    elif kind is RegistryKind.UK_ETS:
        sheets = {"Data": files.without(files.UK_ETS_HEADER, files.uk_ets_rows(), column)}
    else:
        rows = files.nzt_rows()
        sheets = {"Current Snapshot": rows[:1] + files.without(files.NZT_HEADER, rows[1:], column)}
    return files.write_xlsx(tmp_path / "registry.xlsx", sheets)
