"""Periods as claims write them, and which registry period each is."""

from __future__ import annotations

import pytest

from app.verification.registries.periods import Period, period_at, registry_period, same_period

NGER_YEAR = registry_period("nger", "2021-22")
CALENDAR_2022 = registry_period("uk_ets", "2022")


@pytest.mark.parametrize(
    ("text", "nger", "calendar"),
    [
        ("Emissions in FY2022 were 7 Mt.", True, False),
        ("Emissions in FY22 were 7 Mt.", True, False),
        ("Emissions in 2021-22 were 7 Mt.", True, False),
        ("Emissions in 2021/22 were 7 Mt.", True, False),
        ("Emissions for the year ended 30 June 2022 were 7 Mt.", True, False),
        ("Emissions for the year ended 31 March 2022 were 7 Mt.", False, False),
        ("Emissions for the year ended 31 December 2022 were 7 Mt.", False, True),
        ("Emissions in 2022 were 7 Mt.", False, True),
        ("Emissions over 2021-2024 were 7 Mt.", False, False),
        ("Emissions were 7 Mt.", False, False),
    ],
)
def test_a_claims_period_against_nger_and_calendar_years(text: str, nger: bool, calendar: bool) -> None:
    at = text.index("7 Mt")
    period = period_at(text, at, at + 4)

    assert NGER_YEAR is not None and CALENDAR_2022 is not None
    assert (period is not None and same_period(period, NGER_YEAR)) is nger
    assert (period is not None and same_period(period, CALENDAR_2022)) is calendar


def test_a_figure_takes_the_period_written_right_after_or_before_it() -> None:
    text = "Emissions were 2.3 Mt in 2022 (2021: 2.5 Mt)."

    first, second = text.index("2.3 Mt"), text.index("2.5 Mt")

    assert period_at(text, first, first + 6) == Period(True, 2022, 12)
    assert period_at(text, second, second + 6) == Period(True, 2021, 12)


def test_registry_periods() -> None:
    assert NGER_YEAR == Period(False, 2022, 6)
    assert registry_period("uk_ets", "2021-2024") is None
    assert registry_period("nger", None) is None
