"""Waits on Postgres and Redis that ran out are "unavailable right now"; timeouts of the caller's own
and bad commands are not. Every error here is raised by the real driver or pool."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from redis.exceptions import ResponseError
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.config import Settings
from app.db.outages import is_transient_db_error
from app.db.session import Waits, create_engine
from app.redis_pool import create_redis_pool, is_redis_outage
from tests.support.hung_proxy import hung_proxy


async def test_a_slow_statement_is_cancelled_by_postgres_and_transient(settings: Settings) -> None:
    # Every other statement here must finish within the timeout: 1 s leaves a slow machine room.
    engine = create_engine(settings.require_database_url(), waits=Waits(statement_seconds=1.0))
    try:
        async with engine.connect() as connection:
            with pytest.raises(DBAPIError) as raised:
                await connection.execute(text("SELECT pg_sleep(10)"))
            await connection.rollback()
            assert await connection.scalar(text("SELECT 1")) == 1  # the connection stays usable
    finally:
        await engine.dispose()

    assert "statement timeout" in str(raised.value)
    assert is_transient_db_error(raised.value)


async def test_no_answer_from_postgres_is_a_transient_timeout(settings: Settings) -> None:
    async with hung_proxy(settings.require_database_url()) as (proxy, url):
        # The first connection and statement must succeed within these: a slow machine needs room.
        engine = create_engine(url, waits=Waits(statement_seconds=2.0, connect_seconds=2.0))
        try:
            async with engine.connect() as connection:
                assert await connection.scalar(text("SELECT 1")) == 1
            proxy.freeze()
            with pytest.raises(TimeoutError) as raised:
                async with asyncio.timeout(30), engine.connect() as connection:
                    await connection.scalar(text("SELECT 1"))
        finally:
            proxy.thaw()
            await engine.dispose()

    assert is_transient_db_error(raised.value)


async def test_an_exhausted_pool_is_transient(settings: Settings) -> None:
    engine = create_engine(settings.require_database_url(), pool_size=1, waits=Waits(pool_seconds=0.2))
    engine.pool._max_overflow = 0  # type: ignore[attr-defined]  # one connection in all
    try:
        async with engine.connect() as held:
            await held.scalar(text("SELECT 1"))
            with pytest.raises(Exception) as raised:
                async with engine.connect() as second:
                    await second.scalar(text("SELECT 1"))
    finally:
        await engine.dispose()

    assert type(raised.value).__name__ == "TimeoutError" and "QueuePool" in str(raised.value)
    assert is_transient_db_error(raised.value)


async def test_a_timeout_of_the_callers_own_is_not_a_database_outage() -> None:
    with pytest.raises(TimeoutError) as raised:
        async with asyncio.timeout(0.01):
            await asyncio.sleep(1)

    assert not is_transient_db_error(raised.value)


async def test_redis_not_answering_is_an_outage_and_a_bad_command_is_not(settings: Settings) -> None:
    async with hung_proxy(settings.require_redis_url()) as (proxy, url):
        pool = await create_redis_pool(url, command_timeout=1.0)  # the first command answers in it
        try:
            with pytest.raises(ResponseError) as bad:
                await pool.execute_command("NO-SUCH-COMMAND")
            proxy.freeze()
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(Exception) as hung:
                async with asyncio.timeout(10):
                    await pool.get("any")
            took = loop.time() - started
        finally:
            proxy.thaw()
            await pool.aclose()

    assert is_redis_outage(hung.value)
    assert took < 8.0  # given up after the command timeout, well before the caller's own 10 s
    assert not is_redis_outage(bad.value)


async def test_the_api_pool_retries_until_redis_answers_then_gives_up(settings: Settings) -> None:
    async with hung_proxy(settings.require_redis_url()) as (proxy, url):
        proxy.freeze()
        with pytest.raises(Exception) as raised:
            await create_redis_pool(url, command_timeout=0.2, attempts=2)
        proxy.thaw()
        pool: Redis = await create_redis_pool(url, command_timeout=2.0, attempts=1)  # it must answer
        try:
            assert await pool.ping()
        finally:
            await pool.aclose()

    assert is_redis_outage(raised.value)
