"""One API key cannot hold an unbounded number of WebSockets.

Defended: a tenant opening connection after connection (each holds a task, buffers and, once it
subscribes, a share of the event hub) with one key. At most MAX_WEBSOCKETS_PER_KEY connections of a
key are open per API process (2 here); the next `connection_init` is closed with 4429 and a
`RATE_LIMITED` reason saying when to retry, before the key is looked up (graphql-ws first gets a
`connection_error` with the same code). A closed connection gives its place back, and other keys are
not affected. Waits poll with a generous deadline; nothing depends on speed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import websockets

from app.db.session import SessionFactory
from clients.sibyl import RateLimitedError, SibylClient
from schema.errors import CloseCode
from tests.conftest import make_settings, new_api_key, serve_api
from tests.support.services import RunningServices

LIMIT = 2
DEADLINE_SECONDS = 30.0
TOO_MANY = (
    "RATE_LIMITED: This API key already holds 2 open WebSockets (MAX_WEBSOCKETS_PER_KEY); close one, "
    "or retry in 10 s."
)


@pytest.fixture(scope="module")
async def api_url(services: RunningServices) -> AsyncIterator[str]:
    """An API letting each key hold two WebSockets."""
    async with serve_api(make_settings(services, max_websockets_per_key=LIMIT)) as url:
        yield url


async def receive(ws: websockets.ClientConnection) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), DEADLINE_SECONDS)))


async def open_socket(
    api_url: str, key: str, protocol: str = "graphql-transport-ws"
) -> websockets.ClientConnection:
    """A connection that has sent its `connection_init` with `key`."""
    url = api_url.replace("http://", "ws://") + "/graphql"
    ws = await websockets.connect(url, subprotocols=[websockets.Subprotocol(protocol)])
    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
    return ws


async def admitted(api_url: str, key: str) -> websockets.ClientConnection:
    ws = await open_socket(api_url, key)
    assert (await receive(ws))["type"] == "connection_ack"
    return ws


async def refusal(ws: websockets.ClientConnection) -> tuple[int | None, str | None, list[dict[str, Any]]]:
    """What the server sent before closing, and its close code and reason."""
    before: list[dict[str, Any]] = []
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            before.append(await receive(ws))
    return ws.close_code, ws.close_reason, before


async def test_the_connection_beyond_the_cap_is_closed_with_4429(api_url: str, api_key: str) -> None:
    # given a key holding as many connections as it may
    held = [await admitted(api_url, api_key) for _ in range(LIMIT)]

    # when it opens one more
    code, reason, before = await refusal(await open_socket(api_url, api_key))

    # then that one is refused, and the others go on
    assert (code, reason, before) == (CloseCode.TRY_AGAIN_LATER, TOO_MANY, [])
    for ws in held:
        await ws.send(json.dumps({"type": "ping"}))
        assert (await receive(ws))["type"] == "pong"
        await ws.close()


async def test_the_older_graphql_ws_protocol_gets_a_typed_connection_error(
    api_url: str, api_key: str
) -> None:
    held = [await admitted(api_url, api_key) for _ in range(LIMIT)]

    code, reason, before = await refusal(await open_socket(api_url, api_key, "graphql-ws"))

    assert before == [
        {
            "type": "connection_error",
            "payload": {
                "message": TOO_MANY.removeprefix("RATE_LIMITED: "),
                "extensions": {"code": "RATE_LIMITED", "retryAfterSeconds": 10, "limit": 2, "burst": 2},
            },
        }
    ]
    assert (code, reason) == (CloseCode.TRY_AGAIN_LATER, TOO_MANY)
    for ws in held:
        await ws.close()


async def test_a_closed_connection_gives_its_place_back(api_url: str, api_key: str) -> None:
    # given a key at its cap, which then closes one connection
    first, second = [await admitted(api_url, api_key) for _ in range(LIMIT)]
    await first.close()

    # when it connects again (the server may take a moment to notice the close)
    replacement = await _admitted_eventually(api_url, api_key)

    # then the new connection is admitted
    await replacement.close()
    await second.close()


async def test_other_keys_are_not_affected(
    api_url: str, api_key: str, session_factory: SessionFactory
) -> None:
    held = [await admitted(api_url, api_key) for _ in range(LIMIT)]
    other_key = await new_api_key(session_factory, "another organisation")

    other = await admitted(api_url, other_key)

    for ws in [*held, other]:
        await ws.close()


async def test_the_python_client_reads_the_refusal_as_a_rate_limit(api_url: str, api_key: str) -> None:
    held = [await admitted(api_url, api_key) for _ in range(LIMIT)]

    async with SibylClient(api_url, api_key, max_retries=0) as client:
        with pytest.raises(RateLimitedError) as refused:
            async for _ in client.verdicts():
                break

    assert refused.value.retry_after == 10
    for ws in held:
        await ws.close()


async def _admitted_eventually(api_url: str, key: str) -> websockets.ClientConnection:
    """A connection admitted for `key`, retrying refusals for the cap until the deadline."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        ws = await open_socket(api_url, key)
        try:
            message = await receive(ws)
        except websockets.ConnectionClosed:
            assert ws.close_code == CloseCode.TRY_AGAIN_LATER
            assert asyncio.get_running_loop().time() < deadline, (
                "the closed connection's place never came back"
            )
            await asyncio.sleep(0.05)
            continue
        assert message["type"] == "connection_ack"
        return ws
