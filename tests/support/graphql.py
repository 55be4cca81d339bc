"""A small GraphQL test client: queries, multipart uploads and graphql-transport-ws subscriptions."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import websockets

UPLOAD_MUTATION = """
mutation Upload($file: Upload!, $companyName: String, $isin: String, $lei: String) {
  uploadReport(file: $file, companyName: $companyName, isin: $isin, lei: $lei) {
    __typename
    ... on UploadReportSuccess { created report { id status pageCount filename companyName } }
    ... on UploadReportError { code message field }
  }
}
"""


class GraphQLClient:
    """Acts for the organisation of `api_key` (sent on every request and WebSocket connection)."""

    def __init__(self, base_url: str, api_key: str | None = None) -> None:
        self.base_url = base_url
        self.api_key = api_key
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = httpx.AsyncClient(base_url=base_url, timeout=60, headers=headers)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def execute(self, query: str, **variables: Any) -> dict[str, Any]:
        """The response body (`data` and maybe `errors`)."""
        response = await self.http.post("/graphql", json={"query": query, "variables": variables})
        response.raise_for_status()
        return dict(response.json())

    async def data(self, query: str, **variables: Any) -> dict[str, Any]:
        """`data`, failing the test on any GraphQL error."""
        body = await self.execute(query, **variables)
        assert "errors" not in body, body["errors"]
        return dict(body["data"])

    async def upload(
        self,
        content: bytes,
        filename: str = "report.pdf",
        company_name: str | None = None,
        preflight: bool = True,
        isin: str | None = None,
        lei: str | None = None,
    ) -> httpx.Response:
        variables = {"file": None, "companyName": company_name, "isin": isin, "lei": lei}
        operations = {"query": UPLOAD_MUTATION, "variables": variables}
        headers = {"Apollo-Require-Preflight": "true"} if preflight else {}
        return await self.http.post(
            "/graphql",
            data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.file"]})},
            files={"0": (filename, content, "application/pdf")},
            headers=headers,
        )

    async def upload_result(self, content: bytes, **kwargs: Any) -> dict[str, Any]:
        response = await self.upload(content, **kwargs)
        response.raise_for_status()
        body = response.json()
        assert "errors" not in body, body["errors"]
        return dict(body["data"]["uploadReport"])

    @asynccontextmanager
    async def connect(
        self, payload: dict[str, Any] | None = None
    ) -> AsyncIterator[websockets.ClientConnection]:
        """A graphql-transport-ws connection after `connection_init` (by default with this client's key)."""
        url = self.base_url.replace("http://", "ws://") + "/graphql"
        if payload is None:
            payload = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with websockets.connect(
            url, subprotocols=[websockets.Subprotocol("graphql-transport-ws")]
        ) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
            yield ws

    @asynccontextmanager
    async def subscribe(self, query: str, **variables: Any) -> AsyncIterator[Subscription]:
        async with self.connect() as ws:
            ack = json.loads(await ws.recv())
            assert ack["type"] == "connection_ack", ack
            await ws.send(
                json.dumps(
                    {"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}
                )
            )
            yield Subscription(ws)


async def next_result(ws: websockets.ClientConnection, timeout: float = 20.0) -> dict[str, Any]:
    """The next `next` message (answering pings on the way); fails on `error`, on `complete` and on
    a payload with errors."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] == "ping":
            await ws.send(json.dumps({"type": "pong"}))
            continue
        assert message["type"] == "next", message
        assert "errors" not in message["payload"], message["payload"]["errors"]
        return dict(message)


class Subscription:
    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws

    async def next(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next `next` payload's data; fails on `error` or `complete`."""
        return dict((await next_result(self.ws, timeout))["payload"]["data"])

    async def first_message(self, timeout: float = 20.0) -> dict[str, Any]:
        return dict(json.loads(await asyncio.wait_for(self.ws.recv(), timeout)))
