"""Serve an ASGI app under uvicorn on a free loopback port inside a test's event loop, and the
recording base of the fake API servers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import uvicorn
from starlette.requests import Request
from starlette.responses import Response

from app.supervision.embedded.redis import free_port


@asynccontextmanager
async def serve_asgi(app: Any, port: int | None = None, **options: Any) -> AsyncIterator[str]:
    """Run `app` until the block ends (on `port`, else a free one); yields its base URL
    (http://127.0.0.1:port).

    Signals stay pytest's (Ctrl+C stops the run, not just this server).
    """
    port = port or free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=5, **options
    )
    server = uvicorn.Server(config)
    server.capture_signals = nullcontext  # type: ignore[method-assign,assignment]
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


NOT_JSON = '{"error": {"message": "request is not JSON"}}'


class RecordingFake:
    """Base of the fake API servers: the URL they serve at and every JSON request they received."""

    def __init__(self) -> None:
        self.url = ""
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str] = []  # Authorization header of each request

    async def record(self, request: Request) -> dict[str, Any] | Response:
        """The request's JSON body, recorded; or the 400 response a real API gives to non-JSON."""
        try:
            payload = json.loads(await request.body())
        except ValueError:
            return Response(
                '{"error": {"message": "request is not JSON"}}', 400, media_type="application/json"
            )
        self.requests.append(payload)
        self.authorizations.append(request.headers.get("authorization", ""))
        return payload
