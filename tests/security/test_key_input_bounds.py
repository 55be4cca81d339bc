"""Invalid keys cost the API nothing it keeps, and an address that keeps failing is slowed down.

Defended: a caller sending huge or malformed `Authorization` headers (or `connection_init` keys) to
grow the API's memory, or trying key after key. A key longer than any key Sibyl issues is refused
at once, without a cache entry or a database lookup; a malformed one likewise; well-formed unknown
keys are remembered in a bounded cache. Failed authentications are counted per client address
(AUTH_FAILURES_PER_MINUTE): beyond the budget the address gets 429 `RATE_LIMITED` with
`Retry-After` (WebSocket close 4429), and its keys are not looked up, valid ones included, until
the budget refills. Budgets here refill once a minute, far slower than any test runs.
"""

from __future__ import annotations

import asyncio
import gc
import json
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager

import httpx
import pytest
import websockets
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.applications import Starlette

from app.db.session import SessionFactory
from app.organisations.keys import KEY_LENGTH
from app.ratelimit import KEY_PREFIX
from schema.errors import CloseCode
from schema.transport.asgi import create_app
from schema.transport.auth import FAILURES_KEY, UNKNOWN_CACHE_SIZE, Authenticator, InvalidKey
from tests.conftest import make_settings, new_api_key
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices

QUERY = {"query": "{ __typename }"}
UNKNOWN_KEY = "sibyl_00000000_" + "x" * 43
OVERLONG = f"The API key is longer than any key Sibyl issues ({KEY_LENGTH} characters)."
MALFORMED = ["sibyl_bad", "x" * KEY_LENGTH, "sibyl_ZZZZZZZZ_" + "x" * 43, "sibyl_00000000_" + "x" * 42 + "!"]


class CountingSessions:
    """A session factory that counts the sessions opened (each key lookup opens one)."""

    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions
        self.opened = 0

    def __call__(self) -> AbstractAsyncContextManager[AsyncSession]:
        self.opened += 1
        return self.sessions()


def authenticator_for(sessions: CountingSessions) -> Authenticator:
    return Authenticator(sessions, allow_unauthenticated=False)  # type: ignore[arg-type]


async def refused(authenticator: Authenticator, key: str) -> str:
    with pytest.raises(InvalidKey) as refusal:
        await authenticator.principal(key)
    return str(refusal.value)


async def test_an_overlong_key_is_refused_without_a_lookup_or_a_cache_entry(
    session_factory: SessionFactory,
) -> None:
    sessions = CountingSessions(session_factory)
    authenticator = authenticator_for(sessions)

    message = await refused(authenticator, "sibyl_00000000_" + "x" * 2_000_000)

    assert sessions.opened == 0
    assert authenticator.cached == (0, 0)
    assert message == OVERLONG


async def test_a_malformed_key_is_refused_without_a_lookup_or_a_cache_entry(
    session_factory: SessionFactory,
) -> None:
    sessions = CountingSessions(session_factory)
    authenticator = authenticator_for(sessions)

    messages = [await refused(authenticator, key) for key in MALFORMED]

    assert sessions.opened == 0
    assert authenticator.cached == (0, 0)
    assert set(messages) == {"The API key is not valid (unknown, malformed or revoked)."}


async def test_unknown_keys_are_looked_up_once_and_remembered_within_a_bound(
    session_factory: SessionFactory,
) -> None:
    sessions = CountingSessions(session_factory)
    authenticator = authenticator_for(sessions)
    await refused(authenticator, UNKNOWN_KEY)
    await refused(authenticator, UNKNOWN_KEY)
    assert sessions.opened == 1

    for n in range(UNKNOWN_CACHE_SIZE + 50):
        await refused(authenticator, f"sibyl_{n:08x}_" + "y" * 43)

    assert authenticator.cached == (0, UNKNOWN_CACHE_SIZE)


async def test_fifty_huge_keys_leave_no_memory_behind(session_factory: SessionFactory) -> None:
    authenticator = authenticator_for(CountingSessions(session_factory))
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for n in range(50):
            await refused(authenticator, f"sibyl_{n:08x}_" + "z" * 200_000)
        gc.collect()  # a refusal caught in a test is kept in a reference cycle until collected
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert after - before < 1_000_000  # 50 keys of 200 kB: 10 MB if any were kept


