"""The orchestrator node: routes claims to specialists, opens re-investigation cycles from the
judge's requests, and routes the specialists' info requests."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from app.degradation import RunWarning, WarningCode, failure_cause, fallback_warnings
from app.events.log import EventTransaction
from app.llm import LLMUnavailable, UsageTrace
from app.pipeline.llm_routing import llm_route, llm_route_info_request, routing_fallback_warnings
from app.pipeline.persistence import (
    add_usage,
    report_organisation,
    save_routing,
    set_agent_status,
    update_run,
)
from app.pipeline.routing import route_info_request, rule_route, with_corroboration, with_registry_check
from app.pipeline.runtime import NodeRecorder, PipelineDeps
from app.pipeline.search_coverage import coverage_warnings, search_coverage
from app.pipeline.state import PipelineState
from app.pipeline.warnings import record_warnings
from app.registries.snapshots import any_registry_imported
from app.verification.records import (
    AgentStatus,
    ClaimState,
    InfoRequest,
    ReinvestigationContext,
    ReinvestigationRequest,
    RoutingEntry,
)
from app.verification.registries.reader import about_registries

logger = logging.getLogger(__name__)

AGENT = "orchestrator"


async def initial_plan(
    deps: PipelineDeps, claims: list[ClaimState], trace: UsageTrace
) -> tuple[list[RoutingEntry], list[str], list[RunWarning]]:
    """The LLM's validated plan when an LLM is configured and answers, else the rule plan (with a
    warning when the LLM failed)."""
    if deps.llm is not None and claims:
        try:
            plan, notes = await llm_route(deps.llm, claims, trace)
            return plan, notes, routing_fallback_warnings(plan)
        except LLMUnavailable as exc:
            logger.warning("LLM routing failed, using the routing matrix: %s", exc)
            note = f"LLM routing failed ({exc}); routing matrix used"
            causes = [failure_cause(exc)] * len(claims)
            warnings = fallback_warnings(
                WarningCode.ROUTING_FELL_BACK_TO_RULES,
                "routing",
                "claims",
                causes,
                total=len(claims),
                fallback="the routing matrix",
            )
            return [rule_route(claim) for claim in claims], [note], warnings
    return [rule_route(claim) for claim in claims], [], []


def reinvestigation_plan(requests: list[ReinvestigationRequest], cycle: int) -> list[RoutingEntry]:
    """Only the claims the judge asked about, only to the agents it named, with its guidance."""
    plan: list[RoutingEntry] = []
    for request in requests:
        plan.append(
            RoutingEntry(
                claim_id=request["claim_id"],
                assigned_agents=list(dict.fromkeys(request["target_agents"])),
                reasoning=f"Re-investigation cycle {cycle}: {request['evidence_gap']}",
                method="reinvestigation",
                context=ReinvestigationContext(
                    claim_id=request["claim_id"],
                    evidence_gap=request["evidence_gap"],
                    refined_queries=list(request["refined_queries"]),
                    required_evidence=request["required_evidence"],
                    cycle_number=cycle,
                ),
            )
        )
    return plan


async def route_pending_requests(
    deps: PipelineDeps, requests: list[InfoRequest], trace: UsageTrace
) -> list[InfoRequest]:
    """Pending info requests with targets chosen by keyword, then by LLM; the rest unroutable."""
    updated: list[InfoRequest] = []
    for request in requests:
        if request["status"] != "pending":
            continue
        targets = route_info_request(request["description"], exclude=[request["requesting_agent"]])
        if not targets and deps.llm is not None:
            targets = await llm_route_info_request(
                deps.llm, request["description"], request["requesting_agent"], trace
            )
        updated.append({**request, "target_agents": targets, "status": "routed" if targets else "unroutable"})
    return updated


async def run_coverage_warnings(deps: PipelineDeps, recorder: NodeRecorder, claims: int) -> list[RunWarning]:
    """The run's warnings about what its searches cannot reach (web search off, empty library)."""
    if not claims:
        return []
    async with deps.session_factory() as session:
        organisation_id = await report_organisation(session, recorder.report_id)
    coverage = await search_coverage(deps.settings, deps.session_factory, organisation_id)
    return coverage_warnings(coverage, claims)


async def with_registry_checks(
    deps: PipelineDeps, plan: list[RoutingEntry], claims: list[ClaimState]
) -> list[RoutingEntry]:
    """The plan with every claim that registries can decide also sent to them, when any registry is
    imported (one query; none imported leaves the plan as it is)."""
    async with deps.session_factory() as session:
        if not await any_registry_imported(session):
            return plan
    texts = {claim["claim_id"]: claim["text"] for claim in claims}
    return [with_registry_check(entry, about_registries(texts.get(entry["claim_id"], ""))) for entry in plan]


@dataclass(frozen=True)
class _Pass:
    """Which pass this cycle routes: the first one (every claim), or a later one (the claims the
    judge sent back); a cycle with nothing sent back stays in the current pass."""

    first: bool
    iteration: int


