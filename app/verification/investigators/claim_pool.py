"""Claims worked on a few at a time by one specialist, with their results in claim order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from app.config import Settings
from app.verification.records import ClaimState

T = TypeVar("T")

#: Most claims investigated at once by one agent (see `claims_at_once`).
MAX_CLAIMS_AT_ONCE = 8


def claims_at_once(settings: Settings) -> int:
    """Claims one agent investigates at once: LLM_MAX_CONCURRENCY, at most `MAX_CLAIMS_AT_ONCE`.

    A claim spends most of its time waiting on one call at a time (planning its queries, then its
    searches, then reading the sources), so about as many claims as LLM calls may be in flight keep
    the process's LLM slots busy; more would only queue for those slots while multiplying the web
    searches (up to SEARCH_QUERIES_PER_CLAIM each) and database connections in flight.
    """
    return max(1, min(MAX_CLAIMS_AT_ONCE, settings.llm_max_concurrency))


async def each_claim(
    claims: Sequence[ClaimState], limit: int, check: Callable[[ClaimState], Awaitable[T]]
) -> list[T]:
    """`check` every claim, at most `limit` at a time, started in order; the results in claim
    order. The first failure (or a cancellation, e.g. the agent's time limit) stops the others.

    Claims finish in an order set by timing, so whatever the checks share must answer a claim the
    same whichever claim asked first: a cache is keyed by what it holds (`SourceTexts` keeps a
    source's own text, never one claim's copy of it), and nothing is "first come, first served".
    """
    slots = asyncio.Semaphore(limit)

    async def one(claim: ClaimState) -> T:
        async with slots:
            return await check(claim)

    tasks = [asyncio.create_task(one(claim)) for claim in claims]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        for pending in tasks:
            pending.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
