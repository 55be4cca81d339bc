"""Startup sweep: pick up work a dead worker (or a lost queue) left behind."""

from __future__ import annotations

import logging

from arq.connections import ArqRedis

from app.db.models import ReportStatus
from app.db.session import SessionFactory
from app.queue import enqueue_parse, enqueue_pipeline
from app.services.analysis import runs_to_resume
from app.services.parsing import reports_needing_parse

logger = logging.getLogger(__name__)


async def requeue_unfinished_parses(session_factory: SessionFactory, pool: ArqRedis) -> int:
    """Queue a parse for every report still UPLOADED or stuck in PARSING; returns how many were queued.

    UPLOADED reports get their normal job id (a no-op if that job is still queued); PARSING ones get
    a recovery job, which waits its turn on the per-report lock if a live worker is still parsing.
    """
    queued = 0
    for report_id, status in await reports_needing_parse(session_factory):
        if await enqueue_parse(pool, report_id, recovery=status is ReportStatus.PARSING):
            queued += 1
    if queued:
        logger.info("startup sweep queued %d parse job(s)", queued)
    return queued


#: A PENDING run younger than this still has its start job in the queue.
PENDING_GRACE_SECONDS = 60.0


async def resume_abandoned_analyses(session_factory: SessionFactory, pool: ArqRedis) -> int:
    """Queue a resume for every analysis whose worker died (its lease lapsed); returns how many."""
    run_ids = await runs_to_resume(session_factory, pending_grace_seconds=PENDING_GRACE_SECONDS)
    for run_id in run_ids:
        await enqueue_pipeline(pool, run_id, reason="recovery")
    if run_ids:
        logger.info("startup sweep queued %d analysis resume(s)", len(run_ids))
    return len(run_ids)
