"""The process-wide event hub: one Redis subscription per report and process; many followers get
every event exactly once and in order (across a Redis restart too); a slow follower delays nobody;
an exhausted connection pool makes followers wait, never fail; idle followers cost one Postgres
check per report."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import cast

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import text

from app.config import Settings
from app.db.session import SessionFactory, create_session_factory
from app.events import EventLog, StreamEvent, channel_for
from app.events.hub import EventHub
from app.supervision.embedded.redis import start_redis
from tests.app.test_event_log import new_report

Stream = AsyncGenerator[StreamEvent, None]


def follow(hub: EventHub, report_id: uuid.UUID, after_seq: int = 0) -> Stream:
    return cast(Stream, hub.follow(report_id, after_seq))


async def collect(stream: Stream, count: int, timeout: float = 20.0) -> list[int]:
    try:
        return [(await asyncio.wait_for(anext(stream), timeout)).seq for _ in range(count)]
    finally:
        await stream.aclose()


async def subscriptions(redis: Redis, channels: list[str], timeout: float = 30.0) -> dict[str, int]:
    """Redis's subscriber count of each channel, read once every channel has a subscriber: the hub
    subscribes in the background, so the test polls rather than sleeping a fixed time that a slow
    machine may not be done in."""
    deadline = time.monotonic() + timeout
    while True:
        counts = dict(await redis.pubsub_numsub(*channels))
        if all(counts.values()) or time.monotonic() > deadline:
            return counts
        await asyncio.sleep(0.05)


async def test_many_followers_of_one_and_of_several_reports_get_everything_once_in_order(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, event_hub: EventHub, redis: Redis
) -> None:
    reports = [await new_report(session_factory) for _ in range(3)]
    for report_id in reports:
        for n in range(5):
            await event_log.append(report_id, "history", {"n": n})
    followers = {
        (report_id, n): asyncio.create_task(
            collect(follow(event_hub, report_id, after_seq=n % 4), 45 - n % 4)
        )
        for report_id in reports
        for n in range(20)
    }
    numsub = await subscriptions(redis, [channel_for(report_id) for report_id in reports])

    await asyncio.gather(
        *(event_log.append(report_id, "live", {"n": n}) for report_id in reports for n in range(40))
    )

    for (_, n), task in followers.items():
        assert await task == list(range(n % 4 + 1, 46))
    assert set(numsub.values()) == {1}  # one Redis subscription per report for 20 followers each


async def test_a_slow_follower_delays_nobody_and_catches_up_from_postgres(
    clean_db: None, session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    log = EventLog(session_factory, redis)
    hub = EventHub.following(log, poll_seconds=settings.event_poll_seconds, buffer_size=16)
    report_id = await new_report(session_factory)
    slow = follow(hub, report_id)
    fast = asyncio.create_task(collect(follow(hub, report_id), 100))
    first = asyncio.create_task(anext(slow))
    await log.append(report_id, "first")
    assert (await asyncio.wait_for(first, 10)).seq == 1
    reads_before = hub.db_reads

    started = time.monotonic()
    for n in range(99):
        await log.append(report_id, "tick", {"n": n})
    fast_seqs = await asyncio.wait_for(fast, 60)
    fast_seconds = time.monotonic() - started
    slow_seqs = [1] + await collect(slow, 99)

    assert fast_seqs == list(range(1, 101))
    # The slow follower reads nothing until the fast one is done, so a hub that waited for it would
    # never finish; the bound (about 10x a loaded 2-core machine) only rules out long stalls.
    assert fast_seconds < 30
    assert slow_seqs == list(range(1, 101))
    assert hub.db_reads > reads_before  # it fell behind the 16-event buffer


async def test_an_exhausted_pool_makes_followers_wait_not_fail(
    clean_db: None, session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.config import sqlalchemy_url

    tiny = create_async_engine(
        sqlalchemy_url(settings.require_database_url()), pool_size=1, max_overflow=0, pool_timeout=0.2
    )
    log = EventLog(create_session_factory(tiny), redis)
    hub = EventHub.following(log, poll_seconds=0.3)
    report_id = await new_report(session_factory)
    for n in range(30):
        await event_log_append(session_factory, redis, report_id, n)
    try:
        async with tiny.connect() as hog:  # the pool's only connection
            await hog.execute(text("SELECT 1"))
            followers = [
                asyncio.create_task(collect(follow(hub, report_id), 35, timeout=30)) for _ in range(25)
            ]
            await asyncio.sleep(1.5)  # every follower's reads time out on the pool meanwhile
            assert not any(task.done() for task in followers)
        for n in range(5):
            await event_log_append(session_factory, redis, report_id, 30 + n)
        results = await asyncio.gather(*followers)
    finally:
        await tiny.dispose()

    assert all(seqs == list(range(1, 36)) for seqs in results)


async def event_log_append(
    session_factory: SessionFactory, redis: Redis, report_id: uuid.UUID, n: int
) -> None:
    await EventLog(session_factory, redis).append(report_id, "e", {"n": n})


async def test_idle_followers_cost_one_check_per_report(
    clean_db: None, session_factory: SessionFactory, redis: Redis
) -> None:
    poll_seconds = 0.2
    log = EventLog(session_factory, redis)
    hub = EventHub.following(log, poll_seconds=poll_seconds)
    report_id = await new_report(session_factory)
    await log.append(report_id, "only")
    followers = [follow(hub, report_id) for _ in range(50)]
    await asyncio.gather(*(anext(stream) for stream in followers))
    before = hub.db_reads
    started = time.monotonic()

    await reads_at_least(hub, before + 5)  # ~1 s of polling at full speed
    idle_reads = hub.db_reads - before
    idle_seconds = time.monotonic() - started
    for stream in followers:
        await stream.aclose()

    # One check per poll interval for the report however slow the machine (a slow one checks less
    # often, never more), not one per follower: the first interval would bring 50 reads.
    assert 5 <= idle_reads <= idle_seconds / poll_seconds + 2


async def reads_at_least(hub: EventHub, reads: int, timeout: float = 30.0) -> None:
    """Wait until the hub has made `reads` Postgres reads in all (it polls on its own timer, so a
    fixed sleep may see none on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while hub.db_reads < reads:
        assert time.monotonic() < deadline, f"{hub.db_reads} reads, expected {reads}"
        await asyncio.sleep(0.01)


async def test_many_followers_survive_a_redis_restart(
    clean_db: None, session_factory: SessionFactory, private_redis: tuple[Path, int]
) -> None:
    folder, port = private_redis
    redis = Redis.from_url(f"redis://127.0.0.1:{port}/0")
    log = EventLog(session_factory, redis)
    hub = EventHub.following(log, poll_seconds=0.5)
    reports = [await new_report(session_factory) for _ in range(2)]
    followers = [
        asyncio.create_task(collect(follow(hub, report_id), 12, timeout=30))
        for report_id in reports
        for _ in range(15)
    ]
    for report_id in reports:
        await log.append(report_id, "before")
        await log.append(report_id, "before")
    await asyncio.sleep(0.3)

    with contextlib.suppress(RedisConnectionError):
        await redis.execute_command("SHUTDOWN", "NOSAVE")
    for report_id in reports:
        for _ in range(5):
            await log.append(report_id, "during-outage")
    restarted = start_redis(folder, port)
    await asyncio.sleep(1.5)
    for report_id in reports:
        for _ in range(5):
            await log.append(report_id, "after")

    try:
        for task in followers:
            assert await task == list(range(1, 13))
    finally:
        await redis.aclose()
        restarted.stop()
