"""A database that is away answers SERVICE_UNAVAILABLE ("retry shortly"), a full disk STORAGE_FULL,
for queries, mutations (the upload included) and subscriptions, instead of "Unexpected error.". The
failures are real driver errors: a pooled connection Postgres terminated, a refused connect, and a
SQLSTATE 53100 raised by Postgres itself; only the session factory the API is given is swapped."""

from __future__ import annotations

import io
import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from starlette.datastructures import UploadFile
from strawberry.relay import GlobalID

from app.config import Settings, sqlalchemy_url
from app.db.session import SessionFactory, create_session_factory
from app.events import EventLog
from app.metrics.labels import FirstCome
from app.organisations import LOCAL_ORGANISATION_ID
from app.organisations.keys import Principal
from schema import schema
from schema.context import Context
from tests.fixtures import pdfs
from tests.support.db_blips import terminate_backends

REPORTS = "query Reports { reports(first: 1) { totalCount } }"
START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { code } }
}
"""
UPLOAD = """
mutation Upload($file: Upload!) {
  uploadReport(file: $file) { __typename ... on UploadReportError { code } }
}
"""
EVENTS = "subscription Events($id: ID!) { analysisEvents(reportId: $id) { id } }"
A_REPORT = str(GlobalID("Report", "9b2f6d1e-4c1a-4d5e-9a43-0c6f0b1d2e3f"))
UNAVAILABLE = {"code": "SERVICE_UNAVAILABLE"}
DISK_FULL = (
    "DO $$ BEGIN RAISE EXCEPTION 'could not extend file \"base/1/2\": No space left on device' "
    "USING ERRCODE = 'disk_full'; END $$"
)


class DiskFullSession(AsyncSession):
    """A session on a server whose disk is full: Postgres refuses its first statement with 53100."""

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        await super().execute(text(DISK_FULL))
        return await super().execute(*args, **kwargs)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def refused_sessions() -> AsyncIterator[SessionFactory]:
    """Sessions of a database nothing listens for (Postgres down)."""
    engine = create_async_engine(f"postgresql+asyncpg://u:p@127.0.0.1:{free_port()}/none")
    yield create_session_factory(engine)
    await engine.dispose()


@asynccontextmanager
async def terminated_sessions(settings: Settings, engine: AsyncEngine) -> AsyncIterator[SessionFactory]:
    """Sessions on a pooled connection that Postgres ended (as a restart does), not pinged first."""
    stale = create_async_engine(
        sqlalchemy_url(settings.require_database_url()), pool_size=1, max_overflow=0, pool_pre_ping=False
    )
    async with stale.connect() as connection:
        pid = await connection.scalar(text("SELECT pg_backend_pid()"))
    assert await terminate_backends(engine, f"pid = {pid}") == 1
    yield create_session_factory(stale)
    await stale.dispose()


@pytest.fixture
async def refused() -> AsyncIterator[SessionFactory]:
    async with refused_sessions() as sessions:
        yield sessions


@pytest.fixture(params=["terminated", "refused"])
async def away(
    request: pytest.FixtureRequest, settings: Settings, engine: AsyncEngine
) -> AsyncIterator[SessionFactory]:
    """The database away, either way."""
    sessions = terminated_sessions(settings, engine) if request.param == "terminated" else refused_sessions()
    async with sessions as factory:
        yield factory


@pytest.fixture
async def disk_full(engine: AsyncEngine) -> SessionFactory:
    return async_sessionmaker(engine, class_=DiskFullSession, expire_on_commit=False)


def context(settings: Settings, sessions: SessionFactory, redis: Redis) -> Context:
    services = SimpleNamespace(
        settings=settings,
        session_factory=sessions,
        event_log=EventLog(sessions, redis),
        arq=redis,
        operation_names=FirstCome(),
    )
    return Context(
        services=services,  # type: ignore[arg-type]
        request=None,  # type: ignore[arg-type]
        principal=Principal(organisation_id=LOCAL_ORGANISATION_ID),
    )


@pytest.mark.parametrize(
    ("document", "variables", "path"),
    [(REPORTS, {}, ["reports"]), (START, {"id": A_REPORT}, ["startAnalysis"])],
    ids=["query", "mutation"],
)
async def test_queries_and_mutations_answer_service_unavailable_when_the_database_is_away(
    document: str,
    variables: dict[str, Any],
    path: list[str],
    away: SessionFactory,
    settings: Settings,
    redis: Redis,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="schema.errors"):
        result = await schema.execute(
            document, variable_values=variables, context_value=context(settings, away, redis)
        )

    assert result.errors is not None and len(result.errors) == 1, result
    error = result.errors[0].formatted
    assert error["extensions"] == UNAVAILABLE and error["path"] == path
    assert error["message"] == "The database is unavailable right now; retry shortly."
    [record] = [r for r in caplog.records if r.name == "schema.errors"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage().startswith("SERVICE_UNAVAILABLE in operation ")


async def test_a_subscription_the_database_cannot_start_ends_with_service_unavailable(
    refused: SessionFactory, settings: Settings, redis: Redis
) -> None:
    stream = await schema.subscribe(
        EVENTS, variable_values={"id": A_REPORT}, context_value=context(settings, refused, redis)
    )
    results = [result async for result in stream]  # type: ignore[union-attr]

    assert len(results) == 1 and results[0].errors is not None
    assert results[0].errors[0].formatted["extensions"] == UNAVAILABLE


async def test_a_full_disk_answers_storage_full_for_queries_and_uploads(
    disk_full: SessionFactory, settings: Settings, redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    upload = UploadFile(io.BytesIO(pdfs.synthetic_report(page_count=2).pdf), filename="r.pdf")
    with caplog.at_level(logging.INFO, logger="schema.errors"):
        query = await schema.execute(REPORTS, context_value=context(settings, disk_full, redis))
        stored = await schema.execute(
            UPLOAD, variable_values={"file": upload}, context_value=context(settings, disk_full, redis)
        )

    for result in (query, stored):
        assert result.errors is not None and len(result.errors) == 1, result
        error = result.errors[0].formatted
        assert error["extensions"] == {"code": "STORAGE_FULL"}
        assert error["message"].startswith("The server is out of disk space")
    records = [r for r in caplog.records if r.name == "schema.errors"]
    assert [r.levelno for r in records] == [logging.ERROR, logging.ERROR]
    assert all("No space left on device" in r.getMessage() for r in records)
