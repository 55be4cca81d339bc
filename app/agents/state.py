"""The pipeline's shared state and the reducers that merge what nodes write into it.

Everything in the state is plain JSON-shaped data (TypedDicts of str, int, float, bool, lists and
dicts) so LangGraph's Postgres checkpointer stores it without custom serialisers.

Merge rules, chosen to avoid the failure modes of the design as first written:

- `routing_plan` holds only the current cycle's work; the orchestrator *replaces* it each cycle.
- `reinvestigation_requests` is *replaced*: the judge writes this cycle's requests, the orchestrator
  writes an empty list once it has routed them, so processed requests never pile up.
- `iteration_count` is written in exactly one place: the orchestrator, when it opens a
  re-investigation cycle.
- `findings`, `verdicts`, `info_requests` and `info_responses` are merged by id: writing an item
  again (a resumed node, a status update) replaces it instead of duplicating it.
- `agent_status` is merged per agent, so specialists running in parallel never overwrite each other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Annotated, Any, Literal, NotRequired, TypedDict, TypeVar

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


class IfrsParagraph(TypedDict):
    paragraph_id: str
    pillar: NotRequired[str | None]
    relevance: NotRequired[str | None]
    confirmed: NotRequired[bool]  # whether the knowledge base supported the mapping


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
    evidence_kind: NotRequired[str]  # see app.agents.evidence_kinds; absent in old checkpoints


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


T = TypeVar("T")


def merge_by(key: Callable[[Any], Any]) -> Callable[[list[Any] | None, list[Any] | None], list[Any]]:
    """A reducer that merges lists by `key`: new items are appended, items seen before are replaced
    in place (so the order of first appearance is kept and nothing is duplicated)."""

    def reducer(current: list[Any] | None, update: list[Any] | None) -> list[Any]:
        merged: dict[Any, Any] = {key(item): item for item in current or []}
        for item in update or []:
            merged[key(item)] = item
        return list(merged.values())

    return reducer


def merge_agent_status(
    current: dict[str, AgentStatus] | None, update: dict[str, AgentStatus] | None
) -> dict[str, AgentStatus]:
    """Per-agent merge: each writer only touches its own agents."""
    return {**(current or {}), **(update or {})}


merge_findings = merge_by(lambda item: item["finding_id"])
merge_verdicts = merge_by(lambda item: (item["claim_id"], item["iteration"]))
merge_info_requests = merge_by(lambda item: item["request_id"])
merge_info_responses = merge_by(lambda item: item["response_id"])


class PipelineInput(TypedDict):
    """What a run starts from."""

    report_id: str
    run_id: str
    max_iterations: int
    reuse_claims: bool
    company_name: str | None


class PipelineState(PipelineInput, total=False):
    """What flows through the graph (see the module docstring for how each field merges)."""

    claims: list[ClaimState]
    routing_plan: list[RoutingEntry]
    iteration_count: int
    agent_status: Annotated[dict[str, AgentStatus], merge_agent_status]
    findings: Annotated[list[Finding], merge_findings]
    verdicts: Annotated[list[Verdict], merge_verdicts]
    reinvestigation_requests: list[ReinvestigationRequest]
    info_requests: Annotated[list[InfoRequest], merge_info_requests]
    info_responses: Annotated[list[InfoResponse], merge_info_responses]


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
