"""Engine and session factory, one per process, with bounded waits where the process wants them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.config import sqlalchemy_url

SessionFactory = async_sessionmaker[AsyncSession]

#: SQLAlchemy's own default wait for a pooled connection, kept for workers and tools.
DEFAULT_POOL_TIMEOUT_SECONDS = 30.0
#: The client waits this much longer than the server's `statement_timeout`, so a slow statement on
#: a healthy server ends with Postgres's own error (and a connection that stays usable).
STATEMENT_GRACE_SECONDS = 1.0


def decode_json(text: str) -> Any:
    """A JSON/JSONB column value as Python, with orjson (about five times faster than `json.loads`):
    a page of 200 claims with verdicts and findings decodes some 1,600 such values per request.

    What orjson refuses (a lone UTF-16 surrogate escape, which Postgres accepts) goes to
    `json.loads`, so no stored value becomes unreadable. One difference remains: orjson reads an
    integer beyond 64 bits as a float (as JavaScript clients would anyway); no column holds one.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


@dataclass(frozen=True)
class Waits:
    """How long a process waits on Postgres before calling it unavailable (None: as long as it takes).

    The API sets all three (a hung server must become a "retry shortly" answer, not a request that
    never ends); workers and migrations keep the defaults, because a parse or a migration may
    legitimately run one long statement.

    Attributes:
        statement_seconds: The server's `statement_timeout`; the client also gives up on any command
            (a ping included) `STATEMENT_GRACE_SECONDS` later, which is what ends a wait on a server
            that answers nothing at all.
        pool_seconds: The wait for a pooled connection when all are in use (SQLAlchemy's `pool_timeout`).
        connect_seconds: The wait for a new connection, handshake included.
    """

    statement_seconds: float | None = None
    pool_seconds: float = DEFAULT_POOL_TIMEOUT_SECONDS
    connect_seconds: float | None = None


def create_engine(database_url: str, *, pool_size: int = 10, waits: Waits | None = None) -> AsyncEngine:
    """An asyncpg engine for `database_url` (any postgresql:// spelling), bounded by `waits`."""
    waits = waits or Waits()
    return create_async_engine(
        sqlalchemy_url(database_url),
        pool_size=pool_size,
        max_overflow=20,
        pool_pre_ping=True,
        pool_timeout=waits.pool_seconds,
        json_deserializer=decode_json,
        connect_args=_connect_args(waits),
    )


def _connect_args(waits: Waits) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if waits.connect_seconds is not None:
        args["timeout"] = waits.connect_seconds
    if waits.statement_seconds is not None:
        args["command_timeout"] = waits.statement_seconds + STATEMENT_GRACE_SECONDS
        args["server_settings"] = {"statement_timeout": str(max(1, round(waits.statement_seconds * 1000)))}
    return args


def create_session_factory(engine: AsyncEngine) -> SessionFactory:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
