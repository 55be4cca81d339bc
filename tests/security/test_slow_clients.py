"""A client that sends its request slowly is cut off instead of holding a connection open.

Headers must be complete within `REQUEST_HEADER_TIMEOUT_SECONDS` of the connection opening (or of
the first byte of the next request on a kept-alive connection): the server's HTTP protocol
(`schema.uvicorn_http`) answers 408 and closes. The body must be complete within
`REQUEST_BODY_TIMEOUT_SECONDS` of the application starting to read it, however it trickles in: the
application answers 408 with the typed `REQUEST_TIMEOUT` document and closes.

Real sockets against a real uvicorn server; the timeouts are shortened here and the deadlines
the tests wait for are generous, so machine speed does not matter.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from schema.transport.asgi import create_app
from schema.transport.uvicorn_http import http_protocol
from tests.conftest import make_settings
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices

SHORT_TIMEOUT = 1.0
#: How long a test waits for the server to give up on a slow client: many times the timeout.
CUT_OFF_SECONDS = 30
SLOW_CLIENTS = 8


@pytest.fixture(scope="module")
async def impatient_api(services: RunningServices) -> AsyncIterator[str]:
    settings = make_settings(services, request_body_timeout_seconds=SHORT_TIMEOUT)
    app = create_app(settings)
    async with serve_asgi(app, http=http_protocol(SHORT_TIMEOUT), ws_per_message_deflate=False) as url:
        yield url


async def connect(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    parts = urlsplit(url)
    return await asyncio.open_connection(parts.hostname, parts.port)


async def until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (failing after CUT_OFF_SECONDS)."""
    async with asyncio.timeout(CUT_OFF_SECONDS):
        return await reader.read()


def status_and_body(response: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = response.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


async def slow_headers(url: str) -> bytes:
    reader, writer = await connect(url)
    try:
        writer.write(b"POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        await writer.drain()
        return await until_closed(reader)
    finally:
        writer.close()


async def test_clients_that_never_finish_their_headers_are_cut_off(impatient_api: str) -> None:
    answers = await asyncio.gather(*(slow_headers(impatient_api) for _ in range(SLOW_CLIENTS)))

    for answer in answers:
        status, body = status_and_body(answer)
        assert status == 408 and body["errors"][0]["extensions"]["code"] == "REQUEST_TIMEOUT"


async def test_a_connection_that_never_begins_a_request_is_closed_without_an_answer(
    impatient_api: str,
) -> None:
    reader, writer = await connect(impatient_api)
    try:
        answer = await until_closed(reader)
    finally:
        writer.close()

    assert answer == b""


async def test_a_kept_alive_connection_that_starts_a_request_and_stalls_is_cut_off(
    impatient_api: str,
) -> None:
    reader, writer = await connect(impatient_api)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        first = await reader.readuntil(b'{"status":"ok"}')
        writer.write(b"GET /healthz HTTP/1.1\r\n")
        await writer.drain()
        rest = await until_closed(reader)
    finally:
        writer.close()

    assert first.startswith(b"HTTP/1.1 200")
    assert rest.startswith(b"HTTP/1.1 408")


async def trickled_body(url: str, api_key: str) -> bytes:
    """A JSON request declaring 1000 bytes of body and sending one byte every fifth of a second."""
    reader, writer = await connect(url)
    head = (
        "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {api_key}\r\nContent-Length: 1000\r\n\r\n"
    )
    try:
        writer.write(head.encode())
        await writer.drain()
        sending = asyncio.create_task(_trickle(writer))
        try:
            return await until_closed(reader)
        finally:
            sending.cancel()
            await asyncio.gather(sending, return_exceptions=True)
    finally:
        writer.close()


async def _trickle(writer: asyncio.StreamWriter) -> None:
    for byte in b'{"query": "' + b" " * 990:
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(0.2)


async def test_clients_that_trickle_their_body_are_cut_off(impatient_api: str, api_key: str) -> None:
    answers = await asyncio.gather(*(trickled_body(impatient_api, api_key) for _ in range(SLOW_CLIENTS)))

    for answer in answers:
        status, body = status_and_body(answer)
        assert status == 408 and body["errors"][0]["extensions"]["code"] == "REQUEST_TIMEOUT"


async def test_a_prompt_client_is_served(impatient_api: str, api_key: str) -> None:
    reader, writer = await connect(impatient_api)
    body = b'{"query": "{ __typename }"}'
    head = (
        "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
        f"Authorization: Bearer {api_key}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        answer = await until_closed(reader)
    finally:
        writer.close()

    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"data":{"__typename":"Query"}}')
