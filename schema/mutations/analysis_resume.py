"""`resumeAnalysis`: continue a report's latest analysis from its last checkpoint."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Annotated

import strawberry
from sqlalchemy import func, select

from app.agents.lease import ACTIVE_RUN_STATUSES, PENDING_GRACE_SECONDS, lease_state
from app.services.analysis import AnalysisProblem, AnalysisRefused, resume_analysis
from app.services.runs import latest_run
from schema.analysis import Analysis
from schema.context import Context
from schema.mutations.analysis_errors import AnalysisErrorCode, error_from, success_fields
from schema.reports import Report
from schema.reports_lookup import find_report


@strawberry.type(description="The analysis will continue from its last completed step.")
class ResumeAnalysisSuccess:
    report: Report = strawberry.field(description="The report, ANALYZING again.")
    analysis: Analysis = strawberry.field(description="The resumed analysis run.")


@strawberry.type(description="Nothing to resume; nothing changed.")
class ResumeAnalysisError:
    code: AnalysisErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault.")


ResumeAnalysisResult = Annotated[
    ResumeAnalysisSuccess | ResumeAnalysisError, strawberry.union("ResumeAnalysisResult")
]


async def _refuse_if_in_hand(info: strawberry.Info[Context], report_id: uuid.UUID) -> None:
    """ALREADY_RUNNING when a worker holds the latest run (a live lease) or its start job is still
    queued: a resume job would only find the lease held and give up. A run whose worker died or whose
    job was lost is resumed as asked."""
    async with info.context.services.session_factory() as session:
        run = await latest_run(session, report_id)
        now = await session.scalar(select(func.now()))
    if run is None or run.status not in ACTIVE_RUN_STATUSES or now is None:
        return
    queued = run.status == "PENDING" and run.lease_owner is None
    if lease_state(run, now).held or (
        queued and run.created_at > now - timedelta(seconds=PENDING_GRACE_SECONDS)
    ):
        raise AnalysisRefused(
            AnalysisProblem.ALREADY_RUNNING,
            f"The latest analysis is {run.status} on a worker; follow it with analysisEvents.",
            "reportId",
        )


@strawberry.type
class ResumeAnalysisMutation:
    @strawberry.mutation(
        description="Continue the report's latest analysis after a failure or a lost worker; completed "
        "steps are not run again."
    )
    async def resume_analysis(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
    ) -> ResumeAnalysisResult:
        services = info.context.services
        found = await find_report(info, report_id)
        try:
            if found is None:
                raise AnalysisRefused(AnalysisProblem.REPORT_NOT_FOUND, "No report has this id.", "reportId")
            await _refuse_if_in_hand(info, found.id)
            started = await resume_analysis(services.event_log, services.arq, found.id)
        except AnalysisRefused as exc:
            code, message, field = error_from(exc)
            return ResumeAnalysisError(code=code, message=message, field=field)
        report, analysis = success_fields(started)
        return ResumeAnalysisSuccess(report=report, analysis=analysis)
