"""A parsed report's text, page by page, as the claims node, the investigators and askReport read it."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ReportPage


async def load_report_pages(session: AsyncSession, report_id: uuid.UUID) -> list[tuple[int, str]]:
    """The parsed report's `(page number, text)` pairs in page order."""
    rows = await session.execute(
        select(ReportPage.number, ReportPage.text)
        .where(ReportPage.report_id == report_id)
        .order_by(ReportPage.number)
    )
    return [(number, text) for number, text in rows]
