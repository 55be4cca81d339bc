"""Document processes: a PDF that kills its reader fails alone, typed; the caller lives on."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.documents.pdf import PdfProblem, PdfRejected
from app.documents.processes import DocumentCrashed, DocumentFailed, DocumentProcesses, DocumentTimedOut
from app.documents.reading import inspect_document, read_page_range
from app.documents.text import storable
from tests.fixtures.damaged_pdfs import empty_page_tree_pdf, nul_text_pdf
from tests.support import document_work


@pytest.fixture
def processes() -> Iterator[DocumentProcesses]:
    pool = DocumentProcesses(size=2, timeout_seconds=5.0, memory_mb=512)
    yield pool
    pool.close()


async def test_a_crash_fails_only_its_own_call_and_the_next_call_gets_a_fresh_process(
    processes: DocumentProcesses,
) -> None:
    crashed, survivor = await asyncio.gather(
        processes.call(document_work.crash), processes.call(document_work.sleep, 0.5), return_exceptions=True
    )
    assert isinstance(crashed, DocumentCrashed) and "signal 9" in str(crashed)
    assert survivor == "slept"
    assert await processes.call(document_work.pid) > 0  # the dead process was replaced


async def test_a_call_past_its_time_limit_is_stopped(processes: DocumentProcesses) -> None:
    slow = DocumentProcesses(size=1, timeout_seconds=0.5, memory_mb=512)
    try:
        with pytest.raises(DocumentTimedOut, match="longer than 0.5 s"):
            await slow.call(document_work.sleep, 30)
        assert await slow.call(document_work.sleep, 0) == "slept"
    finally:
        slow.close()


async def test_a_document_over_the_memory_limit_fails_typed(processes: DocumentProcesses) -> None:
    with pytest.raises(DocumentFailed, match="more memory"):
        await processes.call(document_work.allocate, 1024)
    assert await processes.call(document_work.allocate, 1) == 1024 * 1024


async def test_refusals_arrive_typed_and_library_errors_are_corrupt(processes: DocumentProcesses) -> None:
    with pytest.raises(PdfRejected) as refused:
        await processes.call(inspect_document, empty_page_tree_pdf(), 10**7, 500, 40)
    assert refused.value.problem is PdfProblem.CORRUPT


async def test_page_text_is_made_storable_and_the_removal_counted(processes: DocumentProcesses) -> None:
    batch = await processes.call(read_page_range, nul_text_pdf(), 1, 1)
    [(number, text)] = batch.pages
    assert number == 1 and "\x00" not in text and "412 megalitres" in text
    assert batch.removed_characters == 2
    assert storable("a\x00b\ud800c") == ("abc", 2)
