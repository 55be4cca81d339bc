"""How long to wait before retrying a remote service, and the retry loop the LLM, embeddings and
web search clients share."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from app.config import Settings
from app.llm.breaker import CircuitBreaker
from app.llm.errors import AttemptFailed

T = TypeVar("T")


def backoff_delay(attempt: int, *, base: float, cap: float, retry_after: float | None = None) -> float:
    """Seconds to sleep after failed attempt number `attempt` (0 = the first call).

    The server's `Retry-After` wins when given; otherwise `base * 2**attempt`. Either is capped at `cap`.
    """
    delay = retry_after if retry_after is not None else base * 2**attempt
    return max(0.0, min(cap, delay))


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry one kind of call."""

    max_retries: int
    base_seconds: float
    cap_seconds: float

    @classmethod
    def for_models(cls, settings: Settings) -> RetryPolicy:
        """The LLM and embeddings APIs' policy (`llm_max_retries`, `llm_backoff_*`)."""
        return cls(settings.llm_max_retries, settings.llm_backoff_seconds, settings.llm_backoff_max_seconds)

    @classmethod
    def for_search(cls, settings: Settings) -> RetryPolicy:
        """The web search API's policy (`search_max_retries`, `search_backoff_seconds`)."""
        return cls(
            settings.search_max_retries, settings.search_backoff_seconds, settings.llm_backoff_max_seconds
        )


class RetriesExhausted(Exception):
    """The last failure of an operation that may not (or no longer) be retried, with the retries made."""

    def __init__(self, failure: AttemptFailed, retries: int) -> None:
        suffix = f" (after {retries} retries)" if failure.retryable else ""
        super().__init__(f"{failure}{suffix}")
        self.failure = failure
        self.retries = retries


async def with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    on_retry: Callable[[AttemptFailed, int, float], None],
    breaker: CircuitBreaker | None = None,
) -> T:
    """`attempt()`, retried on retryable `AttemptFailed` up to `policy.max_retries` times with capped
    exponential backoff; `on_retry(failure, retry_number, delay)` is told before each wait.

    With a `breaker`, every attempt's outcome is reported to it, and an open breaker ends the loop
    at once (no call, no wait) with its last failure.

    Raises:
        RetriesExhausted: the failure was final, the retries ran out, or the breaker is open.
    """
    retries = 0
    while True:
        refusal = breaker.refusal() if breaker is not None else None
        if refusal is not None:
            raise RetriesExhausted(refusal, retries)
        try:
            result = await attempt()
        except AttemptFailed as exc:
            if breaker is not None:
                breaker.record_failure(exc)
            if not exc.retryable or retries >= policy.max_retries:
                raise RetriesExhausted(exc, retries) from exc
            delay = backoff_delay(
                retries,
                base=policy.base_seconds,
                cap=policy.cap_seconds,
                retry_after=exc.retry_after,
            )
            retries += 1
            on_retry(exc, retries, delay)
            await asyncio.sleep(delay)
        else:
            if breaker is not None:
                breaker.record_success()
            return result
