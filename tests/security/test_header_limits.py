"""A request's head (request line and headers) is bounded: past MAX_REQUEST_HEADER_BYTES the server
answers 431 with the typed REQUEST_TOO_LARGE document and closes, having kept no more than that,
so megabytes of `Authorization` header or URL cost the API nothing. Ordinary requests, pipelined
ones and WebSocket handshakes pass.

Real sockets against a real uvicorn server running the API's own HTTP protocol.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import httpx
import pytest
import websockets

from schema.transport.asgi import create_app
from schema.transport.uvicorn_http import http_protocol
from tests.conftest import make_settings
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices

LIMIT = 8 * 1024
QUERY = json.dumps({"query": "{ __typename }"}).encode()


@pytest.fixture(scope="module")
async def api(services: RunningServices) -> AsyncIterator[str]:
    app = create_app(make_settings(services))
    async with serve_asgi(
        app, http=http_protocol(max_header_bytes=LIMIT), ws_per_message_deflate=False
    ) as url:
        yield url


async def _exchange(url: str, head: bytes, body: bytes = b"") -> bytes:
    """Send `head` and `body` on a fresh connection; everything the server answers until it closes
    (or 30 s pass)."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        writer.write(head + body)
        await writer.drain()
        return await asyncio.wait_for(_until_closed(reader), 30)
    finally:
        writer.close()


async def _until_closed(reader: asyncio.StreamReader) -> bytes:
    received = b""
    try:
        while chunk := await reader.read(1 << 16):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def _post(authorization: str, *, close: bool = True) -> bytes:
    return (
        f"POST /graphql HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n"
        f"authorization: Bearer {authorization}\r\ncontent-length: {len(QUERY)}\r\n"
        f"{'connection: close' if close else 'x-keep: 1'}\r\n\r\n"
    ).encode()


async def test_a_huge_header_is_answered_431_and_closed(api: str) -> None:
    answer = await _exchange(api, _post("x" * (LIMIT * 4)), QUERY)

    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 ")
    error = json.loads(body)["errors"][0]
    assert error["extensions"]["code"] == "REQUEST_TOO_LARGE"
    assert str(LIMIT) in error["message"]


async def test_a_huge_url_is_answered_431(api: str) -> None:
    head = f"GET /graphql?query={'a' * (LIMIT * 2)} HTTP/1.1\r\nhost: test\r\n\r\n".encode()

    answer = await _exchange(api, head)

    assert answer.startswith(b"HTTP/1.1 431 ")


async def test_a_head_sent_in_pieces_is_counted_whole(api: str) -> None:
    parts = urlsplit(api)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        writer.write(b"POST /graphql HTTP/1.1\r\nhost: test\r\n")
        # Just enough pieces to pass the limit, so nothing is sent after the server closes.
        for _ in range(LIMIT // 1013 + 1):
            writer.write(b"x-padding: " + b"p" * 1000 + b"\r\n")
            await writer.drain()
        answer = await asyncio.wait_for(_until_closed(reader), 30)
    finally:
        writer.close()

    assert answer.startswith(b"HTTP/1.1 431 ")


async def test_ordinary_and_pipelined_requests_with_large_bodies_pass(api: str) -> None:
    big_query = json.dumps({"query": "{ __typename }", "variables": {"pad": "v" * (LIMIT * 2)}}).encode()
    head = (
        f"POST /graphql HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n"
        f"content-length: {len(big_query)}\r\n\r\n"
    ).encode()

    answer = await _exchange(api, head + big_query + head + big_query + _post("k", close=True), QUERY)

    assert answer.count(b"HTTP/1.1 ") == 3
    assert b" 431 " not in answer


async def test_a_websocket_handshake_passes(api: str) -> None:
    ws_url = api.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(ws_url, subprotocols=["graphql-transport-ws"]) as socket:  # type: ignore[list-item]
        assert socket.subprotocol == "graphql-transport-ws"


async def test_the_limit_leaves_room_for_real_clients(api: str) -> None:
    headers = {f"x-header-{n}": "v" * 100 for n in range(40)}  # 4 KB of headers

    async with httpx.AsyncClient(base_url=api, timeout=60) as http:
        response = await http.post("/graphql", json={"query": "{ __typename }"}, headers=headers)

    assert response.status_code != 431
