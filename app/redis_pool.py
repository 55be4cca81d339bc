"""The API's Redis client: ARQ's pool, with a time limit on every command.

ARQ's `create_pool(RedisSettings)` sets a connect timeout but no socket (read) timeout, and
`RedisSettings` has no field for one, so a Redis that is up but not answering (stopped, swapping,
behind a partition that keeps the TCP connection open) held every request that touched it: the
rate limiter, persisted queries, the answer cache, job queueing. This builds the same `ArqRedis`
from the URL with `socket_timeout` set: a command that gets no answer in time raises
`redis.exceptions.TimeoutError` (a `RedisError`), which each caller already turns into its
degraded answer. Blocking pub/sub reads are not affected: the event hub reads with an explicit
timeout of its own (`app.events.hub`), which overrides the socket timeout.
"""

from __future__ import annotations

import asyncio
import logging

from arq.connections import ArqRedis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: Like ARQ's `create_pool`: the API may start a moment before Redis does.
CONNECT_ATTEMPTS = 6
CONNECT_RETRY_SECONDS = 1.0


async def create_redis_pool(
    url: str, *, command_timeout: float, connect_timeout: float = 1.0, attempts: int = CONNECT_ATTEMPTS
) -> ArqRedis:
    """An `ArqRedis` for `url` whose commands give up after `command_timeout` seconds.

    Pings Redis first, retrying up to `attempts` times a second apart (as ARQ does), and raises the
    last error when it never answers.
    """
    for attempt in range(1, attempts + 1):
        pool: ArqRedis = ArqRedis.from_url(
            url, socket_timeout=command_timeout, socket_connect_timeout=connect_timeout, encoding="utf8"
        )
        try:
            await pool.ping()
        except (RedisError, OSError) as exc:
            await pool.aclose()
            if attempt == attempts:
                raise
            logger.warning("Redis not answering (%s); %d attempt(s) left", exc, attempts - attempt)
            await asyncio.sleep(CONNECT_RETRY_SECONDS)
        else:
            return pool
    raise AssertionError("unreachable")  # the loop returns or raises


def is_redis_outage(exc: BaseException | None) -> bool:
    """True when `exc` (or the error it was raised from) is Redis refusing, dropping or not answering a
    command: a connection or timeout error, not a bad command."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, RedisConnectionError | RedisTimeoutError):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
