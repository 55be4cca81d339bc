"""Jobs in ARQ's queue by kind and state, read from Redis each time the API is scraped.

ARQ keeps every job it has not finished in one sorted set, scored by when it may start: jobs due
now and not taken (`queued`), jobs a worker runs (`running`: their in-progress key exists), and
jobs due later (`deferred`: retries after a backoff, and jobs waiting for their organisation's turn,
which the fair queue scores ahead, see `app.fair_queue.scripts`). Only job ids are read, whose
prefix is the kind (`parse_report:<report>`, `run_pipeline:<run>:…`): nothing of their arguments.
A scrape reads the whole set (two round trips, however long the queue), not each job's record.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from arq.constants import default_queue_name, in_progress_key_prefix
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis.asyncio import Redis

from app.metrics.labels import bounded
from app.metrics.scrape import Sources, read_on_loop
from app.queue import PARSE_REPORT_JOB, RUN_PIPELINE_JOB

#: The kinds of job Sibyl queues; ARQ's own cron jobs (the sweep) have ids starting `cron:`.
JOB_KINDS = (PARSE_REPORT_JOB, RUN_PIPELINE_JOB, "cron")
STATES = ("queued", "running", "deferred")


def job_kind(job_id: str) -> str:
    """The kind of job an id names (its prefix), or `other`."""
    return bounded(job_id.partition(":")[0], JOB_KINDS)


@dataclass(frozen=True)
class QueueSource:
    """A Redis pool and the event loop its connections belong to."""

    redis: Redis
    loop: asyncio.AbstractEventLoop


SOURCES: Sources[QueueSource] = Sources()


async def queue_counts(redis: Redis, now_ms: float) -> Counter[tuple[str, str]]:
    """(kind, state) -> jobs: one read of the queue, and one pipelined look at the jobs due."""
    entries: list[tuple[bytes | str, float]] = await redis.zrange(default_queue_name, 0, -1, withscores=True)
    counts: Counter[tuple[str, str]] = Counter()
    due: list[str] = []
    for member, score in entries:
        job_id = member.decode() if isinstance(member, bytes) else member
        if score > now_ms:
            counts[(job_kind(job_id), "deferred")] += 1
        else:
            due.append(job_id)
    if due:
        async with redis.pipeline(transaction=False) as pipe:
            for job_id in due:
                pipe.exists(in_progress_key_prefix + job_id)
            running = await pipe.execute()
        for job_id, is_running in zip(due, running, strict=True):
            counts[(job_kind(job_id), "running" if is_running else "queued")] += 1
    return counts


class QueueDepth(Collector):
    """`sibyl_queue_jobs{kind, state}`, from the first attached Redis (one Redis serves them all)."""

    def __init__(self, sources: Sources[QueueSource]) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "sibyl_queue_jobs",
            "Jobs in the queue by kind and state: queued (due, not started), running, deferred (a "
            "retry's backoff, or waiting for its organisation's turn). Read from Redis at scrape time.",
            labels=["kind", "state"],
        )
        source = next(iter(self.sources), None)
        counts = None
        if source is not None:
            counts = read_on_loop(
                source.loop, queue_counts(source.redis, time.time() * 1000), "the job queue"
            )
        if counts is not None:
            kinds = sorted({*JOB_KINDS, *(kind for kind, _ in counts)})
            for kind in kinds:
                for state in STATES:
                    family.add_metric([kind, state], counts.get((kind, state), 0))
        yield family


REGISTRY.register(QueueDepth(SOURCES))
