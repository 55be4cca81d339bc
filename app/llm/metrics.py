"""What LLM calls and circuit breakers report to the metrics (`app.metrics`).

Each HTTP call is counted as the client records it in the run's usage trace
(`app.llm.client.LLMClient._record`), with the same tokens and the same cost, so spend per role and
model reads the same in the metrics as in a run's usage. Breakers are read at scrape time: an open
one turns half-open when its cool-down passes, with no call to say so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.llm.breaker import BreakerState, breakers
from app.llm.errors import AttemptFailed, InvalidAnswer
from app.metrics.catalogue import LLM_CALLS, LLM_COST, LLM_DURATION, LLM_TOKENS

#: How `sibyl_circuit_breaker_state` reads each state (the worst of a provider's and model's breakers).
STATE_VALUES = {BreakerState.CLOSED: 0, BreakerState.HALF_OPEN: 1, BreakerState.OPEN: 2}
#: `AttemptFailed` reasons that are already few and stable.
TRANSPORT_REASONS = frozenset({"timeout", "connection", "bad_response"})


def record_call(
    *,
    role: str,
    model: str,
    failure: BaseException | None,
    prompt_tokens: int,
    completion_tokens: int,
    cost_usd: float | None,
    seconds: float,
) -> None:
    """Count one LLM HTTP call (`failure`: what ended it, None when it answered usably)."""
    LLM_CALLS.labels(role, model, call_outcome(failure)).inc()
    LLM_DURATION.labels(role, model).observe(seconds)
    if prompt_tokens:
        LLM_TOKENS.labels(role, model, "prompt").inc(prompt_tokens)
    if completion_tokens:
        LLM_TOKENS.labels(role, model, "completion").inc(completion_tokens)
    if cost_usd:
        LLM_COST.labels(role, model).inc(cost_usd)


def call_outcome(failure: BaseException | None) -> str:
    """`ok`, or a few stable words for what went wrong (HTTP statuses by class, 429 on its own)."""
    if failure is None:
        return "ok"
    if isinstance(failure, InvalidAnswer):
        return "invalid_answer"
    if isinstance(failure, asyncio.CancelledError):
        return "cancelled"
    if isinstance(failure, AttemptFailed):
        reason = failure.reason
        if reason in TRANSPORT_REASONS:
            return reason
        if reason == "429":
            return "http_429"
        if reason.isdigit() and len(reason) == 3 and reason[0] in "45":
            return f"http_{reason[0]}xx"
    return "other"


class BreakerStates(Collector):
    """`sibyl_circuit_breaker_state{provider, model}` of this process's breakers (model empty for
    providers without one, such as Tavily); never their base URL, which may carry credentials."""

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "sibyl_circuit_breaker_state",
            "Circuit breakers of remote providers: 0 closed, 1 half-open (the next call probes), "
            "2 open (calls are refused and callers take their fallback).",
            labels=["provider", "model"],
        )
        worst: dict[tuple[str, str], int] = {}
        for key, breaker in breakers().items():
            labels = (key[0], key[2] if len(key) > 2 else "")
            worst[labels] = max(worst.get(labels, 0), STATE_VALUES[breaker.state])
        for labels, value in sorted(worst.items()):
            family.add_metric(list(labels), value)
        yield family


REGISTRY.register(BreakerStates())
