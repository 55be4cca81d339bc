"""What a job carries from the API request that queued it: the request's id, on every log line the
job writes, and the request's trace, which the job's spans continue (`app.tracing`).

`app.queue` passes them as the job's `request_id` and `trace_context` keywords (none for jobs the
worker's own sweeps queue); they lead from a client's error, or its slow request, to the worker's
lines and spans about its work.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, cast

from arq.typing import WorkerCoroutine

from app.log_setup import log_context
from app.tracing import continued_trace, span

Job = Callable[[dict[str, Any], str], Awaitable[Any]]


def carrying_request_context(job: Job, name: str) -> WorkerCoroutine:
    """`job` (the ARQ function `name`), its lines tagged with the `request_id` it was queued with
    and its work a span of the trace in `trace_context`."""

    @functools.wraps(job)
    async def job_of_request(
        ctx: dict[str, Any],
        argument: str,
        *,
        request_id: str | None = None,
        trace_context: dict[str, str] | None = None,
    ) -> Any:
        with log_context(request_id=request_id), continued_trace(trace_context):
            with span(
                f"job {name}", **{"sibyl.job.id": ctx.get("job_id"), "sibyl.job.try": ctx.get("job_try")}
            ):
                return await job(ctx, argument)

    return cast(WorkerCoroutine, job_of_request)
