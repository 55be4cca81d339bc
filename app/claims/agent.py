"""The claims agent: pages in, located, de-duplicated, IFRS-mapped claims out.

    chunks ─map→ candidates per chunk ─location check→ announced ─reduce→ unique ─map IFRS→ claims
    claims ─risk flags (app.claims.risk_flags, rules, whole report as context)→ flagged claims

The map phase is the LLM's (concurrent page windows) when one is configured and the rule extractor's
otherwise; everything after it is shared. A window whose LLM answer is unusable (no usable JSON, a
refusal, every claim invalid, or no claim found in the report) is read by the rule extractor
instead, so a run whose every LLM call fails ends with the offline run's claims; the stats count
those windows and `degradation_warnings` says what fell back. Each chunk's located claims are
handed to `on_chunk` as soon as they exist, so the caller can persist and announce them before the
whole report is done.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.claims.budget import within_density_budget
from app.claims.candidates import CandidateClaim
from app.claims.chunks import PageChunk, page_chunks
from app.claims.company import detect_company_name
from app.claims.dedup import DedupStats, UniqueClaim, deduplicate
from app.claims.ifrs_mapping import IfrsParagraph, MappingStats, map_claims
from app.claims.language import LanguageCheck, check_language
from app.claims.llm_extract import METHOD as LLM_METHOD
from app.claims.llm_extract import NOT_IN_REPORT_CAUSE, ChunkResult, extract_chunks
from app.claims.location import LocationStats, PageIndex, locate_all
from app.claims.repeats import StatementIndex
from app.claims.risk_flags import RiskFlag, flag_claims
from app.claims.rules import RuleClaim, extract_rule_claims
from app.config import Settings
from app.degradation import RunWarning, WarningCode, fallback_warnings
from app.embeddings import Embedder
from app.knowledge.search import KnowledgeSearch
from app.llm import LLMClient, UsageTrace

RULES_METHOD = "rules"
DEDUP_BUDGET_CAUSE = "the report's budget of LLM checks (CLAIMS_DEDUP_LLM_BUDGET) was used up"
STAGE = "extracting_claims"


@dataclass(frozen=True)
class ChunkProgress:
    """One finished chunk: its located claims, what it lost, and which extractor read it."""

    chunk: PageChunk
    claims: list[CandidateClaim]
    rejected: int
    dropped: int
    error: str | None
    method: str


@dataclass(frozen=True)
class MappedClaim:
    """A final claim with its preliminary IFRS mapping and its greenwashing risk flags."""

    claim: CandidateClaim
    ifrs_paragraphs: list[IfrsParagraph]
    risk_flags: list[RiskFlag] = field(default_factory=list)
    #: The other pages stating the same claim (`app.claims.dedup.UniqueClaim.also_on_pages`).
    also_on_pages: tuple[int, ...] = ()


@dataclass
class ExtractionStats:
    """Everything measured on the way; stored as the run's `extraction_stats`."""

    method: str
    pages: int
    chunks: int = 0
    chunks_failed: int = 0
    #: The failed chunks' causes, one per chunk; each of those chunks was read by the rules instead.
    fallback_causes: list[str] = field(default_factory=list)
    candidates: int = 0
    rejected: int = 0
    location: LocationStats = field(default_factory=LocationStats)
    dedup: DedupStats = field(default_factory=DedupStats)
    mapping: MappingStats = field(default_factory=MappingStats)
    #: LLM-found claims the density budget cut (`app.claims.budget`); the rules apply it themselves.
    over_budget: int = 0
    claims: int = 0
    mapped: int = 0
    company_name: str | None = None
    #: Greenwashing risk flags raised on the final claims, by kind (`app.claims.risk_flags`).
    risk_flags: dict[str, int] = field(default_factory=dict)
    #: Which pages read as English, the only language the rule extractor knows (`app.claims.language`).
    language: LanguageCheck = field(default_factory=lambda: LanguageCheck(0, 0))
    seconds: float = 0.0

    def count(self, result: ChunkResult) -> None:
        """Count one chunk; once any LLM window fell back, `method` says whether all did."""
        self.chunks += 1
        self.candidates += len(result.claims)
        self.rejected += result.rejected
        if result.error is not None:
            self.chunks_failed += 1
            self.fallback_causes.append(result.cause or result.error)
        if self.fallback_causes:
            self.method = RULES_METHOD if len(self.fallback_causes) == self.chunks else "llm+rules"

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "pages": self.pages,
            "chunks": self.chunks,
            "chunks_failed": self.chunks_failed,
            "chunks_fell_back_to_rules": len(self.fallback_causes),
            "candidates": self.candidates,
            "rejected_by_validation": self.rejected,
            "location": self.location.to_dict(),
            "dedup": self.dedup.to_dict(),
            "mapping": self.mapping.to_dict(),
            "dropped_by_budget": self.over_budget,
            "claims": self.claims,
            "mapped": self.mapped,
            "company_name": self.company_name,
            "risk_flags": self.risk_flags,
            "judged_pages": self.language.judged_pages,
            "english_pages": self.language.english_pages,
            "seconds": round(self.seconds, 3),
        }


