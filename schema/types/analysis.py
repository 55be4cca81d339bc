"""`Report.analysis`: the live state of a report's latest analysis run."""

from __future__ import annotations

import enum
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any, cast

import strawberry
from sqlalchemy import select
from strawberry import relay
from strawberry.scalars import JSON

from app.db.models import AnalysisRun
from app.db.models import Report as ReportModel
from schema.context import Context
from schema.types.analysis_runs import MAX_RUN_VERDICTS, run_verdicts
from schema.types.claims import Verdict
from schema.types.compliance import ParagraphCompliance, paragraphs
from schema.types.enum_values import describe_values
from schema.types.nodes import nodes_in_order
from schema.types.warnings import AnalysisWarning, analysis_warnings

STAGE_SHARE = {"routing": 0.0, "investigating": 0.1, "judging": 0.85}
FIXED_PROGRESS = {"queued": 0.0, "extracting_claims": 5.0, "completed": 100.0}
#: Why `Analysis.runId` is deprecated.
RUN_ID_DEPRECATION = (
    "`id` is now a global id, like every other object's (`node(id:)` reads it); its node part is this "
    "UUID. `runId` stays during the deprecation period, for clients that stored the bare UUIDs."
)


@describe_values(
    PENDING="Queued: no worker has started it yet (after `resumeAnalysis` too, until a worker takes it up).",
    RUNNING="A worker is extracting, routing, investigating or judging; `pipelineStage` says which.",
    COMPLETED="Finished: every claim has its final verdict.",
    ERROR="Stopped by a failure (`errorMessage`); `resumeAnalysis` continues it from its last completed "
    "step.",
    CANCELLED="Stopped by `cancelAnalysis`; its findings and verdicts so far stay readable. No worker "
    "resumes it on its own; `resumeAnalysis` continues it from its last completed step.",
)
@strawberry.enum(description="Where an analysis run is.")
class AnalysisStatus(enum.Enum):
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    ERROR = "ERROR"
    CANCELLED = "CANCELLED"


@strawberry.type(description="One specialist agent's state in the current pass.")
class AgentState:
    agent_name: str = strawberry.field(description="geography, legal, news_media, academic or data_metrics.")
    status: str = strawberry.field(description="idle, working, completed or error.")
    claims_assigned: int = strawberry.field(description="Claims routed to the agent in this pass.")
    claims_completed: int = strawberry.field(description="Claims the agent finished in this pass.")
    iteration: int = strawberry.field(description="The pass (0 = first) this state belongs to.")
    error_message: str | None = strawberry.field(description="Why the agent failed, if it did.")


def _agent_done(status: dict[str, Any]) -> float:
    """How much of its work one specialist has done in the current pass: all of it once it completed
    or failed, else the share of its claims finished so far."""
    if status.get("status") in ("completed", "error"):
        return 1.0
    assigned = status.get("claims_assigned") or 0
    return min(float(status.get("claims_completed") or 0) / assigned, 1.0) if assigned else 0.0


def progress_percent(run: AnalysisRun) -> float:
    """0–100, never going backwards: each pass owns an equal slice of the 10–90 band."""
    stage = run.pipeline_stage or "queued"
    if stage in FIXED_PROGRESS:
        return FIXED_PROGRESS[stage]
    span = 80.0 / max(run.max_iterations, 1)
    share = STAGE_SHARE.get(stage, 0.0)
    if stage == "investigating":
        current = [s for s in run.agent_status.values() if s.get("iteration") == run.iteration_count]
        share += 0.7 * (sum(map(_agent_done, current)) / len(current) if current else 0.0)
    return round(10.0 + span * (run.iteration_count + share), 1)


