"""The worker's metrics: each job run timed and counted through ARQ's job hooks, its database pool,
and the port that serves them (WORKER_METRICS_PORT).

ARQ calls `on_job_start` before a run and `after_job_end` once it has recorded how the run ended:
a job that ended has its result stored (a success or a failure), one that runs again (a `Retry`:
after an outage, behind a lease, or waiting for its organisation's turn) is still in the queue.
Reading that back is one Redis round trip per run, and needs no wrapper around the job functions.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from typing import Any

from arq.constants import default_queue_name, result_key_prefix
from arq.jobs import deserialize_result
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.metrics import db_pools
from app.metrics.catalogue import JOB_DURATION, JOB_RUNS, JOB_WAIT
from app.metrics.exposition import listening
from app.metrics.queue_depth import job_kind

logger = logging.getLogger(__name__)

COMPLETE, FAILED, RETRIED = "complete", "failed", "retried"
#: Where a run's start (wall clock, monotonic clock) waits in the job's ARQ context for its end.
STARTED = "sibyl_metrics_started"


def job_hooks(settings: Settings) -> dict[str, Any]:
    """`arq.Worker` arguments that time and count every job run; none when METRICS_ENABLED is off."""
    if not settings.metrics_enabled:
        return {}
    return {"on_job_start": job_started, "after_job_end": job_ended}


@contextmanager
def worker_metrics(settings: Settings, engine: AsyncEngine) -> Iterator[None]:
    """While the worker runs: its database pool among the metrics, and its metrics served on
    WORKER_METRICS_PORT (when set)."""
    with ExitStack() as stack:
        if settings.metrics_enabled:
            stack.enter_context(db_pools.SOURCES.attached(("worker", engine)))
            if settings.worker_metrics_port:
                stack.enter_context(listening(settings.worker_metrics_port, settings.metrics_host))
        yield


async def job_started(ctx: dict[str, Any]) -> None:
    ctx[STARTED] = (time.time(), time.monotonic())


async def job_ended(ctx: dict[str, Any]) -> None:
    """Count the run; a failure to tell how it ended leaves it uncounted (a hook must not raise:
    ARQ would lose the job's slot)."""
    started = ctx.get(STARTED)
    if started is None:
        return
    job_id = str(ctx["job_id"])
    try:
        outcome = await run_outcome(ctx["redis"], job_id)
    except Exception as exc:  # noqa: BLE001 - Redis away: the run goes uncounted, the job is unaffected
        logger.warning("metrics: could not tell how job %s ended (%s: %s)", job_id, type(exc).__name__, exc)
        return
    record_run(job_kind(job_id), outcome, started, ctx.get("enqueue_time"))


async def run_outcome(redis: Redis, job_id: str) -> str:
    """`complete` or `failed` when the job ended (its result is stored), `retried` when it is still
    queued to run again."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.get(result_key_prefix + job_id)
        pipe.zscore(default_queue_name, job_id)
        result, score = await pipe.execute()
    if result is not None:
        return COMPLETE if deserialize_result(result).success else FAILED
    return RETRIED if score is not None else COMPLETE


def record_run(kind: str, outcome: str, started: tuple[float, float], enqueued: datetime | None) -> None:
    """One run of a `kind` job: its time, and for a run that ended the job, how long it waited."""
    wall_start, monotonic_start = started
    JOB_RUNS.labels(kind, outcome).inc()
    JOB_DURATION.labels(kind, outcome).observe(time.monotonic() - monotonic_start)
    if outcome != RETRIED and enqueued is not None:
        JOB_WAIT.labels(kind).observe(max(wall_start - enqueued.timestamp(), 0.0))
