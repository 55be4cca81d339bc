"""Per-key request rate limits kept in Redis, shared by every API process.

The algorithm is GCRA (the generic cell rate algorithm, a token bucket stored as one timestamp).
The bucket holds `burst` requests, a sixth of `per_minute` (`BURST_FRACTION`: ten seconds' worth,
at least 1), and refills at `per_minute` a minute, one request every `60 / per_minute` seconds.
So a key that has been idle may send `burst` requests at once, a key may keep up `per_minute`
requests a minute for as long as it likes, and no minute ever lets more than
`per_minute + burst` through (at the default 600: 100 at once, 10 a second, at most 700 in any
minute, the first included). Compared with a sliding-window log it needs one small string per key
instead of a sorted set of every request, and it tells a refused caller exactly when the next
request fits (`retry_after_seconds`) rather than when a whole window ends.

The check-and-update runs as one Lua script, so concurrent requests (from any number of API
processes) never let more through than the bucket holds; the clock is Redis's own (`TIME`), so
API hosts with skewed clocks agree. A limiter may be given its own clock instead (`clock=`): then
every caller must share it, which is what tests want (a bucket that does not refill while they
run). Each key expires by itself once its bucket is full again. `check` asks whether a request
would fit without counting one (the API asks it before looking up a key from an address that has
failed to authenticate too often).

Redis failures fail open: the request is allowed and a warning is logged once per outage. A rate
limit protects the service from abuse; refusing every request because Redis hiccuped would turn a
small outage into a complete one. A Redis that is up but not answering fails too, after the
client's command timeout (REDIS_COMMAND_TIMEOUT_SECONDS); then the limiter leaves Redis alone for
`FAIL_OPEN_SECONDS`, so during an outage only one request in that time waits for the timeout.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

KEY_PREFIX = "sibyl:ratelimit:"

#: The bucket's size as a fraction of the per-minute limit: ten seconds' worth of requests.
BURST_FRACTION = 1 / 6
#: After a Redis failure, requests are allowed without asking Redis for this long.
FAIL_OPEN_SECONDS = 5.0

# KEYS[1]: the bucket; ARGV[1]: emission interval (ms per request); ARGV[2]: the bucket's
# tolerance (ms): burst x interval; ARGV[3]: now (ms), or '' for Redis's clock; ARGV[4]: '1' to
# count the request, '0' to only check it. The key holds the "theoretical arrival time" (TAT): when
# the bucket would be full again, stored at full precision. A microsecond's slack absorbs the
# rounding of adding intervals up. Returns {allowed (0/1), remaining, retry_after_ms}.
GCRA_SCRIPT = """
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now == nil then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
end
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - tolerance
if allow_at - now > 0.001 then
  return {0, 0, math.ceil(allow_at - now)}
end
if ARGV[4] == '1' then
  redis.call('SET', KEYS[1], string.format('%.17g', new_tat), 'PX', math.ceil(new_tat - now))
end
return {1, math.floor((tolerance - (new_tat - now)) / interval + 1e-9), 0}
"""


@dataclass(frozen=True)
class RateDecision:
    """The outcome of one request against its key's limit.

    Attributes:
        allowed: Whether the request may proceed.
        remaining: Requests the key may still make at once after this one (0 when refused; for
            `check`, after such a request).
        retry_after_seconds: When refused, whole seconds until a request fits again; else 0.
        limit: The configured requests per window (0: no limit).
        burst: The bucket's size: requests a rested key may make at once (0: no limit).
    """

    allowed: bool
    remaining: int
    retry_after_seconds: int
    limit: int
    burst: int = 0


def burst_for(per_minute: int) -> int:
    """The bucket size for a limit of `per_minute`: `BURST_FRACTION` of it, at least 1 (0: no limit)."""
    return max(1, math.ceil(per_minute * BURST_FRACTION)) if per_minute else 0


class RateLimiter:
    """Counts requests per key (an API key's id, never the secret) against `per_minute`."""

    def __init__(
        self,
        redis: Redis,
        per_minute: int,
        *,
        window_seconds: float = 60.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Bind the limiter to a Redis client.

        Args:
            redis: Any redis.asyncio client (the API's ARQ pool will do).
            per_minute: Requests allowed per window and key; 0 turns the limit off.
            window_seconds: The window `per_minute` applies to; only tests shorten it.
            clock: Seconds on a clock every user of the same buckets shares; None (the default)
                uses Redis's own, which every API process shares. Tests pass one they control.
        """
        if per_minute < 0:
            raise ValueError(f"per_minute must be 0 (off) or positive; got {per_minute}")
        if window_seconds <= 0:
            raise ValueError(f"window_seconds must be positive; got {window_seconds}")
        self.per_minute = per_minute
        self.burst = burst_for(per_minute)
        self._window_ms = window_seconds * 1000
        self._clock = clock
        self._script = redis.register_script(GCRA_SCRIPT)
        self._redis_failing = False
        self._skip_redis_until = 0.0

    async def hit(self, key: str) -> RateDecision:
        """Count one request for `key` and say whether it may proceed (a refused one is not counted)."""
        return await self._decide(key, count=True)

    async def check(self, key: str) -> RateDecision:
        """Whether a request for `key` would proceed now, without counting one."""
        return await self._decide(key, count=False)

    async def _decide(self, key: str, *, count: bool) -> RateDecision:
        if self.per_minute == 0:
            return RateDecision(allowed=True, remaining=0, retry_after_seconds=0, limit=0)
        if self._redis_failing and time.monotonic() < self._skip_redis_until:
            return self._open_decision()
        interval_ms = self._window_ms / self.per_minute
        now_ms = "" if self._clock is None else repr(self._clock() * 1000)
        try:
            allowed, remaining, retry_after_ms = await self._script(
                keys=[KEY_PREFIX + key],
                args=[repr(interval_ms), repr(interval_ms * self.burst), now_ms, "1" if count else "0"],
            )
        except (RedisError, OSError) as exc:
            return self._fail_open(exc)
        self._recovered()
        return RateDecision(
            allowed=bool(allowed),
            remaining=int(remaining),
            retry_after_seconds=max(1, math.ceil(int(retry_after_ms) / 1000)) if not allowed else 0,
            limit=self.per_minute,
            burst=self.burst,
        )

    def _fail_open(self, exc: Exception) -> RateDecision:
        """Allow the request; warn at the first failure of an outage, not at every request."""
        self._skip_redis_until = time.monotonic() + FAIL_OPEN_SECONDS
        if not self._redis_failing:
            self._redis_failing = True
            logger.warning("rate limiting is off until Redis answers again (requests allowed): %r", exc)
        return self._open_decision()

    def _open_decision(self) -> RateDecision:
        return RateDecision(
            allowed=True,
            remaining=self.burst,
            retry_after_seconds=0,
            limit=self.per_minute,
            burst=self.burst,
        )

    def _recovered(self) -> None:
        if self._redis_failing:
            self._redis_failing = False
            logger.warning("Redis answers again: rate limiting is back on")
