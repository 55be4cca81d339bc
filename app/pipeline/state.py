"""The pipeline's shared state and the reducers that merge what nodes write into it.

The records it carries (claims, findings, verdicts, requests) are `app.verification.records`.

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

from collections.abc import Callable
from typing import Annotated, Any, TypedDict, TypeVar

from app.verification.records import (
    AgentStatus,
    ClaimState,
    Finding,
    InfoRequest,
    InfoResponse,
    ReinvestigationRequest,
    RoutingEntry,
    Verdict,
)

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