def _this_pass(state: PipelineState) -> _Pass:
    """The pass of this cycle, a new one when the judge sent claims back after the first."""
    first = "routing_plan" not in state
    opens_new_pass = not first and bool(state.get("reinvestigation_requests") or [])
    return _Pass(first=first, iteration=state.get("iteration_count", 0) + (1 if opens_new_pass else 0))


async def _plan(
    deps: PipelineDeps, state: PipelineState, recorder: NodeRecorder, this_pass: _Pass, trace: UsageTrace
) -> tuple[list[RoutingEntry], list[str], list[RunWarning]]:
    """The pass's routing plan, with the notes and warnings about how it was made."""
    if not this_pass.first:
        return reinvestigation_plan(state.get("reinvestigation_requests") or [], this_pass.iteration), [], []
    claims = state.get("claims") or []
    plan, notes, warnings = await initial_plan(deps, claims, trace)
    plan = [with_corroboration(entry) for entry in plan]
    plan = await with_registry_checks(deps, plan, claims)
    warnings += await run_coverage_warnings(deps, recorder, len(claims))
    return plan, notes, warnings


def _idle_statuses(workload: Counter[str], iteration: int) -> dict[str, AgentStatus]:
    """Each assigned agent idle, with how many claims it has to check this pass."""
    return {
        agent: AgentStatus(
            agent_name=agent, status="idle", claims_assigned=count, claims_completed=0, iteration=iteration
        )
        for agent, count in workload.items()
    }


async def _emit_cycle_opened(
    recorder: NodeRecorder, transaction: EventTransaction, plan: list[RoutingEntry], workload: Counter[str]
) -> None:
    """A note that a re-investigation cycle sends claims back, and to whom."""
    iteration = recorder.iteration
    await recorder.emit_in(
        transaction,
        "agent_thinking",
        {
            "message": f"Re-investigation cycle {iteration}: {len(plan)} claim(s) sent back to "
            f"{', '.join(sorted(workload))} with the judge's refined queries.",
            "cycle": iteration,
        },
    )


async def _emit_routes(
    recorder: NodeRecorder,
    transaction: EventTransaction,
    plan: list[RoutingEntry],
    info_requests: list[InfoRequest],
) -> None:
    """Where each claim went, then where each info request went."""
    for entry in plan:
        await recorder.emit_in(
            transaction,
            "claim_routed",
            {
                "claim_id": entry["claim_id"],
                "assigned_agents": entry["assigned_agents"],
                "reasoning": entry["reasoning"],
                "method": entry["method"],
                "iteration": recorder.iteration,
            },
        )
    for request in info_requests:
        await recorder.emit_in(
            transaction,
            "info_request_routed",
            {
                "request_id": request["request_id"],
                "requesting_agent": request["requesting_agent"],
                "target_agents": request["target_agents"],
                "description": request["description"],
                "status": request["status"],
            },
        )


async def orchestrate(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """Route this cycle's work: on the first pass every claim by the routing plan (LLM, else the
    rules, each claim also meeting the evidence: `with_corroboration`); on a later pass only the
    claims the judge sent back, to the agents it named; on every pass the pending info requests."""
    deps = runtime.context
    this_pass = _this_pass(state)
    iteration = this_pass.iteration
    recorder = NodeRecorder.for_run(deps, state, node="orchestrate", iteration=iteration, agent_name=AGENT)
    await recorder.start("routing", {"mode": "initial" if this_pass.first else "reinvestigation"})
    trace = UsageTrace()
    plan, notes, warnings = await _plan(deps, state, recorder, this_pass, trace)
    info_requests = await route_pending_requests(deps, state.get("info_requests") or [], trace)

    workload = Counter(agent for entry in plan for agent in entry["assigned_agents"])
    statuses = _idle_statuses(workload, iteration)
    async with recorder.transaction() as transaction:
        await save_routing(transaction.session, recorder.run_id, plan, iteration)
        await set_agent_status(transaction.session, recorder.run_id, dict(statuses))
        await update_run(transaction.session, recorder.run_id, iteration_count=iteration)
        await add_usage(transaction.session, recorder.run_id, trace)
        for note in notes:
            await recorder.emit_in(transaction, "agent_thinking", {"message": note})
        await record_warnings(recorder, transaction, warnings)
        if not this_pass.first:
            await _emit_cycle_opened(recorder, transaction, plan, workload)
        await _emit_routes(recorder, transaction, plan, info_requests)
        await recorder.emit_in(
            transaction,
            "agent_completed",
            {
                "claims_processed": len(plan),
                "agent_workload": dict(sorted(workload.items())),
                "iteration": iteration,
                "method": sorted({entry["method"] for entry in plan}),
            },
        )
    return {
        "routing_plan": plan,
        "iteration_count": iteration,
        "reinvestigation_requests": [],
        "agent_status": statuses,
        "info_requests": info_requests,
    }
