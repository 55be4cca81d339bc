"""The data/metrics specialist: pure checks, a pipeline run on a planted report, real reports."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import select

from app.claims.rules import extract_rule_claims
from app.config import Settings
from app.db.models import Claim, Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.checks.metric_checks import (
    check_of_which,
    check_percent_change,
    check_sanity,
    check_scope_totals,
    check_target,
)
from app.verification.checks.metric_index import MetricIndex, check_cross_page
from app.verification.investigators.data_metrics import investigate_data_metrics, run_checks, summarise
from app.verification.records import ClaimState
from tests.fixtures.metrics_report import PAGES
from tests.support.pipeline import investigators, pipeline_runner, seed_parsed_pages
from tests.support.reports import report_pages, shared_report_paths

# --- pure checks -----------------------------------------------------------------------------------


def test_percent_change_catches_a_wrong_percentage() -> None:
    result = check_percent_change("Scope 1 emissions fell 9.4% to 2.30 Mt from 2.45 Mt in 2022.", 12)
    assert result is not None and result.supports_claim is False and result.confidence == 0.9
    assert result.details["computed_percent"] == pytest.approx(-6.12, abs=0.01)
    assert result.details["from"] == {"value": 2.45, "unit": "Mt", "page": 12}


@pytest.mark.parametrize(
    "text",
    [
        "Scope 1 emissions fell 6.1% to 2.30 Mt from 2.45 Mt.",
        "Emissions decreased from 2.45 to 2.30 Mt (\u22126.1%).",
        "Emissions decreased from 2,450 kt to 2.30 Mt, a 6.1% reduction.",
        "Energy use rose from 100 GWh to 110 GWh, up 10%.",
    ],
)
def test_percent_change_accepts_correct_rounding(text: str) -> None:
    result = check_percent_change(text, 1)
    assert result is not None and result.supports_claim is True, result and result.details


def test_percent_change_checks_the_direction() -> None:
    result = check_percent_change("Emissions rose 6.1% to 2.30 Mt from 2.45 Mt.", 1)
    assert result is not None and result.supports_claim is False
    assert result.details["stated_direction"] == "increase"


def test_percent_change_needs_two_levels() -> None:
    assert check_percent_change("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 1) is None


def test_scope_total_mismatch_and_match() -> None:
    bad = check_scope_totals(
        "Total emissions were 6.1 Mt, with Scope 1 at 1.6 Mt, Scope 2 at 0.85 Mt and Scope 3 at 2.9 Mt.", 4
    )
    assert bad is not None and bad.supports_claim is False
    assert bad.details["computed_sum"] == pytest.approx(5.35)
    good = check_scope_totals(
        "Scope 1 and 2 emissions totalled 2.4 Mt: Scope 1 1.6 Mt and Scope 2 0.8 Mt.", 4
    )
    assert good is not None and good.supports_claim is True


def test_of_which_parts_cannot_exceed_the_total() -> None:
    over = check_of_which(
        "We withdrew 400 ML of water, of which 300 ML surface water and 150 ML groundwater.", 2
    )
    assert over is not None and over.supports_claim is False
    partial = check_of_which(
        "We withdrew 400 ML of water, of which 200 ML surface water and 150 ML groundwater.", 2
    )
    assert partial is not None and partial.supports_claim is None


def test_sanity_flags_impossible_values_only() -> None:
    [share] = check_sanity("Renewable electricity was a share of 112% of consumption in 2023.", 7)
    assert share.supports_claim is False and share.details["check"] == "impossible_value"
    [negative] = check_sanity("Our Scope 1 emissions were -3 t CO2e in 2023.", 7)
    assert negative.supports_claim is False
    assert check_sanity("Renewable capacity grew by 120% in 2023.", 7) == []
    [conversion] = check_sanity("Emissions were 2.3 Mt (2,300 kt) in 2023.", 7)
    assert conversion.supports_claim is None and conversion.details["consistent"] is True
    [wrong] = check_sanity("Emissions were 2.3 Mt (23,000 kt) in 2023.", 7)
    assert wrong.supports_claim is False


def test_target_arithmetic_is_an_assessment() -> None:
    text = "We aim to reduce emissions by 42% by 2030 against a 2019 baseline and had achieved 10% by 2023."
    result = check_target(text, 6)
    assert result is not None and result.supports_claim is None and result.confidence == 0.5
    assert result.details["status"] == "behind"
    assert result.details["required_annual_pp"] == pytest.approx(42 / 11, abs=0.001)


def test_cross_page_finds_a_different_value_for_the_same_metric_and_year() -> None:
    index = MetricIndex(
        [
            (3, "Our Scope 1 emissions were 2.30 Mt CO2e in 2023."),
            (9, "Scope 1 emissions were 2,600 kt CO2e in 2023."),
        ]
    )
    result = check_cross_page("Our Scope 1 emissions were 2.30 Mt CO2e in 2023.", 3, index)
    assert result is not None and result.supports_claim is False and result.evidence_type == "inconsistency"
    assert [source["report_page"] for source in result.details["sources"]] == [3, 9]


def test_cross_page_ignores_sites_changes_and_other_years() -> None:
    index = MetricIndex(
        [
            (4, "Scope 1 emissions at the Kitimat smelter were 0.4 Mt CO2e in 2023."),
            (5, "Scope 1 emissions were 2.45 Mt CO2e in 2022."),
            (6, "We reduced Scope 1 emissions by 0.15 Mt CO2e in 2023."),
            (7, "Our Scope 1 emissions were 2,300 kt CO2e in 2023."),
        ]
    )
    result = check_cross_page("Our Scope 1 emissions were 2.30 Mt CO2e in 2023.", 3, index)
    assert result is not None and result.supports_claim is None and result.details["compared_mentions"] == 1


# --- the planted report through the pipeline -------------------------------------------------------


def _claims_from(pages: list[tuple[int, str]]) -> list[ClaimState]:
    return [
        {
            "claim_id": str(index),
            "text": claim.text,
            "claim_type": claim.claim_type,
            "priority": claim.priority,
            "source_page": claim.source_page,
            "source_context": claim.source_context,
        }
        for index, claim in enumerate(extract_rule_claims(pages))
    ]


def test_planted_report_pure_layer() -> None:
    results = run_checks(_claims_from(list(enumerate(PAGES, 1))), list(enumerate(PAGES, 1)))
    counts = summarise(results)
    assert counts["percent_change"] == 2 and counts["scope_total"] == 1
    assert counts["target_arithmetic"] == 1 and counts["impossible_value"] == 1
    assert counts["cross_page"] == 2


def _by_check(
    findings: list[Finding], claims: dict[uuid.UUID, Claim]
) -> dict[str, list[tuple[Finding, Claim]]]:
    grouped: dict[str, list[tuple[Finding, Claim]]] = {}
    for finding in findings:
        assert finding.claim_id is not None
        grouped.setdefault(str(finding.details.get("check", "none")), []).append(
            (finding, claims[finding.claim_id])
        )
    return grouped


async def test_pipeline_flags_the_planted_errors(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    report_id = await seed_parsed_pages(session_factory, PAGES, company_name="Northwind Aggregates plc")
    started = await open_analysis_run(event_log, settings, report_id)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=investigators(data_metrics=investigate_data_metrics)
    ) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        claims = {claim.id: claim for claim in await session.scalars(select(Claim))}
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "data_metrics")))
        verdicts = list(await session.scalars(select(Verdict).where(Verdict.is_final.is_(True))))
    assert all(finding.method == "rules" for finding in findings)
    grouped = _by_check(findings, claims)

    # The judge may ask for re-investigation, so a check can appear once per pass: same result each time.
    wrong = [f for f, claim in grouped["percent_change"] if "9.4%" in claim.text]
    assert wrong and all(f.supports_claim is False and f.evidence_type == "calculation" for f in wrong)
    assert wrong[0].details["from"]["page"] == 2
    right = [f for f, claim in grouped["percent_change"] if "6.3%" in claim.text]
    assert right and all(f.supports_claim is True for f in right)

    mismatches = [(f, claim) for f, claim in grouped["cross_page"] if f.supports_claim is False]
    cited = {frozenset(source["report_page"] for source in f.details["sources"]) for f, _ in mismatches}
    assert cited == {frozenset({3, 9})}
    assert all(f.evidence_type == "inconsistency" and f.confidence == 0.85 for f, _ in mismatches)

    total = grouped["scope_total"][0]
    assert total[0].supports_claim is False and total[1].source_page == 5
    assert grouped["target_arithmetic"][0][0].details["status"] == "on track"

    # The judge calls CONTRADICTED only on a certain internal check (a recomputed percentage, the
    # same metric and year on two pages); a failed scope total is a doubt, not a contradiction.
    final = {verdict.claim_id: verdict for verdict in verdicts}
    page9 = next(claim for f, claim in mismatches if claim.source_page == 9)
    assert final[page9.id].verdict == "contradicted"
    assert final[total[1].id].verdict != "contradicted"


# --- the shared real reports -----------------------------------------------------------------------

REPORTS = shared_report_paths()


@pytest.mark.skipif(not REPORTS, reason="no shared reports beside the project")
def test_real_reports_run_without_errors_and_make_checks(record_property: Any) -> None:
    totals: Counter[str] = Counter()
    for path in REPORTS:
        pages = report_pages(path)
        results = run_checks(_claims_from(pages), pages)
        counts = summarise(results)
        applied = sum(1 for items in results.values() if items)
        record_property(path.name, {**counts, "claims": len(results), "claims_with_checks": applied})
        print(path.name, len(results), "claims,", applied, "checked:", dict(counts))
        totals.update(counts)
    assert sum(count for kind, count in totals.items() if kind != "contradictions") > 0
