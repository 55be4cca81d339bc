"""`GET /readyz`: whether this API process can serve requests now, for load balancers and probes.

`/healthz` only says the process answers (liveness; restart it if not). `/readyz` also asks
Postgres (`SELECT 1`) and Redis (`PING`), each within `CHECK_SECONDS`, and, under `sibyl run`,
reads the run record (`app.supervision.run_lock`) for processes the supervisor gave up on (a crash-looping
worker): 200 `{"status": "ready", ...}` when all is well, else 503 naming what fails, so traffic
goes elsewhere while the database is away instead of meeting "Unexpected error." on every query.

The body says which dependency fails and how (a timeout, a refused connection), never an address
or a password: the endpoint needs no key. Details go to the log.

Since anyone may call it, callers share one cached answer (`CachedReadiness`): at most one probe
of each dependency per `MAX_AGE_SECONDS`, and callers arriving while a probe runs wait for that
probe. A flood of calls then takes no connection from the pool that tenants' queries need.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from app.supervision.run_lock import lock_path, owner_alive, read_record
from schema.context import Services

CHECK_SECONDS = 2.0
#: How long one probe's answer serves every caller.
MAX_AGE_SECONDS = 1.0
OK = "ok"

logger = logging.getLogger(__name__)


async def _postgres(services: Services) -> None:
    async with services.engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


async def _redis(services: Services) -> None:
    await services.arq.ping()


async def _check(name: str, probe: Callable[[], Awaitable[None]]) -> str:
    """`ok`, or how the probe failed (logged with its detail)."""
    try:
        async with asyncio.timeout(CHECK_SECONDS):
            await probe()
    except TimeoutError:
        logger.warning("readiness: %s did not answer within %.0f s", name, CHECK_SECONDS)
        return f"no answer within {CHECK_SECONDS:g} s"
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", said as data
        logger.warning("readiness: %s failed: %s: %s", name, type(exc).__name__, exc)
        return f"unavailable ({type(exc).__name__})"
    return OK


def supervised_states(services: Services) -> dict[str, str]:
    """Under a live `sibyl run` of this DATA_DIR: the worker's state (`ok`) and `down: <why>` for
    each process the supervisor gave up on; empty when no supervisor runs here."""
    record = read_record(lock_path(services.settings.data_dir))
    if not record or not owner_alive(record):
        return {}
    states = {"worker": OK} if "worker" in dict(record.get("children") or {}) else {}
    down = record.get("down")
    for name, reason in down.items() if isinstance(down, dict) else ():
        states[str(name)] = f"down: {reason}"
    return states


async def readiness(services: Services) -> tuple[bool, dict[str, Any]]:
    """(ready, body): every dependency's state, and the failing ones by name."""
    postgres, redis = await asyncio.gather(
        _check("postgres", lambda: _postgres(services)), _check("redis", lambda: _redis(services))
    )
    checks: dict[str, str] = {"postgres": postgres, "redis": redis}
    checks.update(supervised_states(services))
    failing = [name for name, state in checks.items() if state != OK]
    body: dict[str, Any] = {"status": "unavailable" if failing else "ready", "checks": checks}
    if failing:
        body["failing"] = failing
    return not failing, body


class CachedReadiness:
    """`readiness`, probed at most once per `max_age` seconds however many callers ask: an answer
    younger than that is served as is, and callers arriving during a probe share it."""

    def __init__(self, max_age: float = MAX_AGE_SECONDS) -> None:
        self.max_age = max_age
        self._answer: tuple[bool, dict[str, Any]] | None = None
        self._answered_at = 0.0
        self._probe: asyncio.Task[tuple[bool, dict[str, Any]]] | None = None

    async def __call__(self, services: Services) -> tuple[bool, dict[str, Any]]:
        loop = asyncio.get_running_loop()
        if self._answer is not None and loop.time() - self._answered_at < self.max_age:
            return self._answer
        if self._probe is None:
            self._probe = asyncio.create_task(self._run(services))
        # A caller that goes away must not cancel the probe the others wait for.
        return await asyncio.shield(self._probe)

    async def _run(self, services: Services) -> tuple[bool, dict[str, Any]]:
        try:
            self._answer = await readiness(services)
            self._answered_at = asyncio.get_running_loop().time()
            return self._answer
        finally:
            self._probe = None


def readyz_route(max_age: float = MAX_AGE_SECONDS) -> Route:
    """`GET /readyz`: 200 when ready, else 503, with the checks as JSON, from this app's cached check."""
    cached = CachedReadiness(max_age)

    async def readyz(request: Request) -> JSONResponse:
        ready, body = await cached(request.app.state.services)
        return JSONResponse(body, status_code=200 if ready else 503, headers={"Cache-Control": "no-store"})

    return Route("/readyz", readyz)
