"""Request ids: one per HTTP request or WebSocket connection, to tie what a client saw to the log.

A client may send its own in `X-Request-ID` (a proxy's, or one its own log knows); anything but 1 to
128 letters, digits and `._:-` is replaced by a fresh one, so the id is safe in a log line and a
header. The id comes back in the response's `X-Request-ID` (also on a WebSocket's handshake), in
every log line written while the request is served (`app.log_setup`: the API's, uvicorn's access
line and the lines of the jobs the request queues) and in `extensions.requestId` of every error.
"""

from __future__ import annotations

import re
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.log_setup import log_context

HEADER = b"x-request-id"
_ACCEPTABLE = re.compile(rb"[A-Za-z0-9._:\-]{1,128}")


def request_id_of(scope: Scope) -> str:
    """The client's `X-Request-ID` when it is one we may log and echo, else a new one."""
    for name, value in scope.get("headers", ()):
        if name == HEADER and _ACCEPTABLE.fullmatch(value):
            return bytes(value).decode()
    return uuid.uuid4().hex


class RequestIds:
    """Gives each request its id for its whole life and answers with it (outermost middleware, so
    every refusal carries it too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        starts = "http.response.start" if scope["type"] == "http" else "websocket.accept"

        async def send_with_id(message: Message) -> None:
            if message["type"] == starts:
                message = {**message, "headers": [*message.get("headers", ()), (HEADER, request_id.encode())]}
            await send(message)

        with log_context(request_id=request_id):
            await self.app(scope, receive, send_with_id)
