"""Waiting for a live-only subscription to be in place before publishing what it should receive.

`verdictIssued` delivers only what happens after the API process has set the subscription up (for a
report: after it read the report's last event; for an organisation: after it subscribed on Redis).
A test that publishes too early loses the events, and a fixed sleep before publishing is too short
on a slow or loaded machine. The API subscribes to the report's (or organisation's) Redis channel
once it follows it, so a subscriber count on that channel is the sign to wait for.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from redis.asyncio import Redis

from app.events import channel_for
from app.events.log import organisation_channel_for


async def until_subscribed(redis: Redis, channel: str, timeout: float = 30.0) -> None:
    """Wait until some client holds a Redis subscription to `channel` (fails after `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        [(_, count)] = await redis.pubsub_numsub(channel)
        if count:
            return
        assert time.monotonic() < deadline, f"nobody subscribed to {channel} within {timeout} s"
        await asyncio.sleep(0.02)


async def until_report_followed(redis: Redis, report_id: uuid.UUID) -> None:
    """Wait until an API process follows `report_id` (its subscribers get what is appended next)."""
    await until_subscribed(redis, channel_for(report_id))


async def until_organisation_followed(redis: Redis, organisation_id: uuid.UUID) -> None:
    """Wait until an API process listens for `organisation_id`'s events (organisation-wide streams)."""
    await until_subscribed(redis, organisation_channel_for(organisation_id))
