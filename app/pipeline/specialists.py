"""Specialist nodes: each runs one investigator in isolation (time limit, errors contained) and
records its findings and events.

Until a specialist has an evidence source, its investigator says so honestly: a finding of
evidence type `none`, `supports_claim` null, `source_available: false`. It never invents evidence.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from app.config import Settings
from app.db.outages import is_transient_db_error
from app.llm import UsageTrace
from app.pipeline.metrics import count_findings
from app.pipeline.persistence import (
    add_usage,
    earlier_finding_contents,
    finding_content,
    report_organisation,
    save_findings,
    set_agent_status,
)
from app.pipeline.progress import (
    claims_checked,
    partial_outcome,
    timeout_message,
    tracking_progress,
)
from app.pipeline.registry_evidence import registry_drafts, without_registry_only
from app.pipeline.routing import SEARCHING_AGENTS
from app.pipeline.runtime import NodeRecorder, PipelineDeps, PipelineTools
from app.pipeline.search_coverage import search_coverage, web_off_reason, with_coverage_note
from app.pipeline.specialist_events import emit_findings, emit_info_exchange, emit_pass_end
from app.search.web import EvidenceSearch
from app.services.failures import failure_summary
from app.verification.catalog import AGENT_LABELS
from app.verification.contract.investigator import InvestigationTools, Investigator
from app.verification.evidence_kinds import declared_or_derived
from app.verification.investigators.academic import investigate_academic
from app.verification.investigators.data_metrics import investigate_data_metrics
from app.verification.investigators.geography import investigate_geography
from app.verification.investigators.legal import investigate_legal
from app.verification.investigators.news_media import investigate_news
from app.verification.records import (
    SPECIALISTS,
    AgentStatus,
    Finding,
    FindingDraft,
    InfoRequest,
    InvestigationOutcome,
    SpecialistTask,
    stable_id,
)

logger = logging.getLogger(__name__)

AGENT_TO_NODE: dict[str, str] = {
    "geography": "investigate_geography",
    "legal": "investigate_legal",
    "news_media": "investigate_news",
    "academic": "investigate_academic",
    "data_metrics": "investigate_data",
}
NODE_TO_AGENT: dict[str, str] = {node: agent for agent, node in AGENT_TO_NODE.items()}


async def no_evidence_source(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """The honest investigator of a specialist that has no evidence source configured."""
    label = AGENT_LABELS[task["agent"]]
    await tools.think(
        f"{label} agent: no evidence source is configured, so {len(task['claims'])} claim(s) stay unchecked."
    )
    return InvestigationOutcome(
        findings=[
            FindingDraft(
                claim_id=claim["claim_id"],
                evidence_type="none",
                summary=f"The {label} agent has no evidence source in this installation; "
                "nothing was checked.",
                supports_claim=None,
                confidence=None,
                method="unavailable",
                details={"source_available": False},
            )
            for claim in task["claims"]
        ]
    )


#: The built-in specialists (each says honestly when it had no evidence source for a claim).
BUILT_IN_INVESTIGATORS: Mapping[str, Investigator] = {
    "legal": investigate_legal,
    "data_metrics": investigate_data_metrics,
    "news_media": investigate_news,
    "academic": investigate_academic,
    "geography": investigate_geography,
}


#: Built-in investigators that do not read the judge's re-investigation guidance: Geography locates
#: the places a claim names (and compares imagery), Data/Metrics checks the report against itself.
#: Given the same claim they give the same answer, so once they answered, asking again is pointless.
UNGUIDED_BUILT_INS = frozenset({"geography", "data_metrics"})


def unguided_agents(investigators: Mapping[str, Investigator]) -> frozenset[str]:
    """The agents whose investigator is a built-in one that ignores the judge's guidance (a
    plugin investigator may use it, so it is never assumed to repeat itself)."""
    return frozenset(
        agent for agent in UNGUIDED_BUILT_INS if investigators.get(agent) is BUILT_IN_INVESTIGATORS[agent]
    )


def load_investigators(settings: Settings) -> dict[str, Investigator]:
    """The built-in investigators, overridden by `SPECIALIST_PLUGINS` when it names a mapping."""
    investigators: dict[str, Investigator] = {agent: no_evidence_source for agent in SPECIALISTS}
    investigators.update(BUILT_IN_INVESTIGATORS)
    if settings.specialist_plugins:
        module_name, _, attribute = settings.specialist_plugins.partition(":")
        plugins: Mapping[str, Investigator] = getattr(
            importlib.import_module(module_name), attribute or "INVESTIGATORS"
        )
        unknown = set(plugins) - set(SPECIALISTS)
        if unknown:
            raise ValueError(f"SPECIALIST_PLUGINS names unknown agents: {', '.join(sorted(unknown))}")
        investigators.update(plugins)
    return investigators


def _finding(task: SpecialistTask, index: int, draft: FindingDraft) -> Finding:
    finding_id = stable_id("finding", task["run_id"], task["agent"], task["iteration"], draft.claim_id, index)
    return draft_finding(draft, finding_id=finding_id, agent=task["agent"], iteration=task["iteration"])


def draft_finding(draft: FindingDraft, *, finding_id: str, agent: str, iteration: int) -> Finding:
    """A draft as the pipeline's finding of `agent` in pass `iteration`, its evidence kind settled."""
    return Finding(
        finding_id=finding_id,
        agent_name=agent,
        claim_id=draft.claim_id,
        evidence_type=draft.evidence_type,
        summary=draft.summary,
        details=draft.details,
        supports_claim=draft.supports_claim,
        confidence=draft.confidence,
        iteration=iteration,
        method=draft.method,
        evidence_kind=declared_or_derived(draft.evidence_kind, agent, draft.evidence_type, draft.details),
    )


