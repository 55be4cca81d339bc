"""Unit tests for app/documents/pdf.py against PDFs generated in tests/fixtures/pdfs.py."""

from __future__ import annotations

import re

import pytest

from app.documents.pdf import (
    PdfInfo,
    PdfProblem,
    PdfRejected,
    inspect_pdf,
    open_pdf,
    page_marker,
    pages_to_markdown,
    read_pages,
)
from tests.fixtures import pdfs

MAX_BYTES = 50 * 1024 * 1024
MAX_PAGES = 500
MIN_TEXT_CHARS = 40


def _inspect(data: bytes, *, max_bytes: int = MAX_BYTES, max_pages: int = MAX_PAGES) -> PdfInfo:
    return inspect_pdf(data, max_bytes=max_bytes, max_pages=max_pages, min_text_chars=MIN_TEXT_CHARS)


def _normalise(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def report() -> pdfs.SyntheticReport:
    return pdfs.synthetic_report(12)


@pytest.mark.parametrize(
    ("data_factory", "problem"),
    [
        (lambda: b"", PdfProblem.EMPTY_FILE),
        (pdfs.not_a_pdf, PdfProblem.NOT_A_PDF),
        (pdfs.encrypted_pdf, PdfProblem.ENCRYPTED),
        (pdfs.corrupt_pdf, PdfProblem.CORRUPT),
        (pdfs.truncated_pdf, PdfProblem.TRUNCATED),
        (pdfs.zero_page_pdf, PdfProblem.NO_PAGES),
        (pdfs.scanned_pdf, PdfProblem.NO_TEXT_LAYER),
    ],
    ids=["empty", "not-a-pdf", "encrypted", "corrupt", "truncated", "no-pages", "scanned"],
)
def test_bad_input_is_rejected_with_its_problem_and_a_message(data_factory, problem: PdfProblem) -> None:
    with pytest.raises(PdfRejected) as caught:
        _inspect(data_factory())

    assert caught.value.problem is problem
    assert caught.value.message.strip()
    assert str(caught.value) == caught.value.message


def test_file_over_the_byte_limit_is_too_large() -> None:
    data = pdfs.large_pdf(300_000)

    with pytest.raises(PdfRejected) as caught:
        _inspect(data, max_bytes=200_000)

    assert caught.value.problem is PdfProblem.TOO_LARGE
    assert "MB" in caught.value.message


def test_large_pdf_passes_when_the_limit_allows_it() -> None:
    data = pdfs.large_pdf(300_000)

    assert len(data) > 300_000
    assert _inspect(data, max_bytes=len(data)) == PdfInfo(page_count=1)


def test_pdf_over_the_page_limit_has_too_many_pages() -> None:
    with pytest.raises(PdfRejected) as caught:
        _inspect(pdfs.many_pages_pdf(6), max_pages=5)

    assert caught.value.problem is PdfProblem.TOO_MANY_PAGES
    assert "6 pages" in caught.value.message
    assert "5" in caught.value.message


def test_pdf_at_the_page_limit_passes() -> None:
    assert _inspect(pdfs.many_pages_pdf(5), max_pages=5) == PdfInfo(page_count=5)


def test_the_first_problem_wins_when_a_file_has_several() -> None:
    # Empty beats every limit; size is checked before the header.
    with pytest.raises(PdfRejected) as empty:
        _inspect(b"", max_bytes=1)
    with pytest.raises(PdfRejected) as large:
        _inspect(pdfs.not_a_pdf(), max_bytes=10)

    assert empty.value.problem is PdfProblem.EMPTY_FILE
    assert large.value.problem is PdfProblem.TOO_LARGE


def test_synthetic_report_passes_with_its_page_count(report: pdfs.SyntheticReport) -> None:
    assert _inspect(report.pdf) == PdfInfo(page_count=12)


@pytest.mark.parametrize("page_count", [1, 3, 15])
def test_report_page_count_follows_the_request(page_count: int) -> None:
    report = pdfs.synthetic_report(page_count)

    assert len(report.pages) == page_count
    assert _inspect(report.pdf).page_count == page_count


def test_open_pdf_refuses_corrupt_bytes() -> None:
    with pytest.raises(PdfRejected) as caught:
        open_pdf(pdfs.corrupt_pdf())

    assert caught.value.problem is PdfProblem.CORRUPT


def test_read_pages_keeps_each_planted_sentence_on_its_page(report: pdfs.SyntheticReport) -> None:
    with open_pdf(report.pdf) as document:
        pages = read_pages(document, 1, 12)

    assert [number for number, _ in pages] == list(range(1, 13))
    for number, text in pages:
        extracted = _normalise(text)
        for sentence in report.sentences_on(number):
            assert sentence in extracted, f"page {number} lacks {sentence!r}"
        for other in range(1, 13):
            if other != number:
                tag = report.sentences_on(other)[-1]
                assert tag not in extracted, f"page {number} holds page {other}'s tag"


def test_read_pages_reads_a_middle_range_and_clips_at_the_end(report: pdfs.SyntheticReport) -> None:
    with open_pdf(report.pdf) as document:
        middle = read_pages(document, 4, 6)
        tail = read_pages(document, 11, 40)

    assert [number for number, _ in middle] == [4, 5, 6]
    assert "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023." in _normalise(middle[1][1])
    assert [number for number, _ in tail] == [11, 12]


def test_page_marker_format() -> None:
    assert page_marker(7) == "<!-- PAGE 7 -->"


def test_markdown_has_every_marker_once_in_order_with_its_page_between(
    report: pdfs.SyntheticReport,
) -> None:
    with open_pdf(report.pdf) as document:
        markdown = pages_to_markdown(read_pages(document, 1, 12))

    assert [int(n) for n in re.findall(r"<!-- PAGE (\d+) -->", markdown)] == list(range(1, 13))
    starts = []
    for number in range(1, 13):
        assert markdown.count(page_marker(number)) == 1
        starts.append(markdown.index(page_marker(number)))
    assert starts == sorted(starts)
    ends = [*starts[1:], len(markdown)]
    for number, (start, end) in enumerate(zip(starts, ends, strict=True), start=1):
        section = _normalise(markdown[start:end])
        for sentence in report.sentences_on(number):
            assert sentence in section, f"page {number}'s section lacks {sentence!r}"


def test_synthetic_report_text_is_deterministic(report: pdfs.SyntheticReport) -> None:
    again = pdfs.synthetic_report(12)

    assert again.pages == report.pages
    assert report.sentences_on(5)[0] == "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023."
    assert report.sentences_on(12)[-1] == "Northwind page marker sentence 12 of 12."
