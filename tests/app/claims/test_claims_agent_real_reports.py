"""The claims agent without an LLM on the real reports beside the project (skipped without them):
claims on their stated pages, valid types, no duplicates, a sane density, IFRS mappings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.claims.agent import ClaimsAgent, ExtractionStats, MappedClaim
from app.claims.candidates import CLAIM_TYPES, PRIORITIES
from app.claims.rules import MIN_BUDGET
from app.config import Settings
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.knowledge.registry import is_under
from app.knowledge.search import KnowledgeSearch
from app.knowledge.store import sync_registry
from app.language.textmatch import normalize_for_match
from app.llm import UsageTrace
from tests.support.reports import report_pages, shared_report_paths

SCOPE_EMISSIONS = re.compile(r"\bscope\s*[123]\b.*\bemissions?\b|\bemissions?\b.*\bscope\s*[123]\b", re.I)
REPORTS = shared_report_paths()
#: A word the detected company name must contain, per report file.
COMPANIES = {
    "costco-climate-action-plan-2024": "Costco",
    "ct-reit-esg-report-2022": "CT",
    "rio-tinto-climate-change-report-2023": "Rio Tinto",
    "siemens-sustainability-report-fy2023": "Siemens",
    "volkswagen-sustainability-report-2023": "Volkswagen",
}


async def extract(
    settings: Settings, session_factory: SessionFactory, pages: list[tuple[int, str]]
) -> tuple[list[MappedClaim], ExtractionStats]:
    embedder = HashingEmbedder(settings.embedding_dimensions)
    await sync_registry(session_factory, embedder)
    agent = ClaimsAgent(settings, None, embedder, KnowledgeSearch(session_factory, embedder))
    return await agent.extract(pages, trace=UsageTrace())


@pytest.mark.skipif(not REPORTS, reason="../shared/data/sustainability-reports is not present")
@pytest.mark.parametrize("path", REPORTS, ids=[path.stem for path in REPORTS])
async def test_rule_mode_claims_on_a_real_report(
    settings: Settings, session_factory: SessionFactory, path: Path
) -> None:
    pages = report_pages(path)
    normalized = {number: normalize_for_match(text) for number, text in pages}

    claims, stats = await extract(settings, session_factory, pages)

    for item in claims:
        claim = item.claim
        page = normalized[claim.source_page]
        assert normalize_for_match(claim.text) in page or normalize_for_match(claim.source_context) in page, (
            f"not on page {claim.source_page}: {claim.text!r}"
        )
        assert claim.claim_type in CLAIM_TYPES and claim.priority in PRIORITIES
        assert claim.reasoning
    texts = [normalize_for_match(item.claim.text) for item in claims]
    assert len(texts) == len(set(texts)), "duplicate claims"
    per_100_pages = len(claims) * 100 / len(pages)
    # At most 1.5 claims a page, except that a short report may keep the extractor's floor of
    # MIN_BUDGET claims (a 15-page climate plan asserts more than 22 environmental facts).
    assert 15 <= per_100_pages and (per_100_pages <= 150 or len(claims) <= MIN_BUDGET), (
        f"{len(claims)} claims on {len(pages)} pages"
    )
    mapped = [item for item in claims if item.ifrs_paragraphs]
    assert len(mapped) >= 0.8 * len(claims), f"{len(mapped)} of {len(claims)} mapped"
    for item in claims:
        if SCOPE_EMISSIONS.search(item.claim.text):
            ids = [paragraph["paragraph_id"] for paragraph in item.ifrs_paragraphs]
            assert any(is_under(pid, "S2.29(a)") for pid in ids), (item.claim.text, ids)
    assert stats.mapping.rag_queries <= settings.claims_rag_query_budget
    assert stats.location.dropped == 0  # rule claims are verbatim page text
    assert stats.company_name and COMPANIES.get(path.stem, "") in stats.company_name
