"""Names and enqueue helpers of the ARQ jobs, shared by the API and the worker."""

from __future__ import annotations

import uuid

from arq.connections import ArqRedis

PARSE_REPORT_JOB = "parse_report"
RUN_PIPELINE_JOB = "run_pipeline"


async def check_queue(pool: ArqRedis) -> None:
    """Raise the Redis error at once when the queue does not answer, before the caller stores
    anything that would then wait for a job nobody queued (a PING: one round trip, or the API's
    REDIS_COMMAND_TIMEOUT_SECONDS when Redis hangs)."""
    await pool.ping()


async def enqueue_parse(pool: ArqRedis, report_id: uuid.UUID, *, recovery: bool = False) -> bool:
    """Queue `parse_report` for a report; True when a new job was queued.

    The normal job id is per report, so a second upload of the same file queues nothing while the
    first job is queued or its result is kept. A recovery job gets a fresh id: the job itself takes
    a per-report lock and is idempotent, so an extra run is harmless.
    """
    job_id = f"{PARSE_REPORT_JOB}:{report_id}"
    if recovery:
        job_id = f"{job_id}:recovery:{uuid.uuid4().hex[:12]}"
    job = await pool.enqueue_job(PARSE_REPORT_JOB, str(report_id), _job_id=job_id)
    return job is not None


async def enqueue_pipeline(pool: ArqRedis, run_id: uuid.UUID, *, reason: str) -> None:
    """Queue `run_pipeline` for an analysis run.

    Every call queues a job with a fresh id: the job takes the run's lease and resumes from the
    last checkpoint, so an extra job for the same run waits or finds nothing left to do.
    """
    await pool.enqueue_job(
        RUN_PIPELINE_JOB, str(run_id), _job_id=f"{RUN_PIPELINE_JOB}:{run_id}:{reason}:{uuid.uuid4().hex[:12]}"
    )
