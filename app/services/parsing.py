"""The parse step: PDF bytes → page texts and `<!-- PAGE N -->` markdown, with progress events.

Safe to run twice or concurrently: a per-report advisory lock admits one parser at a time (it is
released if the worker dies, with its connection), and a report already past parsing is left alone.

The PDF is read in a document process (`app.documents.processes`): a file that crashes the PDF
library fails its own report, in plain words, and the worker goes on. Each parse job counts its
attempt in Postgres first; a report whose parses keep dying (the worker killed mid-parse, say) is
left in ERROR after `MAX_JOB_ATTEMPTS` and never re-queued. Page text is made storable (no NUL,
no lone surrogates) and the characters removed are counted in `parse_completed`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import os
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import get_settings
from app.db.models import Report, ReportFile, ReportPage, ReportStatus
from app.db.session import SessionFactory
from app.documents.pdf import PdfRejected, pages_to_markdown
from app.documents.processes import (
    DocumentCrashed,
    DocumentFailed,
    DocumentProcesses,
    DocumentTimedOut,
    document_processes,
)
from app.documents.reading import count_pages, read_page_range
from app.documents.text import TextLimit
from app.events import EventLog
from app.metrics.catalogue import PARSE_STAGE_SECONDS, PARSES
from app.metrics.stages import StageClock

logger = logging.getLogger(__name__)

PARSEABLE = (ReportStatus.UPLOADED, ReportStatus.PARSING)


class ParseOutcome(enum.StrEnum):
    PARSED = "parsed"
    FAILED = "failed"
    GAVE_UP = "failed: too many attempts"
    SKIPPED_DONE = "skipped: already parsed or failed"
    SKIPPED_BUSY = "skipped: another worker is parsing it"
    NOT_FOUND = "not found"


async def parse_report(
    session_factory: SessionFactory,
    event_log: EventLog,
    report_id: uuid.UUID,
    *,
    progress_every: int,
    documents: DocumentProcesses | None = None,
    max_attempts: int | None = None,
) -> ParseOutcome:
    """Parse one report under its lock; see the module docstring for the guarantees.

    `documents` and `max_attempts` default to the process's settings.
    """
    outcome = await _parse(session_factory, event_log, report_id, progress_every, documents, max_attempts)
    PARSES.labels(outcome.name.lower()).inc()
    return outcome


async def _parse(
    session_factory: SessionFactory,
    event_log: EventLog,
    report_id: uuid.UUID,
    progress_every: int,
    documents: DocumentProcesses | None,
    max_attempts: int | None,
) -> ParseOutcome:
    if documents is None or max_attempts is None:
        settings = get_settings()
        documents = documents or document_processes(settings)
        max_attempts = max_attempts or settings.max_job_attempts
    async with session_factory() as lock_session:
        lock_key = parse_lock_key(report_id)
        locked = await lock_session.scalar(select(func.pg_try_advisory_lock(lock_key)))
        if not locked:
            return ParseOutcome.SKIPPED_BUSY
        try:
            return await _parse_locked(
                session_factory, event_log, documents, report_id, progress_every, max_attempts
            )
        finally:
            await lock_session.execute(select(func.pg_advisory_unlock(lock_key)))
            await lock_session.commit()


async def _parse_locked(
    session_factory: SessionFactory,
    event_log: EventLog,
    documents: DocumentProcesses,
    report_id: uuid.UUID,
    progress_every: int,
    max_attempts: int,
) -> ParseOutcome:
    async with session_factory() as session, session.begin():
        report = await session.get(Report, report_id)
        if report is None:
            return ParseOutcome.NOT_FOUND
        if report.status not in PARSEABLE:
            return ParseOutcome.SKIPPED_DONE
        attempt = await session.scalar(
            update(Report)
            .where(Report.id == report_id)
            .values(parse_attempts=Report.parse_attempts + 1)
            .returning(Report.parse_attempts)
        )
        content = await session.scalar(select(ReportFile.content).where(ReportFile.report_id == report_id))
        organisation_id = report.organisation_id
    if attempt is not None and attempt > max_attempts:
        await fail_parse(event_log, report_id, abandoned_message(max_attempts))
        return ParseOutcome.GAVE_UP
    if content is None:
        await fail_parse(event_log, report_id, "The uploaded file is missing from storage.")
        return ParseOutcome.FAILED
    try:
        await _parse_content(event_log, documents, report_id, organisation_id, content, progress_every)
    except PdfRejected as exc:
        await fail_parse(event_log, report_id, exc.message)
        return ParseOutcome.FAILED
    except (DocumentCrashed, DocumentTimedOut, DocumentFailed) as exc:
        logger.warning("parsing report %s failed: %s", report_id, exc)
        await fail_parse(event_log, report_id, f"The PDF could not be read: {exc}.")
        return ParseOutcome.FAILED
    return ParseOutcome.PARSED


async def _parse_content(
    event_log: EventLog,
    documents: DocumentProcesses,
    report_id: uuid.UUID,
    organisation_id: uuid.UUID,
    content: bytes,
    progress_every: int,
) -> None:
    started = time.perf_counter()
    clock = StageClock(PARSE_STAGE_SECONDS)
    pages: list[tuple[int, str]] = []
    removed = text_bytes = 0
    text_limit = TextLimit.from_settings(get_settings())
    async with pdf_file(content) as path:  # each batch then sends a path, not the whole PDF
        with clock.stage("count_pages"):
            page_count = await documents.call(count_pages, path, organisation=organisation_id)
        await _mark_parsing(event_log, report_id, page_count)
        for start in range(1, page_count + 1, progress_every):
            stop = start + progress_every - 1
            with clock.stage("read_pages"):
                batch = await documents.call(
                    read_page_range, path, start, stop, text_limit, text_bytes, organisation=organisation_id
                )
            pages.extend(batch.pages)
            removed += batch.removed_characters
            text_bytes += batch.text_bytes
            with clock.stage("store_pages"):
                await _store_batch(event_log, report_id, batch.pages, page_count)
    if removed:
        logger.info("report %s: removed %d unstorable character(s) from its text", report_id, removed)
    with clock.stage("finish"):
        await _mark_parsed(event_log, report_id, pages, time.perf_counter() - started, removed)
    clock.observe()


@asynccontextmanager
async def pdf_file(content: bytes) -> AsyncIterator[str]:
    """The PDF written to a private temporary file for the document processes, removed afterwards."""
    handle, path = await asyncio.to_thread(tempfile.mkstemp, suffix=".pdf", prefix="sibyl-parse-")
    try:
        await asyncio.to_thread(_write_and_close, handle, content)
        yield path
    finally:
        await asyncio.to_thread(os.unlink, path)


def _write_and_close(handle: int, content: bytes) -> None:
    with os.fdopen(handle, "wb") as file:
        file.write(content)


async def _mark_parsing(event_log: EventLog, report_id: uuid.UUID, page_count: int) -> None:
    async with event_log.transaction() as transaction:
        report = await _locked_report(transaction.session, report_id)
        report.status = ReportStatus.PARSING
        report.error_message = None
        await transaction.session.execute(delete(ReportPage).where(ReportPage.report_id == report_id))
        await transaction.emit(report_id, "parse_started", {"pageCount": page_count})


async def _store_batch(
    event_log: EventLog,
    report_id: uuid.UUID,
    batch: list[tuple[int, str]],
    page_count: int,
) -> None:
    if not batch:
        return
    done = batch[-1][0]
    async with event_log.transaction() as transaction:
        rows = [{"report_id": report_id, "number": number, "text": body} for number, body in batch]
        statement = insert(ReportPage).values(rows)
        await transaction.session.execute(
            statement.on_conflict_do_update(
                index_elements=[ReportPage.report_id, ReportPage.number],
                set_={"text": statement.excluded.text},
            )
        )
        await transaction.emit(
            report_id,
            "parse_progress",
            {"pagesParsed": done, "pageCount": page_count, "percent": round(100 * done / page_count, 1)},
        )


async def _mark_parsed(
    event_log: EventLog,
    report_id: uuid.UUID,
    pages: list[tuple[int, str]],
    seconds: float,
    removed_characters: int,
) -> None:
    markdown = pages_to_markdown(pages)
    async with event_log.transaction() as transaction:
        report = await _locked_report(transaction.session, report_id)
        report.status = ReportStatus.PARSED
        report.page_count = len(pages)
        report.parsed_markdown = markdown
        report.parsed_at = func.now()
        await transaction.emit(
            report_id,
            "parse_completed",
            {
                "pageCount": len(pages),
                "characters": sum(len(body) for _, body in pages),
                "seconds": round(seconds, 3),
                "removedCharacters": removed_characters,
            },
        )


def parse_lock_key(report_id: uuid.UUID) -> Any:
    """The per-report advisory lock a parse holds while it runs (released if its worker dies)."""
    return func.hashtextextended(f"parse_report:{report_id}", 0)


def abandoned_message(max_attempts: int) -> str:
    """The error of a report whose parse was started `max_attempts` times without finishing."""
    return (
        f"Parsing was abandoned after {max_attempts} attempts: each one stopped before it finished "
        "(the file may stop the worker that reads it, or the database was unavailable each time)."
    )


async def fail_parse(event_log: EventLog, report_id: uuid.UUID, message: str) -> None:
    """Leave the report in ERROR with `message`, and tell its followers (`parse_failed`)."""
    async with event_log.transaction() as transaction:
        report = await _locked_report(transaction.session, report_id)
        report.status = ReportStatus.ERROR
        report.error_message = message
        await transaction.emit(report_id, "parse_failed", {"message": message})


async def _locked_report(session: AsyncSession, report_id: uuid.UUID) -> Report:
    report = await session.scalar(select(Report).where(Report.id == report_id).with_for_update())
    if report is None:
        raise LookupError(f"report {report_id} vanished while parsing")
    return report


async def reports_needing_parse(session_factory: SessionFactory) -> list[tuple[uuid.UUID, ReportStatus]]:
    """Reports left UPLOADED or PARSING (e.g. by a worker that died), oldest first."""
    async with session_factory() as session:
        rows = await session.execute(
            select(Report.id, Report.status).where(Report.status.in_(PARSEABLE)).order_by(Report.created_at)
        )
        return [(row.id, row.status) for row in rows]


__all__ = [
    "PARSEABLE",
    "ParseOutcome",
    "abandoned_message",
    "fail_parse",
    "parse_lock_key",
    "parse_report",
    "reports_needing_parse",
]
