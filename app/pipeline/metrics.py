"""What an analysis reports to the metrics (`app.metrics`): each graph node's time, and the verdicts
and findings it stored, by label only (never a claim, a report or an organisation); and each node's
run as a span of the analysis's trace (`app.tracing`)."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar, get_args

from app.metrics.catalogue import ANALYSIS_STAGE_SECONDS, FINDINGS, VERDICTS
from app.metrics.labels import bounded
from app.tracing import span
from app.verification.evidence_kinds import EVIDENCE_KINDS, kind_of
from app.verification.records import SPECIALISTS, Finding, Verdict, VerdictName

Node = TypeVar("Node", bound=Callable[..., Awaitable[dict[str, Any]]])

VERDICT_LABELS = get_args(VerdictName)


def timed(stage: str, node: Node, span_name: str | None = None) -> Node:
    """`node` (a graph node), its every run observed as `stage` and traced as `span_name` (default
    `node <stage>`). LangGraph reads the node's signature and type hints through the wrapper
    (`functools.wraps`), so it passes the same arguments; a node cancelled (the run cancelled, the
    worker stopping) is not observed."""

    @functools.wraps(node)
    async def timed_node(*args: Any, **kwargs: Any) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            with span(span_name or f"node {stage}", **{"sibyl.stage": stage}):
                result = await node(*args, **kwargs)
        except Exception:
            ANALYSIS_STAGE_SECONDS.labels(stage, "error").observe(time.perf_counter() - started)
            raise
        ANALYSIS_STAGE_SECONDS.labels(stage, "ok").observe(time.perf_counter() - started)
        return result

    return timed_node  # type: ignore[return-value]


def count_verdicts(verdicts: Iterable[Verdict]) -> None:
    """Count verdicts once they are stored."""
    for verdict in verdicts:
        VERDICTS.labels(bounded(verdict["verdict"], VERDICT_LABELS)).inc()


def count_findings(findings: Iterable[Finding]) -> None:
    """Count findings once they are stored."""
    for finding in findings:
        FINDINGS.labels(
            bounded(finding["agent_name"], SPECIALISTS),
            bounded(kind_of(finding), EVIDENCE_KINDS),
            _stance(finding["supports_claim"]),
        ).inc()


def _stance(supports_claim: bool | None) -> str:
    if supports_claim is None:
        return "inconclusive"
    return "supports" if supports_claim else "contradicts"
