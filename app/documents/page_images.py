"""Report pages as PNG images, optionally with a claim highlighted: run in a document process.

`render_page` is what `DocumentProcesses` runs (PyMuPDF is not thread-safe; see
`app.documents.processes`). Claims carry no coordinates, only their verbatim text (and the
sentence around it, `source_context`), so the highlight is found by searching the page for that
text: the whole claim first, then its context, then its longest sentence-like pieces, so a claim
that differs from the page by a line-break hyphen or a quote mark is still marked where it can be.
The highlight is a highlight annotation added for the render and removed after it: the open
document is reused for the next page and must stay unmarked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from app.documents.pdf import PdfProblem, PdfRejected, open_pdf

#: Most pixels one rendered page may have; a larger page is rendered at a smaller scale.
MAX_PIXELS = 16_000_000
#: Shortest piece of a claim worth searching for (shorter ones match in too many places).
MIN_PIECE_CHARS = 24
HIGHLIGHT_COLOR = (1.0, 0.85, 0.0)
OUTLINE_COLOR = (0.85, 0.1, 0.1)
_PIECE_BREAK = re.compile(r"(?<=[.;:!?])\s+|\s+[–—-]\s+|,\s+")


@dataclass(frozen=True)
class PageImage:
    """A rendered page: PNG bytes, and how many text boxes the highlight marks (0: none asked or
    not found on the page)."""

    png: bytes
    highlighted_boxes: int
    width: int
    height: int


_open_documents: dict[str, pymupdf.Document] = {}


def _document(path: str) -> pymupdf.Document:
    """The PDF at `path`, kept open for the next pages (the last few documents only)."""
    document = _open_documents.get(path)
    if document is None:
        while len(_open_documents) >= 2:
            _open_documents.pop(next(iter(_open_documents))).close()
        document = open_pdf(Path(path).read_bytes())
        _open_documents[path] = document
    return document


def _pieces(text: str) -> list[str]:
    """The text's clauses, longest first, each long enough to mean something on its own."""
    parts = {" ".join(part.split()) for part in _PIECE_BREAK.split(text)}
    return sorted((part for part in parts if len(part) >= MIN_PIECE_CHARS), key=len, reverse=True)


def find_highlight(page: pymupdf.Page, texts: list[str]) -> list[pymupdf.Quad]:
    """Quads of the first of `texts` found on `page` (whole, then by pieces); empty if none is."""
    wholes = [" ".join(text.split()) for text in texts if text and text.strip()]
    for candidate in [*wholes, *(piece for text in wholes for piece in _pieces(text))]:
        quads = page.search_for(candidate, quads=True)
        if quads:
            return list(quads)
    return []


def render_page(path: str, page_number: int, scale: float, highlight_texts: list[str]) -> PageImage:
    """Page `page_number` (1-based) of the PDF at `path` as PNG at `scale` (1.0 = 72 dpi), with
    the first of `highlight_texts` found on it highlighted.

    Raises:
        PdfRejected: the page does not exist, or the document cannot be read.
    """
    document = _document(path)
    if not 1 <= page_number <= document.page_count:
        raise PdfRejected(PdfProblem.CORRUPT, f"The report has no page {page_number}.")
    page = document[page_number - 1]
    area = max(page.rect.width * page.rect.height, 1.0)
    scale = min(scale, (MAX_PIXELS / area) ** 0.5)
    quads = find_highlight(page, highlight_texts) if highlight_texts else []
    annotations = _mark(page, quads)
    try:
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), annots=True, alpha=False)
    finally:
        for annotation in annotations:
            page.delete_annot(annotation)
    return PageImage(pixmap.tobytes("png"), len(quads), pixmap.width, pixmap.height)


def _mark(page: pymupdf.Page, quads: list[pymupdf.Quad]) -> list[pymupdf.Annot]:
    """A highlighter stroke over `quads` and a thin outline around them (none without quads)."""
    if not quads:
        return []
    highlight = page.add_highlight_annot(quads)
    highlight.set_colors(stroke=HIGHLIGHT_COLOR)
    highlight.update()
    outline_rect = pymupdf.Rect(quads[0].rect)
    for quad in quads[1:]:
        outline_rect |= quad.rect
    outline = page.add_rect_annot(outline_rect + (-3, -3, 3, 3))
    outline.set_colors(stroke=OUTLINE_COLOR)
    outline.set_border(width=1.5)
    outline.update()
    return [highlight, outline]
