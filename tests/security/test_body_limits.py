"""Request bodies are capped on the stream: a client cannot make the API read more than the limit.

Multipart uploads may be as large as the upload limit (`MAX_UPLOAD_BYTES` and
`EVIDENCE_MAX_DOCUMENT_BYTES`, times two plus slack); every other body (JSON GraphQL requests) at most
`MAX_REQUEST_BODY_BYTES`. A declared `Content-Length` beyond the limit is refused before any body
is read; a chunked body is counted as it arrives and refused as soon as it passes the limit, with
413 and the typed `REQUEST_TOO_LARGE` document, the rest never read.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.config import Settings
from tests.conftest import make_settings, serve_api
from tests.support.services import RunningServices

BODY_LIMIT = 64 * 1024
UPLOAD_LIMIT_BYTES = 256 * 1024  # the upload setting; multipart bodies may reach 2x + 1 MiB
MULTIPART_CEILING = 2 * UPLOAD_LIMIT_BYTES + 1024 * 1024
CHUNK = 16 * 1024
#: How long a refused request may take to be answered; generous, the point is "before the end".
ANSWER_SECONDS = 30


@pytest.fixture(scope="module")
async def small_limits_api(services: RunningServices) -> AsyncIterator[str]:
    settings = make_settings(
        services,
        max_request_body_bytes=BODY_LIMIT,
        max_upload_bytes=UPLOAD_LIMIT_BYTES,
        evidence_max_document_bytes=UPLOAD_LIMIT_BYTES,
    )
    async with serve_api(settings) as url:
        yield url


async def open_request(url: str, head: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw connection to the server with `head` (request line and headers) sent."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    writer.write(head.encode())
    await writer.drain()
    return reader, writer


def request_head(path: str, headers: dict[str, str]) -> str:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    return "\r\n".join(lines) + "\r\n\r\n"


async def send_chunks(writer: asyncio.StreamWriter, payload: bytes, total: int) -> int:
    """Send `payload` repeatedly as HTTP chunks until `total` bytes went out or the server hung up;
    the body is never terminated. Returns the bytes sent."""
    sent = 0
    try:
        while sent < total:
            writer.write(b"%x\r\n%s\r\n" % (len(payload), payload))
            await writer.drain()
            sent += len(payload)
    except (ConnectionError, OSError):
        pass
    return sent


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, Any]]:
    """Status and JSON body of the response, waiting at most ANSWER_SECONDS."""
    async with asyncio.timeout(ANSWER_SECONDS):
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        body = await reader.readexactly(int(headers["content-length"]))
    return status, json.loads(body)


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body["errors"]]


async def refused_chunked(
    url: str, key: str, content_type: str, payload: bytes, total: int
) -> tuple[int, list[str]]:
    headers = {
        "Content-Type": content_type,
        "Transfer-Encoding": "chunked",
        "Apollo-Require-Preflight": "true",
        "Authorization": f"Bearer {key}",
    }
    reader, writer = await open_request(url, request_head("/graphql", headers))
    try:
        await send_chunks(writer, payload, total)
        status, body = await read_response(reader)
    finally:
        writer.close()
    return status, codes(body)


async def test_a_chunked_json_body_past_the_limit_is_refused_before_its_end(
    small_limits_api: str, api_key: str
) -> None:
    filler = b'{"query": "{ __typename }", "variables": {"pad": "' + b"x" * CHUNK

    answer = await refused_chunked(small_limits_api, api_key, "application/json", filler, 4 * BODY_LIMIT)

    assert answer == (413, ["REQUEST_TOO_LARGE"])


async def test_a_chunked_multipart_body_past_the_upload_limit_is_refused_before_its_end(
    small_limits_api: str, api_key: str
) -> None:
    part = b'--x\r\nContent-Disposition: form-data; name="0"; filename="a.pdf"\r\n\r\n' + b"%" * CHUNK

    answer = await refused_chunked(
        small_limits_api, api_key, "multipart/form-data; boundary=x", part, MULTIPART_CEILING + 16 * CHUNK
    )

    assert answer == (413, ["REQUEST_TOO_LARGE"])


async def test_a_declared_length_past_the_limit_is_refused_unread(
    small_limits_api: str, api_key: str
) -> None:
    headers = {
        "Content-Type": "application/json",
        "Content-Length": str(60 * 1024 * 1024),
        "Authorization": f"Bearer {api_key}",
    }
    reader, writer = await open_request(small_limits_api, request_head("/graphql", headers))
    try:
        status, body = await read_response(reader)
    finally:
        writer.close()

    assert (status, codes(body)) == (413, ["REQUEST_TOO_LARGE"])
    assert str(BODY_LIMIT) in body["errors"][0]["message"]


async def test_a_body_under_the_limit_is_served(small_limits_api: str, api_key: str) -> None:
    request = {"query": "{ __typename }", "variables": {"pad": "x" * (BODY_LIMIT - 1024)}}
    async with httpx.AsyncClient(base_url=small_limits_api, timeout=30) as http:
        response = await http.post("/graphql", json=request, headers={"Authorization": f"Bearer {api_key}"})

    assert response.status_code == 200 and response.json() == {"data": {"__typename": "Query"}}


async def test_the_default_json_limit_admits_a_body_just_under_it(api_url: str, api_key: str) -> None:
    limit = Settings(_env_file=None).max_request_body_bytes  # type: ignore[call-arg]
    request = {"query": "{ __typename }", "variables": {"pad": "y" * (limit - 1024)}}
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        response = await http.post("/graphql", json=request, headers={"Authorization": f"Bearer {api_key}"})

    assert limit >= 1024 * 1024, "persisted queries and the dashboard's documents are far smaller"
    assert response.status_code == 200 and response.json() == {"data": {"__typename": "Query"}}
