"""`/readyz` asks Postgres and Redis (short timeouts) and answers 503 naming the one that fails, while
`/healthz` stays a cheap liveness answer; neither needs an API key. `/readyz` answers from a check
at most a second old (`schema.transport.readiness.CachedReadiness`), so a failure shows on the next probe."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from app.supervision.embedded.redis import start_redis
from tests.conftest import make_settings, serve_api
from tests.support.services import RunningServices


@pytest.mark.timeout(60)
async def test_readyz_is_503_naming_redis_while_redis_is_down(
    services: RunningServices, tmp_path: Path
) -> None:
    redis = start_redis(tmp_path / "redis")  # this test's own Redis, so it can be stopped
    settings = make_settings(services, redis_url=redis.url, data_dir=tmp_path)
    try:
        async with serve_api(settings) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json() == {"status": "ready", "checks": {"postgres": "ok", "redis": "ok"}}

            redis.stop()
            down = await _until_not_ready(http)
            alive = await http.get("/healthz")
    finally:
        redis.stop()

    assert down.status_code == 503
    body = down.json()
    assert body["status"] == "unavailable" and body["failing"] == ["redis"]
    assert body["checks"]["postgres"] == "ok" and body["checks"]["redis"].startswith("unavailable (")
    assert str(redis.port) not in down.text, "no addresses in an unauthenticated answer"
    assert alive.status_code == 200 and alive.json() == {"status": "ok"}


async def _until_not_ready(http: httpx.AsyncClient, seconds: float = 30) -> httpx.Response:
    """The first `/readyz` answer that is not 200 (the cached check is renewed within a second)."""
    async with asyncio.timeout(seconds):
        while True:
            answer = await http.get("/readyz")
            if answer.status_code != 200:
                return answer
            await asyncio.sleep(0.2)
