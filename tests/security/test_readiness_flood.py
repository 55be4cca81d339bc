"""`/readyz` needs no key, so anyone can call it as often as they like: a flood of calls must not
reach the database or Redis. Callers share one cached check, probed at most once a second (callers
arriving during a probe wait for that probe), so 150 concurrent calls cost one probe of each
dependency, not 150 connections taken from the pool that tenants' queries need.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from sqlalchemy import event
from starlette.applications import Starlette

from app.config import Settings
from schema.transport.asgi import create_app
from tests.support.http_server import serve_asgi

CALLERS = 150


@pytest.fixture
async def app_and_url(settings: Settings) -> AsyncIterator[tuple[Starlette, str]]:
    app = create_app(settings)
    async with serve_asgi(app) as url:
        yield app, url


async def redis_pings(redis: Redis) -> int:
    stats: dict[str, Any] = await redis.info("commandstats")
    found = stats.get("cmdstat_ping", {})
    if isinstance(found, dict):
        return int(found.get("calls", 0))
    match = re.search(r"calls=(\d+)", str(found))
    return int(match.group(1)) if match else 0


async def test_a_flood_of_readiness_calls_probes_each_dependency_about_once_a_second(
    app_and_url: tuple[Starlette, str], redis: Redis
) -> None:
    app, url = app_and_url
    checkouts: list[object] = []
    event.listen(app.state.services.engine.sync_engine, "checkout", lambda *args: checkouts.append(args))
    pings_before = await redis_pings(redis)

    started = time.monotonic()
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=None)) as http:
        answers = await asyncio.gather(*(http.get("/readyz") for _ in range(CALLERS)))
    elapsed = time.monotonic() - started
    pings = await redis_pings(redis) - pings_before

    assert [answer.status_code for answer in answers] == [200] * CALLERS
    assert {answer.json()["status"] for answer in answers} == {"ready"}
    allowed = int(elapsed) + 2  # one probe per started second, however slow this machine is
    assert 1 <= len(checkouts) <= allowed, (len(checkouts), elapsed)
    assert 1 <= pings <= allowed, (pings, elapsed)


async def test_the_cached_answer_is_renewed(app_and_url: tuple[Starlette, str]) -> None:
    app, url = app_and_url
    checkouts: list[object] = []
    event.listen(app.state.services.engine.sync_engine, "checkout", lambda *args: checkouts.append(args))

    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        assert (await http.get("/readyz")).status_code == 200
        await asyncio.sleep(1.5)
        assert (await http.get("/readyz")).status_code == 200

    assert len(checkouts) == 2
