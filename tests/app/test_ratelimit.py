"""The per-key rate limiter against a real Redis: the bucket, refills, the most a minute lets through,
independence, atomicity, checking without counting, failure.

Tests give the limiter a clock they move themselves (`Clock`), so the bucket refills only when a
test says so, however long its requests take; one test keeps Redis's own clock (the default)."""

from __future__ import annotations

import asyncio
import logging
import socket
import uuid

import pytest
from redis.asyncio import Redis

from app.ratelimit import BURST_FRACTION, KEY_PREFIX, RateLimiter, burst_for


class Clock:
    """Seconds that pass only when `advance` says so."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def unique_key() -> str:
    return f"test-{uuid.uuid4()}"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_allows_the_burst_then_refuses_with_a_retry_after(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=30, clock=Clock())  # a bucket of 5, refilled one every 2 s
    key = unique_key()

    decisions = [await limiter.hit(key) for _ in range(6)]

    assert [d.allowed for d in decisions] == [True] * 5 + [False]
    assert [d.remaining for d in decisions] == [4, 3, 2, 1, 0, 0]
    refused = decisions[-1]
    assert (refused.limit, refused.burst) == (30, 5)
    assert refused.retry_after_seconds == 2  # one request's share of the minute
    assert all(d.retry_after_seconds == 0 for d in decisions[:5])


def test_the_bucket_holds_a_sixth_of_the_limit() -> None:
    assert BURST_FRACTION == 1 / 6
    assert [burst_for(n) for n in (600, 60, 18, 3, 1, 0)] == [100, 10, 3, 1, 1, 0]


async def test_a_rested_key_gets_its_burst_not_a_minute_of_requests_at_once(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=600, clock=Clock())
    key = unique_key()

    decisions = await asyncio.gather(*(limiter.hit(key) for _ in range(700)))

    assert sum(d.allowed for d in decisions) == 100
    refused = [d for d in decisions if not d.allowed]
    assert {d.retry_after_seconds for d in refused} == {1}  # the next one fits in 100 ms


async def test_no_more_than_the_limit_and_the_burst_pass_in_a_keys_first_minute(redis: Redis) -> None:
    # given a rested key (one request a second, a bucket of 10) and a clock the test moves
    clock = Clock()
    limiter = RateLimiter(redis, per_minute=60, clock=clock)
    key = unique_key()
    allowed = 0

    # when it sends a request every 100 ms from 0 s to 60 s, both included
    for _ in range(601):
        allowed += (await limiter.hit(key)).allowed
        clock.advance(0.1)

    # then the minute lets through its bucket at once and one a second after: the limit plus the
    # bucket, not twice the limit
    assert allowed == limiter.per_minute + limiter.burst == 70


async def test_the_clock_defaults_to_redis_s_own(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=1)  # a bucket of 1, refilled once a minute
    key = unique_key()

    first, second = await limiter.hit(key), await limiter.hit(key)

    assert (first.allowed, second.allowed) == (True, False)
    assert 1 <= second.retry_after_seconds <= 60
    assert 0 < await redis.pttl(KEY_PREFIX + key) <= 60_000


async def test_keys_are_independent(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=12, clock=Clock())  # a bucket of 2
    busy, other = unique_key(), unique_key()
    for _ in range(3):
        await limiter.hit(busy)

    decision = await limiter.hit(other)

    assert decision.allowed
    assert decision.remaining == 1
    assert not (await limiter.hit(busy)).allowed


async def test_refills_after_the_window(redis: Redis) -> None:
    clock = Clock()
    limiter = RateLimiter(redis, per_minute=18, window_seconds=1.0, clock=clock)  # a bucket of 3
    key = unique_key()
    for _ in range(3):
        assert (await limiter.hit(key)).allowed
    refused = await limiter.hit(key)
    assert not refused.allowed
    assert refused.retry_after_seconds == 1  # rounded up to whole seconds for Retry-After

    clock.advance(1.0)

    assert [(await limiter.hit(key)).allowed for _ in range(4)] == [True, True, True, False]


async def test_one_request_s_share_of_the_window_refills_one_request(redis: Redis) -> None:
    clock = Clock()
    limiter = RateLimiter(redis, per_minute=60, clock=clock)  # a bucket of 10, one a second
    key = unique_key()
    for _ in range(10):
        await limiter.hit(key)

    clock.advance(0.999)
    early = await limiter.hit(key)
    clock.advance(0.001)
    on_time = await limiter.hit(key)

    assert (early.allowed, early.retry_after_seconds) == (False, 1)
    assert (on_time.allowed, on_time.remaining) == (True, 0)


async def test_checking_counts_nothing(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=12, clock=Clock())  # a bucket of 2
    key = unique_key()

    checks = [await limiter.check(key) for _ in range(5)]
    hits = [await limiter.hit(key) for _ in range(3)]
    after = await limiter.check(key)

    assert all(c.allowed for c in checks) and checks[0].remaining == 1
    assert [h.allowed for h in hits] == [True, True, False]
    assert (after.allowed, after.retry_after_seconds) == (False, 5)


async def test_keys_expire_on_their_own(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=10, window_seconds=2, clock=Clock())
    key = unique_key()

    await limiter.hit(key)

    ttl_ms = await redis.pttl(KEY_PREFIX + key)
    assert 0 < ttl_ms <= 200  # one request's share of the window: then the bucket is full again


async def test_concurrent_hits_never_exceed_the_bucket(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=120, clock=Clock())  # a bucket of 20
    key = unique_key()

    decisions = await asyncio.gather(*(limiter.hit(key) for _ in range(50)))

    assert sum(d.allowed for d in decisions) == 20
    assert sorted(d.remaining for d in decisions if d.allowed) == list(range(20))


async def test_zero_turns_the_limit_off(redis: Redis) -> None:
    limiter = RateLimiter(redis, per_minute=0)
    key = unique_key()

    decisions = [await limiter.hit(key) for _ in range(100)]

    assert all(d.allowed for d in decisions)
    assert await redis.exists(KEY_PREFIX + key) == 0


async def test_redis_failure_allows_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    broken = Redis(host="127.0.0.1", port=closed_port(), socket_connect_timeout=1)
    limiter = RateLimiter(broken, per_minute=1)
    try:
        with caplog.at_level(logging.WARNING, logger="app.ratelimit"):
            decisions = [await limiter.hit("any") for _ in range(3)]
    finally:
        await broken.aclose()

    assert all(d.allowed for d in decisions)
    warnings = [r for r in caplog.records if r.name == "app.ratelimit"]
    assert len(warnings) == 1
    assert "rate limiting is off" in warnings[0].getMessage()


def test_rejects_nonsense_settings(redis: Redis) -> None:
    with pytest.raises(ValueError, match="per_minute"):
        RateLimiter(redis, per_minute=-1)
    with pytest.raises(ValueError, match="window_seconds"):
        RateLimiter(redis, per_minute=1, window_seconds=0)
