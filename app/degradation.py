"""What degraded in a run: typed warnings on `AnalysisRun.warnings`, each also a `warning` event
(the pipeline stores and emits them, `app.pipeline.warnings`).

Every LLM step has a rule path, so a provider that is down or refuses never stops a run. But a run
that fell back must say so: otherwise an outage looks like a report with little to check.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TypedDict

from app.llm import LLMUnavailable

WARNING_EVENT = "warning"
#: Longest cause quoted verbatim when a failure is of no known kind.
CAUSE_CHARS = 120
INVALID_ANSWER_CAUSE = "the model answered without usable JSON (a refusal or a malformed answer)"
REFUSAL_CAUSE = "the model refused"
_REASONS = {
    "timeout": "the provider did not answer in time",
    "connection": "the provider could not be reached",
    "bad_response": "the provider's answer was not a chat completion",
    "invalid answer after repair": INVALID_ANSWER_CAUSE,
}


class WarningCode(enum.StrEnum):
    """What fell back, or which source of evidence the run could not search; see
    schema/types/warnings.py for the API's description of each."""

    EXTRACTION_FELL_BACK_TO_RULES = "EXTRACTION_FELL_BACK_TO_RULES"
    #: The rule extractor read a report mostly not in English (app.claims.language).
    EXTRACTION_LANGUAGE_UNSUPPORTED = "EXTRACTION_LANGUAGE_UNSUPPORTED"
    DEDUP_FELL_BACK_TO_RULES = "DEDUP_FELL_BACK_TO_RULES"
    ROUTING_FELL_BACK_TO_RULES = "ROUTING_FELL_BACK_TO_RULES"
    JUDGE_REVIEW_FELL_BACK_TO_RULES = "JUDGE_REVIEW_FELL_BACK_TO_RULES"
    #: The searching agents' LLM steps (app.verification.investigators.search_queries, source_analysis).
    QUERY_WRITING_FELL_BACK_TO_RULES = "QUERY_WRITING_FELL_BACK_TO_RULES"
    SOURCE_ANALYSIS_FELL_BACK_TO_RULES = "SOURCE_ANALYSIS_FELL_BACK_TO_RULES"
    #: Web search was configured but its provider failed (see app.pipeline.search_coverage).
    WEB_SEARCH_FAILED = "WEB_SEARCH_FAILED"
    #: No claim was searched on the web (see app.pipeline.search_coverage).
    WEB_SEARCH_UNAVAILABLE = "WEB_SEARCH_UNAVAILABLE"
    #: The organisation's evidence library held no document to search.
    EVIDENCE_LIBRARY_EMPTY = "EVIDENCE_LIBRARY_EMPTY"
    #: A specialist timed out or raised; its unchecked claims carry error findings (app.pipeline.progress).
    AGENT_FAILED = "AGENT_FAILED"


class RunWarning(TypedDict):
    """One entry of `AnalysisRun.warnings` (and the data of its `warning` event)."""

    code: str
    stage: str
    message: str
    count: int
    total: int
    iteration: int


def failure_cause(error: LLMUnavailable) -> str:
    """A short, stable phrase for why no model answered ("provider returned HTTP 500").

    Reads the client's per-model failure texts, which start with the attempt's reason ("500",
    "timeout", ...) or say the answer stayed invalid after the repair round.
    """
    causes = dict.fromkeys(cause_phrase(failure) for failure in error.failures.values())
    return "; ".join(causes) or "no model answered"


def cause_phrase(failure: str, *, provider: str = "provider", reasons: Mapping[str, str] = _REASONS) -> str:
    """A failure text as a short phrase: its leading reason (an HTTP status, or a known reason such
    as "timeout") in words, else the text itself, flattened and cut to `CAUSE_CHARS`."""
    reason = failure.split(":", 1)[0].strip()
    if reason.isdigit():
        return f"{provider} returned HTTP {reason}"
    known = reasons.get(reason)
    if known is not None:
        return known
    flat = " ".join(failure.split())
    return flat if len(flat) <= CAUSE_CHARS else flat[: CAUSE_CHARS - 1] + "…"


def fallback_warnings(
    code: WarningCode,
    stage: str,
    what: str,
    causes: Sequence[str | None],
    *,
    total: int,
    iteration: int = 0,
    fallback: str = "rules",
) -> list[RunWarning]:
    """One warning when `causes` (one per unit that fell back) is not empty, else none.

    The message reads "4 of 4 extraction windows fell back to rules: provider returned HTTP 500".
    """
    if not causes:
        return []
    message = f"{len(causes)} of {total} {what} fell back to {fallback}: {describe_causes(causes)}"
    if iteration:
        message += f" (pass {iteration + 1})"
    return [
        RunWarning(
            code=code.value,
            stage=stage,
            message=message,
            count=len(causes),
            total=total,
            iteration=iteration,
        )
    ]


def describe_causes(causes: Iterable[str | None]) -> str:
    """The causes, most frequent first, each with its count when there are several."""
    counted = Counter(cause or "unknown failure" for cause in causes)
    if len(counted) == 1:
        return next(iter(counted))
    return ", ".join(f"{cause} ({count})" for cause, count in counted.most_common())
