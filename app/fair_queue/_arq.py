"""What the fair queue relies on of ARQ's internals (arq 0.28), in one place.

The fair queue keeps its jobs in ARQ's own queue, so ARQ's workers, `Job.status()` and the sweeps
see them as usual; its Lua scripts therefore read and write ARQ's keys directly:

* a job is the pickled `serialize_job` record under `arq:job:<id>` plus a member of the `arq:queue`
  sorted set scored by the time (ms) it may start; a job's key or result already present means
  "already queued" (as `ArqRedis.enqueue_job` decides);
* a job stays a member of `arq:queue` while it runs and until ARQ finishes it (success or failure);
  `arq:in-progress:<id>` exists while a worker runs it;
* ARQ counts a start by `INCR arq:retry:<id>` before calling the job, and compares that count to
  the function's `max_tries`; a job that only waits its turn gives the count back;
* `Retry(defer=…)` leaves the job queued, and when the run ends ARQ moves its score by
  `defer + (now - score at start)` (a `ZINCRBY`), so nothing else may re-score a job while it runs.

The module's test (`tests/workers/test_fair_queue.py`) queues through ARQ's readers, so an ARQ
that changes this layout fails there first.
"""

from __future__ import annotations

from typing import Any

from arq.constants import (
    default_queue_name,
    expires_extra_ms,
    in_progress_key_prefix,
    job_key_prefix,
    result_key_prefix,
    retry_key_prefix,
)
from arq.jobs import serialize_job
from arq.utils import timestamp_ms

#: How long ARQ keeps a job's record beyond its planned start.
JOB_EXPIRES_EXTRA_MS = expires_extra_ms
#: ARQ's key names and its job lifetime beyond the planned start, as Lua constants for the scripts.
LUA_CONSTANTS = f"""
local ARQ_QUEUE = '{default_queue_name}'
local ARQ_JOB = '{job_key_prefix}'
local ARQ_RESULT = '{result_key_prefix}'
local ARQ_IN_PROGRESS = '{in_progress_key_prefix}'
local ARQ_RETRY = '{retry_key_prefix}'
local ARQ_EXPIRES_EXTRA_MS = {expires_extra_ms}
"""


def serialized_job(
    function: str, args: tuple[Any, ...], enqueued_ms: int, kwargs: dict[str, Any] | None = None
) -> bytes:
    """The job record `ArqRedis.enqueue_job` would store for `function(*args, **kwargs)`."""
    return serialize_job(function, args, kwargs or {}, None, enqueued_ms)


def now_ms() -> int:
    """ARQ's clock: the caller's wall time in ms, which workers compare queue scores with."""
    return timestamp_ms()
