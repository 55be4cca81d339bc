"""Queueing a job in its organisation's turn, and the places its workers take and give back."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from app.fair_queue._arq import now_ms, serialized_job
from app.fair_queue.scripts import (
    RECORD_PREFIX,
    RUNNING_KEY,
    dispatch_script,
    enqueue_script,
    release_script,
    renew_script,
    take_script,
)


@dataclass(frozen=True)
class JobOwner:
    """Whose work a job is: filled by whoever queues it (or, for a job queued without, by the
    worker from the database when the job starts)."""

    organisation_id: uuid.UUID
    #: The report the job works on: a queue position can be asked by its id.
    report_id: uuid.UUID

    def subjects(self, argument: str) -> list[str]:
        """The ids the job can be looked up by: its report and its own argument (a run id)."""
        report = str(self.report_id)
        return [report] if argument == report else [report, argument]


async def enqueue_in_turn(
    redis: Redis,
    function: str,
    argument: str,
    *,
    job_id: str,
    owner: JobOwner,
    kwargs: dict[str, Any] | None = None,
) -> bool:
    """Queue `function(argument, **kwargs)` as job `job_id` behind its organisation's waiting jobs;
    it is let through at once while the organisation has a free place. False when a job of that id
    is already queued (or its result kept), as with `ArqRedis.enqueue_job`."""
    now = now_ms()
    record = serialized_job(function, (argument,), now, kwargs)
    queued = await enqueue_script(
        redis, job_id, record, now, str(owner.organisation_id), *owner.subjects(argument)
    )
    return bool(queued)


async def queued_owner(redis: Redis, job_id: str) -> JobOwner | None:
    """The owner the job was queued (or last started) with; None for a job queued without one."""
    organisation, subjects = await _record(redis, job_id, "org", "subjects")
    if not organisation or not subjects:
        return None
    return JobOwner(uuid.UUID(organisation), uuid.UUID(subjects.split()[0]))


@dataclass(frozen=True)
class Place:
    """One job's claim on one of its organisation's places, as its worker sees it."""

    redis: Redis
    job_id: str
    argument: str
    owner: JobOwner
    #: ORG_MAX_RUNNING_JOBS of this worker; 0: no limit.
    limit: int
    lease_ms: int
    #: The lease owner name of the worker process (`app.services.lease`), so that a worker on the
    #: same machine can free the place at once when this process dies.
    worker: str

    @property
    def organisation(self) -> str:
        return str(self.owner.organisation_id)

    async def take(self) -> bool:
        """True when the job holds a place and may run now; False when it was put back to wait its
        turn (and ARQ's count of its tries given back)."""
        taken = await take_script(
            self.redis,
            self.job_id,
            now_ms(),
            self.limit,
            self.lease_ms,
            self.organisation,
            self.worker,
            *self.owner.subjects(self.argument),
        )
        return bool(taken)

    async def renew(self) -> None:
        """Extend the hold by a lease from now (a worker that stops renewing has died)."""
        await renew_script(self.redis, self.job_id, now_ms(), self.limit, self.lease_ms, self.organisation)

    async def release(self, *, finished: bool) -> int:
        """Give the place back; see `release_place`."""
        return await release_place(
            self.redis, self.job_id, self.organisation, limit=self.limit, finished=finished
        )


async def release_place(redis: Redis, job_id: str, organisation: str, *, limit: int, finished: bool) -> int:
    """Give a job's place back and let its organisation's next waiting job through; `finished`:
    ARQ is done with the job (it will not run again), so its records go too. Returns how many
    jobs were let through."""
    let_through = await release_script(redis, job_id, now_ms(), limit, organisation, int(finished))
    return int(let_through)


@dataclass(frozen=True)
class RunningJob:
    """A job holding a place under a lease, and the worker process that took it."""

    job_id: str
    organisation: str
    worker: str


async def running_jobs(redis: Redis) -> list[RunningJob]:
    """Every job that took a place and has not given it back (its lease may have lapsed)."""
    job_ids = [_text(job) for job in await redis.zrange(RUNNING_KEY, 0, -1)]
    async with redis.pipeline(transaction=False) as pipe:
        for job_id in job_ids:
            pipe.hmget(RECORD_PREFIX + job_id, ["org", "worker"])
        records = await pipe.execute()
    return [
        RunningJob(job_id, _text(organisation), _text(worker))
        for job_id, (organisation, worker) in zip(job_ids, records, strict=True)
        if organisation and worker
    ]


async def dispatch(redis: Redis, limit: int) -> int:
    """Publish the workers' limit and let waiting jobs through wherever their organisation has a
    free place (places freed by a dead worker's lapsed lease, a turn missed by a job still ending);
    organisations take turns, one job each per round. Returns how many were let through."""
    return int(await dispatch_script(redis, now_ms(), limit))


async def _record(redis: Redis, job_id: str, *fields: str) -> list[str | None]:
    values: list[bytes | str | None] = await redis.hmget(RECORD_PREFIX + job_id, list(fields))  # type: ignore[misc]
    return [None if value is None else _text(value) for value in values]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
