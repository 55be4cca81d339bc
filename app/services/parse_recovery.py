"""Finding parses no job is running any more, and queueing them again.

A parse job that fails (a database blip, a bug) or whose worker dies leaves its report PARSING (or
UPLOADED, if it stopped before reading the page count), and ARQ does not run a failed job again.
Whether a parse is still running is read from Postgres itself: a running parse holds the report's
advisory lock (`app.services.parsing`), which Postgres releases when the job's connection ends. The
periodic sweep and a re-upload of the same bytes use this to queue a recovery parse; each parse
start counts an attempt, and a report whose parse was started `MAX_JOB_ATTEMPTS` times without
finishing is marked failed instead.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from arq.connections import ArqRedis
from arq.jobs import Job, JobStatus
from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.queue import PARSE_REPORT_JOB, enqueue_parse
from app.services.parsing import PARSEABLE, abandoned_message, fail_parse, parse_lock_key

logger = logging.getLogger(__name__)

#: An UPLOADED report younger than this may still have its first parse job waiting in the queue.
UPLOADED_GRACE_SECONDS = 60.0
#: ARQ states of a job that will still run (or is running).
LIVE_JOB_STATES = (JobStatus.queued, JobStatus.deferred, JobStatus.in_progress)


@dataclass(frozen=True)
class StalledParse:
    report_id: uuid.UUID
    status: ReportStatus
    attempts: int


async def parse_in_progress(session: AsyncSession, report_id: uuid.UUID) -> bool:
    """Whether some worker holds the report's parse lock right now."""
    key = parse_lock_key(report_id)
    if await session.scalar(select(func.pg_try_advisory_lock(key))):
        await session.execute(select(func.pg_advisory_unlock(key)))
        return False
    return True


async def stalled_parses(
    session_factory: SessionFactory, *, uploaded_grace_seconds: float = UPLOADED_GRACE_SECONDS
) -> list[StalledParse]:
    """Reports PARSING, or UPLOADED for longer than the grace period, that no worker is parsing."""
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(Report.id, Report.status, Report.parse_attempts).where(
                    or_(
                        Report.status == ReportStatus.PARSING,
                        (Report.status == ReportStatus.UPLOADED)
                        & (Report.created_at < func.now() - timedelta(seconds=uploaded_grace_seconds)),
                    )
                )
            )
        ).all()
        stalled = []
        for report_id, status, attempts in rows:
            if not await parse_in_progress(session, report_id):
                stalled.append(StalledParse(report_id, status, attempts))
        await session.commit()
    return stalled


async def first_job_pending(pool: ArqRedis, report_id: uuid.UUID) -> bool:
    """Whether the report's upload job (its normal id) is still queued or running."""
    status = await Job(f"{PARSE_REPORT_JOB}:{report_id}", pool).status()
    return status in LIVE_JOB_STATES


async def requeue_stalled_parse(pool: ArqRedis, parse: StalledParse) -> bool:
    """Queue a recovery parse unless the upload's own job is still waiting its turn; True if queued."""
    if parse.status is ReportStatus.UPLOADED and await first_job_pending(pool, parse.report_id):
        return False
    return await enqueue_parse(pool, parse.report_id, recovery=True)


async def give_up_parse(
    session_factory: SessionFactory, event_log: EventLog, report_id: uuid.UUID, max_attempts: int
) -> bool:
    """Mark a stalled parse that used its attempts as failed, re-checked (still parseable, still not
    running) right before; True when it was."""
    async with session_factory() as session:
        status = await session.scalar(select(Report.status).where(Report.id == report_id))
        busy = await parse_in_progress(session, report_id)
        await session.commit()
    if status not in PARSEABLE or busy:
        return False
    await fail_parse(event_log, report_id, abandoned_message(max_attempts))
    logger.warning("report %s: parsing abandoned after %d attempts", report_id, max_attempts)
    return True


async def recover_stalled_parse(
    session_factory: SessionFactory,
    event_log: EventLog,
    pool: ArqRedis,
    parse: StalledParse,
    *,
    max_attempts: int,
) -> bool:
    """Re-queue one stalled parse, or fail it once it has used `max_attempts`; True if queued."""
    if parse.attempts >= max_attempts:
        await give_up_parse(session_factory, event_log, parse.report_id, max_attempts)
        return False
    return await requeue_stalled_parse(pool, parse)


async def requeue_if_stalled(
    session_factory: SessionFactory, event_log: EventLog, pool: ArqRedis, report: Report, *, max_attempts: int
) -> bool:
    """For a re-upload of `report`: queue its parse again if it is parseable and nothing runs it."""
    if report.status not in PARSEABLE:
        return False
    async with session_factory() as session:
        busy = await parse_in_progress(session, report.id)
        await session.commit()
    if busy:
        return False
    parse = StalledParse(report.id, report.status, report.parse_attempts)
    queued = await recover_stalled_parse(session_factory, event_log, pool, parse, max_attempts=max_attempts)
    if queued:
        logger.info("report %s: re-upload re-queued its stalled parse", report.id)
    return queued
