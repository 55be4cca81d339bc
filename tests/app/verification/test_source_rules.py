"""The company's-word test and the contradiction bar are one rule each, applied alike by the
investigators (per source) and the judge (per finding)."""

from __future__ import annotations

import itertools

import pytest

from app.search.results import SearchResult
from app.search.sources import QuoteCheck
from app.verification.evidence_kinds import is_self_reported
from app.verification.reading.contradictions import SourceAssessment
from app.verification.reading.source_reading import SourceReading
from app.verification.sources.credibility import TierAssignment
from app.verification.sources.rules import contradiction_bar_reached, is_company_word

BASES = ("domain", "default", "llm", "company_site", "press_release", "company_report")
URLS = ("https://www.reuters.com/a", "https://www.prnewswire.com/news/acme", "https://acme.example/esg")


@pytest.mark.parametrize(
    ("tiers", "reached"),
    [
        ([], False),
        ([1], True),
        ([2], False),
        ([2, 2], True),
        ([2, 3], False),
        ([3, 3], False),
        ([3, 3, 3], True),
        ([2, 3, 3], True),
        ([4, 4, 4, 4], False),
        ([3, 3, 4], False),
    ],
)
def test_the_contradiction_bar(tiers: list[int], reached: bool) -> None:
    assert contradiction_bar_reached(tiers) is reached


def test_a_press_wire_is_the_companys_word_whatever_its_tier_basis() -> None:
    assert is_company_word("domain", False, "https://www.businesswire.com/news/home/1")
    assert not is_company_word("domain", False, "https://www.reuters.com/business/1")
    assert is_company_word("domain", True, "https://www.reuters.com/business/1")


@pytest.mark.parametrize(("basis", "relays", "url"), list(itertools.product(BASES, (False, True), URLS)))
def test_investigators_and_judge_agree_on_the_companys_word(basis: str, relays: bool, url: str) -> None:
    source = SourceReading(
        result=SearchResult("t", url, "s", None, "example", None, "tavily"),
        query="q",
        query_type="verification",
        tier=TierAssignment(3, basis, "why"),
        assessment=SourceAssessment("supports", None, 0.5, "x", "s", None),
        quote=QuoteCheck(True, "fetched_page"),
        company_voice="relays the company" if relays else None,
    )
    details = {"source_url": url, "tier_basis": basis, "relays_company": relays}

    assert source.self_reported is is_self_reported(details) is is_company_word(basis, relays, url)
