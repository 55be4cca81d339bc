"""A claim whose web searches all failed was not checked on the web, and its findings say so.

Web search that is configured but fails (Tavily answering 500, timing out) must not read as "the
web found nothing": such a claim gets an error finding instead of (or, when the evidence library
answered, beside) its search summary. The run's WEB_SEARCH_FAILED warning is the pipeline's
(`app.pipeline.search_coverage`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.degradation import cause_phrase, describe_causes
from app.search.library import PROVIDER as LIBRARY
from app.search.tavily import PROVIDER as WEB
from app.verification.contract import relevant_sources
from app.verification.records import FindingDraft

_WEB_REASONS = {
    "timeout": "Tavily did not answer in time",
    "connection": "Tavily could not be reached",
    "bad_response": "Tavily's answer was not a list of results",
}


def web_failure_cause(message: str) -> str:
    """A short, stable phrase for a failed web search ("Tavily returned HTTP 500")."""
    return cause_phrase(message.removeprefix(f"{WEB}: "), provider="Tavily", reasons=_WEB_REASONS)


def failed_web_queries(queries: Sequence[Mapping[str, Any]], *, web_enabled: bool) -> tuple[int, list[str]]:
    """How many of a claim's query records went to the web, and the failure message of each that
    failed there (the whole search, or the web provider while the library answered)."""
    if not web_enabled:
        return 0, []
    web = [query for query in queries if not query.get("library_only")]
    failed: list[str] = []
    for query in web:
        if "error" in query:
            failed.append(str(query["error"]))
            continue
        errors = query.get("provider_errors") or {}
        failed += [str(error) for provider, error in errors.items() if provider != LIBRARY]
    return len(web), failed


def web_failure_findings(
    label: str, summary: FindingDraft, queries: Sequence[Mapping[str, Any]], *, web_enabled: bool
) -> list[FindingDraft]:
    """A claim's search summary when its web searches did not all fail; otherwise an error finding
    (the claim was not checked on the web), next to the summary only when the library found
    relevant sources (then the summary says the web failed)."""
    searched, failed = failed_web_queries(queries, web_enabled=web_enabled)
    if not searched or len(failed) < searched:
        return [summary]
    cause = describe_causes(web_failure_cause(message) for message in failed)
    library_found = relevant_sources(summary.details) > 0
    library = (
        "; the evidence library's relevant sources are reported separately"
        if library_found
        else "; the evidence library had no relevant source"
        if any(LIBRARY in (query.get("providers") or []) for query in queries)
        else ""
    )
    web_search = {"available": True, "failed": True, "cause": cause, "failed_queries": len(failed)}
    error = FindingDraft(
        claim_id=summary.claim_id,
        evidence_type="error",
        summary=f"{label} agent: web search failed for {len(failed)} of {searched} queries ({cause}); the "
        f"claim was not checked on the web{library}. Finding nothing here says nothing about the claim.",
        supports_claim=None,
        confidence=None,
        method="error",
        details={"error": cause, "queries": list(queries), "web_search": web_search},
    )
    if not library_found:
        return [error]
    noted = replace(
        summary,
        summary=f"{summary.summary.rstrip()} Web search failed ({cause}): only the evidence library "
        "answered.",
        details={**summary.details, "web_search": web_search},
    )
    return [noted, error]
