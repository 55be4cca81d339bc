"""EventLog: gap-free sequence numbers; followers get every event once, in order, across
late joins, reconnects and a Redis restart."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from app.db.models import Report
from app.db.session import SessionFactory
from app.events import EventLog, StreamEvent
from app.events.hub import EventHub
from app.organisations import LOCAL_ORGANISATION_ID
from app.supervision.embedded.redis import start_redis


async def new_report(session_factory: SessionFactory) -> uuid.UUID:
    async with session_factory() as session, session.begin():
        report = Report(
            organisation_id=LOCAL_ORGANISATION_ID, filename="r.pdf", sha256=uuid.uuid4().hex * 2, size_bytes=1
        )
        session.add(report)
    return report.id


async def take(stream: AsyncIterator[StreamEvent], count: int, timeout: float = 10.0) -> list[int]:
    return [(await asyncio.wait_for(anext(stream), timeout)).seq for _ in range(count)]


async def test_concurrent_appends_get_consecutive_numbers(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog
) -> None:
    report_id = await new_report(session_factory)

    events = await asyncio.gather(*(event_log.append(report_id, "tick", {"n": n}) for n in range(40)))

    assert sorted(event.seq for event in events) == list(range(1, 41))
    assert [event.seq for event in await event_log.replay(report_id)] == list(range(1, 41))


async def test_late_subscriber_gets_history_then_live(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, event_hub: EventHub
) -> None:
    report_id = await new_report(session_factory)
    for n in range(5):
        await event_log.append(report_id, "early", {"n": n})

    stream = event_hub.follow(report_id)
    history = await take(stream, 5)
    live_task = asyncio.create_task(take(stream, 3))
    await asyncio.sleep(0.2)
    for n in range(3):
        await event_log.append(report_id, "late", {"n": n})

    assert history == [1, 2, 3, 4, 5]
    assert await live_task == [6, 7, 8]
    await stream.aclose()


async def test_reconnecting_with_after_id_resumes_without_repeats(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, event_hub: EventHub
) -> None:
    report_id = await new_report(session_factory)
    for n in range(4):
        await event_log.append(report_id, "e", {"n": n})
    first = event_hub.follow(report_id)
    seen = await take(first, 3)
    await first.aclose()

    for n in range(2):
        await event_log.append(report_id, "while-away", {"n": n})
    second = event_hub.follow(report_id, after_seq=seen[-1])
    resumed = await take(second, 3)

    assert seen + resumed == [1, 2, 3, 4, 5, 6]
    await second.aclose()


async def test_event_whose_publish_was_lost_still_arrives(
    clean_db: None, session_factory: SessionFactory, redis: Redis, event_log: EventLog, event_hub: EventHub
) -> None:
    report_id = await new_report(session_factory)
    stream = event_hub.follow(report_id)
    pending = asyncio.create_task(take(stream, 2))
    await asyncio.sleep(0.2)
    async with session_factory() as session, session.begin():
        await event_log.write(session, report_id, "never-published")
    await event_log.append(report_id, "published")

    assert await pending == [1, 2]
    await stream.aclose()


async def test_follower_survives_redis_restart(
    clean_db: None, session_factory: SessionFactory, private_redis: tuple[Path, int]
) -> None:
    folder, port = private_redis
    redis = Redis.from_url(f"redis://127.0.0.1:{port}/0")
    log = EventLog(session_factory, redis)
    hub = EventHub.following(log, poll_seconds=0.5)
    report_id = await new_report(session_factory)
    stream = hub.follow(report_id)
    collected = asyncio.create_task(take(stream, 9, timeout=30))
    await log.append(report_id, "before")
    await log.append(report_id, "before")
    await asyncio.sleep(0.3)

    with contextlib.suppress(RedisConnectionError):
        await redis.execute_command("SHUTDOWN", "NOSAVE")
    for _ in range(4):
        await log.append(report_id, "during-outage")
    restarted = start_redis(folder, port)
    await asyncio.sleep(0.5)
    for _ in range(3):
        await log.append(report_id, "after")

    try:
        assert await collected == list(range(1, 10))
    finally:
        await stream.aclose()
        await redis.aclose()
        restarted.stop()