async def _run_investigator(
    deps: PipelineDeps, task: SpecialistTask, tools: InvestigationTools
) -> tuple[InvestigationOutcome, str | None, int]:
    """The investigator's outcome within the agent time limit, the error that stopped it (None if it
    finished) and how many claims it checked. A failed investigator keeps the claims it reported as
    finished (app.pipeline.progress); each other claim gets an error finding saying why."""
    investigator = deps.investigators.get(task["agent"], no_evidence_source)
    with tracking_progress() as progress:
        try:
            async with asyncio.timeout(deps.settings.agent_timeout_seconds):
                outcome = await investigator(task, tools)
        except TimeoutError:
            error = timeout_message(deps.settings.agent_timeout_seconds)
        except Exception as exc:  # noqa: BLE001 - one agent's failure must not stop the others
            if is_transient_db_error(exc):  # one line each: the run's own outage line says the rest
                logger.warning(
                    "%s agent stopped: database unreachable (%s)", task["agent"], failure_summary(exc)
                )
            else:
                logger.exception("%s agent failed", task["agent"])
            error = f"{type(exc).__name__}: {exc}"
        else:
            return outcome, None, len(task["claims"])
    return partial_outcome(task, progress, error), error, claims_checked(task, progress)


async def _drop_unchanged(
    deps: PipelineDeps, run_id: uuid.UUID, task: SpecialistTask, findings: list[Finding]
) -> tuple[list[Finding], int]:
    """A re-investigation pass keeps only what changed: a finding this agent already made in an
    earlier pass of the run (same claim, same content) is not stored again — the earlier one still
    stands, and the judge reads it. Returns the new findings and how many were left out."""
    if task["iteration"] == 0 or not findings:
        return findings, 0
    async with deps.session_factory() as session:
        earlier = await earlier_finding_contents(session, run_id, task["agent"], task["iteration"])
    new = [
        finding
        for finding in findings
        if finding_content(
            finding["claim_id"],
            finding["evidence_type"],
            finding["summary"],
            finding["supports_claim"],
            finding["confidence"],
            finding["details"],
        )
        not in earlier
    ]
    return new, len(findings) - len(new)


@dataclass(frozen=True)
class _Investigation:
    """What one pass of a specialist produced before it is stored: the investigator's outcome, the
    error that stopped it (None if it finished), how many claims were checked, and every draft
    (the investigator's, then the registries')."""

    outcome: InvestigationOutcome
    error: str | None
    checked: int
    drafts: list[FindingDraft]


async def _start(deps: PipelineDeps, task: SpecialistTask) -> NodeRecorder:
    """The agent's recorder, once the agent is announced as working on its claims."""
    agent = task["agent"]
    recorder = NodeRecorder.for_run(
        deps, task, node=AGENT_TO_NODE[agent], iteration=task["iteration"], agent_name=agent
    )
    assigned = len(task["claims"])
    working = AgentStatus(
        agent_name=agent,
        status="working",
        claims_assigned=assigned,
        claims_completed=0,
        iteration=task["iteration"],
    )
    await recorder.start("investigating", {"claims_assigned": assigned}, agent_status={agent: working})
    return recorder


