"""Recognising an evidence document's type and extracting its text (PDF, HTML, plain text, markdown).

The type comes from the bytes when they are unmistakable (a `%PDF-` header), else from the declared
Content-Type, else from the file name's extension, and finally from an HTML sniff; anything else is
refused rather than indexed as garbage.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import PurePosixPath

from app.documents.pdf import PDF_MAGIC, PdfProblem, PdfRejected
from app.documents.processes import DocumentCrashed, DocumentFailed, DocumentProcesses, DocumentTimedOut
from app.documents.reading import read_whole_pdf
from app.documents.text import TextLimit
from app.evidence.errors import EvidenceProblem, EvidenceRejected
from app.evidence.html_text import html_to_text, sniff_charset

PDF = "application/pdf"
HTML = "text/html"
PLAIN = "text/plain"
MARKDOWN = "text/markdown"

#: File extensions the library reads (the CLI imports exactly these from folders).
SUFFIXES = {".pdf": PDF, ".html": HTML, ".htm": HTML, ".txt": PLAIN, ".md": MARKDOWN, ".markdown": MARKDOWN}
_DECLARED = {
    "application/pdf": PDF,
    "text/html": HTML,
    "application/xhtml+xml": HTML,
    "text/plain": PLAIN,
    "text/markdown": MARKDOWN,
    "text/x-markdown": MARKDOWN,
}
_HTML_START = re.compile(
    rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)[\s>]", re.IGNORECASE | re.DOTALL
)
# C0/C1 control characters other than tab and newline; Postgres text cannot even hold NUL.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Extracted:
    """A document's text, its media type, and the title it names itself by (HTML, PDF metadata)."""

    media_type: str
    text: str
    title: str | None = None


def media_type_of(content: bytes, filename: str | None, content_type: str | None, field: str) -> str:
    """The media type to read `content` as.

    Raises:
        EvidenceRejected: UNSUPPORTED_TYPE when it is none the library reads.
    """
    if content[:1024].lstrip().startswith(PDF_MAGIC):
        return PDF
    declared = (content_type or "").split(";")[0].strip().lower()
    if declared in _DECLARED:
        return _DECLARED[declared]
    suffix = PurePosixPath((filename or "").lower()).suffix
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    if _HTML_START.match(content[:4096]):
        return HTML
    if declared.startswith("text/") and not suffix:
        return PLAIN
    described = declared or (f"{suffix} file" if suffix else "this file")
    raise EvidenceRejected(
        EvidenceProblem.UNSUPPORTED_TYPE,
        f"Cannot read {described}: evidence documents must be PDF, HTML, plain text or markdown.",
        field,
    )


def extract(content: bytes, media_type: str, content_type: str | None, field: str) -> Extracted:
    """The text of `content` read as `media_type`, HTML or text (PDFs go to `pdf_text`).

    Raises:
        EvidenceRejected: UNSUPPORTED_TYPE for binary bytes declared as text.
    """
    declared_charset = _charset(content_type)
    if media_type == HTML:
        page = html_to_text(_decode(content, declared_charset or _known(sniff_charset(content))))
        return Extracted(HTML, page.text, page.title)
    if b"\x00" in content and not content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise EvidenceRejected(
            EvidenceProblem.UNSUPPORTED_TYPE,
            "The file is binary, not text; send a PDF, HTML or text file.",
            field,
        )
    return Extracted(media_type, _decode(content, declared_charset))


def normalise_text(text: str) -> str:
    """The text as stored and hashed: NFC, `\\n` line ends, no control characters or trailing spaces.

    Normalising before hashing makes the same article saved twice (CRLF vs LF, trailing blanks)
    one document.
    """
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROLS.sub(" ", text)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


async def pdf_text(
    content: bytes,
    field: str,
    documents: DocumentProcesses,
    *,
    organisation: uuid.UUID | None = None,
    text_limit: TextLimit | None = None,
) -> Extracted:
    """A PDF's text, read by `documents` for `organisation` (a file that crashes the reader fails
    alone, and one organisation's files never hold every document process), within `text_limit`.

    Raises:
        EvidenceRejected: UNREADABLE_FILE for a damaged or encrypted PDF; TOO_LARGE for one whose
            text passes the limit (a few KB of compressed operators can expand to gigabytes).
    """
    try:
        text = await documents.call(read_whole_pdf, content, text_limit, organisation=organisation)
    except PdfRejected as exc:
        code = EvidenceProblem.TOO_LARGE if exc.problem is PdfProblem.TEXT_TOO_LARGE else None
        raise EvidenceRejected(code or EvidenceProblem.UNREADABLE_FILE, exc.message, field) from exc
    except (DocumentCrashed, DocumentTimedOut, DocumentFailed) as exc:
        raise EvidenceRejected(
            EvidenceProblem.UNREADABLE_FILE, f"The PDF is damaged and cannot be read: {exc}.", field
        ) from exc
    if text.encrypted:
        raise EvidenceRejected(
            EvidenceProblem.UNREADABLE_FILE, "The PDF is password-protected; add it unencrypted.", field
        )
    return Extracted(PDF, "\n\n".join(page for _, page in text.pages if page), text.title)


def _decode(content: bytes, charset: str | None) -> str:
    """Decode by BOM, then the declared charset, then UTF-8, then Windows-1252 (never fails)."""
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if content.startswith(bom):
            return content.decode(codec, errors="replace")
    if charset:
        return content.decode(charset, errors="replace")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


def _charset(content_type: str | None) -> str | None:
    for parameter in (content_type or "").split(";")[1:]:
        name, _, value = parameter.strip().partition("=")
        if name.strip().lower() == "charset":
            return _known(value.strip().strip("\"'"))
    return None


def _known(charset: str | None) -> str | None:
    """`charset` if Python has a codec for it."""
    if not charset:
        return None
    try:
        return codecs.lookup(charset).name
    except LookupError:
        return None
