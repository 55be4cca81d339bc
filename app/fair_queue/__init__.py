"""Fair work across organisations: one organisation's many parses and analyses do not make every
other organisation's work wait behind them.

An organisation has at most ORG_MAX_RUNNING_JOBS jobs running or next in line (its places);
its further jobs wait, in arrival order, in Redis beside ARQ's queue. Whenever a place frees (a
job ends, a dead worker's lease lapses) the organisation's next job is let through to the back of
ARQ's line, so organisations with waiting work take turns. A worker takes the place when the job
starts and holds it under a lease it renews; a job that starts without a free place (it was queued
without its organisation, or its turn came twice) waits again without using a try. All state lives
in Redis and changes only in Lua scripts (`app.fair_queue.scripts`), so it holds across workers
and hosts.
"""

from app.fair_queue.positions import queue_position
from app.fair_queue.turns import (
    JobOwner,
    Place,
    RunningJob,
    dispatch,
    enqueue_in_turn,
    release_place,
    running_jobs,
)

__all__ = [
    "JobOwner",
    "Place",
    "RunningJob",
    "dispatch",
    "enqueue_in_turn",
    "queue_position",
    "release_place",
    "running_jobs",
]