OnChunk = Callable[[ChunkProgress], Awaitable[None]]


@dataclass
class ClaimsAgent:
    """Runs the claims pipeline with the configured LLM (or none), embedder and knowledge base."""

    settings: Settings
    llm: LLMClient | None
    embedder: Embedder
    knowledge: KnowledgeSearch

    async def extract(
        self, pages: Sequence[tuple[int, str]], *, trace: UsageTrace, on_chunk: OnChunk | None = None
    ) -> tuple[list[MappedClaim], ExtractionStats]:
        """The report's claims in page order, and the stats of the run."""
        started = time.perf_counter()
        stats = ExtractionStats(method="llm" if self.llm else RULES_METHOD, pages=len(pages))
        stats.company_name = detect_company_name(pages)
        stats.language = check_language(pages)
        index = PageIndex(dict(pages))
        found: dict[int, list[CandidateClaim]] = {}
        rules = RuleFallback(pages)
        chunks = page_chunks(
            pages, self.settings.claims_chunk_size_pages, self.settings.claims_chunk_overlap_pages
        )
        async for mapped in self._map(pages, trace, rules, chunks):
            dropped_before = stats.location.dropped
            result, located = mapped, locate_all(mapped.claims, index, stats.location)
            if mapped.method == LLM_METHOD and mapped.claims and not located:
                # Usable JSON, but none of its claims is in the report: as unusable as malformed JSON.
                error = f"none of the model's {len(mapped.claims)} claims was found on the window's pages"
                result = rules.instead_of(replace(mapped, error=error, cause=NOT_IN_REPORT_CAUSE), chunks)
                located = locate_all(result.claims, index, stats.location)
            stats.count(result)
            found[result.chunk.index] = located
            if on_chunk is not None:
                progress = ChunkProgress(
                    result.chunk,
                    located,
                    result.rejected,
                    stats.location.dropped - dropped_before,
                    result.error,
                    result.method,
                )
                await on_chunk(progress)
        unique, stats.dedup = await deduplicate(
            _in_window_order(found),
            embedder=self.embedder,
            llm=self.llm,
            threshold=self.settings.claims_similarity_threshold,
            page_window=self.settings.claims_chunk_overlap_pages + 1,
            trace=trace,
            llm_budget=self.settings.claims_dedup_llm_budget,
            report=StatementIndex(pages),
        )
        if self.llm is not None:
            kept = _within_budget(unique, len(pages))
            stats.over_budget, unique = len(unique) - len(kept), kept
        mappings, stats.mapping = await map_claims(
            [item.claim for item in unique], self.knowledge, budget=self.settings.claims_rag_query_budget
        )
        flags = flag_claims([(item.claim.text, item.claim.source_context) for item in unique], pages)
        claims = [
            MappedClaim(item.claim, mapping, flagged, item.also_on_pages)
            for item, mapping, flagged in zip(unique, mappings, flags, strict=True)
        ]
        stats.risk_flags = dict(sorted(Counter(flag.kind.value for item in flags for flag in item).items()))
        stats.claims = len(claims)
        stats.mapped = sum(bool(claim.ifrs_paragraphs) for claim in claims)
        stats.seconds = time.perf_counter() - started
        return claims, stats

    async def _map(
        self,
        pages: Sequence[tuple[int, str]],
        trace: UsageTrace,
        rules: RuleFallback,
        chunks: Sequence[PageChunk],
    ) -> AsyncIterator[ChunkResult]:
        settings = self.settings
        if self.llm is None:
            for chunk in page_chunks(pages, settings.claims_chunk_size_pages, 0):
                claims = rules.claims_on(chunk.index, chunk.first_page, chunk.last_page)
                yield ChunkResult(chunk, claims, method=RULES_METHOD)
            return
        async for result in extract_chunks(
            self.llm,
            chunks,
            total_pages=len(pages),
            concurrency=settings.claims_max_concurrent_chunks,
            trace=trace,
        ):
            yield result if result.error is None else rules.instead_of(result, chunks)


