"""Waiting until Redis (Valkey) has written everything so far to disk, before a test kills it.

The embedded server appends to its AOF and fsyncs it about once a second (`appendfsync everysec`),
from a timer and a background thread that a slow or loaded machine delays. Sleeping "a bit more than
a second" before SIGKILL loses data there. `WAITAOF 1 0 <ms>` instead returns once the local AOF
holds this connection's writes; the file is one ordered log, so everything written before (by any
client) is on disk too. Each helper writes a marker on one connection, then waits for it.
"""

from __future__ import annotations

from redis import Redis
from redis.asyncio import Redis as AsyncRedis

MARKER = "sibyl:test:persisted"
#: How long to wait for the fsync: only a hang may fail here.
TIMEOUT_MS = 30_000


def wait_until_persisted(url: str) -> None:
    """Block until Redis at `url` has fsynced every write made so far."""
    with Redis.from_url(url, single_connection_client=True) as client:
        client.incr(MARKER)
        local, _ = client.execute_command("WAITAOF", 1, 0, TIMEOUT_MS)
    assert local == 1, "Redis did not sync its append-only file"


async def until_persisted(url: str) -> None:
    """`wait_until_persisted` for async tests."""
    client = AsyncRedis.from_url(url, single_connection_client=True)
    try:
        await client.incr(MARKER)
        local, _ = await client.execute_command("WAITAOF", 1, 0, TIMEOUT_MS)
    finally:
        await client.aclose()
    assert local == 1, "Redis did not sync its append-only file"
