"""A parse whose job failed (a database blip, a bug) is not left PARSING for ever: the periodic
sweep queues it again while no worker runs it, counting attempts, and fails it with a clear message
once MAX_JOB_ATTEMPTS are spent; a re-upload of the same bytes queues it again too. A job that
meets an unreachable database is retried by ARQ instead of failing."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from arq import Retry, create_pool
from arq.connections import ArqRedis, RedisSettings
from sqlalchemy import func, select, update

from app.config import Settings
from app.db.models import Event, Report, ReportStatus
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from tests.conftest import run_worker
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.workers.test_parse_isolation import upload
from workers.jobs import parse_report, sweep_abandoned_analyses

PAGES = 4


@pytest.fixture
async def arq_pool(settings: Settings) -> AsyncIterator[ArqRedis]:
    pool = await create_pool(RedisSettings.from_dsn(settings.require_redis_url()))
    yield pool
    await pool.aclose()


async def stalled_report(
    session_factory: SessionFactory, event_log: EventLog, settings: Settings, *, attempts: int, content: bytes
) -> uuid.UUID:
    """A report as a parse job that failed half-way leaves it: PARSING, one attempt counted per start."""
    report_id = await upload(session_factory, event_log, settings, content)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(Report)
            .where(Report.id == report_id)
            .values(status=ReportStatus.PARSING, parse_attempts=attempts)
        )
    return report_id


async def report_state(session_factory: SessionFactory, report_id: uuid.UUID) -> Report:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
        assert report is not None
        return report


async def wait_for_report(
    session_factory: SessionFactory, report_id: uuid.UUID, status: ReportStatus, timeout: float = 30.0
) -> Report:
    deadline = time.monotonic() + timeout
    while (report := await report_state(session_factory, report_id)).status is not status:
        assert time.monotonic() < deadline, f"report still {report.status}"
        await asyncio.sleep(0.05)
    return report


def sweep_context(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, pool: ArqRedis
) -> dict[str, Any]:
    return {"settings": settings, "session_factory": session_factory, "event_log": event_log, "redis": pool}


async def test_the_periodic_sweep_requeues_a_parse_no_worker_runs_and_it_completes(
    clean_db: None,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    arq_pool: ArqRedis,
) -> None:
    content = pdfs.synthetic_report(page_count=PAGES).pdf
    report_id = await stalled_report(session_factory, event_log, settings, attempts=1, content=content)
    ctx = sweep_context(settings, session_factory, event_log, arq_pool)
    lock = func.hashtextextended(f"parse_report:{report_id}", 0)  # the lock a running parse holds
    async with session_factory() as parser:
        assert await parser.scalar(select(func.pg_try_advisory_lock(lock)))
        while_a_worker_parses = await sweep_abandoned_analyses(ctx)
        await parser.execute(select(func.pg_advisory_unlock(lock)))

    once_it_stopped = await sweep_abandoned_analyses(ctx)
    async with run_worker(settings):
        report = await wait_for_report(session_factory, report_id, ReportStatus.PARSED)

    assert (while_a_worker_parses, once_it_stopped) == (0, 1)
    assert (report.page_count, report.parse_attempts) == (PAGES, 2)


async def test_the_sweep_fails_a_parse_that_used_its_attempts_with_a_clear_message(
    clean_db: None,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    arq_pool: ArqRedis,
) -> None:
    content = pdfs.synthetic_report(page_count=2).pdf
    report_id = await stalled_report(
        session_factory, event_log, settings, attempts=settings.max_job_attempts, content=content
    )

    queued = await sweep_abandoned_analyses(sweep_context(settings, session_factory, event_log, arq_pool))

    report = await report_state(session_factory, report_id)
    assert queued == 0
    assert report.status is ReportStatus.ERROR
    assert (
        report.error_message
        and f"abandoned after {settings.max_job_attempts} attempts" in report.error_message
    )
    async with session_factory() as session:
        failed = list(
            await session.scalars(
                select(Event).where(Event.report_id == report_id, Event.event_type == "parse_failed")
            )
        )
    assert [event.data["message"] for event in failed] == [report.error_message]


async def test_uploading_the_same_bytes_again_requeues_a_stalled_parse(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    content = pdfs.synthetic_report(page_count=PAGES).pdf
    async with run_worker(settings):  # one worker throughout: its startup sweep is over
        first = await client.upload_result(content)
        report_id = await report_uuid(session_factory)
        await wait_for_report(session_factory, report_id, ReportStatus.PARSED)
        async with session_factory() as session, session.begin():  # as a parse job that failed leaves it
            await session.execute(
                update(Report)
                .where(Report.id == report_id)
                .values(status=ReportStatus.PARSING, parse_attempts=1)
            )

        again = await client.upload_result(content)
        report = await wait_for_report(session_factory, report_id, ReportStatus.PARSED, timeout=15)

    assert first["__typename"] == again["__typename"] == "UploadReportSuccess"
    assert (again["created"], again["report"]["status"]) == (False, "PARSING")
    assert (report.page_count, report.parse_attempts) == (PAGES, 2)


async def report_uuid(session_factory: SessionFactory) -> uuid.UUID:
    async with session_factory() as session:
        [report_id] = list(await session.scalars(select(Report.id)))
        return report_id


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_parse_job_that_cannot_reach_the_database_is_retried_with_backoff(
    settings: Settings, event_log: EventLog
) -> None:
    engine = create_engine(f"postgresql://u:p@127.0.0.1:{free_port()}/none")
    ctx = {
        "settings": settings,
        "session_factory": create_session_factory(engine),
        "event_log": event_log,
        "job_try": 3,
    }
    try:
        with pytest.raises(Retry) as retry:
            await parse_report(ctx, str(uuid.uuid4()))
    finally:
        await engine.dispose()
    assert retry.value.defer_score == 4000  # 1 s, 2 s, 4 s …: the third try waits 4 s
