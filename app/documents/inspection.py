"""Inspecting an uploaded PDF in a document process: every way a file can fail is a typed refusal."""

from __future__ import annotations

from app.config import Settings
from app.documents.pdf import PdfInfo, PdfProblem, PdfRejected
from app.documents.processes import DocumentCrashed, DocumentFailed, DocumentTimedOut, document_processes
from app.documents.reading import inspect_document
from app.documents.slots import Holder
from app.documents.text import TextLimit


async def inspect_in_process(settings: Settings, content: bytes, organisation: Holder = None) -> PdfInfo:
    """`inspect_pdf` within the upload limits, run in a document process for `organisation`.

    Raises:
        PdfRejected: the file is not acceptable — including when it crashes the PDF reader, takes
            longer than `DOCUMENT_TIMEOUT_SECONDS` or needs more than `DOCUMENT_MEMORY_MB` (CORRUPT),
            or its first pages yield more text than `DOCUMENT_TEXT_MAX_*` allow (TEXT_TOO_LARGE).
    """
    try:
        return await document_processes(settings).call(
            inspect_document,
            content,
            settings.max_upload_bytes,
            settings.max_pages,
            settings.min_text_chars,
            TextLimit.from_settings(settings),
            organisation=organisation,
        )
    except (DocumentCrashed, DocumentTimedOut, DocumentFailed) as exc:
        raise PdfRejected(PdfProblem.CORRUPT, f"The PDF is damaged and cannot be read: {exc}.") from exc
