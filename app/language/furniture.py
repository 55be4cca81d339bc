"""Running headers, footers and page numbers: the furniture a report repeats on its pages.

A PDF's text layer holds the page's running header ("Northwind Climate Plan 2024 | 12") and footer
as lines of the page, and the segmenter reads them into the sentence that starts the page
("Northwind Climate Plan 2024 12 have cut ..."). Whether a line is furniture shows only across the
document: the same line at a page's edge on many pages. So `find_furniture` compares the pages once,
and the readers of page text (the rule extractor through `app.language.page_text.normalise_page`,
the LLM's page windows through `strip`) leave those lines out; the stored page text is unchanged.

- A text line is furniture when, with its digits read as one "#" (the page number changes, so does
  a year), it is among the first or last `EDGE_LINES` lines of at least `RUNNING_SHARE` of the pages
  (and of `MIN_PAGES`); it has letters, and it does not end with a full stop: a running line is a
  title, and a sentence repeated at the edge of many pages is a statement, left for
  de-duplication. Once known, it is furniture wherever it sits on a page (text order puts a footer
  in mid-page now and then).
- A line that is only a number is furniture when it is the page's label: the page number plus the
  offset most pages' edge numbers share (a cover and front matter shift it). Any other lone number
  at a page's edge (a chart value, a year) stays.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

#: Lines at the top and at the bottom of a page's text that count as its edge.
EDGE_LINES = 6
#: The share of the pages a line must sit at the edge of to be a running line ...
RUNNING_SHARE = 0.25
#: ... and the fewest pages, however short the document.
MIN_PAGES = 3

_DIGITS = re.compile(r"\d+")
_LETTER = re.compile(r"[^\W\d_]")
_PAGE_NUMBER = re.compile(r"\d{1,4}")


@dataclass(frozen=True)
class Furniture:
    """What a document repeats on its pages: running lines (as `line_key`s) and the offset of its
    printed page numbers from the page index (None: no page numbers found)."""

    running: frozenset[str] = frozenset()
    page_offset: int | None = None

    def lines(self, page: int, text: str) -> frozenset[int]:
        """The indexes (in `text.split("\\n")`) of page `page`'s furniture lines."""
        if not self.running and self.page_offset is None:
            return frozenset()
        found: set[int] = set()
        label = None if self.page_offset is None else str(page + self.page_offset)
        for index, line in enumerate(text.split("\n")):
            stripped = line.strip()
            if not stripped:
                continue
            if stripped == label or line_key(stripped) in self.running:
                found.add(index)
        return frozenset(found)

    def strip(self, page: int, text: str) -> str:
        """`text` without its furniture lines (the other lines as they were)."""
        drop = self.lines(page, text)
        if not drop:
            return text
        return "\n".join(line for index, line in enumerate(text.split("\n")) if index not in drop)


def line_key(line: str) -> str:
    """The form lines are compared in: white space collapsed, case folded, digit runs as "#"."""
    return _DIGITS.sub("#", " ".join(line.split()).casefold())


def find_furniture(pages: Sequence[tuple[int, str]]) -> Furniture:
    """The running lines and page-number offset of a document's `(page number, text)` pairs."""
    keys: Counter[str] = Counter()
    offsets: Counter[int] = Counter()
    for number, text in pages:
        edge = _edge_lines(text)
        keys.update({line_key(line) for line in edge if _may_run(line)})
        offsets.update({int(line) - number for line in edge if _PAGE_NUMBER.fullmatch(line)})
    least = max(MIN_PAGES, RUNNING_SHARE * len(pages))
    running = frozenset(key for key, count in keys.items() if count >= least)
    offset, count = offsets.most_common(1)[0] if offsets else (0, 0)
    return Furniture(running, offset if count >= least else None)


def _edge_lines(text: str) -> list[str]:
    lines = [stripped for line in text.split("\n") if (stripped := line.strip())]
    if len(lines) <= 2 * EDGE_LINES:
        return lines
    return lines[:EDGE_LINES] + lines[-EDGE_LINES:]


def _may_run(line: str) -> bool:
    """A line that may be a running header or footer: it has letters and is no sentence."""
    return bool(_LETTER.search(line)) and not line.endswith(".")
