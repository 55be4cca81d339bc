"""What the collectors read at scrape time, and reading it through the event loop that owns it.

A process attaches what its collectors read (its Redis pool, its database engine) while it runs,
and detaches it as it stops; tests run several apps in one process, each with its own. Scrapes are
rendered in a thread of their own (`app.metrics.exposition`), so a collector that must wait on
the event loop (a Redis read) hands the read to the loop and waits for its answer, bounded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: How long a scrape waits for a read through the event loop before leaving its metric out.
READ_SECONDS = 2.0


class Sources(Generic[T]):
    """What one collector reads, attached by the processes' services while they run."""

    def __init__(self) -> None:
        self._items: list[T] = []

    @contextmanager
    def attached(self, item: T) -> Iterator[None]:
        self._items.append(item)
        try:
            yield
        finally:
            self._items.remove(item)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items))  # a copy: the loop may attach or detach while a scrape reads


def read_on_loop(loop: asyncio.AbstractEventLoop, read: Coroutine[Any, Any, T], what: str) -> T | None:
    """`read` run on `loop` (whose connections it uses) from a scrape's thread; None, logged, when it
    fails or takes longer than `READ_SECONDS`, and at once on the loop's own thread, which would
    wait for itself."""
    try:
        on_loop = asyncio.get_running_loop() is loop
    except RuntimeError:
        on_loop = False
    if on_loop or loop.is_closed():
        read.close()
        return None
    future = asyncio.run_coroutine_threadsafe(read, loop)
    try:
        return future.result(timeout=READ_SECONDS)
    except Exception as exc:  # noqa: BLE001 - a scrape leaves the metric out rather than fail
        future.cancel()
        logger.warning("metrics: could not read %s (%s: %s)", what, type(exc).__name__, exc)
        return None
