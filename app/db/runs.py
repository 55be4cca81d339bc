"""Finding a report's analysis runs: its latest run is the one the API and questions describe."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun

#: The order that puts a report's latest run first (creation time, then id to break ties).
NEWEST_RUN_FIRST = (AnalysisRun.created_at.desc(), AnalysisRun.id.desc())


async def latest_run(session: AsyncSession, report_id: uuid.UUID) -> AnalysisRun | None:
    """The report's most recent analysis run."""
    return await session.scalar(
        select(AnalysisRun).where(AnalysisRun.report_id == report_id).order_by(*NEWEST_RUN_FIRST).limit(1)
    )


def latest_run_id_of(report_id: Any) -> Any:
    """A correlated subquery: the id of the newest analysis run of the report `report_id` names."""
    return (
        select(AnalysisRun.id)
        .where(AnalysisRun.report_id == report_id)
        .order_by(*NEWEST_RUN_FIRST)
        .limit(1)
        .correlate_except(AnalysisRun)  # correlate with `claims` however deeply the subquery is nested
        .scalar_subquery()
    )
