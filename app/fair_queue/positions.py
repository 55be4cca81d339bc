"""Where a queued job stands, for telling a user how long their report waits."""

from __future__ import annotations

import uuid

from redis.asyncio import Redis

from app.fair_queue._arq import now_ms
from app.fair_queue.scripts import position_script


async def queue_position(redis: Redis, subject_id: uuid.UUID | str) -> int | None:
    """How many queued jobs will start before the job last queued for a report (or an analysis
    run, by its id); 0: it starts next. None when it runs, has ended, or was queued without its
    organisation (`JobOwner`).

    A job let through counts the jobs ahead of it in ARQ's queue that no worker runs yet. A job
    waiting its organisation's turn counts all those, its organisation's earlier waiting jobs, and
    each other waiting organisation's jobs of earlier rounds (its waiting jobs, up to as many as
    are ahead of this one in its own organisation): an estimate, as turns come as jobs end.
    One Redis call (a Lua script reading a few keys per waiting organisation).
    """
    ahead = int(await position_script(redis, str(subject_id), now_ms()))
    return None if ahead < 0 else ahead
