"""The worker outlives a Redis outage: Redis killed with SIGKILL and started again on its port and
data directory, the worker keeps polling, a job queued before the crash still runs (the append-only
file kept it), and new jobs run too. A Redis error while taking a job gives its slot back."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from arq import create_pool, func
from arq.connections import ArqRedis, RedisSettings
from redis.exceptions import ConnectionError as RedisConnectionError

from app.supervision.embedded.redis import EmbeddedRedis, start_redis
from tests.support.arq_workers import close_when_done
from tests.support.redis_persistence import until_persisted
from workers.resilience import SibylWorker, retrying_redis_settings


@pytest.fixture
async def own_redis(tmp_path: Path) -> AsyncIterator[EmbeddedRedis]:
    """A Redis server of this test's own, to be killed."""
    server = start_redis(tmp_path / "redis")
    yield server
    server.stop()


async def eventually(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def recording_worker(url: str, seen: list[str]) -> SibylWorker:
    async def record(ctx: dict[str, Any], value: str) -> None:
        seen.append(value)

    return SibylWorker(
        functions=[func(record, name="record")],
        redis_settings=retrying_redis_settings(url),
        handle_signals=False,
        poll_delay=0.1,
        max_jobs=2,
    )


async def test_the_worker_outlives_a_redis_restart_and_queued_jobs_survive_it(
    own_redis: EmbeddedRedis,
) -> None:
    seen: list[str] = []
    worker = recording_worker(own_redis.url, seen)
    running = asyncio.create_task(worker.async_run())
    pool: ArqRedis = await create_pool(RedisSettings.from_dsn(own_redis.url))
    try:
        await pool.enqueue_job("record", "before")
        await eventually(lambda: seen == ["before"], 30, "the first job")
        await pool.enqueue_job("record", "queued across the crash", _defer_by=6)
        await until_persisted(own_redis.url)  # the queued job is on disk before the crash

        assert own_redis.pid is not None
        os.kill(own_redis.pid, signal.SIGKILL)
        await eventually(lambda: not own_redis.is_running(), 10, "Redis to die")
        await asyncio.sleep(12)  # longer than one command's retries: the poll loop meets the outage
        assert not running.done(), "the worker stopped when Redis went away"
        own_redis.start()

        await eventually(lambda: "queued across the crash" in seen, 40, "the job queued before the crash")
        await pool.enqueue_job("record", "after")
        await eventually(lambda: seen[-1] == "after", 30, "a job queued after the restart")
        assert not running.done()
    finally:
        await close_when_done(worker)  # a job just seen running may still be recording its end
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        await pool.aclose()
    assert seen == ["before", "queued across the crash", "after"]


class _DownPool:
    def pipeline(self, transaction: bool = True) -> Any:
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1. Connection refused.")


async def test_a_redis_error_while_taking_a_job_gives_its_slot_back(own_redis: EmbeddedRedis) -> None:
    worker = recording_worker(own_redis.url, [])
    worker.max_jobs = 1
    worker.sem = asyncio.BoundedSemaphore(1)
    worker._pool = _DownPool()  # type: ignore[assignment]

    for _ in range(3):  # with the slot kept, the second take would wait for it forever
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(worker.start_jobs([b"job-1"]), 5)

    assert worker.job_counter == 0 and not worker.sem.locked()
