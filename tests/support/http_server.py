"""Serve an ASGI app under uvicorn on a free loopback port inside a test's event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

import uvicorn

from app.embedded.redis import free_port


@asynccontextmanager
async def serve_asgi(app: Any, **options: Any) -> AsyncIterator[str]:
    """Run `app` until the block ends; yields its base URL (http://127.0.0.1:port).

    Signals stay pytest's (Ctrl+C stops the run, not just this server).
    """
    port = free_port()
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
