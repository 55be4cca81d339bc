"""The cross-domain exchange of a searching specialist: the request it posts about a claim a source
contradicts, and its answer to another agent's request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.search.results import SearchAPIError
from app.search.web import EvidenceSearch
from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.search_queries import key_terms
from app.verification.records import (
    ClaimState,
    FindingDraft,
    InfoRequest,
    InfoResponse,
    SpecialistTask,
    stable_id,
)

if TYPE_CHECKING:
    from app.verification.investigators.web_evidence import SearchProfile


def info_request(
    task: SpecialistTask, profile: SearchProfile, claim: ClaimState, findings: Sequence[FindingDraft]
) -> InfoRequest | None:
    """A cross-domain request in the first pass, when the profile wants one for this claim."""
    if not profile.posts_requests or task["iteration"] > 0:
        return None
    description = _request_from_findings(claim, findings)
    if description is None:
        return None
    return InfoRequest(
        request_id=stable_id("info", task["run_id"], profile.agent, claim["claim_id"]),
        requesting_agent=profile.agent,
        description=description,
        claim_id=claim["claim_id"],
        status="pending",
        target_agents=[],
        iteration=task["iteration"],
    )


def _request_from_findings(claim: ClaimState, findings: Sequence[FindingDraft]) -> str | None:
    for finding in findings:
        if finding.claim_id != claim["claim_id"] or finding.supports_claim is not False:
            continue
        url = finding.details.get("source_url")
        if (
            finding.details.get("signal") == "numeric_mismatch"
            or finding.details.get("contradiction_type") == "direct"
        ):
            return (
                f"Quantitative validation needed: {url} states different figures than the claim "
                f"'{claim['text']}'. Please check the report's metrics and calculations for consistency."
            )
        if finding.details.get("contradiction_type") == "omission":
            return (
                f"Regulatory context needed: {url} reports enforcement or litigation related to the claim "
                f"'{claim['text']}'. Please assess the IFRS disclosure and compliance implications."
            )
    return None


async def answer_request(
    tools: InvestigationTools,
    search: EvidenceSearch,
    profile: SearchProfile,
    request: InfoRequest,
    company: str,
) -> InfoResponse:
    """Search for the request's topic and report what was found."""
    query = " ".join([company, *key_terms(request["description"])]).strip()
    try:
        answer = await search.search(query, exclude_domains=profile.exclude_domains, topic=profile.topic)
        sources = [result.to_dict() for result in answer.results[:5]]
        summary = f"Found {len(sources)} source(s) for the request (query: {query!r})."
    except SearchAPIError as exc:
        sources, summary = [], f"Search failed for the request: {exc.message}"
    await tools.think(f"{profile.label} agent: answering {request['requesting_agent']}: {summary}")
    return InfoResponse(
        response_id=stable_id("response", request["request_id"], profile.agent),
        request_id=request["request_id"],
        requesting_agent=request["requesting_agent"],
        responding_agent=profile.agent,
        summary=summary,
        details={"sources": sources, "query": query},
    )
