"""Starting and resuming analyses: checks, the run row, the event, the queued job."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass
from datetime import timedelta

from arq.connections import ArqRedis
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.questions.cache import forget_answers
from app.queue import enqueue_pipeline
from app.services.runs import latest_run


class AnalysisProblem(enum.StrEnum):
    REPORT_NOT_FOUND = "REPORT_NOT_FOUND"
    NOT_PARSED = "NOT_PARSED"
    ALREADY_RUNNING = "ALREADY_RUNNING"
    NO_CLAIMS = "NO_CLAIMS"
    NO_ANALYSIS = "NO_ANALYSIS"
    ALREADY_COMPLETED = "ALREADY_COMPLETED"
    INVALID_INPUT = "INVALID_INPUT"


class AnalysisRefused(Exception):
    def __init__(self, problem: AnalysisProblem, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message
        self.field = field


@dataclass(frozen=True)
class AnalysisStarted:
    report: Report
    run: AnalysisRun


ANALYSABLE = (ReportStatus.PARSED, ReportStatus.COMPLETED, ReportStatus.ERROR)


async def locked_report(session: AsyncSession, report_id: uuid.UUID) -> Report:
    """The report, row-locked until the transaction ends, or REPORT_NOT_FOUND."""
    report = await session.get(Report, report_id, with_for_update=True)
    if report is None:
        raise AnalysisRefused(AnalysisProblem.REPORT_NOT_FOUND, "No report has this id.", "reportId")
    return report


async def start_analysis(
    event_log: EventLog,
    arq: ArqRedis,
    settings: Settings,
    report_id: uuid.UUID,
    *,
    skip_claims_extraction: bool = False,
    max_iterations: int | None = None,
) -> AnalysisStarted:
    """Create a run for a parsed report, mark the report ANALYZING and queue the pipeline."""
    started = await open_analysis_run(
        event_log,
        settings,
        report_id,
        skip_claims_extraction=skip_claims_extraction,
        max_iterations=max_iterations,
    )
    await enqueue_pipeline(arq, started.run.id, reason="start")
    await forget_answers(arq, report_id)  # a new analysis: earlier answers about the report are stale
    return started


async def open_analysis_run(
    event_log: EventLog,
    settings: Settings,
    report_id: uuid.UUID,
    *,
    skip_claims_extraction: bool = False,
    max_iterations: int | None = None,
) -> AnalysisStarted:
    """Check the report, create its run (PENDING) and mark it ANALYZING; queues nothing."""
    passes = settings.max_iterations if max_iterations is None else max_iterations
    if not 1 <= passes <= 10:
        raise AnalysisRefused(
            AnalysisProblem.INVALID_INPUT, "maxIterations must be between 1 and 10.", "maxIterations"
        )
    async with event_log.transaction() as transaction:
        session = transaction.session
        report = await locked_report(session, report_id)
        if report.status is ReportStatus.ANALYZING:
            raise AnalysisRefused(
                AnalysisProblem.ALREADY_RUNNING, "An analysis of this report is already running.", "reportId"
            )
        if report.status not in ANALYSABLE or report.page_count is None:
            raise AnalysisRefused(
                AnalysisProblem.NOT_PARSED,
                f"The report is {report.status.value}; it can be analysed once it is PARSED.",
                "reportId",
            )
        if skip_claims_extraction:
            claims = await session.scalar(
                select(func.count()).select_from(Claim).where(Claim.report_id == report_id)
            )
            if not claims:
                raise AnalysisRefused(
                    AnalysisProblem.NO_CLAIMS,
                    "The report has no stored claims to reuse; start without skipClaimsExtraction.",
                    "skipClaimsExtraction",
                )
        run = AnalysisRun(
            report_id=report_id,
            status="PENDING",
            pipeline_stage="queued",
            max_iterations=passes,
            skip_claims_extraction=skip_claims_extraction,
            usage={},
            agent_status={},
            compliance={},
        )
        session.add(run)
        report.status = ReportStatus.ANALYZING
        report.error_message = None
        await session.flush()
        await transaction.emit(
            report_id,
            "analysis_queued",
            {
                "analysis_id": str(run.id),
                "skip_claims_extraction": skip_claims_extraction,
                "max_iterations": passes,
            },
            analysis_run_id=run.id,
        )
    return AnalysisStarted(report=report, run=run)


async def resume_analysis(event_log: EventLog, arq: ArqRedis, report_id: uuid.UUID) -> AnalysisStarted:
    """Continue the report's latest run from its last checkpoint (after a failure or a lost worker)."""
    async with event_log.transaction() as transaction:
        session = transaction.session
        report = await locked_report(session, report_id)
        run = await latest_run(session, report_id)
        if run is None:
            raise AnalysisRefused(
                AnalysisProblem.NO_ANALYSIS,
                "The report has never been analysed; use startAnalysis.",
                "reportId",
            )
        if run.status == "COMPLETED":
            raise AnalysisRefused(
                AnalysisProblem.ALREADY_COMPLETED,
                "The latest analysis already completed; use startAnalysis to analyse again.",
                "reportId",
            )
        if run.status == "ERROR":
            run.status = "PENDING"
            run.error_message = None
        report.status = ReportStatus.ANALYZING
        report.error_message = None
        await transaction.emit(
            report_id, "analysis_resumed", {"analysis_id": str(run.id)}, analysis_run_id=run.id
        )
    await enqueue_pipeline(arq, run.id, reason="resume")
    return AnalysisStarted(report=report, run=run)


async def runs_to_resume(session_factory: SessionFactory, *, pending_grace_seconds: float) -> list[uuid.UUID]:
    """Runs whose worker is gone: RUNNING with a lapsed lease, or PENDING for longer than the grace
    period (its queued job was lost) with no live lease."""
    lapsed = AnalysisRun.lease_expires_at < func.now()
    unleased_and_old = AnalysisRun.lease_expires_at.is_(None) & (
        AnalysisRun.created_at < func.now() - timedelta(seconds=pending_grace_seconds)
    )
    async with session_factory() as session:
        rows = await session.scalars(
            select(AnalysisRun.id).where(
                ((AnalysisRun.status == "RUNNING") & (lapsed | AnalysisRun.lease_expires_at.is_(None)))
                | ((AnalysisRun.status == "PENDING") & (lapsed | unleased_and_old))
            )
        )
        return list(rows)
