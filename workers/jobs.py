"""ARQ job functions. Jobs may run more than once; each is idempotent.

A job that fails because the database connection was lost or refused (Postgres restarting) is
retried by ARQ with a growing delay instead of failing (`app.db.outages`); every other failure
is left to the job's own handling and the sweeps.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from arq import Retry

from app.db.outages import is_transient_db_error
from app.documents.processes import document_processes
from app.log_setup import log_context
from app.pipeline.runner import PipelineRunner, RunResult
from app.services.failures import failure_summary
from app.services.parsing import parse_report as parse_report_service
from workers.recovery import requeue_stuck_parses, resume_abandoned_analyses

logger = logging.getLogger(__name__)

#: Delay before the first retry of a job that met a lost database connection; it doubles per try.
DB_RETRY_FIRST_SECONDS = 1.0
DB_RETRY_MAX_SECONDS = 30.0
#: Tries of a parse job before ARQ gives up on it (the sweep still re-queues the report).
PARSE_JOB_TRIES = 8


def retry_after_outage(ctx: dict[str, Any], job: str, exc: Exception) -> Retry:
    """The ARQ retry of a job the database failed, deferred by the try number (1 s, 2 s, 4 s … 30 s)."""
    tries = int(ctx.get("job_try") or 1)
    defer = min(DB_RETRY_FIRST_SECONDS * 2 ** (tries - 1), DB_RETRY_MAX_SECONDS)
    logger.warning("%s: database unreachable (%s); retrying in %.0f s", job, failure_summary(exc), defer)
    return Retry(defer=defer)


async def parse_report(ctx: dict[str, Any], report_id: str) -> str:
    """Parse an uploaded report into page texts and markdown; a second run changes nothing."""
    try:
        outcome = await parse_report_service(
            ctx["session_factory"],
            ctx["event_log"],
            uuid.UUID(report_id),
            progress_every=ctx["settings"].parse_progress_every,
            documents=document_processes(ctx["settings"]),
            max_attempts=ctx["settings"].max_job_attempts,
        )
    except Exception as exc:
        if is_transient_db_error(exc):
            raise retry_after_outage(ctx, f"parse_report {report_id}", exc) from exc
        raise
    logger.info("parse_report %s: %s", report_id, outcome.value)
    return outcome.value


async def sweep_abandoned_analyses(ctx: dict[str, Any]) -> int:
    """Periodic: resume analyses whose worker died while this one kept running, and re-queue parses
    left PARSING or UPLOADED with no job running them (or give up on either once it has used
    `MAX_JOB_ATTEMPTS`). Returns how many jobs were queued."""
    max_attempts = ctx["settings"].max_job_attempts
    parses = await requeue_stuck_parses(
        ctx["session_factory"], ctx["event_log"], ctx["redis"], max_attempts=max_attempts
    )
    analyses = await resume_abandoned_analyses(
        ctx["session_factory"], ctx["event_log"], ctx["redis"], max_attempts=max_attempts
    )
    return parses + analyses


async def run_pipeline(ctx: dict[str, Any], run_id: str) -> str:
    """Run or resume one analysis. While another worker holds its lease, try again when it lapses.

    Each start that takes the lease counts as an attempt (in Postgres); a run out of attempts is
    left in ERROR with the reason instead of being run again.
    """
    runner: PipelineRunner = ctx["pipeline_runner"]
    with log_context(run_id=run_id):  # the runner adds the report
        try:
            outcome = await runner.run(uuid.UUID(run_id))
        except Exception as exc:
            if is_transient_db_error(exc):
                raise retry_after_outage(ctx, f"run_pipeline {run_id}", exc) from exc
            raise
        logger.info("run_pipeline %s: %s %s", run_id, outcome.result.value, outcome.detail)
    if outcome.result in (RunResult.LEASE_HELD, RunResult.DB_UNAVAILABLE):
        raise Retry(defer=outcome.retry_in_seconds + 0.5)
    return outcome.result.value
