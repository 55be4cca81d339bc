"""The legal (IFRS) specialist: paragraph assessment, disclosure gaps, and the agent in the pipeline."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from app.claims.ifrs_mapping import keyword_suggestions
from app.claims.rules import extract_rule_claims
from app.config import Settings
from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.ifrs.disclosure_gaps import KEY_DISCLOSURES, find_gaps
from app.verification.ifrs.ifrs_assessment import (
    Passage,
    assess_paragraph,
    best,
    describe,
    index_passages,
    leaves,
)
from app.verification.investigators.legal import investigate_legal
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.reports import report_pages, shared_report_paths

SCOPE_1 = "Direct (Scope 1) emissions from our smelters came to 1.8 million tCO2e in the reporting year."
GOVERNANCE = "Climate matters are overseen by the Board's Sustainability Committee under its charter."
GOVERNANCE_PAGE = GOVERNANCE + " The committee chair holds a doctorate in atmospheric science."


# --- pure: paragraph assessment ------------------------------------------------------------------


def test_a_scope_1_figure_fully_meets_the_scope_1_paragraph() -> None:
    assessment = assess_paragraph("S2.29(a)(i)(1)", index_passages([Passage("in the claim", SCOPE_1)]))
    assert assessment is not None
    assert assessment.status == "full"
    assert [match.requirement.paragraph_id for match in assessment.addressed] == ["S2.29(a)(i)(1)"]
    assert "S2.29(a)(i)(1) Scope 1 emissions addressed ('scope 1' in the claim)" in describe(
        assessment, "the claim"
    )


def test_a_board_committee_without_frequency_partly_meets_oversight() -> None:
    passages = [Passage("in the claim", GOVERNANCE), Passage("on page 4", GOVERNANCE_PAGE, phrases_only=True)]
    assessment = assess_paragraph("S2.6(a)", index_passages(passages))
    assert assessment is not None
    assert assessment.status == "partial"
    # The sentence names the body and what it oversees (the paragraph's own ask and the remit, i);
    # nothing says how often it meets (iii) or the rest.
    assert [match.requirement.paragraph_id for match in assessment.addressed] == ["S2.6(a)", "S2.6(a)(i)"]
    assert assessment.mentioned == []
    missing = [req.paragraph_id for req in assessment.missing]
    assert missing == ["S2.6(a)(ii)", "S2.6(a)(iii)", "S2.6(a)(iv)", "S2.6(a)(v)"]
    text = describe(assessment, "the claim or on page 4")
    assert "not found in the claim or on page 4: S2.6(a)(ii) Oversight skills and competencies" in text
    assert "S2.6(a)(iii) Briefings to the oversight body" in text


def test_single_words_on_the_page_do_not_count_but_phrases_do() -> None:
    claim = Passage("in the claim", "We measure our footprint every year.")
    page = Passage(
        "on page 9", "Data and inputs are reviewed. We follow the GHG Protocol.", phrases_only=True
    )
    indexes = index_passages([claim, page])
    inputs = assess_paragraph("S2.22(b)(i)", indexes)
    protocol = assess_paragraph("S2.29(a)(ii)", indexes)
    assert inputs is not None and inputs.status == "missing"  # "data", "inputs": single words
    assert protocol is not None and protocol.status == "full"
    assert protocol.addressed[0].where == "on page 9"


def test_tokens_do_not_match_inside_numbers_and_unknown_ids_are_not_assessed() -> None:
    indexes = index_passages([Passage("in the claim", "Scope 12 of the programme covers new sites.")])
    scope_1 = assess_paragraph("S2.29(a)(i)(1)", indexes)
    assert scope_1 is not None and scope_1.status == "missing"
    assert assess_paragraph("S2.999", indexes) is None


def test_leaves_recurse_and_best_prefers_full() -> None:
    assert {req.paragraph_id for req in leaves("S2.29(a)(iii)")} == {
        "S2.29(a)(iii)(1)",
        "S2.29(a)(iii)(2)",
        "S2.29(a)(iii)(3)",
    }
    indexes = index_passages([Passage("in the claim", SCOPE_1)])
    broad = assess_paragraph("S2.29(a)(i)", indexes)
    exact = assess_paragraph("S2.29(a)(i)(1)", indexes)
    assert broad is not None and exact is not None and broad.status == "partial"
    assert best([broad, exact]) is exact


# --- pure: disclosure gaps -----------------------------------------------------------------------


def test_gap_analysis_reports_scenario_analysis_missing_but_not_scope_1() -> None:
    pages = [
        (1, "Our Scope 1 and Scope 2 emissions fell again. Scope 3 is estimated for purchased goods."),
        (2, "The Sustainability Committee of the Board oversees our climate strategy."),
    ]
    analysis = find_gaps([SCOPE_1], pages)
    gaps = {gap.paragraph_id for gap in analysis.gaps}
    assert "S2.22" in gaps
    assert "S2.29(f)" in gaps
    assert not gaps & {"S2.29(a)(i)(1)", "S2.29(a)(i)(2)", "S2.29(a)(i)(3)", "S2.6(a)"}
    covered = {entry["paragraph_id"]: entry for entry in analysis.covered}
    assert covered["S2.29(a)(i)(1)"]["claims"] == 1 and covered["S2.29(a)(i)(1)"]["pages"] == [1]
    details = analysis.to_details()
    assert {"paragraph_id", "title", "searched_keywords"} <= set(details["gaps"][0])
    assert "Climate resilience and scenario analysis" in analysis.summary(2, 1)


def test_pay_counts_as_climate_remuneration_only_beside_a_climate_word() -> None:
    plain = find_gaps([], [(1, "Executive remuneration is set by the remuneration committee.")])
    linked = find_gaps([], [(1, "20% of the executive bonus is linked to emissions reduction.")])
    assert "S2.29(g)" in {gap.paragraph_id for gap in plain.gaps}
    assert "S2.29(g)" not in {gap.paragraph_id for gap in linked.gaps}


def test_weak_words_need_an_anchor_on_the_same_page() -> None:
    fuel = find_gaps([], [(1, "Results are shown in scenarios where the fuel was tested.")])
    climate = find_gaps([], [(1, "Under our 1.5°C scenarios the temperature goal is overshot.")])
    price = find_gaps([], [(1, "A carbon price is applied to all major investment decisions.")])
    assert "S2.22" in {gap.paragraph_id for gap in fuel.gaps}
    assert "S2.22" not in {gap.paragraph_id for gap in climate.gaps}
    assert "S2.29(f)" not in {gap.paragraph_id for gap in price.gaps}


# --- the agent in the real pipeline --------------------------------------------------------------

PIPELINE_CLAIMS = [
    {"text": SCOPE_1, "claim_type": "quantitative", "page": 1, "ifrs": [{"paragraph_id": "S2.29(a)(i)(1)"}]},
    {"text": GOVERNANCE, "claim_type": "legal_governance", "page": 2, "ifrs": [{"paragraph_id": "S2.6(a)"}]},
]


async def test_legal_agent_in_the_pipeline(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory, PIPELINE_CLAIMS, pages=2)
    scope_1_id, governance_id = seeded.claim_ids
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    agents = investigators(legal=investigate_legal)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail

    async with session_factory() as session:
        legal = list(await session.scalars(select(Finding).where(Finding.agent == "legal")))
        final = {str(v.claim_id): v for v in await session.scalars(select(Verdict).where(Verdict.is_final))}

    gaps = [finding for finding in legal if finding.evidence_type == "disclosure_gap"]
    assert len(gaps) == 1 and gaps[0].claim_id is None and gaps[0].supports_claim is None
    assert "S2.22" in {gap["paragraph_id"] for gap in gaps[0].details["gaps"]}
    assert "S2.29(a)(i)(1)" not in {gap["paragraph_id"] for gap in gaps[0].details["gaps"]}

    by_claim: dict[str, list[Finding]] = {}
    for finding in legal:
        if finding.claim_id is not None:
            assert finding.evidence_type == "ifrs_compliance" and finding.method == "rules"
            by_claim.setdefault(str(finding.claim_id), []).append(finding)
    statuses = {
        claim_id: {m["paragraph_id"]: m["status"] for f in found for m in f.details["ifrs_mappings"]}
        for claim_id, found in by_claim.items()
    }
    assert statuses[scope_1_id]["S2.29(a)(i)(1)"] == "full"
    assert statuses[governance_id]["S2.6(a)"] == "partial"
    # Disclosure coverage never speaks to a claim's truth, fully met or not.
    assert all(f.supports_claim is None and f.evidence_kind == "disclosure" for f in legal)

    # Disclosure coverage cannot move a verdict, so the judge never sends a claim back to legal for a
    # partial paragraph: its findings are all from the first pass.
    passes = Counter(f.iteration for f in by_claim[governance_id])
    assert settings.max_iterations == 3 and sorted(passes) == [0]

    for claim_id in seeded.claim_ids:
        legal_ids = {m["paragraph_id"] for m in final[claim_id].ifrs_mapping if m["source"] == "legal"}
        assert legal_ids == set(statuses[claim_id])
    governance_mapping = {m["paragraph_id"]: m for m in final[governance_id].ifrs_mapping}
    assert governance_mapping["S2.6(a)"]["status"] == "partial"
    # Full disclosure is not truth: with no independent source, both stay unverified.
    assert final[scope_1_id].verdict == "unverified"
    assert final[governance_id].verdict == "unverified"


# --- the pure layer over the shared real reports -------------------------------------------------


@pytest.mark.parametrize("path", shared_report_paths(), ids=lambda path: Path(path).stem)
def test_assessment_over_a_real_report(path: Path) -> None:
    pages = report_pages(path)
    texts = dict(pages)
    claims = extract_rule_claims(pages)
    assert claims
    statuses: Counter[str] = Counter()
    for claim in claims:
        ids = [req.paragraph_id for req in keyword_suggestions(claim.text)] or ["S2.29"]
        passages = [
            Passage("in the claim", claim.text),
            Passage("in its source context", claim.source_context),
            Passage(f"on page {claim.source_page}", texts.get(claim.source_page, ""), phrases_only=True),
        ]
        indexes = index_passages(passages)
        assessed = [a for pid in ids if (a := assess_paragraph(pid, indexes)) is not None]
        assert assessed, claim.text
        statuses.update(a.status for a in assessed)
    analysis = find_gaps([claim.text for claim in claims], pages)
    assert {gap.paragraph_id for gap in analysis.gaps} <= {d.paragraph_id for d in KEY_DISCLOSURES}
    print(
        f"{path.stem}: {len(claims)} claims, {dict(statuses)}, gaps {[g.paragraph_id for g in analysis.gaps]}"
    )
