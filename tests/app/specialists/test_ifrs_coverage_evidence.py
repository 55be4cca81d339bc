"""IFRS disclosure coverage needs evidence that addresses the requirement, not one generic keyword.

The sentences are our own. Each case is one a keyword reading used to get wrong: "ISSB" in an
alignment sentence or "compliance" in a committee's remit taken as a statement of compliance,
"progress" without any figure taken as performance against a target, a paragraph pinned on a claim
because a phrase appeared elsewhere on its page, and a parent paragraph reported less addressed
than its own sub-paragraph.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun
from app.db.models import Finding as FindingRow
from app.db.session import SessionFactory
from app.events import EventLog
from app.knowledge.ifrs_evidence import reports_target_progress, states_compliance
from app.pipeline.compliance import compliance_summary, roll_up
from app.services.analysis import open_analysis_run
from app.verification.ifrs.ifrs_assessment import Passage, assess_paragraph, describe, index_passages
from app.verification.investigators.legal import investigate_legal, select_assessments
from app.verification.records import Finding, Verdict
from tests.support.pipeline import investigators, pipeline_runner, seed_report

ALIGNED = (
    "Our climate reporting is aligned with TCFD and SASB, frameworks now folded into the ISSB standards."
)
REMIT = "AUDIT COMMITTEE Oversees financial reporting, internal audit and the related compliance policy."
COMPLIES = "This sustainability report has been prepared in accordance with IFRS S1 and IFRS S2."
REFERENCE = "The report is prepared with reference to IFRS S1 and IFRS S2."
INTENT = "We intend to comply with IFRS S2 from our next reporting cycle."
VAGUE_PROGRESS = "We continue to make progress towards our packaging goals."
FIGURE_PROGRESS = "By the end of 2024 we had cut water use 14% towards our 2030 goal of a 25% reduction."
STATUS_PROGRESS = "We are on track to meet our renewable electricity target for 2026."
FUTURE_PROGRESS = "We aim to have achieved our waste target by 2030."
TRAINING = "Every member of our site staff completed sustainability training this year."
TRAINING_PAGE = (
    TRAINING + " Physical risks such as flooding are assessed over the long term. "
    "Figures cover the fiscal year ended 31 March."
)


def _claim(text: str, page: str = "") -> list[Any]:
    passages = [Passage("in the claim", text)]
    if page:
        passages.append(Passage("on page 3", page, phrases_only=True))
    return index_passages(passages)


# --- S1.72: a statement of compliance ------------------------------------------------------------


@pytest.mark.parametrize("text", [ALIGNED, REMIT, REFERENCE, INTENT])
def test_alignment_remits_references_and_intentions_are_not_statements_of_compliance(text: str) -> None:
    assert not states_compliance(text)
    assessment = assess_paragraph("S1.72", _claim(text))
    assert assessment is not None and assessment.status == "missing"
    assert "needs an explicit, unreserved statement of compliance" in describe(assessment, "the claim")


def test_an_explicit_statement_of_compliance_is_full_even_from_the_page() -> None:
    assert states_compliance(COMPLIES)
    own = assess_paragraph("S1.72", _claim(COMPLIES))
    assert own is not None and own.status == "full"
    assert own.to_mapping()["evidence"][0]["quote"] == COMPLIES
    # A report-level statement on the claim's page addresses it too; a single word there does not.
    on_page = assess_paragraph("S1.72", _claim(ALIGNED, "Basis of preparation. " + COMPLIES))
    assert on_page is not None and on_page.status == "full"
    assert on_page.addressed[0].where == "on page 3" and not on_page.addressed[0].own


# --- S1.51(f): performance against a target ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reported"),
    [(VAGUE_PROGRESS, False), (FUTURE_PROGRESS, False), (FIGURE_PROGRESS, True), (STATUS_PROGRESS, True)],
)
def test_performance_against_a_target_needs_a_figure_or_a_status(text: str, reported: bool) -> None:
    assert reports_target_progress(text) is reported
    assessment = assess_paragraph("S1.51(f)", _claim(text))
    assert assessment is not None
    assert assessment.status == ("full" if reported else "missing")


# --- generic single words only mention ------------------------------------------------------------


def test_a_single_generic_word_makes_a_paragraph_partial_never_full() -> None:
    published = assess_paragraph("S1.64", _claim("Our first climate report was published in May."))
    phrase = assess_paragraph("S1.64", _claim("Figures cover the financial year to June."))
    named = assess_paragraph("S1.59(a)", _claim("We report against TCFD and GRI."))
    assert published is not None and published.status == "partial"
    assert published.addressed == [] and published.to_mapping()["mentioned"] == ["S1.64"]
    assert "only mentioned by a single generic word" in describe(published, "the claim")
    assert phrase is not None and phrase.status == "full"
    # A word that names one framework is specific enough to address the requirement.
    assert named is not None and named.status == "full"


def test_a_search_hit_needs_the_claims_own_text_not_a_phrase_elsewhere_on_its_page() -> None:
    indexes = _claim(TRAINING, TRAINING_PAGE)
    assessments, unknown = select_assessments([], ["S1.64", "S2.10", "S2.6"], indexes)
    assert assessments == [] and unknown == []
    # The same phrases in the claim itself make the hits its paragraphs.
    own = _claim("Flood risk is assessed over the long term for the fiscal year ahead.")
    kept, _ = select_assessments([], ["S1.64", "S2.10"], own)
    assert {a.paragraph.paragraph_id for a in kept} == {"S1.64", "S2.10"}
    # A paragraph the claims agent mapped is always assessed, even when nothing addresses it.
    mapped, _ = select_assessments(["S1.64"], [], indexes)
    assert [(a.paragraph.paragraph_id, a.status) for a in mapped] == [("S1.64", "full")]


# --- roll-up: a parent is at least as addressed as its children -----------------------------------


def _verdict(claim_id: str, *paragraphs: str) -> Verdict:
    return {
        "verdict_id": f"v-{claim_id}",
        "claim_id": claim_id,
        "verdict": "unverified",
        "reasoning": "",
        "ifrs_mapping": [{"paragraph_id": paragraph} for paragraph in paragraphs],
        "confidence": 0.5,
        "confidence_level": "low",
        "iteration": 0,
        "method": "rules",
        "evaluation": {},
    }


def _legal(claim_id: str, **statuses: str) -> Finding:
    return {
        "finding_id": f"f-{claim_id}",
        "agent_name": "legal",
        "claim_id": claim_id,
        "evidence_type": "ifrs_compliance",
        "summary": "",
        "details": {"ifrs_mappings": [{"paragraph_id": p, "status": s} for p, s in statuses.items()]},
        "supports_claim": None,
        "confidence": 0.7,
        "iteration": 0,
        "method": "rules",
    }


def test_a_parent_is_never_less_addressed_than_its_child() -> None:
    final = [_verdict("a", "S2.6"), _verdict("b", "S2.6(a)")]
    findings = [_legal("a", **{"S2.6": "missing"}), _legal("b", **{"S2.6(a)": "partial"})]
    summary = compliance_summary(final, findings)
    assert summary["S2.6(a)"]["disclosure"]["coverage"] == "partially_addressed"
    assert summary["S2.6"]["disclosure"]["coverage"] == "partially_addressed"
    assert summary["S2.6"]["disclosure"]["rolled_up_from"] == ["S2.6(a)"]
    assert summary["S2.6"]["disclosure"]["missing"] == 1  # the claim's own assessment is kept
    assert "rolled_up_from" not in summary["S2.6(a)"]["disclosure"]


def test_roll_up_is_full_only_when_every_registered_child_is_full() -> None:
    one = {"S2.6": "not_addressed", "S2.6(a)": "fully_addressed", "S2.6(b)": "not_assessed"}
    assert roll_up(one) == {"S2.6": ["S2.6(a)"]} and one["S2.6"] == "partially_addressed"
    both = {"S2.6": "partially_addressed", "S2.6(a)": "fully_addressed", "S2.6(b)": "fully_addressed"}
    assert roll_up(both) == {"S2.6": ["S2.6(a)", "S2.6(b)"]} and both["S2.6"] == "fully_addressed"
    # Deeper levels carry up the chain; a parent already as addressed is left alone.
    chain = {"S2.6": "not_assessed", "S2.6(a)": "not_addressed", "S2.6(a)(ii)": "partially_addressed"}
    assert roll_up(chain) == {"S2.6(a)": ["S2.6(a)(ii)"], "S2.6": ["S2.6(a)", "S2.6(a)(ii)"]}
    assert roll_up({"S2.6": "fully_addressed", "S2.6(a)": "partially_addressed"}) == {}


# --- the legal agent in the pipeline -------------------------------------------------------------

PIPELINE_CLAIMS = [
    {"text": ALIGNED, "claim_type": "legal_governance", "page": 1, "ifrs": [{"paragraph_id": "S1.72"}]},
    {"text": VAGUE_PROGRESS, "claim_type": "strategic", "page": 1, "ifrs": [{"paragraph_id": "S1.51(f)"}]},
    {
        "text": "Our approach to governance is set out later in this report.",
        "claim_type": "legal_governance",
        "page": 2,
        "ifrs": [{"paragraph_id": "S2.6"}],
    },
    {
        "text": "The Board's Sustainability Committee oversees climate matters under its charter.",
        "claim_type": "legal_governance",
        "page": 2,
        "ifrs": [{"paragraph_id": "S2.6(a)"}],
    },
]


async def test_pipeline_coverage_does_not_call_keywords_full_and_rolls_up(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory, PIPELINE_CLAIMS, pages=2)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=investigators(legal=investigate_legal)
    ) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        run = await session.get(AnalysisRun, started.run.id)
        legal = list(await session.scalars(select(FindingRow).where(FindingRow.agent == "legal")))
    assert run is not None
    coverage = {paragraph: entry["disclosure"] for paragraph, entry in run.compliance.items()}
    assert coverage["S1.72"]["coverage"] == "not_addressed"
    assert coverage["S1.51(f)"]["coverage"] == "not_addressed"
    assert coverage["S2.6(a)"]["coverage"] == "partially_addressed"
    # Whether by a claim's own assessment or by roll-up, never less than its sub-paragraph.
    assert coverage["S2.6"]["coverage"] == "partially_addressed"
    assert all(finding.method == "rules" for finding in legal)
    summaries = " ".join(finding.summary for finding in legal)
    assert "S1.72 Statement of compliance addressed" not in summaries
    assert "Only the report's text was searched" in summaries
