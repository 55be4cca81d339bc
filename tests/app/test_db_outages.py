"""`is_transient_db_error` and `is_disk_full_error` on errors real drivers raise against the
embedded Postgres: a connection Postgres terminated (as a restart does), a refused connect, a
server that is starting up, a full disk; and ordinary failures that must not look like outages."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, ProgrammingError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config import Settings, libpq_url, sqlalchemy_url
from app.db.outages import is_disk_full_error, is_transient_db_error
from app.db.session import create_session_factory
from tests.support.db_blips import terminate_backends

RAISE_SQLSTATE = "DO $$ BEGIN RAISE EXCEPTION '{message}' USING ERRCODE = '{code}'; END $$"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def unpinged_engine(settings: Settings) -> AsyncIterator[AsyncEngine]:
    """One pooled connection, never checked before use: it meets a terminated backend as is."""
    engine = create_async_engine(
        sqlalchemy_url(settings.require_database_url()), pool_size=1, max_overflow=0, pool_pre_ping=False
    )
    yield engine
    await engine.dispose()


async def error_of(engine: AsyncEngine, statement: str) -> BaseException:
    try:
        async with create_session_factory(engine)() as session:
            await session.execute(text(statement))
    except Exception as exc:
        return exc
    raise AssertionError(f"{statement!r} did not fail")


async def test_a_pooled_connection_postgres_terminated_is_transient(
    unpinged_engine: AsyncEngine, engine: AsyncEngine
) -> None:
    async with unpinged_engine.connect() as connection:
        pid = await connection.scalar(text("SELECT pg_backend_pid()"))
    assert await terminate_backends(engine, f"pid = {pid}") == 1

    error = await error_of(unpinged_engine, "SELECT 1")

    assert is_transient_db_error(error), repr(error)
    assert not is_disk_full_error(error)


async def test_a_terminated_psycopg_connection_is_transient(settings: Settings, engine: AsyncEngine) -> None:
    connection = await psycopg.AsyncConnection.connect(
        libpq_url(settings.require_database_url()), autocommit=True, application_name="outage-probe"
    )
    try:
        assert await terminate_backends(engine, "application_name = 'outage-probe'") == 1
        with pytest.raises(psycopg.Error) as raised:
            await connection.execute("SELECT 1")
        assert is_transient_db_error(raised.value), repr(raised.value)
        with pytest.raises(psycopg.Error) as again:  # the driver now knows it is closed
            await connection.execute("SELECT 1")
        assert is_transient_db_error(again.value), repr(again.value)
    finally:
        await connection.close()


async def test_a_refused_connect_is_transient() -> None:
    engine = create_async_engine(f"postgresql+asyncpg://u:p@127.0.0.1:{free_port()}/none")
    try:
        error = await error_of(engine, "SELECT 1")
    finally:
        await engine.dispose()
    assert is_transient_db_error(error), repr(error)


async def test_a_unix_socket_with_no_server_behind_it_is_transient(tmp_path: Path) -> None:
    """A stopped embedded Postgres has removed its socket file: the connect fails with ENOENT."""
    engine = create_async_engine(f"postgresql+asyncpg://postgres@/none?host={tmp_path}")
    try:
        asyncpg_error = await error_of(engine, "SELECT 1")
    finally:
        await engine.dispose()
    with pytest.raises(psycopg.OperationalError) as psycopg_error:
        await psycopg.AsyncConnection.connect(f"postgresql://postgres@/none?host={tmp_path}")
    assert is_transient_db_error(asyncpg_error), repr(asyncpg_error)
    assert is_transient_db_error(psycopg_error.value), repr(psycopg_error.value)
    assert not is_transient_db_error(FileNotFoundError(2, "No such file or directory", "/etc/none.conf"))


@pytest.mark.parametrize("code", ["cannot_connect_now", "admin_shutdown", "connection_failure"])
async def test_server_states_of_a_restart_are_transient(engine: AsyncEngine, code: str) -> None:
    error = await error_of(
        engine, RAISE_SQLSTATE.format(message="the database system is starting up", code=code)
    )
    assert is_transient_db_error(error)


async def test_a_full_disk_is_named_apart_and_is_not_transient(engine: AsyncEngine) -> None:
    error = await error_of(
        engine,
        RAISE_SQLSTATE.format(message="could not extend file: No space left on device", code="disk_full"),
    )
    assert is_disk_full_error(error) and not is_transient_db_error(error)
    assert is_disk_full_error(OSError(28, "No space left on device"))


async def test_ordinary_failures_are_neither(engine: AsyncEngine) -> None:
    syntax = await error_of(engine, "SELEC 1")
    division = await error_of(engine, "SELECT 1 / 0")
    duplicate = await error_of(
        engine, "SELECT * FROM (VALUES (1)) v(k) WHERE k = 1 / 0 OR k::text::int = 'x'::int"
    )
    assert isinstance(syntax, ProgrammingError) and isinstance(division, DBAPIError)
    refused_http: BaseException | None = None
    async with httpx.AsyncClient() as client:
        try:
            await client.get(f"http://127.0.0.1:{free_port()}/")
        except httpx.ConnectError as exc:
            refused_http = exc
    assert refused_http is not None
    for error in (
        syntax,
        division,
        duplicate,
        refused_http,
        ValueError("connection is closed"),
        KeyError("x"),
    ):
        assert not is_transient_db_error(error), repr(error)
        assert not is_disk_full_error(error), repr(error)
