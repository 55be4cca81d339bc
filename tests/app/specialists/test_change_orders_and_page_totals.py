"""Data/metrics: stated changes in every common word order, totals across a page's sentences,
achievements that are not targets, and an honest "none" for a change the check cannot read.

All wording is invented for these tests (a fictional tile maker, "Harrowgate Ceramics").
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Claim, Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.checks.change_statements import read_change, stated_change
from app.verification.checks.metric_index import MetricIndex
from app.verification.checks.page_totals import check_page_total
from app.verification.checks.percent_change import check_percent_change
from app.verification.checks.targets import check_target
from app.verification.investigators.data_metrics import (
    investigate_data_metrics,
    nothing_applied_summary,
    run_checks,
)
from app.verification.records import ClaimState
from tests.support.pipeline import investigators, pipeline_runner, seed_parsed_pages

# --- percentage changes in every word order -------------------------------------------------------

# (sentence, stated %, new level, old level): each wrong by far more than any rounding.
WRONG = [
    ("Kiln emissions were 620 kt CO2e in 2023, down 3% from 700 kt CO2e in 2022.", -3, 620, 700),
    ("Gas use was down 25% from 840 GWh to 760 GWh.", -25, 760, 840),
    ("Landfilled waste came to 31.0 kt, a 20% decrease on 35.0 kt.", -20, 31.0, 35.0),
    ("Freshwater intake went from 9.60 million m3 to 8.90 million m3 (\u221215%).", -15, 8.9, 9.6),
    ("Process emissions were 2% lower than 1.84 Mt at 1.62 Mt.", -2, 1.62, 1.84),
    (
        "Our Scope 1 emissions were 1.62 Mt in 2023 compared with 1.84 Mt in 2022, a decrease of 4%.",
        -4,
        1.62,
        1.84,
    ),
    ("Electricity use reached 412 GWh in 2023, up 30% from 380 GWh in 2022.", 30, 412, 380),
]


@pytest.mark.parametrize(("text", "stated", "new", "old"), WRONG)
def test_a_wrong_change_is_caught_in_every_word_order(
    text: str, stated: float, new: float, old: float
) -> None:
    result = check_percent_change(text, 4)
    assert result is not None and result.supports_claim is False, text
    assert result.details["stated_percent"] == stated
    assert (result.details["to"]["value"], result.details["from"]["value"]) == (new, old)
    assert result.details["computed_percent"] == pytest.approx((new - old) / old * 100, abs=0.01)
    assert "tolerance ±" in result.summary and result.details["tolerance_pp"] < 2


# The same sentences with the change stated correctly (rounded to the written digits).
RIGHT = [
    "Kiln emissions were 620 kt CO2e in 2023, down 11% from 700 kt CO2e in 2022.",
    "Gas use was down 10% from 840 GWh to 760 GWh.",
    "Landfilled waste came to 31.0 kt, an 11% decrease on 35.0 kt.",
    "Freshwater intake went from 9.60 million m3 to 8.90 million m3 (\u22127%).",
    "Process emissions were 12% lower than 1.84 Mt at 1.62 Mt.",
    "Our Scope 1 emissions were 1.62 Mt in 2023 compared with 1.84 Mt in 2022, a decrease of 12%.",
    "Electricity use reached 412 GWh in 2023, up 8% from 380 GWh in 2022.",
    "Electricity use reached 412 GWh in 2023, up 8.4% from 380 GWh in 2022.",
]


@pytest.mark.parametrize("text", RIGHT)
def test_a_correct_change_within_rounding_passes(text: str) -> None:
    result = check_percent_change(text, 4)
    assert result is not None and result.supports_claim is True, result and result.summary


def test_the_change_is_read_with_its_levels_and_years() -> None:
    change = read_change("Kiln emissions were 620 kt CO2e in 2023, down 3% from 700 kt CO2e in 2022.")
    assert change is not None and change.direction == -1 and change.percent.value == 3
    assert (change.new.value, change.new_year, change.old.value, change.old_year) == (620, 2023, 700, 2022)


def test_the_tolerance_comes_from_the_written_digits() -> None:
    """Three-digit levels leave well under a point of slack: a stated 8% or 15% for a recomputed
    -11.4% fails; two-digit levels ("1.6 from 1.8") genuinely allow more, and say so."""
    for stated in (8, 15):
        text = f"Kiln emissions were 620 kt in 2023, down {stated}% from 700 kt in 2022."
        result = check_percent_change(text, 1)
        assert result is not None and result.supports_claim is False
    coarse = check_percent_change("Kiln emissions fell 11% to 1.6 Mt, from 1.8 Mt in 2022.", 1)
    assert coarse is not None and coarse.supports_claim is True
    low, high = coarse.details["computed_range_percent"]
    assert low < -11.1 < high and coarse.details["stated_rounding_pp"] == 0.5


@pytest.mark.parametrize(
    "text",
    [
        # The level before the change belongs to another scope or clause.
        "Scope 1 was 1.62 Mt in 2023, while Scope 2 fell 5% from 450 kt.",
        # Bare counts are not levels with a unit.
        "Audited suppliers rose 40% from 212 to 260 sites.",
        # A share, not a change.
        "Kiln emissions were 620 kt in 2023, 31% of our total, compared with 700 kt in 2022.",
        # An intensity percentage beside absolute levels.
        "Kiln emissions were 620 kt in 2023, down from 700 kt in 2022, while intensity fell 3%.",
    ],
)
def test_unrelated_levels_are_never_combined(text: str) -> None:
    result = check_percent_change(text, 1)
    assert result is None or result.supports_claim is True


# --- totals across the sentences of one page ------------------------------------------------------

PAGE = (
    "Harrowgate Ceramics climate data. Our Scope 1 emissions were 1.62 Mt CO2e in 2023. "
    "Scope 2 emissions were 380 kt CO2e in 2023. Scope 2 emissions were 455 kt CO2e in 2022. "
    "Total Scope 1 and 2 emissions were {total} in 2023."
)


def _total(total: str, page_text: str | None = None) -> Any:
    text = page_text or PAGE.format(total=total)
    index = MetricIndex([(1, "Contents."), (2, text)])
    return check_page_total(f"Total Scope 1 and 2 emissions were {total} in 2023.", 2, index)


def test_a_total_that_does_not_add_up_across_sentences_is_flagged() -> None:
    result = _total("2.3 Mt CO2e")
    assert result is not None and result.supports_claim is False and result.check == "scope_total"
    assert result.details["computed_sum"] == pytest.approx(2.0)  # 1.62 Mt + 380 kt, in Mt
    assert [part["text"] for part in result.details["parts"]] == ["1.62 Mt CO2e", "380 kt CO2e"]
    assert "tolerance ±" in result.summary


def test_a_total_that_adds_up_within_rounding_passes() -> None:
    result = _total("2.0 Mt CO2e")
    assert result is not None and result.supports_claim is True


def test_parts_of_another_year_site_or_page_never_combine() -> None:
    other_year = (
        "Our Scope 1 emissions were 1.62 Mt CO2e in 2023. Scope 2 emissions were 455 kt CO2e in 2022. "
        "Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023."
    )
    assert _total("2.3 Mt CO2e", other_year) is None
    site = (
        "Scope 1 emissions at the Brackley works were 1.62 Mt CO2e in 2023. Scope 2 emissions were 380 kt "
        "CO2e in 2023. Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023."
    )
    assert _total("2.3 Mt CO2e", site) is None
    index = MetricIndex(
        [
            (1, "Our Scope 1 emissions were 1.62 Mt CO2e in 2023."),
            (
                2,
                "Scope 2 emissions were 380 kt CO2e in 2023. "
                "Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023.",
            ),
        ]
    )
    assert check_page_total("Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023.", 2, index) is None


def test_either_scope_2_basis_may_make_the_total() -> None:
    both = (
        "Our Scope 1 emissions were 1.62 Mt CO2e in 2023. Scope 2 market-based emissions were 380 kt CO2e "
        "in 2023. Scope 2 location-based emissions were 700 kt CO2e in 2023. "
        "Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023."
    )
    result = _total("2.3 Mt CO2e", both)
    assert result is not None and result.supports_claim is True


# --- achievements, targets and the honest "none" --------------------------------------------------


def test_an_achievement_is_not_a_target_and_its_progress_is_read() -> None:
    text = (
        "By the end of 2023 we achieved a 24% reduction in kiln energy intensity relative to 2010 levels "
        "(up from 19% by the end of 2022)."
    )
    result = check_target(text, 7)
    assert result is not None and result.check == "achieved_reduction" and result.supports_claim is None
    assert (result.details["earlier_percent"], result.details["earlier_year"]) == (19, 2022)
    assert result.details["progress_pp"] == 5 and "no progress figure" not in result.summary
    assert "not a target" in result.summary


def test_a_target_stays_a_target() -> None:
    result = check_target(
        "We aim to achieve a 40% reduction in kiln emissions by 2030 against a 2020 baseline.", 2
    )
    assert result is not None and result.check == "target_arithmetic"


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Glaze waste fell 6% to 3.1 kt in 2023.", "fell 6%"),
        (
            "Renewables supplied 41% of our power in 2023, up 7 percentage points from 2022.",
            "up 7 percentage points",
        ),
        ("Our Scope 1 emissions rose by about 3% compared with last year.", "rose by about 3%"),
    ],
)
def test_a_claim_stating_a_change_is_never_told_it_states_none(text: str, change: str) -> None:
    summary, found = nothing_applied_summary(text)
    assert found == change and stated_change(text) == change
    assert "states no percentage change" not in summary and "could not read" in summary


def test_a_claim_without_a_change_keeps_the_plain_none() -> None:
    for text in ("Renewables made up 41% of our power in 2023.", "We spent EUR 12 million on kilns in 2023."):
        summary, found = nothing_applied_summary(text)
        assert found is None and "states no percentage change" in summary


def _claim(claim_id: str, text: str, page: int) -> ClaimState:
    return {
        "claim_id": claim_id,
        "text": text,
        "claim_type": "quantitative",
        "priority": "high",
        "source_page": page,
        "source_context": text,
    }


def test_run_checks_applies_the_new_orders_and_page_totals() -> None:
    page = (
        PAGE.format(total="2.3 Mt CO2e")
        + " Kiln emissions were 620 kt CO2e in 2023, down 3% from 700 kt CO2e in 2022."
    )
    claims = [
        _claim("total", "Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023.", 1),
        _claim("kiln", "Kiln emissions were 620 kt CO2e in 2023, down 3% from 700 kt CO2e in 2022.", 1),
    ]
    results = run_checks(claims, [(1, page)])
    assert [(r.check, r.supports_claim) for r in results["total"]] == [("scope_total", False)]
    assert [(r.check, r.supports_claim) for r in results["kiln"]] == [("percent_change", False)]


def test_a_level_after_another_comparison_is_not_the_old_level() -> None:
    text = "Kiln emissions were 620 kt in 2023, down 4% from 2022 and by a fifth from 780 kt in 2019."
    assert check_percent_change(text, 1) is None


def test_a_table_like_run_on_a_one_year_page_makes_a_total() -> None:
    run = (
        "Emissions summary 2023. Scope 1 emissions 1.62 Mt CO2e. Scope 2 emissions 380 kt CO2e. "
        "Total Scope 1 and 2 emissions 2.3 Mt CO2e."
    )
    index = MetricIndex([(5, run)])
    result = check_page_total("Total Scope 1 and 2 emissions 2.3 Mt CO2e.", 5, index)
    assert result is not None and result.supports_claim is False and result.details["year"] == 2023
    # A page naming two years dates nothing it does not date itself.
    two_years = run.replace("Emissions summary 2023.", "Emissions summary 2023 and 2022.")
    assert (
        check_page_total("Total Scope 1 and 2 emissions 2.3 Mt CO2e.", 5, MetricIndex([(5, two_years)]))
        is None
    )


# --- through the pipeline --------------------------------------------------------------------------

PIPELINE_PAGES = [
    "Harrowgate Ceramics Sustainability Report 2023. This report covers our tile works in 2023.",
    "Climate performance. Kiln emissions were 620 kt CO2e in 2023, down 3% from 700 kt CO2e in 2022. "
    "Our Scope 1 emissions were 1.62 Mt CO2e in 2023. Scope 2 emissions were 380 kt CO2e in 2023. "
    "Total Scope 1 and 2 emissions were 2.3 Mt CO2e in 2023.",
    "Governance. The Board reviewed climate risks four times in 2023.",
]


async def test_pipeline_contradicts_a_wrong_change_and_doubts_a_wrong_total(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    report_id = await seed_parsed_pages(session_factory, PIPELINE_PAGES, company_name="Harrowgate Ceramics")
    started = await open_analysis_run(event_log, settings, report_id)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=investigators(data_metrics=investigate_data_metrics)
    ) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        claims = {claim.id: claim for claim in await session.scalars(select(Claim))}
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "data_metrics")))
        verdicts = {
            v.claim_id: v for v in await session.scalars(select(Verdict).where(Verdict.is_final.is_(True)))
        }
    change = [f for f in findings if f.details.get("check") == "percent_change"]
    assert change and all(f.supports_claim is False for f in change)
    claim_id = change[0].claim_id
    assert claim_id is not None and "down 3%" in claims[claim_id].text
    assert verdicts[claim_id].verdict == "contradicted"
    total = [
        f for f in findings if f.details.get("check") == "scope_total" and f.details.get("scope") == "page"
    ]
    assert total and total[0].supports_claim is False and total[0].claim_id is not None
    # A failed total is a doubt, not a certain contradiction.
    assert verdicts[total[0].claim_id].verdict != "contradicted"


def test_a_percentage_in_another_statement_is_not_the_pairs_change() -> None:
    text = "Electricity use was 412 GWh, up 5% on 2022; gas use fell from 300 GWh to 250 GWh."
    assert check_percent_change(text, 1) is None
