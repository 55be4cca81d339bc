"""How long to wait before retrying a model."""

from __future__ import annotations


def backoff_delay(attempt: int, *, base: float, cap: float, retry_after: float | None = None) -> float:
    """Seconds to sleep after failed attempt number `attempt` (0 = the first call).

    The server's `Retry-After` wins when given; otherwise `base * 2**attempt`. Either is capped at `cap`.
    """
    delay = retry_after if retry_after is not None else base * 2**attempt
    return max(0.0, min(cap, delay))
