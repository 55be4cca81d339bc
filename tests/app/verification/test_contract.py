"""The finding contract writes the `details` findings have always stored and reads them back."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from app.search.results import SearchResult
from app.search.sources import QuoteCheck
from app.verification.contract import SourceFinding, is_source_finding
from app.verification.investigators.source_findings import (
    EvidenceKinds,
    SourceReading,
    source_finding,
    summary_finding,
)
from app.verification.reading.contradictions import SourceAssessment
from app.verification.sources.credibility import TierAssignment

KINDS = EvidenceKinds(source="news_article", contradiction="news_contradiction", summary="news_summary")
#: Every key a source finding's details have carried (the judge, exports and questions read them).
SOURCE_KEYS = {
    "source_url", "source_title", "source_domain", "source_tier", "tier_basis", "published_date",
    "relevance_summary", "stance", "contradicts_claim", "contradiction_type", "contradiction_explanation",
    "signal", "snippet", "query", "query_type", "provider", "quote_verified", "quote_checked_against",
    "quote_bears_on_claim", "relays_company", "company_voice", "voice", "sources",
}  # fmt: skip


def _source(stance: str, tier: int, verified: bool | None, voice: str | None, llm_error: str | None) -> Any:
    result = SearchResult(
        title="Osprey Metals cut emissions",
        url=f"https://news.example/osprey-{stance}-{tier}",
        snippet="Osprey Metals cut its Scope 1 emissions by 6.1% to 2.3 Mt in 2023.",
        published_date="2024-03-01",
        source_domain="news.example",
        relevance_score=0.8,
        provider="tavily",
    )
    assessment = SourceAssessment(
        stance=stance,
        contradiction_type="numerical" if stance == "contradicts" else None,
        confidence=0.7,
        explanation="The outlet states the same figure.",
        quote=result.snippet,
        signal=None,
    )
    return SourceReading(
        result=result,
        query="Osprey Metals Scope 1 2023",
        query_type="verification",
        tier=TierAssignment(tier, "domain", "listed outlet"),
        assessment=assessment,
        quote=QuoteCheck(verified, "fetched_page"),
        llm_error=llm_error,
        company_voice=voice,
    )


STANCES, TIERS, QUOTE_CHECKS = ("supports", "contradicts", "neutral"), (1, 3, 4), (True, False, None)
CASES = list(itertools.product(STANCES, TIERS, QUOTE_CHECKS, (None, "relays the company"), (None, "timeout")))


@pytest.mark.parametrize(("stance", "tier", "verified", "voice", "llm_error"), CASES)
def test_a_source_finding_reads_back_as_the_record_that_wrote_it(
    stance: str, tier: int, verified: bool | None, voice: str | None, llm_error: str | None
) -> None:
    source = _source(stance, tier, verified, voice, llm_error)

    details = source_finding("claim-1", source, KINDS, True).details

    assert is_source_finding(details)
    assert set(details) == SOURCE_KEYS | ({"llm_error"} if llm_error else set())
    assert SourceFinding.from_details(details).to_details() == details


def test_a_summary_is_not_a_source_finding() -> None:
    sources = [_source("supports", 2, True, None, None), _source("contradicts", 1, True, None, None)]

    details = summary_finding("claim-1", "News/Media", sources, KINDS, queries=[], searched=2).details

    assert not is_source_finding(details)
    assert [finding["source_url"] for finding in details["key_findings"]] == [sources[1].result.url]


def test_an_older_finding_reads_with_todays_defaults() -> None:
    older = {"source_url": "https://news.example/a", "source_tier": 2, "stance": "supports", "snippet": "…"}

    record = SourceFinding.from_details(older)

    assert record.source_tier == 2 and record.stance == "supports"
    assert record.quote_bears_on_claim is True and record.relays_company is False
    assert record.quote_verified is None and record.sources == []
