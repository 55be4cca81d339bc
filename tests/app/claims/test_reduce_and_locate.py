"""The claims agent's shared steps on hand-made input: page windows, the location check, offline
de-duplication, keyword suggestions and company-name detection."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.claims.candidates import CandidateClaim
from app.claims.chunks import page_chunks
from app.claims.company import detect_company_name
from app.claims.dedup import DedupStats, deduplicate, lexically_duplicate
from app.claims.ifrs_mapping import keyword_suggestions
from app.claims.location import LocationStats, PageIndex, locate_all
from app.config import Settings
from app.embeddings import HashingEmbedder
from app.knowledge.registry import is_under
from app.llm import UsageTrace

PAGES = {
    1: "Northwind Minerals plc\nSustainability Report 2023",
    2: "Scope 1 emis-\nsions fell 6.1% to 2.3 Mt CO2e in 2023. Scope 2 emissions were 0.8 Mt CO2e.",
    3: "The Board Sustainability Committee met four times in 2023.",
    4: "Northwind Minerals plc operates the Kestrel Ridge mine in Western Australia.",
}


def candidate(text: str, page: int, context: str | None = None) -> CandidateClaim:
    return CandidateClaim(
        text=text,
        claim_type="quantitative",
        priority="high",
        source_page=page,
        source_context=context or text,
        reasoning="test",
        method="llm",
    )


def test_page_windows_overlap_and_cover_every_page() -> None:
    pages = [(number, f"page {number}") for number in range(1, 25)]

    chunks = page_chunks(pages, 10, 2)

    assert [(chunk.first_page, chunk.last_page) for chunk in chunks] == [(1, 10), (9, 18), (17, 24)]
    assert {chunk.total for chunk in chunks} == {3}
    with pytest.raises(ValueError, match="cannot overlap"):
        page_chunks(pages, 2, 2)
    with pytest.raises(ValidationError, match="CLAIMS_CHUNK_OVERLAP_PAGES"):
        Settings(_env_file=None, claims_chunk_size_pages=3, claims_chunk_overlap_pages=3)  # type: ignore[call-arg]


def test_location_check_keeps_fixes_or_drops_each_claim() -> None:
    stats = LocationStats()
    claims = [
        candidate("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 2),  # hyphenated on the page
        candidate("The Board Sustainability Committee met four times in 2023.", 2),  # really on page 3
        candidate("In 2023 the Board Sustainability Committee met four times.", 3),  # a paraphrase
        candidate("Our fleet has been electric since 2015.", 2),  # nowhere
    ]

    kept = locate_all(claims, PageIndex(PAGES), stats)

    assert [claim.source_page for claim in kept] == [2, 3, 3]
    assert kept[2].source_context == "The Board Sustainability Committee met four times in 2023."
    assert (stats.located, stats.page_corrected, stats.context_corrected, stats.dropped) == (1, 1, 1, 1)
    assert stats.dropped_texts == ["Our fleet has been electric since 2015."]


async def test_offline_dedup_merges_restatements_but_not_different_figures() -> None:
    claims = [
        candidate("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 2),
        candidate("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 2, "longer context " * 5),
        candidate("In 2023, Scope 1 emissions fell 6.1% to 2.3 Mt CO2e.", 3),
        candidate("Scope 2 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 3),
        candidate("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", 9, "far away but identical"),
    ]

    unique, stats = await deduplicate(
        claims, embedder=HashingEmbedder(), llm=None, threshold=0.85, page_window=3, trace=UsageTrace()
    )

    assert [item.claim.text for item in unique] == [
        "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.",
        "Scope 2 emissions fell 6.1% to 2.3 Mt CO2e in 2023.",
    ]
    assert unique[0].claim.source_context.startswith("longer context")  # the richer duplicate is kept
    assert unique[0].also_on_pages == (3, 9) and unique[1].also_on_pages == ()
    assert isinstance(stats, DedupStats) and stats.exact == 2 and stats.confirmed_by_rule == 1
    assert not lexically_duplicate("Scope 1 fell 6.1% in 2023.", "Scope 1 fell 6.2% in 2023.")


@pytest.mark.parametrize(
    ("sentence", "under"),
    [
        ("Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.", "S2.29(a)"),
        ("Our Scope 1 and 2 emissions target is a 42% cut by 2030 against 2019.", "S2.29(a)"),
        ("Our Scope 1 and 2 emissions target is a 42% cut by 2030 against 2019.", "S2.33"),
        ("The Board Sustainability Committee oversees climate-related risks.", "S2.6"),
        ("An internal carbon price of $75 per tonne applies to all new investments.", "S2.29(f)"),
    ],
)
def test_keyword_suggestions_name_the_requirements_a_sentence_touches(sentence: str, under: str) -> None:
    suggested = [req.paragraph_id for req in keyword_suggestions(sentence)]

    assert any(is_under(paragraph_id, under) for paragraph_id in suggested), suggested


def test_company_name_comes_from_legal_forms_and_the_title() -> None:
    assert detect_company_name(sorted(PAGES.items())) == "Northwind Minerals plc"
    assert detect_company_name([(1, "Costco's warehouses. Costco has 600 sites. Costco's fuel.")]) == "Costco"
    assert detect_company_name([(1, "nothing here names a company")]) is None
