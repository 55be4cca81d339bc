"""A revoked or deleted API key stops streaming: its open WebSockets are closed.

Defended: a tenant whose key is revoked (`sibyl keys revoke`) or deleted keeps no access through a
subscription it opened before. Each admitted connection re-checks its key whenever the cached answer
expires (API_KEY_CACHE_SECONDS, shortened here to half a second) and closes with 4403
`UNAUTHENTICATED` once the key fails, on graphql-transport-ws and on the older graphql-ws. A key that
stays valid keeps its connection. Waits poll with a generous deadline; nothing depends on speed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import websockets
from sqlalchemy import delete

from app.db.models import ApiKey
from app.db.session import SessionFactory
from app.organisations.keys import revoke_api_key
from schema.errors import CloseCode
from schema.transport.auth import Authenticator, InvalidKey
from tests.conftest import make_settings, new_api_key, serve_api
from tests.support.services import RunningServices

CACHE_SECONDS = 0.5
#: Far beyond the cache lifetime: a connection still open by then was never going to be closed.
DEADLINE_SECONDS = 30.0
VERDICTS = "subscription { verdictIssued { id verdict } }"
WITHDRAWN = "UNAUTHENTICATED: The API key is no longer valid (revoked or deleted); the connection is closed."


@pytest.fixture(scope="module")
async def api_url(services: RunningServices) -> AsyncIterator[str]:
    """An API that trusts a checked key for half a second."""
    async with serve_api(make_settings(services, api_key_cache_seconds=CACHE_SECONDS)) as url:
        yield url


def ws_url(api_url: str) -> str:
    return api_url.replace("http://", "ws://") + "/graphql"


def prefix_of(key: str) -> str:
    return key.split("_")[1]


async def revoke(session_factory: SessionFactory, key: str) -> None:
    async with session_factory() as session, session.begin():
        assert await revoke_api_key(session, prefix_of(key))


async def delete_key(session_factory: SessionFactory, key: str) -> None:
    async with session_factory() as session, session.begin():
        await session.execute(delete(ApiKey).where(ApiKey.prefix == prefix_of(key)))


async def receive(ws: websockets.ClientConnection, timeout: float = DEADLINE_SECONDS) -> dict[str, Any]:
    return dict(json.loads(await asyncio.wait_for(ws.recv(), timeout)))


async def closed(ws: websockets.ClientConnection) -> tuple[int | None, str | None, list[dict[str, Any]]]:
    """The close code and reason the server ends the connection with, and what it sent before."""
    before: list[dict[str, Any]] = []
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            before.append(await receive(ws))
    return ws.close_code, ws.close_reason, before


async def subscribed(api_url: str, key: str) -> websockets.ClientConnection:
    """A graphql-transport-ws connection running the organisation's verdict stream."""
    ws = await websockets.connect(
        ws_url(api_url), subprotocols=[websockets.Subprotocol("graphql-transport-ws")]
    )
    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}}))
    assert (await receive(ws))["type"] == "connection_ack"
    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": VERDICTS}}))
    await ws.send(json.dumps({"type": "ping"}))
    assert (await receive(ws))["type"] == "pong"  # the subscribe before it was handled
    return ws


async def test_a_revoked_keys_subscription_is_closed_with_4403(
    api_url: str, api_key: str, session_factory: SessionFactory
) -> None:
    # given a subscription running under a key
    ws = await subscribed(api_url, api_key)

    # when the key is revoked
    await revoke(session_factory, api_key)

    # then the connection is closed for it
    code, reason, _ = await closed(ws)
    assert (code, reason) == (CloseCode.FORBIDDEN, WITHDRAWN)


async def test_a_deleted_keys_subscription_is_closed_with_4403(
    api_url: str, api_key: str, session_factory: SessionFactory
) -> None:
    ws = await subscribed(api_url, api_key)

    await delete_key(session_factory, api_key)

    code, reason, _ = await closed(ws)
    assert (code, reason) == (CloseCode.FORBIDDEN, WITHDRAWN)


async def test_the_older_graphql_ws_protocol_gets_a_connection_error_then_4403(
    api_url: str, api_key: str, session_factory: SessionFactory
) -> None:
    # given a graphql-ws connection running the verdict stream
    ws = await websockets.connect(ws_url(api_url), subprotocols=[websockets.Subprotocol("graphql-ws")])
    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {api_key}"}}))
    assert (await receive(ws))["type"] == "connection_ack"
    await ws.send(json.dumps({"id": "1", "type": "start", "payload": {"query": VERDICTS}}))

    # when its key is revoked
    await revoke(session_factory, api_key)

    # then it is told why, then closed
    code, reason, before = await closed(ws)
    assert before[-1] == {
        "type": "connection_error",
        "payload": {
            "message": "The API key is no longer valid (revoked or deleted); the connection is closed.",
            "extensions": {"code": "UNAUTHENTICATED"},
        },
    }
    assert (code, reason) == (CloseCode.FORBIDDEN, WITHDRAWN)


async def test_a_valid_key_keeps_its_connection_across_re_checks(
    api_url: str, api_key: str, session_factory: SessionFactory
) -> None:
    # given two subscriptions under two keys, one of which is then revoked
    kept = await subscribed(api_url, api_key)
    other_key = await new_api_key(session_factory, "another organisation")
    withdrawn = await subscribed(api_url, other_key)
    await revoke(session_factory, other_key)

    # when the revoked one has been closed (several cache lifetimes have passed)
    await closed(withdrawn)

    # then the valid key's connection still answers
    await kept.send(json.dumps({"type": "ping"}))
    assert (await receive(kept))["type"] == "pong"
    await kept.close()


class Clock:
    """Monotonic seconds that pass only when `advance` says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def test_a_connection_re_checks_when_the_answer_it_holds_expires(
    api_key: str, session_factory: SessionFactory
) -> None:
    # given a key checked at 100 s by an authenticator trusting answers for 30 s
    clock = Clock()
    authenticator = Authenticator(session_factory, allow_unauthenticated=False, cache_seconds=30, clock=clock)
    await authenticator.principal(api_key)
    clock.advance(10)

    # when the key is revoked 10 s later
    await revoke(session_factory, api_key)

    # then connections wait for the rest of the answer's lifetime, and the re-check then fails: a
    # revoked key's connections close within the cache's lifetime of the revocation
    assert authenticator.seconds_until_recheck(api_key) == 20
    await authenticator.principal(api_key)  # still the cached answer
    clock.advance(20)
    with pytest.raises(InvalidKey):
        await authenticator.principal(api_key)
