"""Sweeps (at startup and periodically): pick up work a dead worker, a failed job or a lost queue
left behind."""

from __future__ import annotations

import logging
import uuid

from arq.connections import ArqRedis

from app.db.models import ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.fair_queue import queue_position
from app.log_setup import ensure_log_context
from app.queue import enqueue_parse, enqueue_pipeline
from app.services.analysis import gave_up_message, give_up_run, locked_run, runs_to_resume
from app.services.lease import ACTIVE_RUN_STATUSES, PENDING_GRACE_SECONDS, lease_state
from app.services.parse_recovery import recover_stalled_parse, stalled_parses
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


async def requeue_stuck_parses(
    session_factory: SessionFactory, event_log: EventLog, pool: ArqRedis, *, max_attempts: int
) -> int:
    """Periodic: queue a recovery parse for every report PARSING (or long UPLOADED) that no worker
    is parsing, e.g. after its job failed on a database blip; one whose parse was started
    `max_attempts` times is marked failed instead. Returns how many were queued."""
    queued = 0
    for parse in await stalled_parses(session_factory):
        if await recover_stalled_parse(session_factory, event_log, pool, parse, max_attempts=max_attempts):
            queued += 1
    if queued:
        logger.info("sweep queued %d stalled parse(s)", queued)
    return queued


async def resume_abandoned_analyses(
    session_factory: SessionFactory, event_log: EventLog, pool: ArqRedis, *, max_attempts: int
) -> int:
    """Queue a resume for every analysis whose worker died (its lease lapsed, or its owner process
    is gone); returns how many. A run that has used `max_attempts` is left in ERROR instead.

    A run whose job still waits in the queue is left to that job (a PENDING run's turn may come
    long after the grace period): queueing another each sweep would only pile up jobs behind it.
    """
    queued = 0
    for run in await runs_to_resume(session_factory, pending_grace_seconds=PENDING_GRACE_SECONDS):
        if run.attempts >= max_attempts:
            await give_up_abandoned(event_log, run.run_id, max_attempts)
            continue
        if await queue_position(pool, run.run_id) is not None:
            continue
        await enqueue_pipeline(pool, run.run_id, reason="recovery")
        queued += 1
    if queued:
        logger.info("sweep queued %d analysis resume(s)", queued)
    return queued


async def give_up_abandoned(event_log: EventLog, run_id: uuid.UUID, max_attempts: int) -> bool:
    """Mark an abandoned run that has no attempts left as ERROR (re-checked under a row lock, in
    case a worker took it meanwhile); True when it was."""
    async with event_log.transaction() as transaction:
        row = await locked_run(transaction.session, run_id)
        if row is None:
            return False
        run, now = row
        state = lease_state(run, now)
        if run.status not in ACTIVE_RUN_STATUSES or state.held or run.attempts < max_attempts:
            return False
        message = gave_up_message(run.attempts, state.interrupted)
        await give_up_run(transaction, run, message)
        report_id = run.report_id
    with ensure_log_context(run_id=run_id, report_id=report_id):
        logger.warning("analysis %s: %s", run_id, message)
    return True
