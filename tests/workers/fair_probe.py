"""A probe job for the fair queue's tests: it only records when it ran, in a Redis list (whose
order is the order Redis saw), and is queued and started through the production fair-queue path
(`app.queue.enqueue`, `workers.fair.in_turn`, the workers' dispatcher).

`python -m tests.workers.fair_probe` runs a worker process with the production jobs and the probe,
configured from the environment (so a test can kill it).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from arq import Worker, func
from arq.connections import ArqRedis
from redis.asyncio import Redis

from app.config import Settings, get_settings
from app.fair_queue import JobOwner, queue_position
from app.fair_queue.scripts import LIMIT_KEY
from app.queue import enqueue
from app.services.job_owners import report_owner
from tests.support.arq_workers import close_when_done
from workers.fair import in_turn
from workers.settings import worker_settings

PROBE_JOB = "fair_probe"
PROBE_LOG = "test:fair:probe"
#: How long a probe runs (seconds); a worker process of its own reads it from the environment.
PROBE_SECONDS_ENV = "SIBYL_TEST_PROBE_SECONDS"
PROBE_SECONDS = 0.3
STARTUP_SECONDS = 60
STOP_SECONDS = 30


async def probe(ctx: dict[str, Any], report_id: str) -> str:
    """Record the start (with the job's own queue position and try), wait, record the end."""
    redis: Redis = ctx["redis"]
    start = {
        "event": "start",
        "report": report_id,
        "position": await queue_position(redis, report_id),
        "try": ctx["job_try"],
        "pid": os.getpid(),
    }
    await redis.rpush(PROBE_LOG, json.dumps(start))
    await asyncio.sleep(float(os.environ.get(PROBE_SECONDS_ENV, PROBE_SECONDS)))
    await redis.rpush(PROBE_LOG, json.dumps({"event": "end", "report": report_id}))
    return "ran"


def probe_worker_settings(settings: Settings) -> dict[str, Any]:
    """The production worker settings plus the probe; `max_tries=1`: a start that only waited its
    turn must not count as a try, or the probe's next start would fail."""
    production = worker_settings(settings)
    probe_function = func(in_turn(probe, report_owner), name=PROBE_JOB, max_tries=1)
    return {**production, "functions": [*production["functions"], probe_function]}


async def enqueue_probe(pool: ArqRedis, report_id: uuid.UUID, owner: JobOwner | None) -> bool:
    """Queue a probe for `report_id`, with its owner (in its organisation's turn) or plainly."""
    return await enqueue(pool, PROBE_JOB, report_id, job_id=f"{PROBE_JOB}:{report_id}", owner=owner)


async def probe_log(redis: Redis) -> list[dict[str, Any]]:
    return [json.loads(entry) for entry in await redis.lrange(PROBE_LOG, 0, -1)]  # type: ignore[misc]


@asynccontextmanager
async def probe_workers(settings: Settings, count: int) -> AsyncIterator[list[Worker]]:
    """`count` ARQ workers in this process, started (their limit published) before the block.

    They start one after another: two startups at once on a fresh database race to create the
    checkpointer's tables.
    """
    workers: list[Worker] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for _ in range(count):
            workers.append(Worker(**{**probe_worker_settings(settings), "handle_signals": False}))
            tasks.append(asyncio.create_task(workers[-1].async_run()))
            await started(workers[-1])
        yield workers
    finally:
        await asyncio.gather(
            *(close_when_done(worker, STOP_SECONDS) for worker in workers), return_exceptions=True
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def started(worker: Worker) -> None:
    """Wait until the worker's startup ran and its dispatcher published the limit."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while "event_log" not in worker.ctx or not await worker.pool.exists(LIMIT_KEY):
        assert time.monotonic() < deadline, "the worker did not start"
        await asyncio.sleep(0.05)


if __name__ == "__main__":
    Worker(**{**probe_worker_settings(get_settings()), "handle_signals": True}).run()
