"""One database session for every read of one HTTP query.

A query such as a page of 200 claims with verdicts and findings reads in several places: the report
lookup, the page and its count, then one DataLoader batch per kind. With a session each, every one
checks a connection out of the pool, pings it, begins, rolls back and returns it; under load that
was a fifth of a request's database work and several pool slots per request. `RequestReads` opens
one session on first use and hands it to every reader of the operation in turn, and the operation
closes it when it ends.

Only query operations share a session (`schema.transport.asgi` decides). A mutation writes through sessions
of its own and may then read what it wrote: a shared session's identity map could hand back a row
as it was before the write. Subscriptions live for hours and must not hold a connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import SessionFactory

#: What readers call for a session: `async with reads() as session:` (a session factory fits too).
ReadSessions = Callable[[], AbstractAsyncContextManager[AsyncSession]]


class RequestReads:
    """The shared read session of one operation, lent to one reader at a time.

    Readers in concurrent resolvers (two DataLoader batches dispatched in the same tick) take
    turns: a session runs one statement at a time. A reader that opens it again inside its own
    turn gets the same session. A statement that fails rolls the session back before the next
    reader's turn, so one failed read does not fail every later read of the operation.
    """

    def __init__(self, session_factory: SessionFactory) -> None:
        self._session_factory = session_factory
        self._session: AsyncSession | None = None
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """The shared session, for the duration of the `async with` block."""
        current = asyncio.current_task()
        if self._holder is not None and self._holder is current:
            yield self._shared()
            return
        async with self._lock:
            self._holder = current
            session = self._shared()
            try:
                yield session
            except BaseException:
                await session.rollback()
                raise
            finally:
                self._holder = None

    async def aclose(self) -> None:
        """Return the connection to the pool (the operation is over)."""
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    def _shared(self) -> AsyncSession:
        if self._session is None:
            self._session = self._session_factory()
        return self._session
