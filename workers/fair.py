"""Jobs run in their organisation's turn (`app.fair_queue`), on every worker.

A job takes one of its organisation's places as it starts, holds it under a lease it renews while
it runs, and gives it back when it ends, letting the organisation's next waiting job through. A
job that finds no free place goes back to wait its turn: ARQ's `Retry`, with its try given back,
so waiting uses neither `max_tries` nor the job's time limit (which ARQ counts per start). Each
worker also lets waiting jobs through every `DISPATCH_EVERY_SECONDS`, for places no job end
frees: those of a worker that died, at once when it ran on the same machine (as analysis leases
are, `app.services.lease`), else when their leases lapse; and turns a job missed while it was
still ending the run that made it wait.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from arq import Retry
from arq.typing import WorkerCoroutine
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.db.outages import is_transient_db_error
from app.db.session import SessionFactory
from app.fair_queue import JobOwner, Place, dispatch, release_place, running_jobs
from app.fair_queue.scripts import PARKED_MS
from app.fair_queue.turns import queued_owner
from app.services.lease import current_process, owner_is_gone
from workers.jobs import retry_after_outage

logger = logging.getLogger(__name__)

#: A job of the API's kind: `job(ctx, report_or_run_id)`.
JobFunction = Callable[[dict[str, Any], str], Coroutine[Any, Any, Any]]
#: Reads whose work a job is from the database, by its argument (None: the report or run is gone).
OwnerLookup = Callable[[SessionFactory, str], Awaitable[JobOwner | None]]

#: How often each worker lets waiting jobs through into places no job end freed.
DISPATCH_EVERY_SECONDS = 1.0
#: A job that had to wait again is out of ARQ's way this long, unless its turn comes first.
WAIT_AGAIN_SECONDS = PARKED_MS / 1000
#: Redis failing while the worker holds a place: the hold then lapses with its lease.
REDIS_FAILURES = (RedisError, OSError)


def in_turn(job: JobFunction, owner_of: OwnerLookup) -> WorkerCoroutine:
    """`job`, run only while its organisation has a place for it (ORG_MAX_RUNNING_JOBS)."""

    @functools.wraps(job)
    async def job_in_turn(ctx: dict[str, Any], argument: str) -> Any:
        place = await place_for(ctx, argument, owner_of)
        if place is None:  # the report or run is gone: the job itself says what it does then
            return await job(ctx, argument)
        if not await place.take():
            logger.info("%s waits for a place of organisation %s", ctx["job_id"], place.organisation)
            raise Retry(defer=WAIT_AGAIN_SECONDS)
        finished = False  # cancelled (a worker stopping): ARQ runs it again, so its records stay
        try:
            async with renewing(place):
                result = await job(ctx, argument)
            finished = True
            return result
        except Exception as exc:
            finished = not isinstance(exc, Retry)  # ARQ ends a failed job and keeps one it retries
            raise
        finally:
            await give_back(place, finished=finished)

    return job_in_turn


async def place_for(ctx: dict[str, Any], argument: str, owner_of: OwnerLookup) -> Place | None:
    """The place the job will ask for, as its owner was queued or as the database tells it."""
    owner = await queued_owner(ctx["redis"], ctx["job_id"])
    if owner is None:
        try:
            owner = await owner_of(ctx["session_factory"], argument)
        except Exception as exc:
            if is_transient_db_error(exc):
                raise retry_after_outage(ctx, f"{ctx['job_id']} owner", exc) from exc
            raise
    if owner is None:
        return None
    settings = ctx["settings"]
    return Place(
        redis=ctx["redis"],
        job_id=ctx["job_id"],
        argument=argument,
        owner=owner,
        limit=settings.org_max_running_jobs,
        lease_ms=int(settings.org_job_lease_seconds * 1000),
        worker=current_process().owner("fair-queue"),
    )


@asynccontextmanager
async def renewing(place: Place) -> AsyncIterator[None]:
    """Keep the place's lease from lapsing while the block runs: renewed every third of a lease."""
    renewer = asyncio.create_task(renew_forever(place))
    try:
        yield
    finally:
        renewer.cancel()
        await asyncio.gather(renewer, return_exceptions=True)


async def renew_forever(place: Place) -> None:
    while True:
        await asyncio.sleep(place.lease_ms / 3000)
        try:
            await place.renew()
        except REDIS_FAILURES as exc:
            logger.warning("%s: could not renew its place (%s)", place.job_id, exc)


async def give_back(place: Place, *, finished: bool) -> None:
    """Release the place; a Redis that fails here only delays it until the lease lapses."""
    try:
        await place.release(finished=finished)
    except REDIS_FAILURES as exc:
        logger.warning(
            "%s: could not give its place back (%s); it frees when its lease lapses", place.job_id, exc
        )


@asynccontextmanager
async def dispatching(redis: Redis, limit: int) -> AsyncIterator[None]:
    """While the block runs, publish `limit` and let waiting jobs through every
    `DISPATCH_EVERY_SECONDS`."""
    task = asyncio.create_task(dispatch_forever(redis, limit))
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def dispatch_forever(redis: Redis, limit: int) -> None:
    failing = False
    while True:
        try:
            await free_dead_workers_places(redis, limit)
            await dispatch(redis, limit)
        except REDIS_FAILURES as exc:
            if not failing:
                logger.warning("fair queue: could not let waiting jobs through (%s); retrying", exc)
            failing = True
        else:
            failing = False
        await asyncio.sleep(DISPATCH_EVERY_SECONDS)


async def free_dead_workers_places(redis: Redis, limit: int) -> int:
    """Give back the places of jobs whose worker process is known to have died (on this machine);
    returns how many. ARQ keeps such a job and may run it again later: it then takes a place anew."""
    freed = 0
    for job in await running_jobs(redis):
        if owner_is_gone(job.worker):
            await release_place(redis, job.job_id, job.organisation, limit=limit, finished=False)
            logger.info("%s: its worker %s died; its organisation's place is free", job.job_id, job.worker)
            freed += 1
    return freed