@strawberry.type(
    description="One analysis run of a report (`Report.analysis` is the latest): live while it runs, final "
    "once COMPLETED. Its `id` is a global id (`node(id:)` reads it); its node part is the run's UUID, "
    "the pipeline's thread id."
)
class Analysis(relay.Node):
    id: relay.NodeID[str]
    status: AnalysisStatus = strawberry.field(description="PENDING, RUNNING, COMPLETED, ERROR or CANCELLED.")
    pipeline_stage: str | None = strawberry.field(
        description="queued, extracting_claims, routing, investigating, judging or completed."
    )
    iteration_count: int = strawberry.field(description="The current pass, 0 for the first.")
    max_iterations: int = strawberry.field(description="Passes allowed (first pass plus re-investigations).")
    progress_percent: float = strawberry.field(description="Rough progress, 0 to 100, never decreasing.")
    agent_statuses: list[AgentState] = strawberry.field(description="Each routed specialist's state.")
    active_agents: list[str] = strawberry.field(
        description="Specialists working right now (none unless the analysis is RUNNING: a run that "
        "ended in ERROR may have left agents marked working)."
    )
    usage: JSON = strawberry.field(
        description="LLM usage of the run: calls, failed calls, retries, tokens in/out, latency and cost "
        "estimate, in total and by model and role. Empty without an LLM."
    )
    compliance: JSON = strawberry.field(
        description="Per IFRS paragraph id: `disclosure` (coverage fully_addressed / partially_addressed / "
        "not_addressed / not_assessed from the legal agent, claims_assessed, full/partial/missing counts, "
        "report_gap) and, apart from it, the final verdicts of the claims mapped to it (claims, claim_ids, "
        "a count per label, and `status`: supported, partially_supported, unsupported, contradicted). "
        "Disclosure coverage is not evidence of truth. Filled when the run completes; `ifrsCompliance` "
        "gives the same, typed."
    )
    ifrs_compliance: list[ParagraphCompliance] = strawberry.field(
        description="The compliance summary as typed paragraphs: disclosure coverage and the claims' "
        "verdicts, kept apart. Empty until the run completes."
    )
    extraction_stats: JSON = strawberry.field(
        description="How the claims were extracted: method (llm, rules, or llm+rules when some LLM "
        "windows fell back to the rules), pages, chunks, failed chunks and chunks_fell_back_to_rules, "
        "candidates, claims rejected by validation, the location check (located, page_corrected, "
        "context_corrected, dropped), duplicates removed, IFRS mapping (knowledge-base queries, confirmed, "
        "unmapped), the detected company name and seconds taken. Empty until claims are extracted."
    )
    warnings: list[AnalysisWarning] = strawberry.field(
        description="What degraded during the run, in order: LLM steps that fell back to their rule path "
        "(a provider that failed or refused), each with its cause and how much of the stage it "
        "affected. Empty when nothing did. Each is also sent as a `warning` event."
    )
    error_message: str | None = strawberry.field(description="Why the run failed, if it did.")
    started_at: datetime | None = strawberry.field(description="When a worker first picked the run up.")
    completed_at: datetime | None = strawberry.field(description="When the run completed.")
    report_uuid: strawberry.Private[uuid.UUID]
    run_uuid: strawberry.Private[uuid.UUID]

    @classmethod
    def from_model(cls, run: AnalysisRun) -> Analysis:
        statuses = [
            AgentState(
                agent_name=name,
                status=state.get("status", "idle"),
                claims_assigned=state.get("claims_assigned", 0),
                claims_completed=state.get("claims_completed", 0),
                iteration=state.get("iteration", 0),
                error_message=state.get("error_message"),
            )
            for name, state in sorted(run.agent_status.items())
        ]
        return cls(
            id=str(run.id),
            status=AnalysisStatus(run.status),
            pipeline_stage=run.pipeline_stage,
            iteration_count=run.iteration_count,
            max_iterations=run.max_iterations,
            progress_percent=progress_percent(run),
            agent_statuses=statuses,
            active_agents=[
                state.agent_name
                for state in statuses
                if state.status == "working" and run.status == AnalysisStatus.RUNNING.value
            ],
            usage=cast(JSON, run.usage or {}),
            compliance=cast(JSON, run.compliance or {}),
            ifrs_compliance=paragraphs(run.compliance or {}),
            extraction_stats=cast(JSON, run.extraction_stats or {}),
            warnings=analysis_warnings(run.warnings or []),
            error_message=run.error_message,
            started_at=run.started_at,
            completed_at=run.completed_at,
            report_uuid=run.report_id,
            run_uuid=run.id,
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[Analysis | None]:
        return await nodes_in_order(
            info,
            node_ids,
            "Analysis",
            lambda ids: (
                select(AnalysisRun)
                .join(ReportModel, ReportModel.id == AnalysisRun.report_id)
                .where(AnalysisRun.id.in_(ids), ReportModel.organisation_id == info.context.organisation_id)
            ),
            cls.from_model,
        )

    @strawberry.field(
        description="The run's bare UUID (the pipeline's thread id), which `id` was before it became a "
        "global id.",
        deprecation_reason=RUN_ID_DEPRECATION,
    )
    def run_id(self) -> strawberry.ID:
        return strawberry.ID(str(self.run_uuid))

    @strawberry.field(description="Claims of the report being analysed.")
    async def claims_count(self, info: strawberry.Info[Context]) -> int:
        return int(await info.context.loaders.claims_count.load(self.report_uuid))

    @strawberry.field(description="Findings recorded so far in this run, over all passes.")
    async def findings_count(self, info: strawberry.Info[Context]) -> int:
        return int(await info.context.loaders.findings_count.load(self.run_uuid))

    @strawberry.field(description="Claims with a verdict so far in this run.")
    async def verdicts_count(self, info: strawberry.Info[Context]) -> int:
        return int(await info.context.loaders.verdicts_count.load(self.run_uuid))

    @strawberry.field(
        description="This run's verdicts, each claim's current one (final once the run completed), ordered "
        "by claim id, `first` at a time after `offset`. Reaches an earlier run's verdicts (see "
        "`Report.analyses`) while the claims it judged remain: a new claim extraction replaces them."
    )
    async def verdicts(
        self,
        info: strawberry.Info[Context],
        first: Annotated[
            int, strawberry.argument(description=f"How many verdicts (at most {MAX_RUN_VERDICTS}).")
        ] = MAX_RUN_VERDICTS,
        offset: Annotated[int, strawberry.argument(description="How many to skip (for the next page).")] = 0,
    ) -> list[Verdict]:
        rows = await run_verdicts(info, self.run_uuid, first, offset)
        return [Verdict.from_model(row, self.report_uuid) for row in rows]
