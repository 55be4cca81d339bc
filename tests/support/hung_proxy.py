"""A TCP proxy that can play a hung server: up and accepting connections, but answering nothing.

A server stopped with SIGSTOP (stuck disk, swap storm, a partition that keeps connections open)
still completes TCP handshakes from the kernel's backlog, then never sends a byte. Freezing the
shared session-scoped Postgres or Redis would stall every other test (and the in-process worker),
so tests point only the API under test at this proxy and `freeze()` it: bytes already in flight
and new connections are held, not refused, exactly as a stopped process holds them; `thaw()`
forwards everything held and resumes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from urllib.parse import parse_qs, urlsplit, urlunsplit

CHUNK = 65536

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class HungProxy:
    """Forwards 127.0.0.1:`port` to `target`, until frozen."""

    def __init__(self, connect: Callable[[], Awaitable[Streams]]) -> None:
        self._connect = connect
        self._running = asyncio.Event()
        self._running.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    def freeze(self) -> None:
        """Stop forwarding in both directions (connections stay open, nothing is answered)."""
        self._running.clear()

    def thaw(self) -> None:
        self._running.set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def aclose(self) -> None:
        self._running.set()
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        await self._running.wait()  # a stopped server's backlog: connected, never served
        try:
            up_reader, up_writer = await self._connect()
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while True:
                data = await source.read(CHUNK)
                await self._running.wait()  # frozen: what was read is held until thawed
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            with suppress(OSError, RuntimeError):
                sink.close()


def proxied_url(url: str, port: int) -> str:
    """`url` (postgresql:// or redis://) with its host and port replaced by the proxy's (and a
    Unix-socket `?host=` dropped)."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"
    query = "&".join(pair for pair in parts.query.split("&") if pair and not pair.startswith("host="))
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def server_connector(url: str, default_port: int = 6379) -> Callable[[], Awaitable[Streams]]:
    """How to reach the server of `url`: its TCP address, or Postgres's Unix socket (`?host=/dir`)."""
    parts = urlsplit(url)
    socket_dir = parse_qs(parts.query).get("host", [""])[0]
    if socket_dir.startswith("/"):
        path = str(next(p for p in Path(socket_dir).glob(".s.PGSQL.*") if not p.name.endswith(".lock")))
        return lambda: asyncio.open_unix_connection(path)
    host, port = parts.hostname or "127.0.0.1", parts.port or default_port
    return lambda: asyncio.open_connection(host, port)


@asynccontextmanager
async def hung_proxy(url: str) -> AsyncIterator[tuple[HungProxy, str]]:
    """A proxy in front of the server of `url`, and the URL that goes through it."""
    proxy = HungProxy(server_connector(url))
    await proxy.start()
    try:
        yield proxy, proxied_url(url, proxy.port)
    finally:
        await proxy.aclose()
