"""An ARQ worker that outlives a Redis outage.

ARQ's own worker stops at the first Redis error in its poll loop, and a Redis error while it
takes a job keeps that job's slot for good. Here every Redis command (and reconnect) is retried
with backoff for about 9 s (a Redis that `sibyl run` restarts is back within a second or two), the
poll loop waits out longer outages with capped backoff, and a failed take gives its slot back.
Queued jobs live in Redis (persisted by its append-only file); analyses and parses are also
re-queued from Postgres by the sweeps.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from signal import Signals

from arq.connections import RedisSettings
from arq.worker import Worker
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.exceptions import WatchError

logger = logging.getLogger(__name__)

#: What a Redis that is down or restarting raises (a WatchError: the connection died mid-WATCH).
REDIS_OUTAGE = (RedisConnectionError, RedisTimeoutError, WatchError, OSError, asyncio.TimeoutError)
#: Per command: 7 retries, 0.2 s doubling to at most 2 s, about 9 s in all.
COMMAND_RETRIES = 7
COMMAND_BACKOFF_SECONDS = 0.1
COMMAND_BACKOFF_MAX_SECONDS = 2.0
#: The poll loop, once commands have given up: first wait, doubling to the cap.
POLL_BACKOFF_SECONDS = 0.5
POLL_BACKOFF_MAX_SECONDS = 10.0


def retrying_redis_settings(url: str) -> RedisSettings:
    """ARQ's Redis settings for `url`, retrying a command that meets a lost connection."""
    return dataclasses.replace(
        RedisSettings.from_dsn(url),
        retry=Retry(
            ExponentialBackoff(cap=COMMAND_BACKOFF_MAX_SECONDS, base=COMMAND_BACKOFF_SECONDS), COMMAND_RETRIES
        ),
        # OSError: a refused (re)connect, which redis-py would otherwise not retry.
        retry_on_error=[RedisConnectionError, RedisTimeoutError, OSError],
    )


class SibylWorker(Worker):
    """ARQ's worker, surviving Redis outages; a shutdown signal also marks the pipeline runner as
    stopping, so an analysis cancelled by a clean stop gets its attempt back."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._redis_wait = 0.0

    async def _poll_iteration(self) -> None:
        try:
            await super()._poll_iteration()
        except REDIS_OUTAGE as exc:
            self._redis_wait = min(max(2 * self._redis_wait, POLL_BACKOFF_SECONDS), POLL_BACKOFF_MAX_SECONDS)
            logger.warning(
                "Redis unreachable (%s: %s); polling again in %.1fs",
                type(exc).__name__,
                exc,
                self._redis_wait,
            )
            await asyncio.sleep(self._redis_wait)
            return
        if self._redis_wait:
            logger.info("Redis reachable again; polling resumed")
            self._redis_wait = 0.0

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        """ARQ's, one job at a time, giving the slot back when taking a job fails on Redis."""
        for job_id in job_ids:
            running = self.tasks.get(job_id.decode())
            try:
                await super().start_jobs([job_id])
            except Exception:
                if self.tasks.get(job_id.decode()) is running:  # no task started: the slot is still taken
                    self.job_counter -= 1
                    self.sem.release()
                raise

    def handle_sig(self, signum: Signals) -> None:
        runner = self.ctx.get("pipeline_runner")
        if runner is not None:
            runner.stopping = True
        super().handle_sig(signum)
