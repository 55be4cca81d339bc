"""Decompression bombs against the outbound fetcher.

A hostile page (a `sourceUrl`, a search result, an imagery API gone bad) can send a few kilobytes
that inflate to gigabytes. Defended: the fetcher's size cap counts decoded bytes while inflating,
so memory stays near the cap whatever the body inflates to; it asks only for gzip and deflate and
refuses any other coding (zstd, br, stacked codings) instead of decoding it; and a caller cannot
widen what it asks for. The server is a real loopback HTTP server sending the bombs as bytes.
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from app.net.fetch import FetchPolicy, FetchRefused, fetch
from tests.support.http_server import serve_asgi

#: The cap of every fetch here, and what the bombs inflate to (64 times the cap).
CAP = 1024 * 1024
INFLATED = 64 * CAP
#: Most traced memory one bomb may cost: the cap, a decoded piece, and room for the HTTP machinery.
#: Decoding a whole network chunk at once costs tens of megabytes.
PEAK_ALLOWANCE = 4 * CAP
LOCAL = FetchPolicy(allow_private=True, timeout_seconds=30.0, max_bytes=CAP)
PLAIN = b"Emissions fell by 12% in 2023 against the 2019 baseline.\n" * 40


def _compressed(wbits: int, size: int) -> bytes:
    """`size` zero bytes compressed a megabyte at a time (zlib framing chosen by `wbits`)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = bytes(1024 * 1024)
    parts = [compressor.compress(block) for _ in range(size // len(block))]
    return b"".join([*parts, compressor.flush()])


def _zstd_frame() -> bytes:
    """A zstd body (real when `zstandard` is installed; otherwise its magic number and filler)."""
    try:
        import zstandard
    except ImportError:
        return b"\x28\xb5\x2f\xfd" + bytes(2048)
    return bytes(zstandard.ZstdCompressor(level=19).compress(bytes(INFLATED)))


GZIP_BOMB = _compressed(zlib.MAX_WBITS | 16, INFLATED)
DEFLATE_BOMB = _compressed(zlib.MAX_WBITS, INFLATED)
RAW_DEFLATE_BOMB = _compressed(-zlib.MAX_WBITS, INFLATED)
ZSTD_BODY = _zstd_frame()


def _compressed_bytes(data: bytes, wbits: int) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return compressor.compress(data) + compressor.flush()


def _coded(body: bytes, encoding: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return Response(body, media_type="text/plain", headers={"Content-Encoding": encoding})

    return endpoint


async def _accept_encoding(request: Request) -> Response:
    return PlainTextResponse(request.headers.get("accept-encoding", ""))


ROUTES = [
    Route("/gzip-bomb", _coded(GZIP_BOMB, "gzip")),
    Route("/deflate-bomb", _coded(DEFLATE_BOMB, "deflate")),
    Route("/raw-deflate-bomb", _coded(RAW_DEFLATE_BOMB, "deflate")),
    Route("/zstd", _coded(ZSTD_BODY, "zstd")),
    Route("/br", _coded(b"\x0b\x02\x80hello\x03", "br")),
    Route("/gzip-twice", _coded(gzip.compress(gzip.compress(PLAIN)), "gzip, gzip")),
    Route("/gzip", _coded(gzip.compress(PLAIN), "gzip")),
    Route("/deflate", _coded(zlib.compress(PLAIN), "deflate")),
    Route("/raw-deflate", _coded(_compressed_bytes(PLAIN, -zlib.MAX_WBITS), "deflate")),
    Route("/accept-encoding", _accept_encoding),
]


@pytest.fixture(scope="module")
async def base() -> AsyncIterator[str]:
    async with serve_asgi(Starlette(routes=ROUTES)) as url:
        yield url


async def _peak_while(fetching: Awaitable[Any]) -> tuple[int, BaseException | None]:
    """The most memory Python held while `fetching` ran (above what it held before), and its error."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        error: BaseException | None = None
        try:
            await fetching
        except Exception as exc:  # the caller asserts on it
            error = exc
        return tracemalloc.get_traced_memory()[1] - before, error
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("path", ["/gzip-bomb", "/deflate-bomb", "/raw-deflate-bomb"])
async def test_a_bomb_is_refused_as_too_large_before_it_inflates(base: str, path: str) -> None:
    peak, error = await _peak_while(fetch(f"{base}{path}", LOCAL))

    assert isinstance(error, FetchRefused) and error.code == "too_large"
    assert peak < PEAK_ALLOWANCE, f"{peak:,} bytes held while refusing a {INFLATED:,}-byte bomb"


@pytest.mark.parametrize("path", ["/zstd", "/br", "/gzip-twice"])
async def test_a_coding_that_was_not_asked_for_is_refused_undecoded(base: str, path: str) -> None:
    peak, error = await _peak_while(fetch(f"{base}{path}", LOCAL))

    assert isinstance(error, FetchRefused) and error.code == "encoding", error
    assert "Content-Encoding" in error.message
    assert peak < PEAK_ALLOWANCE


@pytest.mark.parametrize("path", ["/gzip", "/deflate", "/raw-deflate"])
async def test_an_honest_compressed_body_is_decoded(base: str, path: str) -> None:
    fetched = await fetch(f"{base}{path}", LOCAL)

    assert fetched.body == PLAIN


async def test_only_gzip_and_deflate_are_asked_for_whatever_the_caller_sends(base: str) -> None:
    plain = await fetch(f"{base}/accept-encoding", LOCAL)
    widened = await fetch(f"{base}/accept-encoding", LOCAL, headers={"Accept-Encoding": "zstd, br"})

    assert plain.text() == widened.text() == "gzip, deflate"
