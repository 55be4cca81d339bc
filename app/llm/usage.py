"""Token, latency and cost accounting of LLM calls, kept per analysis run as plain data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass
class UsageCounters:
    """Counters of one slice of usage (everything, one model, or one role)."""

    calls: int = 0
    failed_calls: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cost_usd: float | None = None  # None until some call had a known cost

    def add_call(
        self,
        *,
        prompt_tokens: int,
        completion_tokens: int,
        latency_ms: float,
        cost_usd: float | None,
        ok: bool,
    ) -> None:
        """Count one attempt."""
        self.merge(
            UsageCounters(
                calls=1,
                failed_calls=0 if ok else 1,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                latency_ms=latency_ms,
                cost_usd=cost_usd,
            )
        )

    def merge(self, other: UsageCounters) -> None:
        """Add `other`'s counters to these; an unknown cost adds nothing."""
        self.calls += other.calls
        self.failed_calls += other.failed_calls
        self.retries += other.retries
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.latency_ms += other.latency_ms
        if other.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + other.cost_usd

    def to_dict(self) -> dict[str, Any]:
        """The counters as a JSON-serialisable dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UsageCounters:
        """Counters from `to_dict` output; missing keys count as zero."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if data.get(f.name) is not None})

    def __bool__(self) -> bool:
        return bool(self.calls or self.retries)


@dataclass
class UsageTrace:
    """Usage of one analysis run: totals plus the same counters by model and by role.

    Plain data: `to_dict` / `from_dict` round-trip through JSON, and `merge` adds another trace in
    (e.g. from a worker that ran part of the analysis).
    """

    total: UsageCounters = field(default_factory=UsageCounters)
    by_model: dict[str, UsageCounters] = field(default_factory=dict)
    by_role: dict[str, UsageCounters] = field(default_factory=dict)
    #: Per LLM step ("query_writing", ...) of the node: how often it was tried, and the cause of
    #: each rule fallback. For the node's run warnings; not stored with the usage (`to_dict`).
    steps: dict[str, int] = field(default_factory=dict, compare=False)
    fallbacks: dict[str, list[str]] = field(default_factory=dict, compare=False)

    def record(
        self,
        *,
        model: str,
        role: str,
        prompt_tokens: int,
        completion_tokens: int,
        latency_ms: float,
        cost_usd: float | None,
        ok: bool,
    ) -> None:
        """Count one attempt (an HTTP call to `model`), successful or not."""
        for counters in self._slices(model, role):
            counters.add_call(
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                latency_ms=latency_ms,
                cost_usd=cost_usd,
                ok=ok,
            )

    def record_retry(self, *, model: str, reason: str, role: str | None = None) -> None:
        """Count one retry of `model` (reason like "429", "500", "timeout", "invalid_json")."""
        for counters in self._slices(model, role):
            counters.retries += 1

    def record_step(self, step: str, *, fallback_cause: str | None = None) -> None:
        """Count one use of an LLM step; `fallback_cause` when the rules answered instead."""
        self.steps[step] = self.steps.get(step, 0) + 1
        if fallback_cause is not None:
            self.fallbacks.setdefault(step, []).append(fallback_cause)

    def merge(self, other: UsageTrace) -> None:
        """Add every counter of `other` to this trace."""
        self.total.merge(other.total)
        for mine, theirs in ((self.by_model, other.by_model), (self.by_role, other.by_role)):
            for key, counters in theirs.items():
                mine.setdefault(key, UsageCounters()).merge(counters)

    def to_dict(self) -> dict[str, Any]:
        """The trace as JSON-serialisable data: total counters at the top, plus by_model and by_role."""
        return {
            **self.total.to_dict(),
            "by_model": {key: counters.to_dict() for key, counters in self.by_model.items()},
            "by_role": {key: counters.to_dict() for key, counters in self.by_role.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> UsageTrace:
        """A trace from `to_dict` output; None or {} gives an empty trace."""
        if not data:
            return cls()
        return cls(
            total=UsageCounters.from_dict(data),
            by_model=_slices_from(data.get("by_model")),
            by_role=_slices_from(data.get("by_role")),
        )

    def __bool__(self) -> bool:
        return bool(self.total)

    def _slices(self, model: str, role: str | None) -> list[UsageCounters]:
        slices = [self.total, self.by_model.setdefault(model, UsageCounters())]
        if role is not None:
            slices.append(self.by_role.setdefault(role, UsageCounters()))
        return slices


def _slices_from(data: Mapping[str, Mapping[str, Any]] | None) -> dict[str, UsageCounters]:
    return {key: UsageCounters.from_dict(counters) for key, counters in (data or {}).items()}


def estimate_cost(
    prices: Mapping[str, tuple[float, float]], model: str, prompt_tokens: int, completion_tokens: int
) -> float | None:
    """USD cost of a call from per-million-token prices, or None when `model` has no price."""
    price = prices.get(model)
    if price is None:
        return None
    input_price, output_price = price
    return (prompt_tokens * input_price + completion_tokens * output_price) / 1_000_000