async def _tools(deps: PipelineDeps, recorder: NodeRecorder) -> tuple[PipelineTools, uuid.UUID]:
    """The investigator's tools, searching only the library of the report's organisation (returned
    too: the coverage notes describe that library)."""
    async with deps.session_factory() as session:
        organisation_id = await report_organisation(session, recorder.report_id)
    tools = PipelineTools(
        recorder=recorder,
        settings=deps.settings,
        llm=deps.llm,
        usage=UsageTrace(),
        session_factory=deps.session_factory,
        knowledge=deps.knowledge,
        search=EvidenceSearch.from_settings(deps.settings, deps.knowledge, organisation_id),
    )
    return tools, organisation_id


async def _investigate_with_registries(
    deps: PipelineDeps, task: SpecialistTask, tools: PipelineTools
) -> _Investigation:
    """The investigator's work on the claims it checks itself, then the registries' findings; a
    claim routed only for a registry check counts as checked by the registries."""
    own_task = without_registry_only(task)
    if own_task["claims"] or own_task["info_requests"]:
        outcome, error, checked = await _run_investigator(deps, own_task, tools)
    else:  # given claims only to check them against the registries
        outcome, error, checked = InvestigationOutcome(), None, 0
    registry = await registry_drafts(task, tools, tools.recorder.report_id)
    checked += len(task["claims"]) - len(own_task["claims"])
    return _Investigation(outcome=outcome, error=error, checked=checked, drafts=outcome.findings + registry)


async def _with_coverage_notes(
    deps: PipelineDeps, agent: str, drafts: list[FindingDraft], organisation_id: uuid.UUID
) -> list[FindingDraft]:
    """A searching agent's drafts say what its searches could not reach while web search is off."""
    if agent not in SEARCHING_AGENTS or web_off_reason(deps.settings) is None:  # no note to add
        return drafts
    coverage = await search_coverage(deps.settings, deps.session_factory, organisation_id)
    return [with_coverage_note(agent, draft, coverage) for draft in drafts]


def _answered_requests(task: SpecialistTask, outcome: InvestigationOutcome) -> list[InfoRequest]:
    """The task's info requests this agent answered, marked answered."""
    answered = {response["request_id"] for response in outcome.info_responses}
    return [
        {**request, "status": "answered"}
        for request in task["info_requests"]
        if request["request_id"] in answered
    ]


def _posted_requests(task: SpecialistTask, outcome: InvestigationOutcome) -> list[InfoRequest]:
    """The info requests this agent asked of the others, pending until the orchestrator routes them."""
    return [
        {**request, "requesting_agent": task["agent"], "status": "pending", "iteration": task["iteration"]}
        for request in outcome.info_requests
    ]


def _final_status(task: SpecialistTask, investigation: _Investigation) -> AgentStatus:
    """The agent's status at the end of the pass: completed, or in error with what stopped it."""
    return AgentStatus(
        agent_name=task["agent"],
        status="error" if investigation.error else "completed",
        claims_assigned=len(task["claims"]),
        claims_completed=investigation.checked,
        iteration=task["iteration"],
        error_message=investigation.error,
    )


async def investigate(task: SpecialistTask, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """Run the task's investigator within the agent time limit and record what it produced."""
    deps = runtime.context
    agent = task["agent"]
    recorder = await _start(deps, task)
    tools, organisation_id = await _tools(deps, recorder)
    investigation = await _investigate_with_registries(deps, task, tools)
    drafts = await _with_coverage_notes(deps, agent, investigation.drafts, organisation_id)
    findings = [_finding(task, index, draft) for index, draft in enumerate(drafts)]
    findings, unchanged = await _drop_unchanged(deps, recorder.run_id, task, findings)
    outcome = investigation.outcome
    posted = _posted_requests(task, outcome)
    status = _final_status(task, investigation)
    async with recorder.transaction() as transaction:
        await save_findings(transaction.session, recorder.run_id, findings)
        await set_agent_status(transaction.session, recorder.run_id, {agent: status})
        await add_usage(transaction.session, recorder.run_id, tools.usage)
        await emit_findings(recorder, transaction, findings)
        await emit_info_exchange(recorder, transaction, agent, posted, outcome.info_responses)
        await emit_pass_end(recorder, transaction, task, investigation.error, findings, unchanged)
    count_findings(findings)
    return {
        "findings": findings,
        "agent_status": {agent: status},
        "info_requests": _answered_requests(task, outcome) + posted,
        "info_responses": list(outcome.info_responses),
    }
