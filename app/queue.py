"""Names and enqueue helpers of the ARQ jobs, shared by the API and the worker.

A job queued with its `JobOwner` waits its organisation's turn in the fair queue
(`app.fair_queue`); one queued without (an older caller, a sweep) is queued plainly, and its
worker looks the organisation up when it starts and makes it wait there if its organisation is full.
"""

from __future__ import annotations

import uuid
from typing import Any

from arq.connections import ArqRedis

from app.fair_queue import JobOwner, enqueue_in_turn
from app.log_setup import current_request_id
from app.tracing import TRACE_CONTEXT_KWARG, job_trace_context

PARSE_REPORT_JOB = "parse_report"
RUN_PIPELINE_JOB = "run_pipeline"


async def check_queue(pool: ArqRedis) -> None:
    """Raise the Redis error at once when the queue does not answer, before the caller stores
    anything that would then wait for a job nobody queued (a PING: one round trip, or the API's
    REDIS_COMMAND_TIMEOUT_SECONDS when Redis hangs)."""
    await pool.ping()


async def enqueue_parse(
    pool: ArqRedis,
    report_id: uuid.UUID,
    *,
    organisation_id: uuid.UUID | None = None,
    recovery: bool = False,
) -> bool:
    """Queue `parse_report` for a report of `organisation_id`; True when a new job was queued.

    The normal job id is per report, so a second upload of the same file queues nothing while the
    first job is queued or its result is kept. A recovery job gets a fresh id: the job itself takes
    a per-report lock and is idempotent, so an extra run is harmless.
    """
    job_id = f"{PARSE_REPORT_JOB}:{report_id}"
    if recovery:
        job_id = f"{job_id}:recovery:{uuid.uuid4().hex[:12]}"
    owner = None if organisation_id is None else JobOwner(organisation_id, report_id)
    return await enqueue(pool, PARSE_REPORT_JOB, report_id, job_id=job_id, owner=owner)


async def enqueue_pipeline(
    pool: ArqRedis, run_id: uuid.UUID, *, reason: str, owner: JobOwner | None = None
) -> None:
    """Queue `run_pipeline` for an analysis run of `owner`'s report.

    Every call queues a job with a fresh id: the job takes the run's lease and resumes from the
    last checkpoint, so an extra job for the same run waits or finds nothing left to do.
    """
    job_id = f"{RUN_PIPELINE_JOB}:{run_id}:{reason}:{uuid.uuid4().hex[:12]}"
    await enqueue(pool, RUN_PIPELINE_JOB, run_id, job_id=job_id, owner=owner)


async def enqueue(
    pool: ArqRedis, function: str, argument: uuid.UUID, *, job_id: str, owner: JobOwner | None
) -> bool:
    """Queue `function(str(argument))` in its organisation's turn, or plainly without an owner; the
    API request queueing it passes its id on (`request_id`), so the job's log lines carry it too,
    and its trace (`app.tracing`), which the job's spans continue."""
    request_id, trace_context = current_request_id(), job_trace_context()
    kwargs: dict[str, Any] = {"request_id": request_id} if request_id else {}
    if trace_context:
        kwargs[TRACE_CONTEXT_KWARG] = trace_context
    if owner is not None:
        return await enqueue_in_turn(pool, function, str(argument), job_id=job_id, owner=owner, kwargs=kwargs)
    return await pool.enqueue_job(function, str(argument), _job_id=job_id, **kwargs) is not None
