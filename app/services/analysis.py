"""Starting and resuming analyses: checks, the run row, the event, the queued job."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from arq.connections import ArqRedis
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Report, ReportStatus, RunStatus
from app.db.runs import latest_run
from app.db.session import SessionFactory
from app.events import EventLog
from app.events.log import EventTransaction
from app.fair_queue import JobOwner
from app.questions.cache import forget_answers
from app.queue import check_queue, enqueue_pipeline
from app.services.lease import ACTIVE_RUN_STATUSES, CANCELLED, PENDING_GRACE_SECONDS, LeaseState, lease_state


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


ANALYSABLE = (ReportStatus.PARSED, ReportStatus.COMPLETED, ReportStatus.ERROR, ReportStatus.CANCELLED)


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
    """Create a run for a parsed report, mark the report ANALYZING and queue the pipeline.

    The queue is checked first, so a Redis that does not answer stores no run (the caller answers
    SERVICE_UNAVAILABLE); one that fails between the check and the queueing leaves a PENDING run,
    which the analysis sweep resumes.
    """
    await check_queue(arq)
    started = await open_analysis_run(
        event_log,
        settings,
        report_id,
        skip_claims_extraction=skip_claims_extraction,
        max_iterations=max_iterations,
    )
    owner = JobOwner(started.report.organisation_id, report_id)
    await enqueue_pipeline(arq, started.run.id, reason="start", owner=owner)
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
            status=RunStatus.PENDING,
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
    await check_queue(arq)  # as in `start_analysis`: nothing changes while the queue is away
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
        if run.status == RunStatus.COMPLETED:
            raise AnalysisRefused(
                AnalysisProblem.ALREADY_COMPLETED,
                "The latest analysis already completed; use startAnalysis to analyse again.",
                "reportId",
            )
        if run.status in ACTIVE_RUN_STATUSES:
            now = await session.scalar(select(func.now()))
            if now is not None and in_hand(run, lease_state(run, now), now, PENDING_GRACE_SECONDS):
                raise AnalysisRefused(
                    AnalysisProblem.ALREADY_RUNNING,
                    f"The latest analysis is {run.status} on a worker; follow it with analysisEvents.",
                    "reportId",
                )
        if run.status in (RunStatus.ERROR, CANCELLED):
            run.status = RunStatus.PENDING
            run.error_message = None
            run.attempts = 0  # asked for again: a run that gave up gets its attempts back
        report.status = ReportStatus.ANALYZING
        report.error_message = None
        await transaction.emit(
            report_id, "analysis_resumed", {"analysis_id": str(run.id)}, analysis_run_id=run.id
        )
    await enqueue_pipeline(arq, run.id, reason="resume", owner=JobOwner(report.organisation_id, report.id))
    return AnalysisStarted(report=report, run=run)


@dataclass(frozen=True)
class AbandonedRun:
    """An active run no live worker holds: its job was lost or its worker died."""

    run_id: uuid.UUID
    attempts: int
    interrupted: str | None


async def runs_to_resume(
    session_factory: SessionFactory, *, pending_grace_seconds: float
) -> list[AbandonedRun]:
    """Runs whose worker is gone: RUNNING or PENDING with a lapsed lease or a lease owner that has
    exited, RUNNING with no lease, or PENDING for longer than the grace period (its queued job was
    lost) with no lease."""
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(AnalysisRun, func.now()).where(AnalysisRun.status.in_(ACTIVE_RUN_STATUSES))
            )
        ).all()
    abandoned = []
    for run, now in rows:
        state = lease_state(run, now)
        if not in_hand(run, state, now, pending_grace_seconds):
            abandoned.append(AbandonedRun(run.id, run.attempts, state.interrupted))
    return abandoned


def in_hand(run: AnalysisRun, state: LeaseState, now: datetime, pending_grace_seconds: float) -> bool:
    """Whether an active run is being taken care of: a live worker holds its lease (`state`), or it
    is PENDING with no lease and younger than the grace period (its start job is still queued)."""
    if state.held:
        return True
    young = run.created_at > now - timedelta(seconds=pending_grace_seconds)
    return run.status == RunStatus.PENDING and run.lease_owner is None and young


async def locked_run(session: AsyncSession, run_id: uuid.UUID) -> tuple[AnalysisRun, datetime] | None:
    """The run, row-locked until the transaction ends, with the database's clock; None if missing."""
    row = (
        await session.execute(
            select(AnalysisRun, func.now()).where(AnalysisRun.id == run_id).with_for_update(of=AnalysisRun)
        )
    ).one_or_none()
    return None if row is None else (row[0], row[1])


#: A worker took over a run an earlier attempt left unfinished (its worker died, or its job stopped).
RUN_RESUMED_EVENT = "run_resumed"


async def announce_resumed(
    transaction: EventTransaction, run: AnalysisRun, reason: str, *, max_attempts: int
) -> None:
    """Tell followers that `run` (already counting this attempt) resumes from its last checkpoint.

    Without it, a worker's death shows only in the worker's log: followers see the stream pause and
    the work after the checkpoint done again, with no word why.
    """
    stage = run.pipeline_stage or "queued"
    message = (
        f"Resumed from the last checkpoint (attempt {run.attempts} of {max_attempts}) because {reason}; "
        f"continuing at {stage.replace('_', ' ')}, pass {run.iteration_count + 1}."
    )
    await transaction.emit(
        run.report_id,
        RUN_RESUMED_EVENT,
        {
            "analysis_id": str(run.id),
            "attempt": run.attempts,
            "max_attempts": max_attempts,
            "reason": reason,
            "stage": stage,
            "iteration": run.iteration_count,
            "message": message,
        },
        analysis_run_id=run.id,
    )


def gave_up_message(attempts: int, reason: str | None) -> str:
    """The error a run that used up its attempts is left with."""
    return (
        f"Analysis gave up after {attempts} attempt{'' if attempts == 1 else 's'}: "
        f"{reason or 'no attempt finished it'}. "
        "Use resumeAnalysis to try again."
    )


async def give_up_run(transaction: EventTransaction, run: AnalysisRun, message: str) -> None:
    """Leave a run that keeps failing (and its report) in ERROR, so no sweep queues it again."""
    session = transaction.session
    await session.execute(
        update(AnalysisRun)
        .where(AnalysisRun.id == run.id)
        .values(status=RunStatus.ERROR, error_message=message, lease_owner=None, lease_expires_at=None)
    )
    await session.execute(
        update(Report)
        .where(Report.id == run.report_id, Report.status == ReportStatus.ANALYZING)
        .values(status=ReportStatus.ERROR, error_message=message)
    )
    await transaction.emit(run.report_id, "error", {"message": message, "node": None}, analysis_run_id=run.id)