def _in_window_order(found: Mapping[int, Sequence[CandidateClaim]]) -> list[CandidateClaim]:
    """The located claims of every window (`found`, by window index) by page, those of one page in
    window order, each window's in the order it gave them.

    Windows finish in whatever order the model answers them (`extract_chunks` yields each as it
    completes), and that order changes with the machine's speed and with every other analysis calling
    the same model. The reduce phase settles ties by position: of two statements of one sentence on
    a page two windows share, the first is kept (its type, priority and wording); pairs of equal
    similarity merge first come, first served; the density budget keeps the first of equal rank. So
    the claims are taken in window order, never in finishing order: a report's claims are then the
    same however its windows, and the analyses beside it, ran.
    """
    in_order = [claim for index in sorted(found) for claim in found[index]]
    return sorted(in_order, key=lambda claim: claim.source_page)


def _within_budget(unique: list[UniqueClaim], page_count: int) -> list[UniqueClaim]:
    """The claims the density budget keeps; a claim stated on several pages counts once."""
    kept = {id(claim) for claim in within_density_budget([item.claim for item in unique], page_count)}
    return [item for item in unique if id(item.claim) in kept]


class RuleFallback:
    """The rule extractor's claims, window by window: the offline map phase, and the stand-in for an
    LLM window whose answer is unusable.

    The rules read the whole report at once (their density budget and their "keep a repeated
    sentence once" are per report), the first time they are needed; windows then take the claims on
    their pages. A window standing in for the LLM takes only the pages its predecessor did not
    cover, so when every window falls back the claims are exactly the offline run's, each once.
    """

    def __init__(self, pages: Sequence[tuple[int, str]]) -> None:
        self._pages = pages
        self._found: list[RuleClaim] | None = None

    def claims_on(self, chunk_index: int, first_page: int, last_page: int) -> list[CandidateClaim]:
        """The rule claims on pages `first_page`..`last_page`, as candidates of chunk `chunk_index`."""
        if self._found is None:
            self._found = extract_rule_claims(self._pages)
        return [
            _from_rules(claim, chunk_index)
            for claim in self._found
            if first_page <= claim.source_page <= last_page
        ]

    def instead_of(self, failed: ChunkResult, chunks: Sequence[PageChunk]) -> ChunkResult:
        """`failed` (an LLM window with an error), with the rule claims of the pages it alone adds
        (its count of claims that failed validation stays: the stats report them)."""
        chunk = failed.chunk
        first = chunks[chunk.index - 1].last_page + 1 if chunk.index > 0 else chunk.first_page
        claims = self.claims_on(chunk.index, first, chunk.last_page)
        return replace(failed, claims=claims, method=RULES_METHOD)


def degradation_warnings(stats: ExtractionStats) -> list[RunWarning]:
    """What fell back to rules during extraction: LLM windows, and duplicate checks; and whether
    the rule extractor read a report in a language it does not know."""
    dedup = stats.dedup
    return (
        language_warnings(stats)
        + fallback_warnings(
            WarningCode.EXTRACTION_FELL_BACK_TO_RULES,
            STAGE,
            "extraction windows",
            stats.fallback_causes,
            total=stats.chunks,
        )
        + fallback_warnings(
            WarningCode.DEDUP_FELL_BACK_TO_RULES,
            STAGE,
            "duplicate checks",
            [*dedup.llm_failure_causes, *[DEDUP_BUDGET_CAUSE] * dedup.over_llm_budget],
            total=dedup.candidate_pairs,
            fallback="the lexical rule",
        )
    )


def language_warnings(stats: ExtractionStats) -> list[RunWarning]:
    """EXTRACTION_LANGUAGE_UNSUPPORTED when the rules read the whole report and most of its pages are
    not English: "no claims" would otherwise read as "nothing verifiable in the report"."""
    language = stats.language
    if stats.method != RULES_METHOD or not language.mostly_other_language:
        return []
    other = language.judged_pages - language.english_pages
    message = (
        f"{other} of {language.judged_pages} pages with text do not read as English, the only language "
        f"the rule-based extractor knows; it found {stats.claims} claim(s). The LLM extractor "
        "(LLM_API_KEY) reads other languages."
    )
    return [
        RunWarning(
            code=WarningCode.EXTRACTION_LANGUAGE_UNSUPPORTED.value,
            stage=STAGE,
            message=message,
            count=other,
            total=language.judged_pages,
            iteration=0,
        )
    ]


def _from_rules(claim: RuleClaim, chunk_index: int) -> CandidateClaim:
    return CandidateClaim(
        text=claim.text,
        claim_type=claim.claim_type,
        priority=claim.priority,
        source_page=claim.source_page,
        source_context=claim.source_context,
        reasoning=claim.reasoning,
        method=RULES_METHOD,
        chunk_index=chunk_index,
    )
