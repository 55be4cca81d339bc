"""Shared fixtures: real Postgres and Redis (embedded unless URLs are given), an in-process API
server on a free port, and an in-process ARQ worker. One event loop serves the whole session."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest
from arq.constants import default_queue_name, in_progress_key_prefix
from arq.worker import Worker
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from app.events.hub import EventHub
from app.organisations import (
    LOCAL_ORGANISATION_ID,
    LOCAL_ORGANISATION_NAME,
    create_api_key,
    ensure_organisation,
)
from app.supervision.vector_check import VectorSupportMissing
from schema.transport.asgi import create_app
from tests.support.arq_workers import close_when_done
from tests.support.graphql import GraphQLClient
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices, running_services
from workers.settings import worker_settings

#: Registry snapshots are public data the tests that import them clear (`no_registries`).
REGISTRY_TABLES = "TRUNCATE registry_snapshots CASCADE"
TABLES = ", ".join(
    ["events", "verdicts", "findings", "routing_assignments", "claims", "analysis_runs"]
    + ["report_pages", "report_files", "reports", "evidence_documents"]
)


@pytest.fixture(scope="session")
def services() -> Iterator[RunningServices]:
    """The session's Postgres and Redis. A database that fails the vector self-check stops the
    whole run with its one sentence, instead of failing every test that touches it."""
    try:
        with running_services() as running:
            yield running
    except VectorSupportMissing as exc:
        pytest.exit(f"sibyl: {exc}", returncode=3)


def make_settings(services: RunningServices, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": services.database_url,
        "redis_url": services.redis_url,
        "parse_progress_every": 3,
        "event_poll_seconds": 0.5,
        "max_upload_bytes": 20 * 1024 * 1024,
        # The session's in-process worker must not resume runs that a test drives itself.
        "analysis_sweep_seconds": 0,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def settings(services: RunningServices) -> Settings:
    return make_settings(services)


@pytest.fixture(scope="session")
async def engine(settings: Settings) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(settings.require_database_url())
    yield engine
    await engine.dispose()


@pytest.fixture(scope="session")
def session_factory(engine: AsyncEngine) -> SessionFactory:
    return create_session_factory(engine)


@pytest.fixture(scope="session")
async def redis(settings: Settings) -> AsyncIterator[Redis]:
    client = Redis.from_url(settings.require_redis_url())
    yield client
    await client.aclose()


@pytest.fixture
def event_log(session_factory: SessionFactory, redis: Redis) -> EventLog:
    return EventLog(session_factory, redis)


@pytest.fixture
async def event_hub(event_log: EventLog, settings: Settings) -> AsyncIterator[EventHub]:
    hub = EventHub.following(event_log, poll_seconds=settings.event_poll_seconds)
    yield hub
    await hub.aclose()


async def wait_for_idle_queue(redis: Redis, timeout: float = 60.0) -> None:
    """Wait until ARQ has no due or running job (jobs deferred to later, like cron jobs, don't count)."""
    deadline = asyncio.get_running_loop().time() + timeout

    async def due() -> int:
        return int(await redis.zcount(default_queue_name, "-inf", time.time() * 1000))

    while await due() or await redis.keys(f"{in_progress_key_prefix}*"):
        assert asyncio.get_running_loop().time() < deadline, "ARQ jobs still running after a test"
        await asyncio.sleep(0.05)


EVIDENCE_PASSAGES = "DELETE FROM knowledge_passages WHERE source_type = 'evidence'"


@pytest.fixture
async def clean_db(engine: AsyncEngine, redis: Redis) -> AsyncIterator[None]:
    """Every test that touches storage starts from empty tables and an empty Redis.

    Jobs a previous test queued are let finish first, so no parse holds locks during TRUNCATE.
    The knowledge base keeps its IFRS passages (other tests search them) but loses evidence ones,
    before and after the test: tests that do not clean (the knowledge base's) count passages.
    """
    await wait_for_idle_queue(redis)
    async with engine.begin() as connection:
        await connection.execute(text(f"TRUNCATE {TABLES} CASCADE"))
        await connection.execute(text(EVIDENCE_PASSAGES))
    await redis.flushdb()
    await _remove_organisations(engine)
    yield
    async with engine.begin() as connection:
        await connection.execute(text("TRUNCATE evidence_documents"))
        await connection.execute(text(EVIDENCE_PASSAGES))


async def _remove_organisations(engine: AsyncEngine) -> None:
    """Every API key and every organisation but the built-in `local` one (with their data)."""
    async with engine.begin() as connection:
        await connection.execute(text("DELETE FROM api_keys"))
        await connection.execute(
            text("DELETE FROM organisations WHERE id <> :local"), {"local": LOCAL_ORGANISATION_ID}
        )


async def new_api_key(session_factory: SessionFactory, organisation: str = LOCAL_ORGANISATION_NAME) -> str:
    """A fresh key for `organisation` (created if needed)."""
    async with session_factory() as session, session.begin():
        found = await ensure_organisation(session, organisation)
        _, plaintext = await create_api_key(session, found, "test")
    return plaintext


@pytest.fixture
async def api_key(session_factory: SessionFactory, clean_db: None) -> str:
    """A key of the `local` organisation, the one data seeded straight into the database belongs to."""
    return await new_api_key(session_factory)


@asynccontextmanager
async def serve_api(settings: Settings) -> AsyncIterator[str]:
    """Run the real ASGI app under uvicorn on a free loopback port; yields its base URL."""
    async with serve_asgi(create_app(settings), ws_per_message_deflate=False) as url:
        yield url


#: The ARQ workers running in this process now (see `run_worker`).
IN_PROCESS_WORKERS: set[Worker] = set()


@asynccontextmanager
async def run_worker(settings: Settings) -> AsyncIterator[Worker]:
    """An ARQ worker with the production settings, in this process."""
    worker = Worker(**{**worker_settings(settings), "handle_signals": False})
    task = asyncio.create_task(worker.async_run())
    IN_PROCESS_WORKERS.add(worker)
    try:
        yield worker
    finally:
        IN_PROCESS_WORKERS.discard(worker)
        await wait_for_idle_queue(worker.pool)
        await close_when_done(worker)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture(scope="session")
async def api_url(settings: Settings) -> AsyncIterator[str]:
    async with serve_api(settings) as url:
        yield url


@pytest.fixture
async def client(api_url: str, api_key: str) -> AsyncIterator[GraphQLClient]:
    client = GraphQLClient(api_url, api_key)
    yield client
    await client.aclose()


@pytest.fixture
async def no_registries(engine: AsyncEngine) -> AsyncIterator[None]:
    """The test starts and ends with no registry snapshot stored (`clean_db` leaves them: other
    tests' analyses must not meet one test's registries)."""
    async with engine.begin() as connection:
        await connection.execute(text(REGISTRY_TABLES))
    yield
    async with engine.begin() as connection:
        await connection.execute(text(REGISTRY_TABLES))
