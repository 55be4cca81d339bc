"""What the run could search for independent evidence, said once on the run and on each search.

A claim is verified or contradicted only by independent sources, which the specialists find on the
web (Tavily, when `TAVILY_API_KEY` is set) and in the organisation's evidence library. When neither
can return anything, every claim comes out UNVERIFIED, and a reader must be told that this means
"nothing was searched", not "the claim is false". So the orchestrator records a run warning for
each missing source (`coverage_warnings`), and the searching agents' per-claim summaries say what
was searched (`with_coverage_note`).

Web search that is configured but fails (Tavily answering 500, timing out) is the same situation
found out later: a claim whose web searches all failed gets an error finding rather than a "found
nothing" summary (`app.verification.investigators.web_failures`), and each searching agent adds to
the pass's WEB_SEARCH_FAILED warning, and to the warnings of its LLM steps that fell back to rules
(`record_search_warnings`).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from app.config import Settings
from app.db.models import AnalysisRun
from app.db.session import SessionFactory
from app.degradation import WARNING_EVENT, RunWarning, WarningCode, describe_causes
from app.evidence.search import library_is_empty
from app.llm import UsageTrace
from app.pipeline.persistence import RUN_ROW_LOCK, add_run_warnings
from app.pipeline.progress import STAGE
from app.pipeline.routing import SEARCHING_AGENTS
from app.search.library import PROVIDER as LIBRARY
from app.search.tavily import PROVIDER as WEB
from app.search.web import EvidenceSearch
from app.verification.contract import is_search_summary as lists_its_queries
from app.verification.investigators.search_queries import QUERY_WRITING
from app.verification.investigators.web_failures import web_failure_cause
from app.verification.reading.source_analysis import SOURCE_ANALYSIS
from app.verification.records import FindingDraft

if TYPE_CHECKING:
    from app.pipeline.runtime import NodeRecorder

#: What an empty evidence library leaves, before any search and once web search failed throughout.
WEB_ONLY = "so independent sources can come from web search only (WEB_SEARCH_FAILED says if it failed)"
WEB_OUTAGE = "and web search failed for every query, so no claim could meet an independent source"


@dataclass(frozen=True)
class SearchCoverage:
    """Which sources of independent evidence a run's searches reach.

    `web_off_reason` is None when web search is on; `library_empty` is None when the library is
    not searched at all (`SEARCH_PROVIDERS` leaves it out).
    """

    web_off_reason: str | None
    library_empty: bool | None

    @property
    def nothing_searched(self) -> bool:
        """Neither the web nor a library with a document: no independent source can be found."""
        return self.web_off_reason is not None and self.library_empty is not False


def web_off_reason(settings: Settings) -> str | None:
    """Why web search is off ("TAVILY_API_KEY unset"), or None when it is on."""
    if WEB not in settings.search_providers:
        return "SEARCH_PROVIDERS leaves out tavily"
    if settings.tavily_api_key is None:
        return "TAVILY_API_KEY unset"
    return None


async def search_coverage(
    settings: Settings, session_factory: SessionFactory, organisation_id: uuid.UUID
) -> SearchCoverage:
    """What the organisation's searches reach under these settings (one query when the library is
    searched)."""
    library_empty: bool | None = None
    if LIBRARY in settings.search_providers:
        library_empty = await library_is_empty(session_factory, organisation_id)
    return SearchCoverage(web_off_reason=web_off_reason(settings), library_empty=library_empty)


def coverage_warnings(coverage: SearchCoverage, claims: int) -> list[RunWarning]:
    """A warning when web search is off and one when the evidence library is empty (none for a
    report without claims: nothing was to be searched)."""
    if not claims:
        return []
    warnings: list[RunWarning] = []
    if coverage.web_off_reason is not None:
        searched = (
            "nothing independent was searched"
            if coverage.nothing_searched
            else "only the evidence library was searched"
        )
        warnings.append(
            _warning(
                WarningCode.WEB_SEARCH_UNAVAILABLE,
                f"Web search is not configured ({coverage.web_off_reason}): {searched} for the {claims} "
                "claim(s), so UNVERIFIED means no independent source was looked at on the web, "
                "not that a claim is false.",
                claims,
            )
        )
    if coverage.library_empty:
        web = (
            "and web search is off, so no claim could meet an independent source"
            if coverage.web_off_reason is not None
            else WEB_ONLY
        )
        warnings.append(_warning(WarningCode.EVIDENCE_LIBRARY_EMPTY, library_empty_message(web), claims))
    return warnings


def library_empty_message(web: str) -> str:
    """EVIDENCE_LIBRARY_EMPTY's message, `web` saying what that leaves."""
    return (
        f"The organisation's evidence library holds no document, {web}; add documents to it to have "
        "claims checked against them."
    )


def _warning(code: WarningCode, message: str, claims: int) -> RunWarning:
    return RunWarning(code=code.value, stage=STAGE, message=message, count=claims, total=claims, iteration=0)


def coverage_note(coverage: SearchCoverage) -> str | None:
    """The sentence a searching agent's summary ends with when web search was off, else None."""
    if coverage.web_off_reason is None:
        return None
    if coverage.nothing_searched:
        where = (
            "and the evidence library holds no document"
            if coverage.library_empty
            else "and the evidence library is not searched"
        )
        return (
            f"Web search was off ({coverage.web_off_reason}) {where}: nothing independent was "
            "searched, so finding nothing says nothing about the claim."
        )
    return f"Web search was off ({coverage.web_off_reason}): only the evidence library was searched."


