"""Parsing in document processes: a reader killed mid-parse fails its report only; a report whose
parses keep dying is given up on; text that Postgres refuses is cleaned."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select, update

from app.config import Settings
from app.db.models import Event, Report, ReportStatus
from app.db.session import SessionFactory
from app.documents.processes import DocumentProcesses
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from app.services.parsing import ParseOutcome, parse_report, reports_needing_parse
from app.services.uploads import accept_upload
from tests.fixtures import pdfs
from tests.fixtures.damaged_pdfs import nul_text_pdf
from tests.support import document_work

T = TypeVar("T")


async def upload(
    session_factory: SessionFactory, event_log: EventLog, settings: Settings, content: bytes
) -> uuid.UUID:
    outcome = await accept_upload(
        session_factory,
        event_log,
        settings,
        filename="r.pdf",
        content=content,
        company_name=None,
        organisation_id=LOCAL_ORGANISATION_ID,
    )
    return outcome.report.id


async def status_of(
    session_factory: SessionFactory, report_id: uuid.UUID
) -> tuple[ReportStatus, str | None, int]:
    async with session_factory() as session:
        report = await session.get(Report, report_id)
        assert report is not None
        return report.status, report.error_message, report.parse_attempts


class CrashingOnThirdRead(DocumentProcesses):
    """Document processes whose third read dies the way a segfault in the PDF library does."""

    calls = 0

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        self.calls += 1
        if self.calls == 3:
            return await super().call(document_work.crash, **kwargs)  # type: ignore[arg-type]
        return await super().call(function, *args, **kwargs)


async def test_a_reader_killed_mid_parse_fails_that_report_only(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    victim_id = await upload(session_factory, event_log, settings, pdfs.synthetic_report(page_count=40).pdf)
    other_id = await upload(session_factory, event_log, settings, pdfs.synthetic_report(page_count=41).pdf)
    victim_pool, other_pool = CrashingOnThirdRead(1, 60.0, 1024), DocumentProcesses(1, 60.0, 1024)
    try:
        outcomes = await asyncio.gather(
            parse_report(
                session_factory, event_log, victim_id, progress_every=2, documents=victim_pool, max_attempts=3
            ),
            parse_report(
                session_factory, event_log, other_id, progress_every=2, documents=other_pool, max_attempts=3
            ),
        )
    finally:
        victim_pool.close()
        other_pool.close()

    assert outcomes == [ParseOutcome.FAILED, ParseOutcome.PARSED]
    status, message, _ = await status_of(session_factory, victim_id)
    assert (
        status is ReportStatus.ERROR
        and message is not None
        and "crashed" in message
        and "signal 9" in message
    )
    assert (await status_of(session_factory, other_id))[0] is ReportStatus.PARSED


async def test_a_report_whose_parses_keep_dying_is_given_up_and_not_requeued(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await upload(session_factory, event_log, settings, pdfs.synthetic_report(page_count=3).pdf)
    # Three parse jobs already started and died (say the worker was killed each time).
    async with session_factory() as session, session.begin():
        await session.execute(
            update(Report).where(Report.id == report_id).values(status=ReportStatus.PARSING, parse_attempts=3)
        )
    assert report_id in {found for found, _ in await reports_needing_parse(session_factory)}

    outcome = await parse_report(session_factory, event_log, report_id, progress_every=2, max_attempts=3)

    assert outcome is ParseOutcome.GAVE_UP
    status, message, attempts = await status_of(session_factory, report_id)
    assert (status, attempts) == (ReportStatus.ERROR, 4)
    assert message is not None and "abandoned after 3 attempts" in message
    assert report_id not in {found for found, _ in await reports_needing_parse(session_factory)}


async def test_an_attempt_is_counted_and_unstorable_text_is_cleaned(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    report_id = await upload(session_factory, event_log, settings, nul_text_pdf())

    assert await parse_report(session_factory, event_log, report_id, progress_every=2) is ParseOutcome.PARSED

    status, _, attempts = await status_of(session_factory, report_id)
    assert (status, attempts) == (ReportStatus.PARSED, 1)
    async with session_factory() as session:
        completed = await session.scalar(
            select(Event).where(Event.report_id == report_id, Event.event_type == "parse_completed")
        )
    assert completed is not None and completed.data["removedCharacters"] == 2
