"""uploadReport: good PDFs parse; bad input gets a typed error and stores nothing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pymupdf
import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import Event, Report, ReportFile, ReportPage
from app.db.session import SessionFactory
from tests.conftest import make_settings, serve_api
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.reports import shared_report_paths, wait_for_status
from tests.support.services import RunningServices

MARKDOWN = "query Markdown($id: ID!) { report(id: $id) { pageCount markdown } }"
MARKER = re.compile(r"<!-- PAGE (\d+) -->")


def normalise(text: str) -> str:
    return " ".join(text.split())


def page_sections(markdown: str) -> dict[int, str]:
    """Text between marker k and marker k+1, by k; asserts each marker appears once, in order."""
    numbers = [int(n) for n in MARKER.findall(markdown)]
    assert numbers == list(range(1, len(numbers) + 1))
    parts = MARKER.split(markdown)
    return {int(parts[i]): normalise(parts[i + 1]) for i in range(1, len(parts), 2)}


async def upload_and_parse(
    client: GraphQLClient, content: bytes, **kwargs: object
) -> tuple[str, dict[str, object]]:
    result = await client.upload_result(content, **kwargs)
    assert result["__typename"] == "UploadReportSuccess", result
    report_id = result["report"]["id"]
    state = await wait_for_status(client, report_id, "PARSED", "ERROR")
    assert state["status"] == "PARSED", state
    return report_id, (await client.data(MARKDOWN, id=report_id))["report"]


async def test_generated_report_parses_with_each_sentence_on_its_page(
    client: GraphQLClient, worker: object
) -> None:
    report = pdfs.synthetic_report()

    report_id, parsed = await upload_and_parse(client, report.pdf, company_name="Northwind Minerals plc")

    assert parsed["pageCount"] == len(report.pages)
    sections = page_sections(str(parsed["markdown"]))
    assert len(sections) == len(report.pages)
    for number in range(1, len(report.pages) + 1):
        for sentence in report.sentences_on(number):
            assert normalise(sentence) in sections[number], (number, sentence)
            others = [k for k, text in sections.items() if k != number and normalise(sentence) in text]
            assert others == [], (sentence, others)


def _distinctive_line(document: pymupdf.Document, page_index: int) -> str | None:
    """A line of page `page_index` long enough to be unique in the whole document."""
    full = normalise(" ".join(page.get_text() for page in document))
    for line in document[page_index].get_text().splitlines():
        candidate = normalise(line)
        if len(candidate) >= 25 and full.count(candidate) == 1:
            return candidate
    return None


@pytest.mark.shared_data
@pytest.mark.parametrize("path", shared_report_paths(), ids=lambda path: path.stem)
async def test_shared_report_parses_with_pages_in_place(
    client: GraphQLClient, worker: object, path: Path
) -> None:
    content = path.read_bytes()
    with pymupdf.open(stream=content, filetype="pdf") as document:
        expected_pages = document.page_count
        probes = {
            index + 1: line
            for index in {1, expected_pages // 2, expected_pages - 2}
            if (line := _distinctive_line(document, index)) is not None
        }

    _, parsed = await upload_and_parse(client, content)

    assert parsed["pageCount"] == expected_pages
    sections = page_sections(str(parsed["markdown"]))
    assert len(sections) == expected_pages
    assert probes, "no distinctive line found to probe"
    for number, line in probes.items():
        assert line in sections[number], (number, line)


async def test_same_bytes_twice_return_the_existing_report(client: GraphQLClient, worker: object) -> None:
    content = pdfs.synthetic_report(page_count=3).pdf

    first = await client.upload_result(content, filename="a.pdf")
    second = await client.upload_result(content, filename="b.pdf")

    assert first["created"] is True
    assert second["created"] is False
    assert second["report"]["id"] == first["report"]["id"]
    assert second["report"]["filename"] == "a.pdf"


BAD_INPUTS: list[tuple[str, Callable[[], bytes], str]] = [
    ("empty", lambda: b"", "EMPTY_FILE"),
    ("not a pdf", pdfs.not_a_pdf, "NOT_A_PDF"),
    ("encrypted", pdfs.encrypted_pdf, "ENCRYPTED"),
    ("corrupt", pdfs.corrupt_pdf, "CORRUPT"),
    ("truncated", pdfs.truncated_pdf, "TRUNCATED"),
    ("zero pages", pdfs.zero_page_pdf, "NO_PAGES"),
    ("scanned", pdfs.scanned_pdf, "NO_TEXT_LAYER"),
    ("too many pages", lambda: pdfs.many_pages_pdf(7), "TOO_MANY_PAGES"),
    ("too large", lambda: pdfs.large_pdf(300_000), "TOO_LARGE"),
]


@pytest.fixture(scope="module")
async def strict_api(services: RunningServices) -> AsyncIterator[str]:
    """An API with small limits so the limit errors are cheap to provoke."""
    strict: Settings = make_settings(services, max_pages=5, max_upload_bytes=200_000)
    async with serve_api(strict) as url:
        yield url


async def _stored_counts(session_factory: SessionFactory) -> list[int]:
    async with session_factory() as session:
        return [
            await session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Report, ReportFile, ReportPage, Event)
        ]


@pytest.mark.parametrize(("name", "make", "code"), BAD_INPUTS, ids=[name for name, _, _ in BAD_INPUTS])
async def test_bad_input_gets_typed_error_and_stores_nothing(
    strict_api: str,
    api_key: str,
    session_factory: SessionFactory,
    name: str,
    make: Callable[[], bytes],
    code: str,
) -> None:
    client = GraphQLClient(strict_api, api_key)
    try:
        result = await client.upload_result(make(), filename=f"{name}.pdf")
    finally:
        await client.aclose()

    assert result["__typename"] == "UploadReportError"
    assert result["code"] == code
    assert result["field"] == "file"
    assert len(result["message"]) > 10
    assert await _stored_counts(session_factory) == [0, 0, 0, 0]


async def test_overlong_company_name_is_refused(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    result = await client.upload_result(pdfs.synthetic_report(page_count=2).pdf, company_name="x" * 300)

    assert result == {
        "__typename": "UploadReportError",
        "code": "INVALID_INPUT",
        "message": result["message"],
        "field": "companyName",
    }
    assert await _stored_counts(session_factory) == [0, 0, 0, 0]


async def test_the_companys_identifiers_are_kept_and_a_mistyped_one_refused(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    pdf = pdfs.synthetic_report(page_count=2).pdf
    refused = await client.upload_result(pdf, company_name="Vexmoor AG", isin="DE0007236102")
    accepted = await client.upload_result(pdf, company_name="Vexmoor AG", isin=" de0007236101 ")

    assert (refused["code"], refused["field"]) == ("INVALID_INPUT", "isin")
    assert "is not an ISIN" in refused["message"]
    assert accepted["__typename"] == "UploadReportSuccess"
    report = await client.data(
        "query($id: ID!) { report(id: $id) { isin lei } }", id=accepted["report"]["id"]
    )
    assert report["report"] == {"isin": "DE0007236101", "lei": None}


async def test_multipart_without_preflight_header_is_refused(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    response = await client.upload(pdfs.synthetic_report(page_count=2).pdf, preflight=False)

    assert response.status_code == 400
    assert "Apollo-Require-Preflight" in response.json()["errors"][0]["message"]
    assert await _stored_counts(session_factory) == [0, 0, 0, 0]
