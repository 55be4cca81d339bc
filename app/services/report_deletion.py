"""Deleting a report and everything derived from it (an upload that was wrong or confidential).

One `DELETE FROM reports` removes the stored PDF bytes, pages, claims, routing, findings, verdicts,
events, runs and the question index: every one of those tables references the report (or its runs
or claims) `ON DELETE CASCADE`. The pipeline's LangGraph checkpoints are keyed by run id with no
foreign key, so they are deleted by thread id in the same transaction. The organisation's evidence
library is separate and untouched. A report being analysed or parsed is refused: a worker would
keep writing rows for it (cancel the analysis first).
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

from sqlalchemy import delete, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun, Report, ReportStatus
from app.db.session import SessionFactory
from app.services.lease import ACTIVE_RUN_STATUSES

#: The LangGraph Postgres checkpointer's tables, each with a `thread_id` (= analysis run id) column.
CHECKPOINT_TABLES = ("checkpoint_writes", "checkpoint_blobs", "checkpoints")


class DeletionProblem(enum.StrEnum):
    NOT_FOUND = "NOT_FOUND"
    ANALYSIS_RUNNING = "ANALYSIS_RUNNING"
    PARSING = "PARSING"


class DeletionRefused(Exception):
    def __init__(self, problem: DeletionProblem, message: str, field: str | None = "reportId") -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message
        self.field = field


@dataclass(frozen=True)
class ReportDeleted:
    """What was deleted: the report row as it was, and how many analysis runs went with it."""

    report: Report
    runs: int


async def delete_report(
    session_factory: SessionFactory, report_id: uuid.UUID, organisation_id: uuid.UUID
) -> ReportDeleted:
    """Delete the organisation's report `report_id` with all its data, or refuse (`DeletionRefused`)."""
    async with session_factory() as session, session.begin():
        report = await session.get(Report, report_id, with_for_update=True)
        if report is None or report.organisation_id != organisation_id:
            raise DeletionRefused(DeletionProblem.NOT_FOUND, "No report has this id.")
        run_ids = list(
            await session.scalars(select(AnalysisRun.id).where(AnalysisRun.report_id == report_id))
        )
        active = await session.scalar(
            select(AnalysisRun.id)
            .where(AnalysisRun.report_id == report_id, AnalysisRun.status.in_(ACTIVE_RUN_STATUSES))
            .limit(1)
        )
        if active is not None or report.status is ReportStatus.ANALYZING:
            raise DeletionRefused(
                DeletionProblem.ANALYSIS_RUNNING,
                "An analysis of this report is queued or running; cancel it (cancelAnalysis) first.",
            )
        if report.status is ReportStatus.PARSING:
            raise DeletionRefused(
                DeletionProblem.PARSING, "The report is being parsed; delete it once it is PARSED or ERROR."
            )
        session.expunge(report)
        await _delete_checkpoints(session, run_ids)
        await session.execute(delete(Report).where(Report.id == report_id))
    return ReportDeleted(report=report, runs=len(run_ids))


async def _delete_checkpoints(session: AsyncSession, run_ids: list[uuid.UUID]) -> None:
    """Drop the runs' LangGraph checkpoints (tables absent until a worker first set them up)."""
    if not run_ids:
        return
    threads = [str(run_id) for run_id in run_ids]
    for table in CHECKPOINT_TABLES:
        exists = await session.scalar(text("SELECT to_regclass(:name) IS NOT NULL"), {"name": table})
        if exists:
            await session.execute(
                text(f"DELETE FROM {table} WHERE thread_id = ANY(:threads)"),  # noqa: S608 - fixed names
                {"threads": threads},
            )
