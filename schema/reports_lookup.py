"""Loading report rows for resolvers."""

from __future__ import annotations

import uuid

from app.db.models import Report as ReportModel
from app.db.session import SessionFactory


async def load_report(session_factory: SessionFactory, report_id: uuid.UUID) -> ReportModel | None:
    async with session_factory() as session:
        return await session.get(ReportModel, report_id)
