"""What every HTTP request must satisfy before a route sees it: a path without NUL, and a body within
its size and time limits.

`BodyLimits` counts a body as it arrives (it wraps `receive`), chunked or not: a multipart upload
may reach the upload ceiling, any other body (a JSON GraphQL request) MAX_REQUEST_BODY_BYTES. A
declared `Content-Length` beyond the limit is refused before anything is read; a body that passes
the limit while it streams is refused at that moment (413 REQUEST_TOO_LARGE), and one that takes
longer than REQUEST_BODY_TIMEOUT_SECONDS to arrive, however it trickles, gets 408 REQUEST_TIMEOUT.
Either way the connection closes and the rest of the body is never read: a client cannot make
the API hold more than the limit in memory, nor hold a connection open by sending slowly. Each
refusal is in the media type the client asked for (`schema.transport.media_types`).

Usage (the order matters: refusals still get the security headers):

    Middleware(SecurityHeaders),
    Middleware(PathGuard),
    Middleware(BodyLimits, max_body_bytes=..., max_upload_bytes=..., timeout_seconds=...),
"""

from __future__ import annotations

import asyncio
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from schema.errors import ErrorCode, error_json
from schema.transport.media_types import MediaType, scope_media_type

logger = logging.getLogger(__name__)

DISCONNECT: Message = {"type": "http.disconnect"}


async def send_refusal(send: Send, media_type: MediaType, status: int, code: ErrorCode, message: str) -> None:
    """The typed error document with `status`, closing the connection afterwards: whatever of the
    request the client is still sending is never read."""
    logger.info("refused HTTP request: %s %s", code.name, message)
    body = error_json(message, {"code": code.name})
    headers = [
        (b"content-type", media_type.content_type.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class PathGuard:
    """Refuses a request whose path holds a NUL character (400 BAD_REQUEST): no route, file or id
    has one, and the file system answers one with an exception rather than "not found"."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "\x00" in scope.get("path", ""):
            message = "The request path holds a NUL character."
            await send_refusal(send, scope_media_type(scope), 400, ErrorCode.BAD_REQUEST, message)
            return
        await self.app(scope, receive, send)


class BodyLimits:
    """Caps each HTTP request body by size and by time, as it arrives (see the module docstring)."""

    def __init__(
        self, app: ASGIApp, *, max_body_bytes: int, max_upload_bytes: int, timeout_seconds: float
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_upload_bytes = max_upload_bytes
        self.timeout_seconds = timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, too_large = self._limit(scope)
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await send_refusal(send, scope_media_type(scope), 413, ErrorCode.REQUEST_TOO_LARGE, too_large)
            return
        body = MeteredBody(receive, send, limit, too_large, self.timeout_seconds, scope)
        try:
            await self.app(scope, body.receive, body.send)
        except Exception:
            if not body.refused:
                raise
            logger.debug("the application stopped on the body it was refused", exc_info=True)

    def _limit(self, scope: Scope) -> tuple[int, str]:
        """The request's body limit, and the message refusing a body beyond it."""
        content_type = dict(scope["headers"]).get(b"content-type", b"")
        if content_type.lower().startswith(b"multipart/form-data"):
            return self.max_upload_bytes, f"The upload is larger than {self.max_upload_bytes} bytes."
        message = f"The request body is larger than {self.max_body_bytes} bytes; send a long text as a file."
        return self.max_body_bytes, message


class MeteredBody:
    """One request's `receive` and `send` (of `scope`), counting the body's bytes and time.

    When the body passes its limit or its deadline, the refusal is sent at once and the
    application is told the client left (`http.disconnect`); whatever it sends afterwards is
    dropped, since the response is already complete. The deadline runs from the application's
    first read, so time spent authenticating is not the client's.
    """

    def __init__(
        self,
        receive: Receive,
        send: Send,
        limit: int,
        too_large: str,
        timeout_seconds: float,
        scope: Scope,
    ) -> None:
        self._receive = receive
        self._send = send
        self._scope = scope
        self.limit = limit
        self.too_large = too_large
        self.timeout_seconds = timeout_seconds
        self.received = 0
        self.deadline: float | None = None
        self.complete = False
        self.responding = False
        self.refused = False

    async def receive(self) -> Message:
        if self.refused:
            return DISCONNECT
        if self.complete:  # the body is in; a read now only waits for the client to leave
            return await self._receive()
        loop = asyncio.get_running_loop()
        if self.deadline is None:
            self.deadline = loop.time() + self.timeout_seconds
        try:
            async with asyncio.timeout_at(self.deadline):
                message = await self._receive()
        except TimeoutError:
            seconds = f"{self.timeout_seconds:g}"
            return await self._refuse(
                408, ErrorCode.REQUEST_TIMEOUT, f"The request body took over {seconds} s."
            )
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limit:
                return await self._refuse(413, ErrorCode.REQUEST_TOO_LARGE, self.too_large)
            self.complete = not message.get("more_body", False)
        return message

    async def send(self, message: Message) -> None:
        if self.refused:
            return
        if message["type"] == "http.response.start":
            self.responding = True
        await self._send(message)

    async def _refuse(self, status: int, code: ErrorCode, message: str) -> Message:
        self.refused = True
        if not self.responding:
            await send_refusal(self._send, scope_media_type(self._scope), status, code, message)
        return DISCONNECT


def _declared_length(scope: Scope) -> int | None:
    value = dict(scope["headers"]).get(b"content-length")
    return int(value) if value is not None and value.isdigit() else None
