"""The worker serves its own metrics on WORKER_METRICS_PORT while it runs, and only then."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from arq import Worker

from app.supervision.embedded.redis import free_port
from tests.conftest import make_settings, run_worker
from tests.support.metrics import sample, scrape
from tests.support.services import RunningServices


async def until_polling(worker: Worker, timeout: float = 60.0) -> None:
    """Wait for the worker's start-up to end: its first poll of the queue records its health."""
    deadline = time.monotonic() + timeout
    while not worker._last_health_check:
        assert time.monotonic() < deadline, "the worker did not start"
        await asyncio.sleep(0.05)


async def test_the_worker_serves_its_metrics_on_its_port_while_it_runs(services: RunningServices) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/metrics"

    async with run_worker(make_settings(services, worker_metrics_port=port)) as worker:
        await until_polling(worker)
        text = await scrape(url)

    assert sample(text, "sibyl_db_pool_size", pool="worker") == 10
    assert "# TYPE sibyl_job_runs_total counter" in text
    with pytest.raises(httpx.TransportError):
        await scrape(url)  # stopped with the worker
