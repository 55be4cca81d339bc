"""LLM routing of claims and info requests, validated against what the pipeline can do.

The LLM's plan is never trusted as is: unknown agents are dropped, claims it skipped or left
without a valid agent get the rule route, and any failure falls back to the rules entirely. A plan
that routes no claim validly counts as a failure (the caller's ROUTING_FELL_BACK_TO_RULES warning
then covers every claim); `routing_fallback_warnings` reports a plan that left only some claims to
the rules.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from pydantic import BaseModel, Field

from app.degradation import RunWarning, WarningCode, fallback_warnings
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace
from app.pipeline.routing import rule_route
from app.verification.catalog import AGENT_LABELS
from app.verification.records import SPECIALISTS, ClaimState, RoutingEntry

logger = logging.getLogger(__name__)

#: Why a claim of an answered plan still got the rule route.
PARTIAL_FALLBACK_CAUSE = "the routing model skipped them or named no known agent for them"

ROUTING_SYSTEM_PROMPT = """You route claims from a corporate sustainability report to specialists.
Agents:
- geography: locates facilities and sites; satellite imagery of land use, deforestation, rehabilitation.
- legal: IFRS S1/S2 disclosure compliance, governance and regulatory matters.
- news_media: public reporting, press coverage, controversies, enforcement actions.
- academic: research, benchmarks, science-based targets (SBTi), methodologies.
- data_metrics: arithmetic and internal consistency of figures, units, totals, targets.
Rules: every claim gets at least one agent; add agents when a claim spans domains (a site with emission
figures needs geography and data_metrics); commitments and controversial topics also go to news_media;
SBTi, net-zero and reduction pathways also go to academic.
Answer with JSON only: {"assignments": [{"claim_id": str, "assigned_agents": [str], "reasoning": str,
"priority_order": [str]}], "routing_summary": str, "agent_workload": {agent: int}}"""


class RoutingDecision(BaseModel):
    claim_id: str
    assigned_agents: list[str]
    reasoning: str = ""
    priority_order: list[str] = Field(default_factory=list)


class RoutingPlanResult(BaseModel):
    assignments: list[RoutingDecision]
    routing_summary: str = ""
    agent_workload: dict[str, int] = Field(default_factory=dict)


class InfoRequestRouting(BaseModel):
    target_agents: list[str]
    reasoning: str = ""


def validate_plan(
    claims: Sequence[ClaimState], result: RoutingPlanResult
) -> tuple[list[RoutingEntry], list[str]]:
    """The LLM's plan made safe, and a note for each correction made to it."""
    by_id = {decision.claim_id: decision for decision in result.assignments}
    plan: list[RoutingEntry] = []
    notes: list[str] = []
    for claim in claims:
        decision = by_id.get(claim["claim_id"])
        if decision is None:
            plan.append(rule_route(claim))
            notes.append(f"claim {claim['claim_id']} was not routed by the LLM; rule route used")
            continue
        agents = list(dict.fromkeys(agent for agent in decision.assigned_agents if agent in SPECIALISTS))
        unknown = [agent for agent in decision.assigned_agents if agent not in SPECIALISTS]
        if unknown:
            notes.append(f"claim {claim['claim_id']}: unknown agents dropped: {', '.join(unknown)}")
        if not agents:
            plan.append(rule_route(claim))
            notes.append(f"claim {claim['claim_id']} had no valid agent; rule route used")
            continue
        plan.append(
            RoutingEntry(
                claim_id=claim["claim_id"],
                assigned_agents=agents,
                reasoning=decision.reasoning or "Routed by the LLM.",
                method="llm",
            )
        )
    return plan, notes


async def llm_route(
    llm: LLMClient, claims: Sequence[ClaimState], trace: UsageTrace
) -> tuple[list[RoutingEntry], list[str]]:
    """Route with the LLM; raises `LLMUnavailable` when it cannot answer usefully."""
    payload = [
        {
            "claim_id": claim["claim_id"],
            "text": claim["text"],
            "claim_type": claim["claim_type"],
            "priority": claim["priority"],
            "ifrs_paragraphs": [
                paragraph["paragraph_id"] for paragraph in claim.get("ifrs_paragraphs") or []
            ],
        }
        for claim in claims
    ]
    user = (
        f"Create a routing plan for these {len(claims)} claims:\n{json.dumps(payload, ensure_ascii=False)}\n"
        "Return the JSON object described."
    )
    result = await llm.complete_json(
        LLMRole.ROUTING, system=ROUTING_SYSTEM_PROMPT, user=user, schema=RoutingPlanResult, trace=trace
    )
    model = llm.model_for(LLMRole.ROUTING)
    if not result.assignments:
        raise LLMUnavailable(LLMRole.ROUTING, {model: "empty routing plan"})
    plan, notes = validate_plan(claims, result)
    if all(entry["method"] != "llm" for entry in plan):
        raise LLMUnavailable(LLMRole.ROUTING, {model: _no_valid_route(result)})
    return plan, notes


def _no_valid_route(result: RoutingPlanResult) -> str:
    """The failure text of a plan that routed no claim to a known agent."""
    unknown = sorted(
        {agent for decision in result.assignments for agent in decision.assigned_agents} - set(SPECIALISTS)
    )
    named = f" (it named {', '.join(unknown[:5])})" if unknown else ""
    return f"the routing model named no known agent for any claim{named}"


def routing_fallback_warnings(plan: Sequence[RoutingEntry]) -> list[RunWarning]:
    """ROUTING_FELL_BACK_TO_RULES for the claims an answered LLM plan left to the routing matrix."""
    return fallback_warnings(
        WarningCode.ROUTING_FELL_BACK_TO_RULES,
        "routing",
        "claims",
        [PARTIAL_FALLBACK_CAUSE for entry in plan if entry["method"] != "llm"],
        total=len(plan),
        fallback="the routing matrix",
    )


async def llm_route_info_request(
    llm: LLMClient, description: str, requesting_agent: str, trace: UsageTrace
) -> list[str]:
    """Ask the LLM which agents should answer a request no keyword matched; [] if it cannot say."""
    agents = ", ".join(
        f"{agent} ({label})" for agent, label in AGENT_LABELS.items() if agent != requesting_agent
    )
    try:
        result = await llm.complete_json(
            LLMRole.ROUTING,
            system=f"Pick the specialist agents best placed to answer a colleague's request. "
            f"Agents: {agents}. "
            'Answer with JSON only: {"target_agents": [str], "reasoning": str}',
            user=description,
            schema=InfoRequestRouting,
            trace=trace,
            max_tokens=512,
        )
    except LLMUnavailable as exc:
        logger.warning("info request routing by LLM failed: %s", exc)
        return []
    return [
        agent
        for agent in dict.fromkeys(result.target_agents)
        if agent in SPECIALISTS and agent != requesting_agent
    ]
