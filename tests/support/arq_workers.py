"""Closing an in-process ARQ worker cleanly in tests."""

from __future__ import annotations

import asyncio

from arq import Worker

STOP_SECONDS = 60.0


async def close_when_done(worker: Worker, timeout: float = STOP_SECONDS) -> None:
    """Close the worker once its job tasks have ended. A job leaves the queue before ARQ records how
    it ended and runs its `after_job_end` hook, and `Worker.close` cancels what still runs: a task
    cut off there raises its cancellation out of `close` and skips the worker's shutdown (its clients
    stay open, its pool stays among the metrics)."""
    running = [task for task in worker.tasks.values() if not task.done()]
    if running:
        _, still_running = await asyncio.wait(running, timeout=timeout)
        assert not still_running, "ARQ job tasks still running after a test"
    await worker.close()
