"""The HTTP/1.1 protocol the API runs under: uvicorn's httptools protocol plus a header timeout.

uvicorn closes a kept-alive connection that stays idle (`timeout_keep_alive`), but not one whose
client opened it, or began a request on it, and then sends the headers slowly or never: each such
client holds a connection as long as it likes. This protocol arms a timer when a connection opens
and when a request's first byte arrives, and disarms it once the headers are complete; if it
fires first, the connection closes: with 408 and the typed REQUEST_TIMEOUT document when a request
had begun, silently when none had (a browser's speculative connection that was never used). A
body sent too slowly is `schema.http_edge.BodyLimits`' concern.

Usage: `uvicorn schema.asgi:app --http schema.uvicorn_http:SibylHttpProtocol` (as `sibyl run`, the
Dockerfile and docker-compose.yml start it); the timeout is REQUEST_HEADER_TIMEOUT_SECONDS, or
`http_protocol(seconds)` for a server built in code. It leans on uvicorn internals (the parser
callbacks `on_message_begin` and `on_headers_complete`, `loop`, `transport`) and lives here alone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import get_settings
from schema.errors import ErrorCode, error_json

logger = logging.getLogger(__name__)


def _timeout_response(seconds: float) -> bytes:
    body = error_json(
        f"The request headers took over {seconds:g} s.", {"code": ErrorCode.REQUEST_TIMEOUT.name}
    )
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class SibylHttpProtocol(HttpToolsProtocol):
    """uvicorn's default HTTP/1.1 protocol, cutting off clients whose headers do not arrive in time."""

    #: None: REQUEST_HEADER_TIMEOUT_SECONDS from the settings.
    header_timeout_seconds: ClassVar[float | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_seconds = self.header_timeout_seconds or get_settings().request_header_timeout_seconds
        self._header_timer: asyncio.TimerHandle | None = None
        self._request_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._request_begun = True
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._request_begun = False
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


def http_protocol(header_timeout_seconds: float) -> type[SibylHttpProtocol]:
    """`SibylHttpProtocol` with its own header timeout (for a server built in code, e.g. in tests)."""
    return type("SibylHttpProtocol", (SibylHttpProtocol,), {"header_timeout_seconds": header_timeout_seconds})
