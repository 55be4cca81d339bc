"""Read the official IFRS S1/S2 PDFs into paragraph texts keyed like the registry.

The standards are copyrighted, so the repository keeps only its own paraphrases (see `registry`).
This parser lets tests and tools line those up with the printed wording at run time, from a copy of
the PDF the user supplies, without the wording ever being stored in the project.

The ISSB layout is stable: paragraph numbers sit in a left margin column, the text a fixed indent to
the right, and each sub-paragraph marker ("(a)", "(i)", "(1)") one further indent step in. So the
nesting is read from the horizontal position of each printed line rather than guessed from the text.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from app.knowledge.registry import REQUIREMENTS, Standard

logger = logging.getLogger(__name__)

_HEADER_BAND = 0.14  # running headers sit in the top 14% of the page
_FOOTER_BAND = 0.86  # page numbers and "© IFRS Foundation" below 86%
_MIN_BODY_SIZE = 8.0  # footnotes are set smaller than the 8.5pt body text
_ROW_TOLERANCE = 4.0  # a margin number can sit a point above or below its first text line
_INDENT_STEP = 28.5  # points between nesting levels ("(a)" -> "(i)" -> "(1)")
_BODY_INDENT = 42.5  # points from the number column to the paragraph text
_SUPERSCRIPT = 1  # PyMuPDF span flag: footnote reference marks

_NUMBER = re.compile(r"^([A-E]?)(\d{1,3})$")
_MARKER = re.compile(r"^\(([a-z]{1,4}|\d{1,2})\)$")
_APPENDIX = re.compile(r"^Appendix ([A-E])$")
_ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


@dataclass(frozen=True)
class StandardText:
    """The printed (sub-)paragraph texts of one standard, keyed by registry-style id."""

    standard: Standard
    paragraphs: dict[str, str]


@dataclass(frozen=True)
class _Line:
    x: float
    y: float
    text: str
    heading: bool  # set in Helvetica: section headings, never paragraph text


@dataclass
class _Node:
    pid: str
    marker: str = ""
    parts: list[str | _Node] = field(default_factory=list)

    def last_child(self) -> _Node | None:
        kids = [p for p in self.parts if isinstance(p, _Node)]
        return kids[-1] if kids else None


def parse_standard_pdf(path: Path) -> StandardText:
    """Parse one official standard PDF.

    Raises:
        ValueError: if the document is neither IFRS S1 nor IFRS S2.
    """
    opener: Any = pymupdf.open
    document: Any = opener(str(path))
    with document:
        pages = [_page_lines(page) for page in document]
        standard = _detect_standard(" ".join(str(page.get_text()) for page in document))
    return StandardText(standard=standard, paragraphs=_Parser(standard, pages).run())


def attach_to_registry(text: StandardText) -> dict[str, str]:
    """Printed text for each registry id of this standard that the parse found.

    Ids with no text are logged, since they usually mean a registry typo or a layout change.
    """
    found = {
        r.paragraph_id: text.paragraphs[r.paragraph_id]
        for r in REQUIREMENTS
        if r.standard == text.standard and r.paragraph_id in text.paragraphs
    }
    missing = missing_registry_ids(text)
    if missing:
        logger.warning("%s registry ids without printed text: %s", text.standard, ", ".join(missing))
    return found


def missing_registry_ids(text: StandardText) -> list[str]:
    """Registry ids of this standard that the parse did not find, in registry order."""
    return [
        r.paragraph_id
        for r in REQUIREMENTS
        if r.standard == text.standard and r.paragraph_id not in text.paragraphs
    ]


def _detect_standard(text: str) -> Standard:
    counts = Counter(re.findall(r"IFRS\s+(S[12])\b", text))
    if not counts:
        raise ValueError("not an IFRS S1 or S2 document")
    # Each standard cites the other, but its own name runs in every other page header.
    return "S1" if counts["S1"] >= counts["S2"] else "S2"


def _page_lines(page: Any) -> list[_Line]:
    """Body lines of one page: headers, footers, footnotes and footnote marks dropped."""
    height = float(page.rect.height)
    lines: list[_Line] = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            spans = [s for s in line["spans"] if not s["flags"] & _SUPERSCRIPT]
            text = "".join(str(s["text"]) for s in spans).strip()
            if not text:
                continue
            x0, y0, _, y1 = line["bbox"]
            if y1 <= height * _HEADER_BAND or y0 >= height * _FOOTER_BAND:
                continue
            if max(float(s["size"]) for s in spans) < _MIN_BODY_SIZE:
                continue
            helvetica = sum(len(s["text"]) for s in spans if str(s["font"]).startswith("Helvetica"))
            heading = helvetica * 2 > len(text)
            lines.append(_Line(float(x0), (y0 + y1) / 2, text, heading))
    return lines


def _rows(lines: list[_Line]) -> list[list[_Line]]:
    """Group lines printed on the same baseline, left to right."""
    rows: list[list[_Line]] = []
    for line in sorted(lines, key=lambda item: item.y):
        if rows and abs(line.y - rows[-1][0].y) <= _ROW_TOLERANCE:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda item: item.x) for row in rows]


def _number_columns(pages: list[list[_Line]]) -> dict[int, float]:
    """Left margin (paragraph-number column) for odd and even pages, which are mirrored."""
    columns: dict[int, Counter[float]] = {0: Counter(), 1: Counter()}
    for index, lines in enumerate(pages):
        for line in lines:
            if not line.heading and _NUMBER.match(line.text):
                columns[index % 2][round(line.x)] += 1
    found = {parity: float(c.most_common(1)[0][0]) for parity, c in columns.items() if c}
    if not found:
        raise ValueError("no numbered paragraphs found")
    fallback = next(iter(found.values()))
    return {parity: found.get(parity, fallback) for parity in (0, 1)}


def _successor(marker: str) -> set[str]:
    """Markers that may follow `marker` as its next sibling."""
    if marker.isdigit():
        return {str(int(marker) + 1)}
    nexts: set[str] = set()
    if marker in _ROMANS[:-1]:
        nexts.add(_ROMANS[_ROMANS.index(marker) + 1])
    if len(marker) == 1 and marker < "z":
        nexts.add(chr(ord(marker) + 1))
    return nexts


class _Parser:
    """Walks the page rows once, building a tree per numbered paragraph."""

    def __init__(self, standard: Standard, pages: list[list[_Line]]) -> None:
        self.standard = standard
        self.pages = pages
        self.columns = _number_columns(pages)
        self.region = "front"  # "front" | "body" | appendix letter | "end"
        self.last_number: dict[str, int] = {}
        self.roots: list[_Node] = []
        self.stack: list[_Node] = []

    def run(self) -> dict[str, str]:
        for index, lines in enumerate(self.pages):
            number_x = self.columns[index % 2]
            for row in _rows(lines):
                self._row(row, number_x)
        paragraphs: dict[str, str] = {}
        for root in self.roots:
            for node in _walk(root):
                paragraphs.setdefault(node.pid, _render(node))  # body paragraphs come first: never replaced
        return paragraphs

    def _row(self, row: list[_Line], number_x: float) -> None:
        if all(line.heading for line in row):
            self._heading(" ".join(line.text for line in row))
            return
        if self.region in ("front", "end", "A"):  # Appendix A holds definitions, not requirements
            return
        body_x = number_x + _BODY_INDENT
        items = [line for line in row if not line.heading]
        if items[0].x < body_x - _INDENT_STEP / 2 and self._start_paragraph(items[0].text):
            items = items[1:]
        if not self.stack or not items:
            return
        if _MARKER.match(items[0].text):
            depth = max(1, round((items[0].x - body_x) / _INDENT_STEP) + 1)
            if self._start_subparagraph(items[0].text[1:-1], depth):
                items = items[1:]
                self._append(items, len(self.stack) - 1)
                return
        depth = max(0, round((items[0].x - body_x) / _INDENT_STEP))
        self._append(items, depth)

    def _heading(self, text: str) -> None:
        appendix = _APPENDIX.match(text)
        if appendix:
            self.region = appendix.group(1)
        elif text.startswith("Approval by the ISSB"):
            self.region = "end"
        elif text == "Objective" and self.region == "front":
            self.region = "body"
        else:
            return
        self.stack = []

    def _start_paragraph(self, text: str) -> bool:
        match = _NUMBER.match(text)
        if not match:
            return False
        prefix, number = match.group(1), int(match.group(2))
        expected_prefix = "" if self.region == "body" else self.region
        last = self.last_number.get(prefix, 0)
        if prefix != expected_prefix or not last < number <= last + 3:
            return False
        self.last_number[prefix] = number
        node = _Node(f"{self.standard}.{prefix}{number}")
        self.roots.append(node)
        self.stack = [node]
        return True

    def _start_subparagraph(self, marker: str, depth: int) -> bool:
        depth = min(depth, len(self.stack))
        parent = self.stack[depth - 1]
        previous = parent.last_child()
        first = marker in ("a", "i", "1")
        if not (first if previous is None else marker in _successor(previous.marker)):
            return False
        node = _Node(f"{parent.pid}({marker})", marker)
        parent.parts.append(node)
        self.stack = [*self.stack[:depth], node]
        return True

    def _append(self, items: list[_Line], depth: int) -> None:
        if not items:
            return
        depth = min(depth, len(self.stack) - 1)
        self.stack = self.stack[: depth + 1]
        self.stack[-1].parts.append(" ".join(line.text for line in items))


def _walk(node: _Node) -> list[_Node]:
    found = [node]
    for part in node.parts:
        if isinstance(part, _Node):
            found.extend(_walk(part))
    return found


def _render(node: _Node) -> str:
    """The node's own text followed by its nested items, each with its printed marker."""
    pieces = [p if isinstance(p, str) else f"({p.marker}) {_render(p)}" for p in node.parts]
    text = ""
    for piece in pieces:
        # Lines here only break at real hyphens and dashes ("climate-" / "related"): keep them, no space.
        glue = "" if re.search(r"\w[-–—]$", text) or piece.startswith(("–", "—")) else " "
        text = f"{text}{glue}{piece}" if text else piece
    return re.sub(r"\s+", " ", text).strip()
