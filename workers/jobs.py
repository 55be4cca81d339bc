"""ARQ job functions. Jobs may run more than once; each is idempotent."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from arq import Retry

from app.agents.pipeline import PipelineRunner, RunResult
from app.documents.processes import document_processes
from app.services.parsing import parse_report as parse_report_service
from workers.recovery import resume_abandoned_analyses

logger = logging.getLogger(__name__)


async def parse_report(ctx: dict[str, Any], report_id: str) -> str:
    """Parse an uploaded report into page texts and markdown; a second run changes nothing."""
    outcome = await parse_report_service(
        ctx["session_factory"],
        ctx["event_log"],
        uuid.UUID(report_id),
        progress_every=ctx["settings"].parse_progress_every,
        documents=document_processes(ctx["settings"]),
        max_attempts=ctx["settings"].max_job_attempts,
    )
    logger.info("parse_report %s: %s", report_id, outcome.value)
    return outcome.value


async def sweep_abandoned_analyses(ctx: dict[str, Any]) -> int:
    """Periodic: resume analyses whose worker died while this one kept running (or give up on them
    once they have used `MAX_JOB_ATTEMPTS`)."""
    return await resume_abandoned_analyses(
        ctx["session_factory"], ctx["event_log"], ctx["redis"], max_attempts=ctx["settings"].max_job_attempts
    )


async def run_pipeline(ctx: dict[str, Any], run_id: str) -> str:
    """Run or resume one analysis. While another worker holds its lease, try again when it lapses.

    Each start that takes the lease counts as an attempt (in Postgres); a run out of attempts is
    left in ERROR with the reason instead of being run again.
    """
    runner: PipelineRunner = ctx["pipeline_runner"]
    outcome = await runner.run(uuid.UUID(run_id))
    logger.info("run_pipeline %s: %s %s", run_id, outcome.result.value, outcome.detail)
    if outcome.result is RunResult.LEASE_HELD:
        raise Retry(defer=outcome.retry_in_seconds + 0.5)
    return outcome.result.value
