"""How long to wait before retrying a model, and the retry loop the LLM and embeddings clients share."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.config import Settings
from app.llm.errors import AttemptFailed

T = TypeVar("T")


def backoff_delay(attempt: int, *, base: float, cap: float, retry_after: float | None = None) -> float:
    """Seconds to sleep after failed attempt number `attempt` (0 = the first call).

    The server's `Retry-After` wins when given; otherwise `base * 2**attempt`. Either is capped at `cap`.
    """
    delay = retry_after if retry_after is not None else base * 2**attempt
    return max(0.0, min(cap, delay))


class RetriesExhausted(Exception):
    """The last failure of an operation that may not (or no longer) be retried, with the retries made."""

    def __init__(self, failure: AttemptFailed, retries: int) -> None:
        suffix = f" (after {retries} retries)" if failure.retryable else ""
        super().__init__(f"{failure}{suffix}")
        self.failure = failure
        self.retries = retries


async def with_retries(
    attempt: Callable[[], Awaitable[T]],
    settings: Settings,
    on_retry: Callable[[AttemptFailed, int, float], None],
) -> T:
    """`attempt()`, retried on retryable `AttemptFailed` up to `llm_max_retries` times with capped
    exponential backoff; `on_retry(failure, retry_number, delay)` is told before each wait.

    Raises:
        RetriesExhausted: the failure was final, or the retries ran out.
    """
    retries = 0
    while True:
        try:
            return await attempt()
        except AttemptFailed as exc:
            if not exc.retryable or retries >= settings.llm_max_retries:
                raise RetriesExhausted(exc, retries) from exc
            delay = backoff_delay(
                retries,
                base=settings.llm_backoff_seconds,
                cap=settings.llm_backoff_max_seconds,
                retry_after=exc.retry_after,
            )
            retries += 1
            on_retry(exc, retries, delay)
            await asyncio.sleep(delay)
