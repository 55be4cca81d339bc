"""A statement the report repeats on several pages is one claim with all its pages; the same words
with another figure are another claim."""

from __future__ import annotations

from app.claims.candidates import CandidateClaim
from app.claims.dedup import DedupStats, UniqueClaim, deduplicate, merge_repeats
from app.claims.repeats import StatementIndex, statement_key
from app.embeddings import HashingEmbedder
from app.llm import UsageTrace

TARGET = "Halvorsen Freight will run 60% of its depot fleet on battery power by 2030."


def candidate(text: str, page: int, context: str | None = None) -> CandidateClaim:
    return CandidateClaim(
        text=text,
        claim_type="quantitative",
        priority="high",
        source_page=page,
        source_context=context or text,
        reasoning="test",
        method="rules",
    )


async def dedup(
    claims: list[CandidateClaim], report: StatementIndex | None = None
) -> tuple[list[UniqueClaim], DedupStats]:
    return await deduplicate(
        claims,
        embedder=HashingEmbedder(),
        llm=None,
        threshold=0.85,
        page_window=2,
        trace=UsageTrace(),
        report=report,
    )


async def test_a_statement_repeated_on_three_pages_is_one_claim_with_the_other_two_pages() -> None:
    claims = [
        candidate(TARGET, 8),
        candidate("HALVORSEN FREIGHT will run 60 % of its depot fleet on battery power by 2030", 12),
        candidate("Halvorsen Freight will run 60% of its depot-fleet on battery power by 2030.\u00b9", 14),
    ]

    unique, stats = await dedup(claims)

    assert [(item.claim.text, item.claim.source_page, item.also_on_pages) for item in unique] == [
        (TARGET, 8, (12, 14))
    ]
    assert stats.exact == 2 and stats.repeated == 1


async def test_the_same_words_with_another_figure_or_year_are_other_claims() -> None:
    claims = [
        candidate(TARGET, 3),
        candidate(TARGET.replace("60%", "65%"), 9),
        candidate(TARGET.replace("2030", "2035"), 15),
        candidate(TARGET.replace("60%", "6.0%"), 20),
    ]

    unique, _ = await dedup(claims)

    assert [(item.claim.source_page, item.also_on_pages) for item in unique] == [
        (3, ()),
        (9, ()),
        (15, ()),
        (20, ()),
    ]


async def test_a_near_identical_restatement_far_away_merges_into_the_earlier_page() -> None:
    restated = "By 2030, Halvorsen Freight will run 60% of its depot fleet on battery power."
    claims = [candidate(restated, 4), candidate(TARGET, 19, "a longer context around the target " * 3)]

    unique, stats = await dedup(claims)

    assert [(item.claim.text, item.claim.source_page, item.also_on_pages) for item in unique] == [
        (restated, 4, (19,))
    ]
    assert stats.distant_pairs == 1 and stats.confirmed_by_rule == 1


async def test_on_one_page_the_richer_context_stays_and_the_page_is_not_listed_again() -> None:
    claims = [candidate(TARGET, 5), candidate(TARGET, 5, "Fleet. " + TARGET + " Depots follow.")]

    (item,) = merge_repeats(claims, DedupStats())

    assert item.claim.source_context.startswith("Fleet.") and item.also_on_pages == ()


async def test_pages_stating_a_claim_that_no_extractor_returned_twice_are_added() -> None:
    pages = [
        (2, "Fleet plan\n" + TARGET + " Depots in the north go first."),
        (6, "Our fleet\n\nHalvorsen Freight will run 60% of its depot\nfleet on battery power by 2030."),
        (7, "Halvorsen Freight will run 65% of its depot fleet on battery power by 2030."),
        (
            9,
            "Ostbay Logistics says " + TARGET,
        ),
    ]

    unique, stats = await dedup([candidate(TARGET, 6)], StatementIndex(pages))

    ((claim, also_on),) = [(item.claim, item.also_on_pages) for item in unique]
    assert (claim.source_page, also_on) == (2, (6,))  # moved to the first page stating it
    assert claim.source_context == TARGET and stats.moved_to_earlier_page == 1


def test_statement_keys_set_aside_layout_and_markers_but_keep_figures_and_units() -> None:
    assert statement_key("Net-\nzero by 2040 [2]") == statement_key("net zero by 2040.")
    assert statement_key("Net zero by 2040*") == statement_key("Net zero by 2040")
    assert statement_key("1 12 sites") != statement_key("112 sites")
    assert statement_key("Roofs cover 40 m\u00b2.") != statement_key("Roofs cover 40 m.")
    assert statement_key("Scope1 fell 5%") != statement_key("Scope fell 5%")
    assert statement_key("Costs of 12 EUR") != statement_key("Costs of 12%")
