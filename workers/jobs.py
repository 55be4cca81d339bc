"""ARQ job functions. Jobs may run more than once; each is idempotent."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from app.services.parsing import parse_report as parse_report_service

logger = logging.getLogger(__name__)


async def parse_report(ctx: dict[str, Any], report_id: str) -> str:
    """Parse an uploaded report into page texts and markdown; a second run changes nothing."""
    outcome = await parse_report_service(
        ctx["session_factory"],
        ctx["event_log"],
        uuid.UUID(report_id),
        progress_every=ctx["settings"].parse_progress_every,
    )
    logger.info("parse_report %s: %s", report_id, outcome.value)
    return outcome.value
