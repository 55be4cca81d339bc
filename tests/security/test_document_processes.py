"""Document processes one tenant cannot break for everyone.

A PDF that exhausts its document process's memory does not leave that process to fail the next
tenant's pages; idle processes are shared out least recently used first; a file whose few KB
expand to megabytes of text is refused, at upload or at parse, in plain words; and one
organisation cannot hold every document process.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Report, ReportStatus
from app.db.session import SessionFactory
from app.documents.page_images import render_page
from app.documents.pdf import PdfProblem, PdfRejected
from app.documents.processes import DocumentProcesses
from app.documents.reading import inspect_document
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from app.services.parsing import ParseOutcome, parse_report
from app.services.uploads import accept_upload
from tests.fixtures import pdfs
from tests.fixtures.bomb_pdfs import memory_bomb_pdf, text_bomb_pdf
from tests.support import document_work, held_work
from tests.support.graphql import GraphQLClient


@pytest.fixture
def report_path(tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdfs.synthetic_report(3).pdf)
    return str(path)


@pytest.fixture
def one_small_process() -> Iterator[DocumentProcesses]:
    """One document process with 300 MB of address space: a 16 MB memory bomb exhausts it in a second."""
    pool = DocumentProcesses(size=1, timeout_seconds=60.0, memory_mb=300)
    yield pool
    pool.close()


async def test_a_memory_bomb_is_refused_and_the_process_it_exhausted_is_not_reused(
    one_small_process: DocumentProcesses, report_path: str
) -> None:
    exhausted = await one_small_process.call(document_work.pid)

    with pytest.raises(PdfRejected) as refused:
        await one_small_process.call(inspect_document, memory_bomb_pdf(16), 10**8, 500, 40)

    assert refused.value.problem is PdfProblem.CORRUPT and "failed" in refused.value.message
    assert exhausted not in one_small_process.pids()
    image = await one_small_process.call(render_page, report_path, 1, 1.0, [])
    assert image.png.startswith(b"\x89PNG")
    assert await one_small_process.call(document_work.pid) != exhausted


async def test_idle_processes_are_handed_out_least_recently_used_first(tmp_path: Path) -> None:
    pool = DocumentProcesses(size=2, timeout_seconds=60.0, memory_mb=512)
    first_done, second_done = tmp_path / "first", tmp_path / "second"
    try:
        first = asyncio.create_task(pool.call(held_work.pid_when_file_exists, str(first_done)))
        second = asyncio.create_task(pool.call(held_work.pid_when_file_exists, str(second_done)))
        first_done.touch()
        returned_first = await first
        second_done.touch()
        returned_last = await second

        assert returned_first != returned_last
        assert await pool.call(document_work.pid) == returned_first
        assert await pool.call(document_work.pid) == returned_last
    finally:
        pool.close()


async def test_a_text_bomb_upload_is_refused_as_text_too_large(client: GraphQLClient) -> None:
    bomb = text_bomb_pdf(4)  # 15 KB on disk, 4 MB of text on its one page

    result = await client.upload_result(bomb)

    assert result["__typename"] == "UploadReportError"
    assert result["code"] == "TEXT_TOO_LARGE" and result["field"] == "file"
    assert "far more text than a report" in result["message"]


async def test_a_text_bomb_past_the_first_page_fails_its_parse_in_plain_words(
    clean_db: None, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    bomb = text_bomb_pdf(1, pages=20, opening_page=True)  # an ordinary page 1, then 1 MB of text a page
    upload = await accept_upload(
        session_factory,
        event_log,
        settings,
        filename="bomb.pdf",
        content=bomb,
        company_name=None,
        organisation_id=LOCAL_ORGANISATION_ID,
    )
    pool = DocumentProcesses(size=1, timeout_seconds=60.0, memory_mb=1024)
    try:
        outcome = await parse_report(
            session_factory, event_log, upload.report.id, progress_every=2, documents=pool, max_attempts=3
        )
    finally:
        pool.close()

    assert outcome is ParseOutcome.FAILED
    status, message = await status_and_error(session_factory, upload.report.id)
    assert status is ReportStatus.ERROR
    assert message is not None and message.startswith("The PDF holds far more text than a report: by page 3")


async def test_one_organisation_cannot_hold_every_document_process(tmp_path: Path) -> None:
    pool = DocumentProcesses(size=2, timeout_seconds=60.0, memory_mb=512)
    released = tmp_path / "released"
    crowd, other = uuid.uuid4(), uuid.uuid4()
    try:
        crowding = [
            asyncio.create_task(pool.call(held_work.pid_when_file_exists, str(released), organisation=crowd))
            for _ in range(2)
        ]
        await asyncio.sleep(0)  # both ask for a process before the other organisation does

        served = await asyncio.wait_for(pool.call(document_work.pid, organisation=other), 30)

        assert served > 0 and pool.slots.held() == {crowd: 1}
        released.touch()
        assert all(pid > 0 for pid in await asyncio.gather(*crowding))
    finally:
        released.touch()
        pool.close()


async def status_and_error(
    session_factory: SessionFactory, report_id: uuid.UUID
) -> tuple[ReportStatus, str | None]:
    async with session_factory() as session:
        row = (
            await session.execute(select(Report.status, Report.error_message).where(Report.id == report_id))
        ).one()
        return row.status, row.error_message
