"""Document processes: a PDF that kills its reader fails alone, typed; the caller lives on; a process
short of memory is not reused; the time limit times the call, not the start of a process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.documents.pdf import PdfProblem, PdfRejected
from app.documents.processes import (
    DocumentCrashed,
    DocumentFailed,
    DocumentProcesses,
    DocumentProcessUnavailable,
    DocumentTimedOut,
    ran_out_of_memory,
)
from app.documents.reading import inspect_document, read_page_range
from app.documents.text import storable
from tests.fixtures.damaged_pdfs import empty_page_tree_pdf, nul_text_pdf
from tests.support import document_work, held_work


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


async def test_a_call_past_its_time_limit_is_stopped() -> None:
    slow = DocumentProcesses(size=1, timeout_seconds=1.0, memory_mb=512)
    try:
        with pytest.raises(DocumentTimedOut, match="longer than 1 s"):
            await slow.call(document_work.sleep, 60)
        assert slow.pids() == []  # the stopped process is not reused
        assert await slow.call(document_work.sleep, 0) == "slept"  # a fresh one; its start is not timed
    finally:
        slow.close()


async def test_the_time_limit_counts_the_call_not_the_start_of_a_fresh_process() -> None:
    starting_slowly = DocumentProcesses(
        size=1, timeout_seconds=1.0, memory_mb=512, modules=("tests.support.slow_start",)
    )
    try:
        assert await starting_slowly.call(document_work.sleep, 0) == "slept"  # started in 2 s, ran in 1
    finally:
        starting_slowly.close()


async def test_a_process_that_does_not_start_in_time_is_an_unexpected_error() -> None:
    never_ready = DocumentProcesses(
        size=1,
        timeout_seconds=5.0,
        memory_mb=512,
        startup_timeout_seconds=0.2,
        modules=("tests.support.slow_start",),
    )
    try:
        with pytest.raises(DocumentProcessUnavailable, match="did not start within 0.2 s"):
            await never_ready.call(document_work.sleep, 0, organisation="a")
        assert never_ready.pids() == [] and never_ready.slots.held() == {}  # the slot was given back
    finally:
        never_ready.close()


async def test_a_document_over_the_memory_limit_fails_typed_and_retires_its_process(
    processes: DocumentProcesses,
) -> None:
    with pytest.raises(DocumentFailed, match="more memory"):
        await processes.call(document_work.allocate, 1024)
    assert processes.pids() == []
    assert await processes.call(document_work.allocate, 1) == 1024 * 1024


async def test_a_process_that_used_half_its_free_memory_is_retired(processes: DocumentProcesses) -> None:
    holder = await processes.call(held_work.hold, 300)  # of the ~400 MB of 512 free at the start

    assert holder not in processes.pids()
    assert await processes.call(document_work.pid) != holder


async def test_a_process_left_with_little_memory_in_use_is_reused(processes: DocumentProcesses) -> None:
    holder = await processes.call(held_work.hold, 8)

    assert await processes.call(document_work.pid) == holder


@pytest.mark.parametrize(
    "error",
    [
        MemoryError(),
        RuntimeError("code=2: malloc (438468768 bytes) failed"),
        RuntimeError("code=2: calloc (4104 x 1 bytes) failed"),
        OSError("[Errno 12] Cannot allocate memory"),
    ],
    ids=["MemoryError", "malloc", "calloc", "ENOMEM"],
)
def test_allocation_failures_are_recognised_even_wrapped_in_a_refusal(error: Exception) -> None:
    assert ran_out_of_memory(error)
    try:
        raise PdfRejected(PdfProblem.CORRUPT, f"The PDF is damaged and cannot be read ({error}).") from error
    except PdfRejected as refusal:
        assert ran_out_of_memory(refusal)


def test_other_errors_are_not_allocation_failures() -> None:
    assert not ran_out_of_memory(RuntimeError("code=7: cannot find object in xref (12 0 R)"))
    assert not ran_out_of_memory(PdfRejected(PdfProblem.CORRUPT, "The PDF is damaged."))


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
