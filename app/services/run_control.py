"""Operator control of an analysis: cancelling a queued or running run.

Cancelling is a row update, not a signal: the run becomes CANCELLED (with its report) and its lease
is cleared in one transaction that also records `run_cancelled`. The worker running it watches its
run row (`app.pipeline.runner`) and stops the graph within about a second, which ends every LLM and
search request in flight; a queued job finds the run no longer active and does nothing, and the
sweeps only resume active runs. What the run stored so far (claims, findings, verdicts, events)
stays readable.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

from sqlalchemy import func, select

from app.db.models import AnalysisRun, Report, ReportStatus
from app.db.runs import latest_run
from app.events import EventLog
from app.services.lease import ACTIVE_RUN_STATUSES, CANCELLED

#: The event followers see when a run is cancelled (the last event of that run).
RUN_CANCELLED_EVENT = "run_cancelled"


class ControlProblem(enum.StrEnum):
    NOT_FOUND = "NOT_FOUND"
    NOT_RUNNING = "NOT_RUNNING"


class ControlRefused(Exception):
    def __init__(self, problem: ControlProblem, message: str, field: str | None = "reportId") -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message
        self.field = field


@dataclass(frozen=True)
class AnalysisCancelled:
    report: Report
    run: AnalysisRun


async def cancel_analysis(
    event_log: EventLog, report_id: uuid.UUID, organisation_id: uuid.UUID
) -> AnalysisCancelled:
    """Cancel the report's latest run if it is PENDING or RUNNING; NOT_RUNNING otherwise.

    The run is row-locked before its report, the order in which the running pipeline writes them
    (a node updates its run, then its event bumps the report's event counter): the other order
    deadlocks with a busy worker.
    """
    async with event_log.transaction() as transaction:
        session = transaction.session
        report = await session.get(Report, report_id)
        if report is None or report.organisation_id != organisation_id:
            raise ControlRefused(ControlProblem.NOT_FOUND, "No report has this id.")
        run = await latest_run(session, report_id)
        if run is not None:
            await session.refresh(run, with_for_update=True)
            await session.refresh(report, with_for_update=True)
        if run is None or run.status not in ACTIVE_RUN_STATUSES:
            state = (
                "has never been analysed"
                if run is None
                else f"has no running analysis (latest: {run.status})"
            )
            raise ControlRefused(ControlProblem.NOT_RUNNING, f"The report {state}; nothing to cancel.")
        now = await session.scalar(select(func.now()))
        stage = run.pipeline_stage or "queued"
        message = (
            f"Analysis cancelled at {stage.replace('_', ' ')} (pass {run.iteration_count + 1}); what it "
            "stored so far stays readable. resumeAnalysis continues it, startAnalysis starts afresh."
        )
        was = run.status
        run.status = CANCELLED
        run.error_message = message
        run.completed_at = now
        run.lease_owner = None
        run.lease_expires_at = None
        report.status = ReportStatus.CANCELLED
        report.error_message = message
        await session.flush()
        await transaction.emit(
            report_id,
            RUN_CANCELLED_EVENT,
            {
                "analysis_id": str(run.id),
                "previous_status": was,
                "stage": stage,
                "iteration": run.iteration_count,
                "message": message,
            },
            analysis_run_id=run.id,
        )
    return AnalysisCancelled(report=report, run=run)