@pytest.fixture(scope="module")
async def api(services: RunningServices) -> AsyncIterator[tuple[str, Starlette]]:
    """An API allowing one failed authentication per address and minute; its URL and app."""
    app = create_app(make_settings(services, auth_failures_per_minute=1))
    async with serve_asgi(app, ws_per_message_deflate=False) as url:
        yield url, app


@pytest.fixture(autouse=True)
async def forget_failures(redis: Redis) -> AsyncIterator[None]:
    """Each test starts and ends with every address's failure budget full (the test API and the
    session's share Redis and the loopback address)."""
    await _forget_failures(redis)
    yield
    await _forget_failures(redis)


async def _forget_failures(redis: Redis) -> None:
    keys = [key async for key in redis.scan_iter(f"{KEY_PREFIX}{FAILURES_KEY}*")]
    if keys:
        await redis.delete(*keys)


async def post(url: str, key: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        return await http.post("/graphql", json=QUERY, headers={"Authorization": f"Bearer {key}"})


async def test_an_overlong_header_is_refused_and_leaves_the_cache_as_it_was(
    api: tuple[str, Starlette],
) -> None:
    url, app = api
    authenticator: Authenticator = app.state.services.authenticator
    cached = authenticator.cached

    response = await post(url, "sibyl_00000000_" + "x" * 8_000)

    assert response.status_code == 401
    assert response.json()["errors"][0]["message"] == OVERLONG
    assert authenticator.cached == cached


async def test_failed_authentications_beyond_the_budget_get_429_with_retry_after(
    api: tuple[str, Starlette], session_factory: SessionFactory, clean_db: None
) -> None:
    # given an address that has spent its budget of failures
    url, app = api
    assert (await post(url, UNKNOWN_KEY)).status_code == 401

    # when it fails again, and then presents a valid key the API has not checked yet
    again = await post(url, "sibyl_11111111_" + "x" * 43)
    valid = await post(url, await new_api_key(session_factory))

    # then both are refused for the address's failures, with when to retry
    for response in (again, valid):
        assert response.status_code == 429
        error = response.json()["errors"][0]
        assert error["message"].startswith("Too many failed authentications from this address")
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert error["extensions"]["limit"] == 1
        assert 1 <= int(response.headers["retry-after"]) <= 60
        assert error["extensions"]["retryAfterSeconds"] == int(response.headers["retry-after"])


async def test_a_key_already_checked_is_served_while_the_address_is_over_its_budget(
    api: tuple[str, Starlette], session_factory: SessionFactory, clean_db: None
) -> None:
    url, _ = api
    key = await new_api_key(session_factory)
    assert (await post(url, key)).status_code == 200
    for bad in (UNKNOWN_KEY, UNKNOWN_KEY):
        await post(url, bad)

    assert (await post(url, key)).status_code == 200


async def test_websocket_connections_count_their_failures_too(api: tuple[str, Starlette]) -> None:
    url, _ = api

    first = await _close_of(url, UNKNOWN_KEY)
    second = await _close_of(url, UNKNOWN_KEY)

    assert first[0] == CloseCode.FORBIDDEN
    assert second[0] == CloseCode.TRY_AGAIN_LATER
    assert (second[1] or "").startswith("RATE_LIMITED: Too many failed authentications from this address")


async def _close_of(url: str, key: str) -> tuple[int | None, str | None]:
    ws_url = url.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(
        ws_url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")]
    ) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 30)
    return ws.close_code, ws.close_reason


def test_the_budget_is_a_setting(services: RunningServices) -> None:
    assert make_settings(services).auth_failures_per_minute == 60


async def test_page_image_requests_count_their_failures_too(api: tuple[str, Starlette]) -> None:
    url, _ = api
    path = "/reports/UmVwb3J0OjA=/pages/1.png"
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        first = await http.get(path, headers={"Authorization": f"Bearer {UNKNOWN_KEY}"})
        second = await http.get(path, headers={"Authorization": f"Bearer {UNKNOWN_KEY}"})

    assert first.status_code == 401
    assert second.status_code == 429
    assert second.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
