"""The claimed period, read from a claim's years, and the same-season windows at its two ends."""

from __future__ import annotations

from datetime import date

import pytest

from app.geo.period import Window, claimed_period, season_windows

TODAY = date(2025, 6, 15)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Since 2020 we have restored 200 hectares.", date(2020, 1, 1), TODAY),
        ("Between 2019 and 2023 we planted 2 million trees.", date(2019, 1, 1), date(2023, 12, 31)),
        ("From 2018 to 2021 the site was rehabilitated.", date(2018, 1, 1), date(2021, 12, 31)),
        ("The 2018–2022 programme revegetated 40 ha.", date(2018, 1, 1), date(2022, 12, 31)),
        ("In 2021 we restored 340 ha of wetland.", date(2021, 1, 1), TODAY),
        ("Restoration between 2022 and 2027.", date(2022, 1, 1), TODAY),  # a range is capped at today
        ("FY2022 restoration works.", date(2022, 1, 1), TODAY),
    ],
)
def test_years_in_the_claim_set_the_period(text: str, start: date, end: date) -> None:
    period = claimed_period(text, today=TODAY)
    assert (period.start, period.end) == (start, end)
    assert period.basis


@pytest.mark.parametrize(
    "text", ["We restored wetlands.", "We will plant 1 million trees by 2030.", "In 2025 we began."]
)
def test_without_a_past_year_the_period_is_the_last_three_years(text: str) -> None:
    period = claimed_period(text, today=TODAY)
    assert (period.start, period.end) == (date(2022, 6, 15), TODAY)
    assert "last 3 years" in period.basis
    assert period.to_dict() == {"start": "2022-06-15", "end": "2025-06-15", "basis": period.basis}


def test_windows_compare_the_same_season_at_both_ends() -> None:
    windows = season_windows(claimed_period("since 2020", today=TODAY), earliest=date(2016, 1, 1))
    assert windows == (
        Window(date(2020, 1, 1), date(2020, 4, 1)),
        Window(date(2025, 1, 1), date(2025, 4, 2)),
    )  # 2020 leapt
    assert windows[0].interval() == "2020-01-01T00:00:00Z/2020-04-01T23:59:59Z"
    # The last season must have ended by the period's end: 2025's would end after 15 June 2025.
    recent = season_windows(claimed_period("We restored wetlands.", today=TODAY), earliest=date(2016, 1, 1))
    assert recent is not None and recent[1] == Window(date(2024, 6, 15), date(2024, 9, 14))


def test_windows_start_no_earlier_than_the_imagery_and_need_room_for_two_seasons() -> None:
    old = season_windows(claimed_period("from 2010 to 2020", today=TODAY), earliest=date(2016, 1, 1))
    assert old is not None and old[0].start == date(2016, 1, 1) and old[1].start == date(2020, 1, 1)
    # Within one year there is no same season to compare: the last 92 days stand in, if clear of the first.
    autumn = season_windows(claimed_period("since 2025", today=date(2025, 9, 30)), earliest=date(2016, 1, 1))
    assert autumn == (Window(date(2025, 1, 1), date(2025, 4, 2)), Window(date(2025, 7, 1), date(2025, 9, 30)))
    assert season_windows(claimed_period("since 2025", today=TODAY), earliest=date(2016, 1, 1)) is None
