"""The records of a verification: claims, findings, verdicts, and what investigators ask and are given.

Everything here is plain JSON-shaped data (TypedDicts of str, int, float, bool, lists and dicts):
the pipeline checkpoints it as it is (`app.pipeline.state`), and the database stores it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from app.claims.ifrs_mapping import IfrsParagraph

AgentName = Literal["geography", "legal", "news_media", "academic", "data_metrics"]
SPECIALISTS: tuple[str, ...] = ("geography", "legal", "news_media", "academic", "data_metrics")

ClaimTypeName = Literal["geographic", "quantitative", "legal_governance", "strategic", "environmental"]
CLAIM_TYPES: tuple[str, ...] = (
    "geographic",
    "quantitative",
    "legal_governance",
    "strategic",
    "environmental",
)

VerdictName = Literal["verified", "unverified", "contradicted", "insufficient_evidence"]
AgentStatusName = Literal["idle", "working", "completed", "error"]


class ClaimState(TypedDict):
    claim_id: str
    text: str
    claim_type: str
    priority: str
    source_page: int
    page_offset: NotRequired[int]  # where the text starts on its page (reading order within the page)
    source_context: NotRequired[str | None]
    ifrs_paragraphs: NotRequired[list[IfrsParagraph]]
    reasoning: NotRequired[str | None]
    method: NotRequired[str]
    risk_flags: NotRequired[list[dict[str, str]]]


class ReinvestigationContext(TypedDict):
    """What the judge wants a specialist to look for when it re-investigates a claim."""

    claim_id: str
    evidence_gap: str
    refined_queries: list[str]
    required_evidence: str | None
    cycle_number: int


class RoutingEntry(TypedDict):
    """One claim of this cycle and the specialists it goes to."""

    claim_id: str
    assigned_agents: list[str]
    reasoning: str
    method: str
    context: NotRequired[ReinvestigationContext | None]
    #: Agents added only so that the claim meets the evidence library (see routing.with_corroboration).
    corroborating_agents: NotRequired[list[str]]
    #: Whether the claim is also checked against the imported public registries
    #: (see routing.with_registry_check).
    registry_check: NotRequired[bool]


class AgentStatus(TypedDict):
    agent_name: str
    status: str
    claims_assigned: int
    claims_completed: int
    iteration: int
    error_message: NotRequired[str | None]


class Finding(TypedDict):
    """Evidence one specialist found, or honestly did not find, about a claim.

    `confidence` is 0..1 (None when the finding carries no evidence); `supports_claim` is True,
    False, or None for inconclusive.
    """

    finding_id: str
    agent_name: str
    claim_id: str | None
    evidence_type: str
    summary: str
    details: dict[str, Any]
    supports_claim: bool | None
    confidence: float | None
    iteration: int
    method: str
    evidence_kind: NotRequired[str]  # see app.verification.evidence_kinds; absent in old checkpoints


class Verdict(TypedDict):
    """The judge's verdict on one claim in one cycle; the latest cycle's verdict is the final one."""

    verdict_id: str
    claim_id: str
    verdict: str
    reasoning: str
    ifrs_mapping: list[dict[str, Any]]
    confidence: float
    confidence_level: str
    iteration: int
    method: str
    evaluation: dict[str, Any]


class ReinvestigationRequest(TypedDict):
    claim_id: str
    target_agents: list[str]
    evidence_gap: str
    refined_queries: list[str]
    required_evidence: str | None
    cycle_number: int


class InfoRequest(TypedDict):
    """A specialist's question for another domain, routed by the orchestrator."""

    request_id: str
    requesting_agent: str
    description: str
    claim_id: NotRequired[str | None]
    status: str  # pending | routed | answered | unroutable
    target_agents: list[str]
    iteration: int


class InfoResponse(TypedDict):
    response_id: str
    request_id: str
    requesting_agent: str
    responding_agent: str
    summary: str
    details: NotRequired[dict[str, Any]]


class SpecialistTask(TypedDict):
    """What the orchestrator's fan-out sends one specialist: its claims for this cycle."""

    report_id: str
    run_id: str
    agent: str
    iteration: int
    company_name: str | None
    claims: list[ClaimState]
    routing: list[RoutingEntry]
    info_requests: list[InfoRequest]


def latest_verdicts(verdicts: Iterable[Verdict]) -> dict[str, Verdict]:
    """Each claim's verdict from its latest cycle: the final verdict once the run is over."""
    latest: dict[str, Verdict] = {}
    for verdict in verdicts:
        current = latest.get(verdict["claim_id"])
        if current is None or verdict["iteration"] >= current["iteration"]:
            latest[verdict["claim_id"]] = verdict
    return latest


def findings_by_claim(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """All findings grouped by the claim they are about (report-level findings are left out)."""
    grouped: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding["claim_id"] is not None:
            grouped.setdefault(finding["claim_id"], []).append(finding)
    return grouped


def latest_findings(
    findings: Iterable[Finding], group: Callable[[Finding], Hashable | None]
) -> list[Finding]:
    """The findings of each group's latest pass, in their order (a later pass of the same check
    supersedes the earlier ones); findings whose group is None all stand."""
    findings = list(findings)
    latest: dict[Hashable, int] = {}
    for finding in findings:
        key = group(finding)
        if key is not None:
            latest[key] = max(latest.get(key, finding["iteration"]), finding["iteration"])
    return [
        finding
        for finding in findings
        if (key := group(finding)) is None or finding["iteration"] == latest[key]
    ]


def agent_of(finding: Finding) -> str:
    """The agent that made a finding (a `latest_findings` group: one agent's passes)."""
    return finding["agent_name"]


@dataclass(frozen=True)
class FindingDraft:
    """A finding as an investigator reports it; the pipeline adds ids, agent and pass."""

    claim_id: str | None
    evidence_type: str
    summary: str
    supports_claim: bool | None
    confidence: float | None
    method: str
    details: dict[str, Any] = field(default_factory=dict)
    #: What the finding can prove (`app.verification.evidence_kinds`); None: decided from agent and type.
    evidence_kind: str | None = None


@dataclass
class InvestigationOutcome:
    """What one specialist produced in one pass."""

    findings: list[FindingDraft] = field(default_factory=list)
    info_requests: list[InfoRequest] = field(default_factory=list)
    info_responses: list[InfoResponse] = field(default_factory=list)


def stable_id(*parts: object) -> str:
    """A UUID derived from `parts`: the same work always gets the same id, so writes are idempotent."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "sibyl:" + ":".join(str(part) for part in parts)))
