"""The exposition text of this process's metrics, for `GET /metrics` and for a listener of its own.

Rendering runs in a thread, off the event loop: collectors that read Redis hand the read to the
loop and wait for it (`app.metrics.scrape`), and a few hundred series take a few milliseconds to
write, which requests should not wait behind.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import REGISTRY, generate_latest, start_http_server

#: The text format `generate_latest` writes, as every Prometheus reads it (what prometheus-client's own
#: listener answers unless a scraper asks for a newer one).
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
#: How long one rendering answers every caller (Prometheus scrapes every 15 s or so).
MAX_AGE_SECONDS = 1.0
#: How long a stopping process waits for its listener's thread.
STOP_SECONDS = 5.0


class CachedExposition:
    """The exposition, rendered at most once per `max_age` seconds however many callers ask: the
    endpoint needs no key, so a flood of calls must not render (and read Redis) once per call.
    Callers arriving while it renders share that rendering."""

    def __init__(self, max_age: float = MAX_AGE_SECONDS) -> None:
        self.max_age = max_age
        self._text = b""
        self._rendered_at = float("-inf")
        self._rendering: asyncio.Task[bytes] | None = None

    async def __call__(self) -> bytes:
        loop = asyncio.get_running_loop()
        if loop.time() - self._rendered_at < self.max_age:
            return self._text
        if self._rendering is None:
            self._rendering = loop.create_task(self._render())
        # A caller that goes away must not cancel the rendering the others wait for.
        return await asyncio.shield(self._rendering)

    async def _render(self) -> bytes:
        try:
            self._text = await asyncio.to_thread(generate_latest, REGISTRY)
            self._rendered_at = asyncio.get_running_loop().time()
            return self._text
        finally:
            self._rendering = None


@contextmanager
def listening(port: int, host: str) -> Iterator[None]:
    """Serve this process's metrics on `host:port` (any path) while the block runs, from
    prometheus-client's threaded HTTP server."""
    server, thread = start_http_server(port, addr=host)
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        if thread is not threading.current_thread():
            thread.join(STOP_SECONDS)
