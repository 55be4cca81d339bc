"""Small registry files of the real downloads' shape, written by the tests themselves.

Column names, sheet names, header bands and value styles (ids as floats, "FY2030", "7,405,060",
"EXCLUDED") follow the real files; the companies and numbers are made up.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook

Rows = list[list[object]]

SBTI_HEADER = (
    "sbti_id|company_name|isin|lei|organization_type|location|region|sector|near_term_status|"
    "near_term_target_classification|near_term_target_year|long_term_status|"
    "long_term_target_classification|long_term_target_year|net_zero_status|net_zero_year|"
    "full_target_language|ba15_status|ba15_date|target_classification_long|"
    "reason_for_extension_or_removal|date_updated"
).split("|")
NZT_HEADER = (
    "Last_updated|ID_Code|ISIN_ID|Name|Country|Geographic_region|Entity_type|Private_company|"
    "End_target|End_target_percentage_reduction|End_target_baseline_year|End_target_year|"
    "Status_of_end_target|Date_of_last_status_update|End_target_text|End_target_source_url|"
    "Interim_target|Interim_target_year|Interim_target_percentage_reduction|"
    "Interim_target_baseline_year|Interim_target_text|Scope_1_coverage|Scope_2_coverage|"
    "Scope_3_coverage|Published_plan|Carbon_credits|Carbon_credits_conditions|"
    "Separate_removal_target|Planning_removals|Industry"
).split("|")
UK_ETS_HEADER = (
    "Regulator|Account Holder Name|Account type|Account status|Operator ID|"
    "Permit ID or Monitoring plan ID|Installation name|First Year of Operation|"
    "Last Year of Operation|Recorded emissions 2021|Recorded emissions 2022|"
    "Recorded emissions 2023|Cumulative emissions|Cumulative surrenders|"
    "Static surrender status 2021|Static surrender status 2022|Static surrender status 2023|"
    "NACE Code|NACE Description"
).split("|")
GHGRP_DIRECT_HEADER = (
    "Facility Id|FRS Id|Facility Name|City|State|Zip Code|Address|County|Latitude|Longitude|"
    "Primary NAICS Code|Industry Type (subparts)|Industry Type (sectors)|"
    "Total reported direct emissions|CO2 emissions (non-biogenic) "
).split("|")
GHGRP_SF6_HEADER = [
    "Facility Id",
    "FRS Id",
    "Facility Name",
    "Reported City",
    "Reported State",
    "Primary NAICS Code",
    "Industry Type (subparts)",
    "Total reported direct emissions from Electrical Equipment Use",
    "SF6 emissions ",
]
GHGRP_PIPELINE_HEADER = (
    "Facility Id|FRS Id|Facility Name|State where Emissions Occur|Reported City|"
    "Reported State|Primary NAICS Code|Industry Type (subparts)|"
    "Total reported direct emissions from Transmission Pipelines"
).split("|")
GHGRP_PARENT_HEADER = (
    "|GHGRP FACILITY ID|FRS ID (FACILITY)|REPORTING YEAR|FACILITY NAME|FACILITY STATE|"
    "PARENT COMPANY NAME|PARENT CO. PERCENT OWNERSHIP|FACILITY NAICS CODE|FAC_EMISSIONS|"
    "FAC_EMISSIONS_ADJUSTED"
).split("|")
NGER_HEADER = (
    "Organisation name|Identifying details|Total scope 1 emissions (t CO2-e)|"
    "Total scope 2 emissions (t CO2-e)|Net energy consumed (GJ)|Important notes"
).split("|")


def write_xlsx(path: Path, sheets: dict[str, Rows]) -> Path:
    workbook = Workbook(write_only=True)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
    workbook.save(path)
    return path


def write_csv(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8-sig") as handle:
        csv.writer(handle, lineterminator="\r\n").writerows(rows)
    return path


def without(header: list[str], rows: Rows, column: str) -> Rows:
    """The rows with one column taken out (for the missing-column refusals)."""
    index = header.index(column)
    return [row[:index] + row[index + 1 :] for row in rows]


def sbti_rows(extra: int = 0) -> Rows:
    """Header and three companies (plus `extra` more): validated, committed, removed."""
    rows: Rows = [
        SBTI_HEADER,
        [40000001.0, "Karoo Metals AG", "DE0000000001", "529900KAROO000000001", "Corporate", "Germany",
         "Europe", "Mining", "Targets set", "1.5°C", "FY2030", "Targets set", "1.5°C", 2050.0,
         "Targets set", "FY2050",
         "Karoo Metals AG commits to reduce absolute scope 1 and 2 GHG emissions 42% by FY2030.",
         "BA1.5 member", datetime(2021, 8, 19, 1, 0), "The targets ... 1.5°C", None,
         datetime(2024, 9, 19, 1, 0)],
        [40000002.0, "Harbour Foods plc", None, None, "SME", "United Kingdom", "Europe", "Food",
         "Committed", None, None, None, None, None, "Committed", None, None, None, None, None, None,
         datetime(2026, 3, 5, 1, 0)],
        [40000003.0, "Taipei Chips Co., Ltd.", "TW0000000003", None, "Corporate",
         "Taiwan, Province of China", "Asia", "Semiconductors", "Commitment removed", None, None, None,
         None, None, "Commitment removed", None, None, None, None, None, "Expired commitment",
         datetime(2025, 1, 9, 1, 0)],
    ]  # fmt: skip
    for number in range(extra):
        rows.append(
            [50000000.0 + number, f"Extra Company {number} Ltd", None, None, "SME", "France", "Europe",
             "Retail", "Targets set", "1.5°C", 2030.0, None, None, None, None, None, "Wording.", None, None,
             None, None, datetime(2026, 3, 5, 1, 0)]
        )  # fmt: skip
    return rows


def nzt_rows() -> Rows:
    """The category band, the header, two companies and a country (which is not imported)."""
    band = ["Identification", "", "", "Entity type and location"] + [""] * (len(NZT_HEADER) - 4)
    return [
        band,
        NZT_HEADER,
        ["2025-08-06 10:00:00", "COM-0001", "DE0000000001", "Karoo Metals", "DEU", "Europe", "Company",
         "No", "Net zero", "", "", 2050.0, "In corporate strategy", 2022.0, "Net zero by 2050.",
         "https://example.org/a", "Emissions reduction target", 2030.0, 42.0, 2019.0, "42% by 2030.",
         "Yes", "Yes", "Partial", "Yes", "Yes", "Must be high environmental integrity", "No",
         "Not Specified", "Materials"],
        ["2025-09-01 08:00:00", "COM-0002", "", "Harbour Foods", "GBR", "Europe", "Company", "Yes",
         "No target", "", "", "", "", "", "", "", "No target", "", "", "", "", "", "", "", "No",
         "Not Specified", "", "", "", "Food, beverage & agriculture"],
        ["2025-08-01 20:54:06", "COU-0001", "", "Ruritania", "RUR", "Europe", "Country", "",
         "Net zero", "", "", 2050.0, "In law", 2021.0, "", "", "", "", "", "", "", "", "", "", "", "",
         "", "", "", ""],
    ]  # fmt: skip


def uk_ets_rows() -> Rows:
    """An installation since 2021, an excluded aircraft operator, one open from 2022 to 2023."""
    return [
        UK_ETS_HEADER,
        ["EA", "Karoo Metals UK Limited", "OPERATOR_HOLDING_ACCOUNT", "OPEN", 1000000.0,
         "UK-E-IN-10001", "Karoo Smelter", 2021.0, "", 22319.0, 21684.0, 18190.0, 62193.0, 62193.0,
         "A", "A", "A", 2442.0, "Aluminium production"],
        ["EA", "Sky Charter Ltd", "AIRCRAFT_OPERATOR_HOLDING_ACCOUNT", "OPEN", 1000001.0,
         "UK-E-AO-20001", "", 2021.0, "", "EXCLUDED", "EXCLUDED", "EXCLUDED", 0.0, 0.0, "EXCLUDED",
         "EXCLUDED", "EXCLUDED", "", ""],
        ["SEPA", "Glen Power Limited", "OPERATOR_HOLDING_ACCOUNT", "CLOSED", 1000002.0,
         "UK-S-IN-30001", "Glen Power Station", 2022.0, 2023.0, "", 5000.0, "", 5000.0, 5000.0, "",
         "A", "C", 3511.0, "Production of electricity"],
    ]  # fmt: skip


def ghgrp_summary_sheets() -> dict[str, Rows]:
    """A power plant (also in the SF6 sheet), a pipeline reported in two states, a supplier only."""
    return {
        "DE Pivot": [["Row Labels", "Sum of Total reported direct emissions"], [1000001.0, 1234.5]],
        "Direct Emitters": [
            GHGRP_DIRECT_HEADER,
            [1000001.0, "110000000001", "Karoo Power Plant", "QUINTON", "AL", "35130", "1 Plant Rd",
             "WALKER", 33.6, -87.0, "221112", "C,D,DD", "Power Plants", 1000000.5, 999000.0],
        ],
        "Transmission Pipelines": [
            GHGRP_PIPELINE_HEADER,
            [1000002.0, "110000000002", "Karoo Gas Transmission", "Texas", "Houston", "TX", "486210",
             "W-TRANS", 300.25],
            [1000002.0, "110000000002", "Karoo Gas Transmission", "Oklahoma", "Houston", "TX",
             "486210", "W-TRANS", 100.5],
        ],
        "SF6 from Elec. Equip.": [
            GHGRP_SF6_HEADER,
            [1000001.0, "110000000001", "Karoo Power Plant", "Quinton", "AL", "221112", "DD", 1158.25,
             1158.25],
        ],
        "Suppliers": [
            ["Facility Id", "FRS Id", "Facility Name", "City", "State", "Primary NAICS Code", "total"],
            [1000003.0, "", "Karoo Fuels Terminal", "HOUSTON", "TX", "424710", 5000000.0],
        ],
    }  # fmt: skip


def ghgrp_parent_sheets() -> dict[str, Rows]:
    """The plant's two parents and the pipeline's one, for 2020."""
    return {
        "DE_parentcompanies": [
            GHGRP_PARENT_HEADER,
            [0.0, 1000001.0, 110000000001.0, 2020.0, "Karoo Power Plant", "AL", "KAROO ENERGY CORP",
             95.92, 221112.0, 1001158.75, 960311.5],
            [1.0, 1000001.0, 110000000001.0, 2020.0, "Karoo Power Plant", "AL", "SOUTHERN COOP", 4.08,
             221112.0, 1001158.75, 40847.2],
            [2.0, 1000002.0, 110000000002.0, 2020.0, "Karoo Gas Transmission", "TX",
             "KAROO ENERGY CORP", 100.0, 486210.0, 400.75, 400.75],
        ],
    }  # fmt: skip


def nger_rows() -> Rows:
    """Three corporations, one with a regulator's note over two lines."""
    return [
        NGER_HEADER,
        ["KAROO METALS LIMITED", "96 004 458 404", "7,405,060", "7,690,487", "144,608,226", "-"],
        ["HARBOUR SHIPPING (ASIA) PTE LTD", "71 242 047 864", "122,674", "0", "1,661,107", "-"],
        ["GLEN POWER PTY LTD", "54 078 848 745", "11,070,449", "45,936", "79,227,439",
         "Both corporations report the same data for\nthe Glen Power Station."],
    ]  # fmt: skip
