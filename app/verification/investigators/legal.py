"""The legal (IFRS) specialist: how completely each claim's disclosure meets IFRS S1/S2.

Per claim it assesses the claims agent's preliminary paragraphs plus those of the knowledge base's
best matches that the claim's own text speaks to, sub-requirement by sub-requirement
(`ifrs_assessment`: a generic word only mentions a requirement, and the statement of compliance and
performance against a target need a sentence that actually says so), and per report it lists key S2
disclosures not found in the report's text (`disclosure_gaps`). It works by rules, so it runs without
an LLM.

Its findings are of the `disclosure` kind: they say how completely the report discloses what IFRS
asks, never whether the claim is true. A claim that mentions an IFRS topic is disclosed, not
corroborated (docs/decisions.md, evidence kinds), so every finding of this agent takes no side
(`supports_claim` None); its coverage (full / partial / missing) feeds the compliance summary.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.knowledge.keywords import TextIndex
from app.knowledge.search import SearchHit
from app.verification.contract.investigator import InvestigationTools
from app.verification.ifrs.disclosure_gaps import find_gaps
from app.verification.ifrs.ifrs_assessment import (
    ParagraphAssessment,
    Passage,
    assess_paragraph,
    best,
    describe,
    index_passages,
)
from app.verification.records import ClaimState, FindingDraft, InvestigationOutcome, SpecialistTask

logger = logging.getLogger(__name__)

IFRS_SOURCE_TYPES = ["ifrs_s1", "ifrs_s2"]
SEARCH_TOP_K = 3
BASE_CONFIDENCE = 0.6
COVERAGE_CONFIDENCE = 0.2


async def investigate_legal(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Assess each claim against its IFRS paragraphs; in the first pass, list the report's gaps."""
    claims = task["claims"]
    await tools.think(
        f"Legal agent: assessing IFRS compliance of {len(claims)} claim(s), paragraph by paragraph."
    )
    pages = dict(await tools.report_pages())
    # A re-investigation widens the search to the neighbouring pages: sub-requirements a claim's page
    # leaves out are often disclosed just before or after it.
    reach = 1 if task["iteration"] > 0 else 0
    outcome = InvestigationOutcome()
    for claim in claims:
        finding = await _assess_claim(claim, pages, reach, tools)
        outcome.findings.append(finding)
        await tools.think(f"Legal agent: {finding.summary.split(' — ')[0]}", claim_id=claim["claim_id"])
    if task["iteration"] == 0:
        outcome.findings.append(_gap_finding(claims, sorted(pages.items())))
        await tools.think(f"Legal agent: {outcome.findings[-1].summary}")
    return outcome


async def _assess_claim(
    claim: ClaimState, pages: dict[int, str], reach: int, tools: InvestigationTools
) -> FindingDraft:
    """One finding: every candidate paragraph assessed against the claim and its page(s)."""
    hits = await _search(claim["text"], tools)
    preliminary = [entry["paragraph_id"] for entry in claim.get("ifrs_paragraphs") or []]
    numbers = [n for n in range(claim["source_page"] - reach, claim["source_page"] + reach + 1) if n in pages]
    indexes = index_passages(claim_passages(claim["text"], claim.get("source_context") or "", pages, numbers))
    assessments, unknown = select_assessments(preliminary, [hit.key for hit in hits], indexes)
    searched = "the claim" + (f" or on page {', '.join(map(str, numbers))}" if numbers else "")
    return _claim_finding(claim, assessments, hits, unknown, searched, reach)


def claim_passages(text: str, context: str, pages: dict[int, str], numbers: Sequence[int]) -> list[Passage]:
    """What the assessment reads for one claim: the claim's own sentence first, then its neighbouring
    sentences and its page(s). The neighbours are other claims, mostly: like the page, they count
    only by a phrase and never make a paragraph this claim's."""
    return [
        Passage("in the claim", text),
        Passage("in its source context", context, phrases_only=True),
        *(Passage(f"on page {n}", pages[n], phrases_only=True) for n in numbers),
    ]


