"""Telling a database that is briefly away (or out of disk) from a bug, whatever the driver.

The API and the worker reach Postgres through three layers that each wrap the others' errors:
SQLAlchemy (its `DBAPIError.orig` holds the adapted driver error), the asyncpg adapter (whose
`__cause__` is asyncpg's own exception) and psycopg for the LangGraph checkpointer. A restarted
Postgres shows up at any of them: a refused connect, `AdminShutdown` (57P01) on a pooled
connection that outlived the old postmaster, `CannotConnectNow` (57P03) while it starts up, or
"connection is closed" from a driver that noticed first. A server that is up but does not answer
(stopped, swapping) shows up as the driver's connect or command timeout, and an exhausted pool as
SQLAlchemy's pool timeout: "unavailable right now" as well. Such a failure says nothing about the
work itself, so a job retries it and the API answers "retry shortly" instead of "unexpected error".
A full disk (SQLSTATE 53100, ENOSPC) is named apart: retrying does not help until space is freed.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Iterator

from sqlalchemy import text

from app.db.session import SessionFactory

logger = logging.getLogger(__name__)

#: SQLSTATEs of a connection that failed or a server that is stopping or starting (08xxx is the
#: whole connection-exception class), of a server with no connection slot left, and of a statement
#: cancelled (57014): the API's `statement_timeout` ran out on an overloaded or stuck server.
TRANSIENT_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "53300", "57014"})
TRANSIENT_SQLSTATE_CLASS = "08"
DISK_FULL_SQLSTATE = "53100"
#: Socket errors of a peer that is gone or not listening.
CONNECTION_ERRNOS = frozenset(
    {
        errno.ECONNREFUSED,
        errno.ECONNRESET,
        errno.ECONNABORTED,
        errno.EPIPE,
        errno.ENOTCONN,
        errno.EHOSTUNREACH,
        errno.ENETUNREACH,
    }
)
#: What the drivers say (without a SQLSTATE) when they find their connection dead or unreachable.
CLOSED_CONNECTION_PHRASES = (
    "connection is closed",
    "connection was closed",
    "connection is lost",
    "connection has been closed",
    "server closed the connection",
    "terminating connection",
    "connect call failed",
    "connection refused",
    "could not connect to server",
    "connection to server",  # libpq: 'connection to server on socket "…" failed: …'
    "connection failed",
    "couldn't get a connection",
    "the database system is",
)
DISK_FULL_PHRASE = "no space left on device"
DRIVER_MODULES = ("asyncpg", "psycopg", "psycopg_pool", "sqlalchemy")
#: Clients of other services: a refused connect under them is the LLM's, search's or Redis's, not
#: the database's, so the chain is not followed into them.
OTHER_CLIENT_MODULES = ("httpx", "httpcore", "openai", "redis", "aiohttp", "anyio", "websockets")
MAX_CHAIN = 12


def is_transient_db_error(exc: BaseException) -> bool:
    """True when `exc` (or an error it wraps) means the database connection was lost or refused:
    the same work should succeed once Postgres is reachable again."""
    if is_disk_full_error(exc):
        return False
    return any(_connection_lost(error) for error in _chain(exc))


def is_disk_full_error(exc: BaseException) -> bool:
    """True when `exc` (or an error it wraps) is Postgres or this process running out of disk."""
    for error in _chain(exc):
        if _sqlstate(error) == DISK_FULL_SQLSTATE:
            return True
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            return True
        if _from_driver(error) and DISK_FULL_PHRASE in str(error).lower():
            return True
    return False


def _connection_lost(error: BaseException) -> bool:
    state = _sqlstate(error)
    if state is not None and (state in TRANSIENT_SQLSTATES or state.startswith(TRANSIENT_SQLSTATE_CLASS)):
        return True
    if getattr(error, "connection_invalidated", False) is True:  # SQLAlchemy saw the connection die
        return True
    if isinstance(error, ConnectionError):
        return True
    if isinstance(error, OSError) and error.errno in CONNECTION_ERRNOS:
        return True
    if isinstance(error, OSError | TimeoutError) and "connect call failed" in str(error).lower():
        return True  # asyncpg's refused connect to every address of the host
    if isinstance(error, FileNotFoundError) and error.filename is None:
        return True  # a Unix-socket connect to a stopped server: its socket file is gone
    if type(error).__name__ in {"PoolTimeout", "TimeoutError"} and _from_driver(error):
        return True  # psycopg's or SQLAlchemy's pool had no connection to give in time
    if isinstance(error, TimeoutError) and _raised_in_driver(error):
        return True  # the driver's own connect or command timeout: a hung or overloaded server
    text = str(error).lower()
    return _from_driver(error) and any(phrase in text for phrase in CLOSED_CONNECTION_PHRASES)


def _sqlstate(error: BaseException) -> str | None:
    for attribute in ("sqlstate", "pgcode"):
        value = getattr(error, attribute, None)
        if isinstance(value, str) and len(value) == 5:
            return value
    return None


def _from_driver(error: BaseException) -> bool:
    return type(error).__module__.split(".")[0] in DRIVER_MODULES


def _raised_in_driver(error: BaseException) -> bool:
    """Whether a traceback frame of `error` is a database driver's: asyncpg raises a bare
    `TimeoutError` when a connect or a command outlives its timeout. A timeout of the caller's own
    (`asyncio.timeout` around some work) is raised in the caller's frames instead, so it is not
    taken for a database that stopped answering."""
    frame = error.__traceback__
    while frame is not None:
        module = frame.tb_frame.f_globals.get("__name__", "")
        if isinstance(module, str) and module.split(".")[0] in DRIVER_MODULES:
            return True
        frame = frame.tb_next
    return False


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and every error it wraps: SQLAlchemy's `orig`, causes, contexts, group members."""
    seen: set[int] = set()
    pending = [exc]
    while pending and len(seen) < MAX_CHAIN:
        error = pending.pop(0)
        if id(error) in seen:
            continue
        seen.add(id(error))
        if type(error).__module__.split(".")[0] in OTHER_CLIENT_MODULES:
            continue
        yield error
        orig = getattr(error, "orig", None)
        if isinstance(orig, BaseException):
            pending.append(orig)
        if error.__cause__ is not None:
            pending.append(error.__cause__)
        elif error.__context__ is not None and not error.__suppress_context__:
            pending.append(error.__context__)
        if isinstance(error, BaseExceptionGroup):
            pending.extend(error.exceptions)


async def wait_for_database(
    session_factory: SessionFactory, *, within: float, first_delay: float = 0.2, max_delay: float = 5.0
) -> bool:
    """Wait until Postgres answers `SELECT 1` (True), or `within` seconds pass (False).

    Polls with doubling delays, so a worker that lost its connection resumes within a fraction of a
    second of the database's return without hammering a server that is still starting.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    delay = first_delay
    while True:
        try:
            async with session_factory() as session:
                await session.execute(text("SELECT 1"))
            return True
        except Exception as exc:
            if not (is_transient_db_error(exc) or isinstance(exc, OSError)):  # OSError: the connect failed
                raise
            if loop.time() + delay > deadline:
                return False
            logger.info("database unreachable (%s); checking again in %.1f s", type(exc).__name__, delay)
        await asyncio.sleep(delay)
        delay = min(delay * 2, max_delay)
