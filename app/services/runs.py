"""Finding a report's analysis runs (shared by the analysis service and report questions)."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun


async def latest_run(session: AsyncSession, report_id: uuid.UUID) -> AnalysisRun | None:
    """The report's most recent analysis run."""
    return await session.scalar(
        select(AnalysisRun)
        .where(AnalysisRun.report_id == report_id)
        .order_by(AnalysisRun.created_at.desc(), AnalysisRun.id.desc())
        .limit(1)
    )
