"""The small readers every parser shares: names, cells, dates and periods in file names, countries."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from app.registries import cells
from app.registries.countries import country_code, country_code_of_iso3
from app.registries.dating import check_period, date_in_name, financial_year_in_name
from app.registries.records import RegistryFileProblem


def test_cells_read_as_registries_write_them() -> None:
    assert [cells.text(v) for v in (None, "", " - ", "N/A", 1000000.0, 2.5, " Karoo ")] == [
        None, None, None, None, "1000000", "2.5", "Karoo",
    ]  # fmt: skip
    assert [cells.number(v) for v in ("7,405,060", "13.6", 0.0, 42, "", "-")] == [
        7405060.0,
        13.6,
        0.0,
        42.0,
        None,
        None,
    ]
    assert [cells.year(v) for v in (2030.0, "2030", "FY2030", "fy 2031", "", None)] == [
        2030,
        2030,
        2030,
        2031,
        None,
        None,
    ]
    assert cells.day(datetime(2023, 6, 15, 1, 0)) == date(2023, 6, 15)
    assert cells.day("2025-08-01 20:54:06") == date(2025, 8, 1)
    for convert, value in (
        (cells.number, "EXCLUDED"),
        (cells.year, "soon"),
        (cells.day, "1/8/2025"),
        (cells.number, True),
    ):
        with pytest.raises(ValueError, match="expected a"):
            convert(value)


def test_dates_and_financial_years_in_file_names() -> None:
    assert date_in_name(Path("sbti-companies-taking-action-2026-03-05.xlsx")) == date(2026, 3, 5)
    assert date_in_name(Path("au-nger-corporate-emissions-2021-22.csv")) is None
    assert date_in_name(Path("report-2026-13-45.xlsx")) is None
    assert financial_year_in_name(Path("au-nger-corporate-emissions-2021-22.csv")) == "2021-22"
    assert financial_year_in_name(Path("au-nger-1999-00.csv")) == "1999-00"
    assert financial_year_in_name(Path("sbti-2026-03-05.xlsx")) is None
    assert financial_year_in_name(Path("parents-2010-2020.xlsx")) is None


def test_periods_the_command_accepts() -> None:
    assert [check_period(p) for p in ("2020", "2021-22", "2021-2024")] == ["2020", "2021-22", "2021-2024"]
    with pytest.raises(RegistryFileProblem, match="is not a year"):
        check_period("FY22")


def test_countries_as_registries_name_them() -> None:
    names = ("Germany", "Taiwan, Province of China", "United States of America")
    assert [country_code(name) for name in names] == ["DE", "TW", "US"]
    assert country_code("Atlantis") is None and country_code(None) is None
    assert (country_code_of_iso3("DEU"), country_code_of_iso3("EUU"), country_code_of_iso3(None)) == (
        "DE",
        None,
        None,
    )
