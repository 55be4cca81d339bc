"""A circuit breaker per remote provider (and model), so an outage is not called thousands of times.

Without it, every claim of a run asks a provider that answers 500 again, each time with all its
retries: a judge at 500 took 1,296 calls for 72 claims, and Tavily at 500 took 896. After
`circuit_breaker_failures` consecutive transport failures (5xx, timeouts, connection errors,
answers that are not the API's) the breaker opens: calls fail at once with the last failure, so
the callers take their fallback (the role's fallback model, then the rule path, with its warning).
After `circuit_breaker_cooldown_seconds` one call is let through as a probe; it closes the breaker
when it succeeds and re-opens it when it fails.

429 and other 4xx answers do not count: a rate-limited or refusing provider is up, and its own
retry policy (Retry-After, or no retry) handles it.

Breakers live per process (a worker's state is its own), keyed by provider, base URL and model.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.config import Settings
from app.llm.errors import AttemptFailed

logger = logging.getLogger(__name__)

#: Reasons of `AttemptFailed` that say the provider is not answering properly.
_OUTAGE_REASONS = frozenset({"timeout", "connection", "bad_response"})


class BreakerState(enum.StrEnum):
    CLOSED = "closed"  # calls go out
    OPEN = "open"  # calls are refused until the cool-down passes
    HALF_OPEN = "half_open"  # the cool-down is over: the next call is the probe


def is_outage(failure: AttemptFailed) -> bool:
    """Whether a failed attempt counts toward opening the breaker (5xx and transport failures)."""
    return failure.reason in _OUTAGE_REASONS or (failure.reason.isdigit() and int(failure.reason) >= 500)


@dataclass
class CircuitBreaker:
    """Consecutive-failure breaker with a cool-down and one probe per cool-down."""

    name: str
    threshold: int
    cooldown_seconds: float
    clock: Callable[[], float] = time.monotonic
    failures: int = 0
    open_until: float = 0.0
    last_failure: AttemptFailed | None = field(default=None, repr=False)

    @property
    def is_open(self) -> bool:
        """Whether calls are being refused right now (no probe is due)."""
        return self._tripped and self.clock() < self.open_until

    @property
    def state(self) -> BreakerState:
        if not self._tripped:
            return BreakerState.CLOSED
        return BreakerState.OPEN if self.is_open else BreakerState.HALF_OPEN

    @property
    def _tripped(self) -> bool:
        return self.threshold > 0 and self.failures >= self.threshold

    def refusal(self) -> AttemptFailed | None:
        """None when a call may go out (closed, or the probe is due), else the failure to raise.

        The failure repeats the last real one's reason ("500"), so the caller's warning names the
        provider's fault, not the breaker; it is final (not retryable).
        """
        if not self._tripped:
            return None
        now = self.clock()
        if now >= self.open_until:
            self.open_until = now + self.cooldown_seconds  # the probe; others wait for its outcome
            logger.info("circuit breaker %s: probing after the cool-down", self.name)
            return None
        last = self.last_failure
        reason = last.reason if last is not None else "circuit_open"
        detail = str(last).split(":", 1)[-1].strip() if last is not None else ""
        return AttemptFailed(
            reason,
            f"{detail} (circuit open after {self.failures} consecutive failures; not called)",
            retryable=False,
        )

    def record_success(self) -> None:
        """The provider answered: close the breaker."""
        if self._tripped:
            logger.info("circuit breaker %s: closed, the provider answers again", self.name)
        self.failures = 0

    def record_failure(self, failure: AttemptFailed) -> None:
        """Count an outage failure; open (again) for a cool-down at the threshold."""
        if not is_outage(failure):
            return
        self.failures += 1
        self.last_failure = failure
        if self._tripped:
            if self.failures == self.threshold:
                logger.warning(
                    "circuit breaker %s: open for %.0fs after %d consecutive failures (%s)",
                    self.name,
                    self.cooldown_seconds,
                    self.failures,
                    failure,
                )
            self.open_until = self.clock() + self.cooldown_seconds


_BREAKERS: dict[tuple[str, ...], CircuitBreaker] = {}


def breaker_for(settings: Settings, *key: str) -> CircuitBreaker:
    """This process's breaker for `key` (e.g. "llm", base URL, model), with the current settings."""
    breaker = _BREAKERS.get(key)
    if breaker is None:
        breaker = CircuitBreaker(
            "/".join(key), settings.circuit_breaker_failures, settings.circuit_breaker_cooldown_seconds
        )
        _BREAKERS[key] = breaker
    else:
        breaker.threshold = settings.circuit_breaker_failures
        breaker.cooldown_seconds = settings.circuit_breaker_cooldown_seconds
    return breaker


def breakers() -> dict[tuple[str, ...], CircuitBreaker]:
    """This process's breakers by key (for the metrics, `app.llm.metrics`)."""
    return dict(_BREAKERS)


def reset_breakers() -> None:
    """Forget every breaker of this process (tests)."""
    _BREAKERS.clear()
