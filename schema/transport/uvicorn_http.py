"""The HTTP/1.1 protocol the API runs under: uvicorn's httptools protocol plus a header timeout
and a header size limit.

uvicorn closes a kept-alive connection that stays idle (`timeout_keep_alive`), but not one whose
client opened it, or began a request on it, and then sends the headers slowly or never: each such
client holds a connection as long as it likes. This protocol arms a timer when a connection opens
and when a request's first byte arrives, and disarms it once the headers are complete; if it
fires first, the connection closes: with 408 and the typed REQUEST_TIMEOUT document when a request
had begun, silently when none had (a browser's speculative connection that was never used). A
body sent too slowly is `schema.transport.http_edge.BodyLimits`' concern.

Neither uvicorn nor httptools bounds a request's head: a client could send megabytes of URL or
headers (a huge `Authorization` header, say), all held in memory before the application sees
them. So the bytes received while a request's head is incomplete are counted, and past
MAX_REQUEST_HEADER_BYTES the connection is answered 431 with the typed REQUEST_TOO_LARGE
document and closed.

Usage: `uvicorn schema.asgi:app --http schema.uvicorn_http:SibylHttpProtocol` (as `sibyl run`, the
Dockerfile and docker-compose.yml start it); the limits are REQUEST_HEADER_TIMEOUT_SECONDS and
MAX_REQUEST_HEADER_BYTES, or `http_protocol(seconds, max_header_bytes)` for a server built in
code. It leans on uvicorn internals (`data_received` and the parser callbacks `on_message_begin`
and `on_headers_complete`, `loop`, `transport`) and lives here alone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import get_settings
from schema.errors import ErrorCode, error_json

logger = logging.getLogger(__name__)


def _refusal(status: str, code: ErrorCode, message: str) -> bytes:
    """A whole HTTP response carrying the typed error document, closing the connection."""
    body = error_json(message, {"code": code.name})
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def _timeout_response(seconds: float) -> bytes:
    return _refusal(
        "408 Request Timeout", ErrorCode.REQUEST_TIMEOUT, f"The request headers took over {seconds:g} s."
    )


def _too_large_response(limit: int) -> bytes:
    return _refusal(
        "431 Request Header Fields Too Large",
        ErrorCode.REQUEST_TOO_LARGE,
        f"The request line and headers are larger than the limit of {limit} bytes.",
    )


class SibylHttpProtocol(HttpToolsProtocol):
    """uvicorn's default HTTP/1.1 protocol, cutting off clients whose headers do not arrive in time."""

    #: None: REQUEST_HEADER_TIMEOUT_SECONDS and MAX_REQUEST_HEADER_BYTES from the settings.
    header_timeout_seconds: ClassVar[float | None] = None
    max_header_bytes: ClassVar[int | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self._header_seconds = self.header_timeout_seconds or settings.request_header_timeout_seconds
        self._max_head_bytes = self.max_header_bytes or settings.max_request_header_bytes
        self._header_timer: asyncio.TimerHandle | None = None
        self._request_begun = False
        #: Whether a request's head (request line and headers) is being received, and its bytes so far.
        self._in_head = True
        self._head_bytes = 0
        self._head_tail = b""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        if self._in_head and self._head_overflows(data):
            self._head_too_large()
            return
        super().data_received(data)

    def _head_overflows(self, data: bytes) -> bool:
        """Count the part of `data` that belongs to the head (up to the blank line ending it, found
        across chunk boundaries too); True once the head is past its limit. A request that begins
        in the middle of a chunk is counted from the next chunk: one read more at most."""
        seen = self._head_tail + data
        end = seen.find(b"\r\n\r\n")
        self._head_bytes += len(data) if end < 0 else max(0, end + 4 - len(self._head_tail))
        self._head_tail = seen[-3:]
        return self._head_bytes > self._max_head_bytes

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._request_begun = True
        self._in_head, self._head_bytes, self._head_tail = True, 0, b""
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._request_begun = False
        self._in_head, self._head_bytes, self._head_tail = False, 0, b""
        self._disarm_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self._header_seconds, self._headers_timed_out)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_timed_out(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self._request_begun:
            logger.info("refused HTTP request: REQUEST_TIMEOUT headers took over %g s", self._header_seconds)
            self.transport.write(_timeout_response(self._header_seconds))
        self.transport.close()

    def _head_too_large(self) -> None:
        logger.info("refused HTTP request: REQUEST_TOO_LARGE head over %d bytes", self._max_head_bytes)
        self._disarm_header_timer()
        self.transport.write(_too_large_response(self._max_head_bytes))
        self.transport.close()


def http_protocol(
    header_timeout_seconds: float | None = None, max_header_bytes: int | None = None
) -> type[SibylHttpProtocol]:
    """`SibylHttpProtocol` with its own limits (for a server built in code, e.g. in tests); None
    keeps the setting's."""
    limits = {"header_timeout_seconds": header_timeout_seconds, "max_header_bytes": max_header_bytes}
    return type("SibylHttpProtocol", (SibylHttpProtocol,), limits)