def select_assessments(
    preliminary: Sequence[str], hit_ids: Sequence[str], indexes: Sequence[tuple[Passage, TextIndex]]
) -> tuple[list[ParagraphAssessment], list[str]]:
    """The claim's paragraphs assessed: every preliminary one, and the search hits the claim's own
    text speaks to. Also returns the ids the registry does not know."""
    assessments: list[ParagraphAssessment] = []
    unknown: list[str] = []
    for paragraph_id in _unique([*preliminary, *hit_ids]):
        assessment = assess_paragraph(paragraph_id, indexes)
        if assessment is None:
            unknown.append(paragraph_id)
        elif paragraph_id in preliminary or assessment.touches_claim:
            # A search hit none of whose sub-requirements the claim's own text touches is not this
            # claim's paragraph, whatever its page says elsewhere ("long term" in another section):
            # reporting it would pin an unrelated paragraph, or an unrelated gap, on the claim.
            assessments.append(assessment)
    return assessments, unknown


async def _search(query: str, tools: InvestigationTools) -> list[SearchHit]:
    """One knowledge-base search per claim; a failing search leaves only the preliminary mapping."""
    try:
        return await tools.knowledge.search(query, top_k=SEARCH_TOP_K, source_types=IFRS_SOURCE_TYPES)
    except Exception:  # noqa: BLE001 - the preliminary mapping still deserves an assessment
        logger.exception("legal agent: knowledge search failed")
        return []


def _claim_finding(
    claim: ClaimState,
    assessments: Sequence[ParagraphAssessment],
    hits: Sequence[SearchHit],
    unknown: Sequence[str],
    searched: str,
    reach: int,
) -> FindingDraft:
    top = best(assessments)
    details: dict[str, Any] = {
        "ifrs_mappings": [a.to_mapping() for a in assessments],
        "sources": [
            {
                "paragraph_id": a.paragraph.paragraph_id,
                "title": a.paragraph.title,
                "source_type": a.paragraph.source_type,
            }
            for a in assessments
        ],
        "knowledge_hits": [{k: v for k, v in hit.to_dict().items() if k != "text"} for hit in hits],
        "searched": searched,
        # The first pass reads the claim's page; a re-investigation also reads its neighbours, and
        # there is no further to look: that assessment is settled.
        "settled": reach > 0,
    }
    if unknown:
        details["unknown_paragraphs"] = list(unknown)
    if top is None:
        return FindingDraft(
            claim_id=claim["claim_id"],
            evidence_type="ifrs_compliance",
            summary="No IFRS S1/S2 paragraph in the registry matches this claim; "
            "its compliance cannot be assessed.",
            supports_claim=None,
            confidence=None,
            method="rules",
            details=details,
        )
    summary = " ".join(describe(a, searched) for a in [top, *(a for a in assessments if a is not top)])
    if top.status != "full":
        summary += (
            " Sub-requirements not found make the disclosure incomplete; they do not contradict the claim."
        )
    return FindingDraft(
        claim_id=claim["claim_id"],
        evidence_type="ifrs_compliance",
        summary=summary,
        supports_claim=None,
        confidence=round(BASE_CONFIDENCE + COVERAGE_CONFIDENCE * top.coverage, 3),
        method="rules",
        details=details,
    )


def _gap_finding(claims: Sequence[ClaimState], pages: Sequence[tuple[int, str]]) -> FindingDraft:
    """The report-level finding: key S2 disclosures that no claim and no page addresses."""
    analysis = find_gaps([claim["text"] for claim in claims], pages)
    return FindingDraft(
        claim_id=None,
        evidence_type="disclosure_gap",
        summary=analysis.summary(len(pages), len(claims)),
        supports_claim=None,
        confidence=0.7,
        method="rules",
        details=analysis.to_details(),
    )


def _unique(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ids))
