"""The client reads the server's WebSocket refusals: a missing or bad key is an authentication error,
the rate limit a `RateLimitedError` with the server's wait, and `events()` waits it out."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import aclosing

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.config import Settings
from clients.sibyl import AuthenticationError, RateLimitedError, SibylClient
from tests.clients.fake_sibyl import event
from tests.conftest import make_settings, serve_api
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices

REPORT_ID = "UmVwb3J0OjExMTExMTExLTExMTEtMTExMS0xMTExLTExMTExMTExMTExMQ=="
RATE_LIMITED_REASON = (
    "RATE_LIMITED: Rate limit of 6 requests per minute (bursts of 1) exceeded; retry in 0 s."
)


@pytest.fixture(scope="module")
async def slow_api(services: RunningServices) -> AsyncIterator[str]:
    """An API allowing 6 requests a minute: a bucket of 1, refilled every 10 s."""
    limited: Settings = make_settings(services, rate_limit_per_minute=6)
    async with serve_api(limited) as url:
        yield url


async def _first_verdict(client: SibylClient) -> None:
    async with aclosing(client.verdicts()) as verdicts:
        async for _ in verdicts:
            return


async def test_a_missing_or_bad_key_is_an_authentication_error_with_the_servers_reason(
    api_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SIBYL_API_KEY", raising=False)

    async with SibylClient(api_url, None) as anonymous:
        with pytest.raises(AuthenticationError, match="An API key is required"):
            await _first_verdict(anonymous)
    async with SibylClient(api_url, "sibyl_00000000_" + "x" * 43) as wrong:
        with pytest.raises(AuthenticationError, match="The API key is not valid"):
            await _first_verdict(wrong)


async def test_a_rate_limited_connection_is_rate_limited_with_the_servers_wait(
    slow_api: str, api_key: str
) -> None:
    # Plain documents: a persisted query's first use takes two requests (miss, then register).
    async with SibylClient(slow_api, api_key, max_retries=0, persisted_queries=False) as client:
        await client.execute("query { reports(first: 1) { totalCount } }")  # spends the bucket
        with pytest.raises(RateLimitedError) as refused:
            await _first_verdict(client)

    assert str(refused.value).startswith("RATE_LIMITED: Rate limit of 6 requests per minute")
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 10


class RefusesOnce:
    """A server that refuses the first connection for the rate limit, then serves one event."""

    def __init__(self, close_code: int) -> None:
        self.connections = 0
        self.close_code = close_code

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept(subprotocol="graphql-transport-ws")
        await ws.receive_text()  # connection_init
        self.connections += 1
        if self.connections == 1:
            await ws.close(code=self.close_code, reason=RATE_LIMITED_REASON)
            return
        await ws.send_text(json.dumps({"type": "connection_ack"}))
        subscribe = json.loads(await ws.receive_text())
        payload = {"data": {"analysisEvents": event(1, "parse_started")}}
        await ws.send_text(json.dumps({"id": subscribe["id"], "type": "next", "payload": payload}))
        try:
            await ws.receive_text()
        except WebSocketDisconnect:
            return


@pytest.mark.parametrize("close_code", [1013, 4429], ids=["try again later", "deprecated 4429"])
async def test_following_events_waits_out_a_rate_limited_reconnect(close_code: int) -> None:
    server = RefusesOnce(close_code)
    app = Starlette(routes=[WebSocketRoute("/graphql", server.websocket)])
    async with serve_asgi(app) as url, SibylClient(url, "sibyl_key") as client:
        async with aclosing(client.events(REPORT_ID)) as events:
            first = await anext(events)

    assert server.connections == 2
    assert first.sequence == 1 and first.event_type == "parse_started"
