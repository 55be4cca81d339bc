"""Several subscriptions on one graphql-transport-ws connection, read in the order they arrive.

`GraphQLClient.subscribe` opens a connection per subscription; a partner's client (`gql`,
`graphql-ws`) multiplexes them on one, and what one connection receives, in which order, is what
these tests check.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets

from tests.support.graphql import GraphQLClient, next_result


class Multiplexed:
    """One acknowledged connection; `subscribe` starts an operation, `next` reads whichever is next."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self._operations = 0

    async def subscribe(self, query: str, **variables: Any) -> str:
        """Start a subscription; returns its operation id."""
        self._operations += 1
        operation_id = str(self._operations)
        payload = {"query": query, "variables": variables}
        await self.ws.send(json.dumps({"id": operation_id, "type": "subscribe", "payload": payload}))
        return operation_id

    async def next(self, timeout: float = 20.0) -> tuple[str, dict[str, Any]]:
        """(operation id, data) of the next `next` message of any operation; fails on an error or
        an early `complete`."""
        message = await next_result(self.ws, timeout)
        return str(message["id"]), dict(message["payload"]["data"])


@asynccontextmanager
async def one_connection(client: GraphQLClient) -> AsyncIterator[Multiplexed]:
    """A connection signed in with the client's key, acknowledged, with no operation yet."""
    async with client.connect() as ws:
        ack = json.loads(await ws.recv())
        assert ack["type"] == "connection_ack", ack
        yield Multiplexed(ws)
