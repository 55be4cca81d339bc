"""PDF validation and page-text extraction with PyMuPDF.

`inspect_pdf` decides quickly, before anything is stored, whether bytes are a PDF Sibyl can read;
`extract_pages` then yields each page's text for the parse job.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pymupdf

from app.documents.text import TextBudget, TextLimit

PDF_MAGIC = b"%PDF-"
EOF_MARKER = b"%%EOF"
HEADER_WINDOW = 1024
TRAILER_WINDOW = 2048


class PdfProblem(enum.StrEnum):
    """Why a file was refused."""

    EMPTY_FILE = "EMPTY_FILE"
    NOT_A_PDF = "NOT_A_PDF"
    ENCRYPTED = "ENCRYPTED"
    CORRUPT = "CORRUPT"
    TRUNCATED = "TRUNCATED"
    NO_PAGES = "NO_PAGES"
    NO_TEXT_LAYER = "NO_TEXT_LAYER"
    TOO_LARGE = "TOO_LARGE"
    TOO_MANY_PAGES = "TOO_MANY_PAGES"
    TEXT_TOO_LARGE = "TEXT_TOO_LARGE"


class PdfRejected(Exception):
    """The bytes are not a PDF Sibyl can read; `message` says why in plain words."""

    def __init__(self, problem: PdfProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message


@dataclass(frozen=True)
class PdfInfo:
    page_count: int


def inspect_pdf(
    data: bytes, *, max_bytes: int, max_pages: int, min_text_chars: int, text_limit: TextLimit | None = None
) -> PdfInfo:
    """Check that `data` is a readable, unencrypted, text-bearing PDF within the limits (the pages
    it reads for the text-layer check count against `text_limit`).

    Raises:
        PdfRejected: with the first problem found.
    """
    _check_envelope(data, max_bytes)
    document = _open(data)
    with document:
        if document.needs_pass:
            raise PdfRejected(PdfProblem.ENCRYPTED, "The PDF is password-protected; upload it unencrypted.")
        page_count = document.page_count
        if page_count == 0:
            raise PdfRejected(PdfProblem.NO_PAGES, "The PDF has no pages.")
        if page_count > max_pages:
            raise PdfRejected(
                PdfProblem.TOO_MANY_PAGES,
                f"The PDF has {page_count} pages; the limit is {max_pages}.",
            )
        budget = TextBudget(text_limit, len(data), page_count) if text_limit else None
        _check_text_layer(document, min_text_chars, budget)
        return PdfInfo(page_count=page_count)


def _check_envelope(data: bytes, max_bytes: int) -> None:
    if not data:
        raise PdfRejected(PdfProblem.EMPTY_FILE, "The file is empty.")
    if len(data) > max_bytes:
        raise PdfRejected(
            PdfProblem.TOO_LARGE,
            f"The file is {len(data) / 1_048_576:.1f} MB; the limit is {max_bytes / 1_048_576:.1f} MB.",
        )
    if PDF_MAGIC not in data[:HEADER_WINDOW]:
        raise PdfRejected(PdfProblem.NOT_A_PDF, "The file is not a PDF (it has no %PDF- header).")
    if EOF_MARKER not in data[-TRAILER_WINDOW:]:
        raise PdfRejected(
            PdfProblem.TRUNCATED,
            "The PDF is truncated (it does not end with %%EOF); the upload may have been cut off.",
        )


def _open(data: bytes) -> pymupdf.Document:
    try:
        return pymupdf.open(stream=data, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise PdfRejected(PdfProblem.CORRUPT, f"The PDF is damaged and cannot be read ({exc}).") from exc


def _check_text_layer(document: pymupdf.Document, min_text_chars: int, budget: TextBudget | None) -> None:
    """Stop at the first pages that add up to enough text; a scan reads to the end and fails."""
    seen = 0
    for number in range(document.page_count):
        text = _page_text(document, number).strip()
        charge_text(budget, number + 1, text)
        seen += len(text)
        if seen >= min_text_chars:
            return
    raise PdfRejected(
        PdfProblem.NO_TEXT_LAYER,
        "The PDF has no text layer (it looks scanned); run OCR on it and upload the result.",
    )


def _page_text(document: pymupdf.Document, index: int) -> str:
    try:
        return str(document.load_page(index).get_text("text"))
    except (RuntimeError, ValueError) as exc:
        raise PdfRejected(
            PdfProblem.CORRUPT, f"Page {index + 1} of the PDF is damaged and cannot be read ({exc})."
        ) from exc


def open_pdf(data: bytes) -> pymupdf.Document:
    """Open PDF bytes for reading pages (use as a context manager).

    Raises:
        PdfRejected: CORRUPT when PyMuPDF cannot open them.
    """
    return _open(data)


def read_pages(
    document: pymupdf.Document, start: int, stop: int, budget: TextBudget | None = None
) -> list[tuple[int, str]]:
    """`(page_number, text)` for 1-based pages `start`..`stop` inclusive (clipped to the document),
    each page's text counted against `budget`.

    Raises:
        PdfRejected: CORRUPT for a page the library cannot read; TEXT_TOO_LARGE once the text
            passes the budget (at that page: the pages after it are not read).
    """
    pages = []
    for number in range(start, min(stop, document.page_count) + 1):
        text = _page_text(document, number - 1).strip()
        charge_text(budget, number, text)
        pages.append((number, text))
    return pages


def charge_text(budget: TextBudget | None, page_number: int, text: str) -> None:
    """Count page `page_number`'s text against the document's budget (None: no limit).

    Raises:
        PdfRejected: TEXT_TOO_LARGE when the document's text is past its budget.
    """
    if budget is not None and budget.spend(text):
        raise PdfRejected(PdfProblem.TEXT_TOO_LARGE, budget.refusal(page_number))


def page_marker(number: int) -> str:
    return f"<!-- PAGE {number} -->"


def pages_to_markdown(pages: list[tuple[int, str]]) -> str:
    """Join page texts, each after its `<!-- PAGE N -->` marker."""
    return "\n\n".join(f"{page_marker(number)}\n\n{text}" for number, text in pages) + "\n"