def is_search_summary(agent: str, draft: FindingDraft) -> bool:
    """A searching agent's per-claim summary (not one of its per-source findings, not a failure)."""
    return agent in SEARCHING_AGENTS and draft.evidence_type != "error" and lists_its_queries(draft.details)


def with_coverage_note(agent: str, draft: FindingDraft, coverage: SearchCoverage) -> FindingDraft:
    """The draft, with the coverage note appended to a search summary when web search was off
    (and recorded in `details["web_search"]`); other findings unchanged."""
    note = coverage_note(coverage)
    if note is None or not is_search_summary(agent, draft):
        return draft
    return replace(
        draft,
        summary=f"{draft.summary.rstrip()} {note}",
        details={**draft.details, "web_search": {"available": False, "reason": coverage.web_off_reason}},
    )


# --- web search that failed, and the searching agents' LLM fallbacks --------------------------------

#: Key of a stored warning's per-agent parts: agents of one pass add to the same warning.
PARTS = "parts"


@dataclass(frozen=True)
class WarningPart:
    """One agent's share of a pass's warning: units that degraded, units in all, and the causes."""

    count: int
    total: int
    causes: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "total": self.total, "causes": self.causes}


def search_warning_parts(search: EvidenceSearch, trace: UsageTrace) -> dict[WarningCode, WarningPart]:
    """What one searching agent's pass adds to the web-failure and fallback warnings."""
    parts: dict[WarningCode, WarningPart] = {}
    if search.web_failures:
        causes = Counter(web_failure_cause(message) for message in search.web_failures)
        parts[WarningCode.WEB_SEARCH_FAILED] = WarningPart(
            len(search.web_failures), search.web_queries, dict(causes)
        )
    for code, step in (
        (WarningCode.QUERY_WRITING_FELL_BACK_TO_RULES, QUERY_WRITING),
        (WarningCode.SOURCE_ANALYSIS_FELL_BACK_TO_RULES, SOURCE_ANALYSIS),
    ):
        fallbacks = trace.fallbacks.get(step) or []
        if fallbacks:
            parts[code] = WarningPart(len(fallbacks), trace.steps.get(step, 0), dict(Counter(fallbacks)))
    return parts


_WHAT = {
    WarningCode.QUERY_WRITING_FELL_BACK_TO_RULES: "claims' search queries were written by rules instead "
    "of the analysis model",
    WarningCode.SOURCE_ANALYSIS_FELL_BACK_TO_RULES: "sources were read against their claims by rules "
    "instead of the analysis model",
}


def merged_warning(
    code: WarningCode, iteration: int, parts: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The stored warning of `code` for a pass, from every agent's part (kept under `PARTS`, so an
    agent that runs again replaces its own share)."""
    count = sum(int(part["count"]) for part in parts.values())
    total = sum(int(part["total"]) for part in parts.values())
    causes: Counter[str] = Counter()
    for part in parts.values():
        causes.update({str(cause): int(n) for cause, n in part["causes"].items()})
    described = describe_causes(causes.elements())
    if code is WarningCode.WEB_SEARCH_FAILED:
        message = (
            f"Web search failed for {count} of {total} queries: {described}. Claims whose web searches "
            "all failed have error findings: they were not checked on the web, so their verdicts say "
            "nothing about the claims."
        )
    else:
        message = f"{count} of {total} {_WHAT[code]}: {described}"
    if iteration:
        message += f" (pass {iteration + 1})"
    return {
        "code": code.value,
        "stage": STAGE,
        "message": message,
        "count": count,
        "total": total,
        "iteration": iteration,
        PARTS: {agent: dict(part) for agent, part in sorted(parts.items())},
    }


async def record_search_warnings(
    recorder: NodeRecorder, agent: str, iteration: int, search: EvidenceSearch, trace: UsageTrace
) -> None:
    """Add this agent's share to the pass's WEB_SEARCH_FAILED and fallback warnings (stored on the
    run, merged with the other searching agent's share, and emitted as `warning` events)."""
    parts = search_warning_parts(search, trace)
    if not parts:
        return
    async with recorder.transaction() as transaction:
        run = await transaction.session.get(AnalysisRun, recorder.run_id, with_for_update=RUN_ROW_LOCK)
        if run is None:
            return
        stored = {
            (entry.get("code"), entry.get("iteration", 0)): entry
            for entry in run.warnings or []
            if entry.get("stage") == STAGE
        }
        merged = []
        for code, part in parts.items():
            earlier = stored.get((code.value, iteration), {}).get(PARTS) or {}
            merged.append(merged_warning(code, iteration, {**earlier, agent: part.to_dict()}))
        merged += _library_warning_after_outage(
            stored.get((WarningCode.EVIDENCE_LIBRARY_EMPTY.value, 0)), merged
        )
        await add_run_warnings(transaction.session, recorder.run_id, merged)
        for warning in merged:
            event = {key: value for key, value in warning.items() if key != PARTS}
            await recorder.emit_in(transaction, WARNING_EVENT, event)


def _library_warning_after_outage(
    library: Mapping[str, Any] | None, merged: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The run's EVIDENCE_LIBRARY_EMPTY, restated when every web query of the pass failed (with an
    empty library, no claim could then meet an independent source at all), and restated back when
    the other searching agent's share shows that some web queries answered."""
    web = next((entry for entry in merged if entry["code"] == WarningCode.WEB_SEARCH_FAILED.value), None)
    if library is None or web is None:
        return []
    outage = web["count"] >= web["total"]
    message = library_empty_message(WEB_OUTAGE if outage else WEB_ONLY)
    return [] if library.get("message") == message else [{**library, "message": message}]
