"""The news/media specialist: public reporting that corroborates or contradicts a claim.

It searches the web (Tavily, when configured) and the user's evidence library with the three query
types (company-specific, industry-wide, controversy), tiers each outlet, reads each source against
the claim (LLM, else the rules in `contradictions`), checks every quote against the source's text,
and reports per-source findings plus a summary whose position follows the contradiction bar (one
Tier 1 source, two of Tier 1–2 or three of Tier 1–3; docs/decisions.md).
"""

from __future__ import annotations

from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.source_findings import EvidenceKinds
from app.verification.investigators.web_evidence import SearchProfile, investigate_with_search
from app.verification.reading.contradictions import assess_by_rules
from app.verification.records import InvestigationOutcome, SpecialistTask

NEWS_PROFILE = SearchProfile(
    agent="news_media",
    kinds=EvidenceKinds(
        source="news_source", contradiction="news_contradiction", summary="news_investigation_summary"
    ),
    rules=assess_by_rules,
    topic="news",
)


async def investigate_news(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Investigate the task's claims through public news sources."""
    return await investigate_with_search(task, tools, NEWS_PROFILE)
