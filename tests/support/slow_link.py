"""A TCP proxy that delays every byte by a fixed time each way: a server across a network.

The embedded Postgres answers on the same machine within a fraction of a millisecond, so code that
makes one round trip per item looks as fast as code that makes one per batch. A deployment's
database is a network hop (and a pool) away; tests point only the API under test at this proxy to
see what that costs, the other tests and the in-process worker keep their direct connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress

from tests.support.hung_proxy import Streams, proxied_url, server_connector

CHUNK = 65536


class SlowLink:
    """Forwards 127.0.0.1:`port` to the server, each chunk `delay` seconds after it was read."""

    def __init__(self, connect: Callable[[], Awaitable[Streams]], delay: float) -> None:
        self._connect = connect
        self._delay = delay
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await self._connect()
        except OSError:
            writer.close()
            return
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            in_flight: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
            for work in (self._read(source, in_flight), self._deliver(in_flight, sink)):
                task = asyncio.get_running_loop().create_task(work)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _read(
        self, source: asyncio.StreamReader, in_flight: asyncio.Queue[tuple[float, bytes]]
    ) -> None:
        loop = asyncio.get_running_loop()
        with suppress(OSError):
            while data := await source.read(CHUNK):
                in_flight.put_nowait((loop.time() + self._delay, data))
        in_flight.put_nowait((loop.time() + self._delay, b""))

    async def _deliver(
        self, in_flight: asyncio.Queue[tuple[float, bytes]], sink: asyncio.StreamWriter
    ) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                due, data = await in_flight.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except OSError:
            pass
        finally:
            with suppress(OSError, RuntimeError):
                sink.close()


@asynccontextmanager
async def slow_link(url: str, delay: float) -> AsyncIterator[str]:
    """A proxy adding `delay` seconds each way in front of the server of `url`; yields the URL
    that goes through it."""
    link = SlowLink(server_connector(url, default_port=5432), delay)
    await link.start()
    try:
        yield proxied_url(url, link.port)
    finally:
        await link.aclose()
