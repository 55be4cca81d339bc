"""parse_report is idempotent and single-flight; the startup sweep recovers stuck reports."""

from __future__ import annotations

import asyncio
import time
import uuid

from arq import create_pool
from arq.connections import RedisSettings
from sqlalchemy import func, select, update

from app.config import Settings
from app.db.models import Event, Report, ReportFile, ReportPage, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.parsing import ParseOutcome, parse_report
from tests.conftest import run_worker
from tests.fixtures import pdfs
from tests.workers.test_parse_isolation import upload
from workers.recovery import requeue_unfinished_parses


async def stored_report(
    session_factory: SessionFactory, event_log: EventLog, settings: Settings, pages: int
) -> uuid.UUID:
    return await upload(session_factory, event_log, settings, pdfs.synthetic_report(page_count=pages).pdf)


async def snapshot(session_factory: SessionFactory, report_id: uuid.UUID) -> tuple[object, ...]:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
        assert report is not None
        pages = (
            await session.execute(
                select(ReportPage.number, ReportPage.text)
                .where(ReportPage.report_id == report_id)
                .order_by(ReportPage.number)
            )
        ).all()
        events = await session.scalar(
            select(func.count()).select_from(Event).where(Event.report_id == report_id)
        )
        return report.status, report.page_count, report.parsed_at, tuple(pages), events


async def test_running_parse_twice_changes_nothing(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await stored_report(session_factory, event_log, settings, pages=5)

    first = await parse_report(session_factory, event_log, report_id, progress_every=2)
    after_first = await snapshot(session_factory, report_id)
    second = await parse_report(session_factory, event_log, report_id, progress_every=2)

    assert first is ParseOutcome.PARSED
    assert second is ParseOutcome.SKIPPED_DONE
    assert await snapshot(session_factory, report_id) == after_first
    assert after_first[0] is ReportStatus.PARSED
    assert len(after_first[3]) == 5


async def test_concurrent_parses_of_one_report_run_once(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await stored_report(session_factory, event_log, settings, pages=9)

    outcomes = await asyncio.gather(
        *(parse_report(session_factory, event_log, report_id, progress_every=1) for _ in range(3))
    )

    assert sorted(outcomes).count(ParseOutcome.PARSED) == 1
    assert set(outcomes) - {ParseOutcome.PARSED} <= {ParseOutcome.SKIPPED_BUSY, ParseOutcome.SKIPPED_DONE}
    types = [event.event_type for event in await event_log.replay(report_id)]
    assert types.count("parse_started") == 1
    assert types.count("parse_completed") == 1


async def test_startup_sweep_finishes_a_report_left_in_parsing(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await stored_report(session_factory, event_log, settings, pages=4)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(Report).where(Report.id == report_id).values(status=ReportStatus.PARSING)
        )
        session.add(ReportPage(report_id=report_id, number=1, text="half-written by a worker that died"))
    pool = await create_pool(RedisSettings.from_dsn(settings.require_redis_url()))

    queued = await requeue_unfinished_parses(session_factory, pool)
    async with run_worker(settings):
        deadline = time.monotonic() + 60  # a worker's start and a document process's, on a slow machine
        while (snapshotted := await snapshot(session_factory, report_id))[0] is not ReportStatus.PARSED:
            assert time.monotonic() < deadline, f"report still {snapshotted[0]}"
            await asyncio.sleep(0.05)
        status, page_count, _, pages, _ = snapshotted
    await pool.aclose()

    assert queued == 1
    assert status is ReportStatus.PARSED
    assert page_count == 4
    assert [number for number, _ in pages] == [1, 2, 3, 4]
    assert "half-written" not in pages[0][1]


async def test_unreadable_stored_file_ends_in_error_with_a_plain_message(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await stored_report(session_factory, event_log, settings, pages=2)
    async with session_factory() as session, session.begin():
        damaged = update(ReportFile).values(content=b"%PDF-1.7 garbage %%EOF")
        await session.execute(damaged.where(ReportFile.report_id == report_id))

    outcome = await parse_report(session_factory, event_log, report_id, progress_every=2)

    async with session_factory() as session:
        report = await session.get(Report, report_id)
    assert outcome is ParseOutcome.FAILED
    assert report is not None and report.status is ReportStatus.ERROR
    assert report.error_message is not None and "damaged" in report.error_message
    events = await event_log.replay(report_id)
    assert events[-1].event_type == "parse_failed"
    assert events[-1].data == {"message": report.error_message}
