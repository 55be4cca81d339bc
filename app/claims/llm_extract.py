"""The map phase with an LLM: each page window is read by the extraction model, concurrently.

The answer is validated claim by claim, so one malformed claim costs only itself. A chunk whose
answer cannot be used at all (after the client's retries, repair round and fallback model), that
the model refused, or whose every claim failed validation, comes back with an error and its cause:
the claims agent then reads that chunk with the rule extractor, and the other chunks still go on.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from app.claims.candidates import CandidateClaim
from app.claims.chunks import PageChunk
from app.claims.prompts import EXTRACTION_SYSTEM_PROMPT, EXTRACTION_USER_PROMPT
from app.degradation import REFUSAL_CAUSE, failure_cause
from app.documents.pdf import pages_to_markdown
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace

logger = logging.getLogger(__name__)

METHOD = "llm"
#: Why a window whose answer was usable JSON still fell back to the rules.
VALIDATION_CAUSE = "the model's claims failed validation"
NOT_IN_REPORT_CAUSE = "the model's claims were not in the report"
MAX_OUTPUT_TOKENS = 16000
#: An answer with no claims whose summary reads like this is a refusal wrapped in JSON, not an empty
#: window ("I'm sorry, but I can't help with that request.").
_REFUSAL = re.compile(
    r"\b(?:I['’]?m sorry|I am sorry|I apologi[sz]e|I (?:can(?:no|['’])t|am unable to|won['’]t) "
    r"(?:help|assist|comply|provide|do that))",
    re.IGNORECASE,
)


class ExtractedClaim(BaseModel):
    """One claim as the extraction model must state it."""

    claim_text: str = Field(min_length=8, max_length=1200)
    claim_type: Literal["geographic", "quantitative", "legal_governance", "strategic", "environmental"]
    source_page: int = Field(ge=1)
    source_context: str = ""
    priority: Literal["high", "medium", "low"] = "medium"
    reasoning: str = ""
    preliminary_ifrs: list[str] = Field(default_factory=list)


class ChunkAnswer(BaseModel):
    """The model's answer for one chunk; claims are validated one at a time afterwards."""

    claims: list[dict[str, Any]]
    extraction_summary: str = ""


@dataclass(frozen=True)
class ChunkResult:
    """What one chunk gave: its valid claims, how many were rejected, or why the chunk failed.

    `error` is the full failure, for logs and events; `cause` the short phrase for the run's warning;
    `method` the extractor whose claims these are (the rules', when they stand in for a failed LLM).
    """

    chunk: PageChunk
    claims: list[CandidateClaim]
    rejected: int = 0
    error: str | None = None
    cause: str | None = None
    method: str = METHOD


async def extract_chunks(
    llm: LLMClient,
    chunks: Sequence[PageChunk],
    *,
    total_pages: int,
    concurrency: int,
    trace: UsageTrace,
) -> AsyncIterator[ChunkResult]:
    """Yield each chunk's result as soon as it is ready, at most `concurrency` chunks in flight."""
    semaphore = asyncio.Semaphore(concurrency)

    async def bounded(chunk: PageChunk) -> ChunkResult:
        async with semaphore:
            return await extract_chunk(llm, chunk, total_pages=total_pages, trace=trace)

    tasks = [asyncio.ensure_future(bounded(chunk)) for chunk in chunks]
    try:
        for finished in asyncio.as_completed(tasks):
            yield await finished
    finally:
        for task in tasks:
            task.cancel()


async def extract_chunk(
    llm: LLMClient, chunk: PageChunk, *, total_pages: int, trace: UsageTrace
) -> ChunkResult:
    """Ask the extraction model for one chunk's claims and keep the valid ones."""
    user = EXTRACTION_USER_PROMPT.format(
        first_page=chunk.first_page,
        last_page=chunk.last_page,
        total_pages=total_pages,
        chunk_number=chunk.index + 1,
        chunk_count=chunk.total,
        content=pages_to_markdown(list(chunk.pages)),
    )
    try:
        answer = await llm.complete_json(
            LLMRole.EXTRACTION,
            system=EXTRACTION_SYSTEM_PROMPT,
            user=user,
            schema=ChunkAnswer,
            trace=trace,
            max_tokens=MAX_OUTPUT_TOKENS,
            temperature=0.0,
        )
    except LLMUnavailable as exc:
        logger.warning("claims chunk %d (pages %d-%d) failed: %s", chunk.index, *_span(chunk), exc)
        return ChunkResult(chunk, [], error=str(exc), cause=failure_cause(exc))
    if not answer.claims and _REFUSAL.search(answer.extraction_summary):
        refusal = " ".join(answer.extraction_summary.split())[:200]
        logger.warning("claims chunk %d (pages %d-%d) was refused: %s", chunk.index, *_span(chunk), refusal)
        return ChunkResult(chunk, [], error=f"refused: {refusal}", cause=REFUSAL_CAUSE)
    claims: list[CandidateClaim] = []
    rejected = 0
    for raw in answer.claims:
        try:
            claims.append(_candidate(ExtractedClaim.model_validate(raw), chunk))
        except ValidationError:
            rejected += 1
    if rejected and not claims:
        logger.warning(
            "claims chunk %d (pages %d-%d): all %d claims failed validation",
            chunk.index,
            *_span(chunk),
            rejected,
        )
        error = f"all {rejected} claims failed validation"
        return ChunkResult(chunk, [], rejected=rejected, error=error, cause=VALIDATION_CAUSE)
    return ChunkResult(chunk, claims, rejected=rejected)


def _candidate(claim: ExtractedClaim, chunk: PageChunk) -> CandidateClaim:
    return CandidateClaim(
        text=" ".join(claim.claim_text.split()),
        claim_type=claim.claim_type,
        priority=claim.priority,
        source_page=claim.source_page,
        source_context=" ".join(claim.source_context.split()) or " ".join(claim.claim_text.split()),
        reasoning=claim.reasoning.strip() or "Identified as verifiable by the extraction model.",
        method=METHOD,
        suggested_ifrs=tuple(claim.preliminary_ifrs),
        chunk_index=chunk.index,
    )


def _span(chunk: PageChunk) -> tuple[int, int]:
    return chunk.first_page, chunk.last_page
