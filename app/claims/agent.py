"""The claims agent: pages in, located, de-duplicated, IFRS-mapped claims out (FRD-03).

    chunks ─map→ candidates per chunk ─location check→ announced ─reduce→ unique ─map IFRS→ claims

The map phase is the LLM's (concurrent page windows) when one is configured and the rule extractor's
otherwise; everything after it is shared. Each chunk's located claims are handed to `on_chunk` as
soon as they exist, so the caller can persist and announce them before the whole report is done.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.agents.state import IfrsParagraph
from app.claims.candidates import CandidateClaim
from app.claims.chunks import PageChunk, page_chunks
from app.claims.company import detect_company_name
from app.claims.dedup import DedupStats, deduplicate
from app.claims.ifrs_mapping import MappingStats, map_claims
from app.claims.llm_extract import ChunkResult, extract_chunks
from app.claims.location import LocationStats, PageIndex, locate_all
from app.claims.rules import RuleClaim, extract_rule_claims
from app.config import Settings
from app.embeddings import Embedder
from app.knowledge.search import KnowledgeSearch
from app.llm import LLMClient, UsageTrace

RULES_METHOD = "rules"


@dataclass(frozen=True)
class ChunkProgress:
    """One finished chunk: its located claims, and what it lost."""

    chunk: PageChunk
    claims: list[CandidateClaim]
    rejected: int
    dropped: int
    error: str | None


@dataclass(frozen=True)
class MappedClaim:
    """A final claim with its preliminary IFRS mapping."""

    claim: CandidateClaim
    ifrs_paragraphs: list[IfrsParagraph]


@dataclass
class ExtractionStats:
    """Everything measured on the way; stored as the run's `extraction_stats`."""

    method: str
    pages: int
    chunks: int = 0
    chunks_failed: int = 0
    candidates: int = 0
    rejected: int = 0
    location: LocationStats = field(default_factory=LocationStats)
    dedup: DedupStats = field(default_factory=DedupStats)
    mapping: MappingStats = field(default_factory=MappingStats)
    claims: int = 0
    mapped: int = 0
    company_name: str | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "pages": self.pages,
            "chunks": self.chunks,
            "chunks_failed": self.chunks_failed,
            "candidates": self.candidates,
            "rejected_by_validation": self.rejected,
            "location": self.location.to_dict(),
            "dedup": self.dedup.to_dict(),
            "mapping": self.mapping.to_dict(),
            "claims": self.claims,
            "mapped": self.mapped,
            "company_name": self.company_name,
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
        index = PageIndex(dict(pages))
        found: list[CandidateClaim] = []
        async for result in self._map(pages, trace):
            stats.chunks += 1
            stats.chunks_failed += result.error is not None
            stats.candidates += len(result.claims)
            stats.rejected += result.rejected
            dropped_before = stats.location.dropped
            located = locate_all(result.claims, index, stats.location)
            found.extend(located)
            if on_chunk is not None:
                progress = ChunkProgress(
                    result.chunk,
                    located,
                    result.rejected,
                    stats.location.dropped - dropped_before,
                    result.error,
                )
                await on_chunk(progress)
        unique, stats.dedup = await deduplicate(
            sorted(found, key=lambda claim: claim.source_page),
            embedder=self.embedder,
            llm=self.llm,
            threshold=self.settings.claims_similarity_threshold,
            page_window=self.settings.claims_chunk_overlap_pages + 1,
            trace=trace,
        )
        mappings, stats.mapping = await map_claims(
            unique, self.knowledge, budget=self.settings.claims_rag_query_budget
        )
        claims = [MappedClaim(claim, mapping) for claim, mapping in zip(unique, mappings, strict=True)]
        stats.claims = len(claims)
        stats.mapped = sum(bool(claim.ifrs_paragraphs) for claim in claims)
        stats.seconds = time.perf_counter() - started
        return claims, stats

    async def _map(self, pages: Sequence[tuple[int, str]], trace: UsageTrace) -> AsyncIterator[ChunkResult]:
        settings = self.settings
        if self.llm is not None:
            chunks = page_chunks(pages, settings.claims_chunk_size_pages, settings.claims_chunk_overlap_pages)
            async for result in extract_chunks(
                self.llm,
                chunks,
                total_pages=len(pages),
                concurrency=settings.claims_max_concurrent_chunks,
                trace=trace,
            ):
                yield result
            return
        # The rules read the whole report at once (their density budget is per report); the claims
        # are then handed on window by window, like the LLM's.
        found = extract_rule_claims(pages)
        for chunk in page_chunks(pages, settings.claims_chunk_size_pages, 0):
            claims = [_from_rules(claim, chunk.index) for claim in found if chunk.contains(claim.source_page)]
            yield ChunkResult(chunk, claims)


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
