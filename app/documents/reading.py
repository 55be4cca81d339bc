"""What document processes run (`app.documents.processes`): module-level functions of picklable
arguments and results, each opening the PDF itself. Any error of the PDF library becomes a typed
`PdfRejected`, so a malformed file never surfaces as an unexpected error."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from app.documents.pdf import PdfInfo, PdfProblem, PdfRejected, inspect_pdf, open_pdf, read_pages
from app.documents.text import TextBudget, TextLimit, readable, storable, text_bytes

#: PDF bytes, or the path of a PDF file (cheap to send to a document process again and again).
PdfSource = bytes | str


@dataclass(frozen=True)
class PageBatch:
    """Pages' text as Postgres can store it, how many unstorable characters were removed, and how
    much text the pages yielded (what they spent of the document's `TextBudget`)."""

    pages: list[tuple[int, str]]
    removed_characters: int
    text_bytes: int = 0


@dataclass(frozen=True)
class PdfText:
    """A whole PDF's text, for the evidence library."""

    pages: list[tuple[int, str]]
    title: str | None
    encrypted: bool
    removed_characters: int


def _damaged(exc: Exception) -> PdfRejected:
    return PdfRejected(PdfProblem.CORRUPT, f"The PDF is damaged and cannot be read ({exc}).")


def inspect_document(
    data: bytes, max_bytes: int, max_pages: int, min_text_chars: int, text_limit: TextLimit | None = None
) -> PdfInfo:
    """`inspect_pdf`, with every library error as CORRUPT."""
    try:
        return inspect_pdf(
            data,
            max_bytes=max_bytes,
            max_pages=max_pages,
            min_text_chars=min_text_chars,
            text_limit=text_limit,
        )
    except PdfRejected:
        raise
    except Exception as exc:  # noqa: BLE001 - a malformed file may raise anything from MuPDF
        raise _damaged(exc) from exc


def count_pages(data: PdfSource) -> int:
    """The PDF's page count (the document stays open for the `read_page_range` calls that follow)."""
    try:
        return int(_opened(data).page_count)
    except PdfRejected:
        raise
    except Exception as exc:  # noqa: BLE001
        _forget_opened()
        raise _damaged(exc) from exc


def read_page_range(
    data: PdfSource, start: int, stop: int, text_limit: TextLimit | None = None, text_before: int = 0
) -> PageBatch:
    """Text of 1-based pages `start`..`stop`, made storable.

    A parse reads a document in batches (for progress), so the process keeps the last document it
    opened: reopening a large or repaired PDF for every batch would cost more than reading it. Give
    it the path of the PDF written to a file once, and no batch copies the bytes between processes.
    The whole document's text counts against `text_limit`: `text_before` is what the batches before
    this one yielded (the sum of their `text_bytes`).

    Raises:
        PdfRejected: CORRUPT, or TEXT_TOO_LARGE once the document's text passes its budget.
    """
    try:
        document = _opened(data)
        budget = (
            TextBudget(text_limit, _size_of(data), document.page_count, text_before) if text_limit else None
        )
        raw = read_pages(document, start, stop, budget)
    except PdfRejected:
        raise
    except Exception as exc:  # noqa: BLE001
        _forget_opened()
        raise _damaged(exc) from exc
    return _storable_batch(raw)


def _size_of(source: PdfSource) -> int:
    return os.path.getsize(source) if isinstance(source, str) else len(source)


_last_opened: tuple[str, pymupdf.Document] | None = None


def _opened(source: PdfSource) -> pymupdf.Document:
    """The open document for `source` (PDF bytes, or the path of a PDF file), reused from the
    previous call when it was the same document."""
    global _last_opened
    key = source if isinstance(source, str) else hashlib.blake2b(source, digest_size=16).hexdigest()
    if _last_opened is None or _last_opened[0] != key:
        _forget_opened()
        _last_opened = (key, open_pdf(Path(source).read_bytes() if isinstance(source, str) else source))
    return _last_opened[1]


def _forget_opened() -> None:
    global _last_opened
    if _last_opened is not None:
        _last_opened[1].close()
        _last_opened = None


def read_whole_pdf(data: bytes, text_limit: TextLimit | None = None) -> PdfText:
    """Every page's text, the title from the metadata, and whether the PDF is encrypted.

    Raises:
        PdfRejected: CORRUPT, or TEXT_TOO_LARGE once the text passes `text_limit`'s budget.
    """
    try:
        with open_pdf(data) as document:
            if document.needs_pass:
                return PdfText([], None, True, 0)
            budget = TextBudget(text_limit, len(data), document.page_count) if text_limit else None
            batch = _storable_batch(read_pages(document, 1, document.page_count, budget))
            metadata = document.metadata or {}
    except PdfRejected:
        raise
    except Exception as exc:  # noqa: BLE001
        raise _damaged(exc) from exc
    title = " ".join(str(metadata.get("title") or "").split()) or None
    return PdfText(batch.pages, title, False, batch.removed_characters)


def _storable_batch(raw: list[tuple[int, str]]) -> PageBatch:
    pages: list[tuple[int, str]] = []
    removed = 0
    for number, text in raw:
        clean, count = storable(readable(text))
        pages.append((number, clean))
        removed += count
    return PageBatch(pages, removed, sum(text_bytes(text) for _, text in raw))
