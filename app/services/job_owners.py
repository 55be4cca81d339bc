"""Whose work a queued job is, read from the database, for a job queued without its `JobOwner`
(by a sweep, or before the fair queue existed): its worker looks it up when the job starts."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from app.db.models import AnalysisRun, Report
from app.db.session import SessionFactory
from app.fair_queue import JobOwner


async def report_owner(session_factory: SessionFactory, report_id: str) -> JobOwner | None:
    """The owner of a parse job for `report_id`; None when the report is gone."""
    async with session_factory() as session:
        organisation_id = await session.scalar(
            select(Report.organisation_id).where(Report.id == uuid.UUID(report_id))
        )
    return None if organisation_id is None else JobOwner(organisation_id, uuid.UUID(report_id))


async def run_owner(session_factory: SessionFactory, run_id: str) -> JobOwner | None:
    """The owner of an analysis job for `run_id`; None when the run is gone."""
    async with session_factory() as session:
        row = (
            await session.execute(
                select(Report.organisation_id, Report.id)
                .join(AnalysisRun, AnalysisRun.report_id == Report.id)
                .where(AnalysisRun.id == uuid.UUID(run_id))
            )
        ).one_or_none()
    return None if row is None else JobOwner(row[0], row[1])
