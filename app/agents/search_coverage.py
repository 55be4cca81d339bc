"""What the run could search for independent evidence, said once on the run and on each search.

A claim is verified or contradicted only by independent sources, which the specialists find on the
web (Tavily, when `TAVILY_API_KEY` is set) and in the organisation's evidence library. When neither
can return anything, every claim comes out UNVERIFIED, and a reader must be told that this means
"nothing was searched", not "the claim is false". So the orchestrator records a run warning for
each missing source (`coverage_warnings`), and the searching agents' per-claim summaries say what
was searched (`with_coverage_note`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace

from app.agents.degradation import RunWarning, WarningCode
from app.agents.routing import SEARCHING_AGENTS
from app.agents.runtime import FindingDraft
from app.config import Settings
from app.db.session import SessionFactory
from app.evidence.search import library_is_empty

STAGE = "investigating"
WEB_PROVIDER = "tavily"
LIBRARY_PROVIDER = "library"


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
    if WEB_PROVIDER not in settings.search_providers:
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
    if LIBRARY_PROVIDER in settings.search_providers:
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
            else "so only web sources could be found"
        )
        warnings.append(
            _warning(
                WarningCode.EVIDENCE_LIBRARY_EMPTY,
                f"The organisation's evidence library holds no document, {web}; add documents to it "
                "to have claims checked against them.",
                claims,
            )
        )
    return warnings


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
    return (
        agent in SEARCHING_AGENTS
        and draft.evidence_type != "error"
        and "queries" in draft.details
        and "source_url" not in draft.details
    )


def with_coverage_note(agent: str, draft: FindingDraft, coverage: SearchCoverage) -> FindingDraft:
    """The draft, with the coverage note appended to a search summary when web search was off
    (and recorded in `details["web_search"]`); other findings unchanged."""
    note = coverage_note(coverage)
    if note is None or not is_search_summary(agent, draft) or "Web search was off" in draft.summary:
        return draft
    return replace(
        draft,
        summary=f"{draft.summary.rstrip()} {note}",
        details={**draft.details, "web_search": {"available": False, "reason": coverage.web_off_reason}},
    )
