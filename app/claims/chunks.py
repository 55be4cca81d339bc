"""Overlapping page windows: the unit of work of the claims agent's map phase.

A 10-page window with 2 pages of overlap keeps each LLM call short (no "lost in the middle") while a
claim that sits at a window's edge is still read with its neighbouring page in the next window.
The windows hold the pages without their furniture (running headers, footers, page numbers:
`app.language.furniture`), which would otherwise be read into the sentences they sit beside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.language.furniture import find_furniture


@dataclass(frozen=True)
class PageChunk:
    """Pages `first_page`..`last_page` of a report, chunk `index` (0-based) of `total`."""

    index: int
    total: int
    pages: tuple[tuple[int, str], ...]

    @property
    def first_page(self) -> int:
        return self.pages[0][0]

    @property
    def last_page(self) -> int:
        return self.pages[-1][0]

    def contains(self, page: int) -> bool:
        return self.first_page <= page <= self.last_page


def page_chunks(pages: Sequence[tuple[int, str]], size: int, overlap: int) -> list[PageChunk]:
    """Split `(page number, text)` pairs into windows of `size` pages sharing `overlap` pages.

    Raises:
        ValueError: when the overlap leaves no room for progress (`overlap >= size`).
    """
    if size < 1 or overlap < 0 or overlap >= size:
        raise ValueError(f"chunks of {size} page(s) cannot overlap by {overlap}")
    furniture = find_furniture(pages)
    pages = [(number, furniture.strip(number, text)) for number, text in pages]
    windows: list[tuple[tuple[int, str], ...]] = []
    start = 0
    while start < len(pages):
        windows.append(tuple(pages[start : start + size]))
        if start + size >= len(pages):
            break
        start += size - overlap
    return [PageChunk(index, len(windows), window) for index, window in enumerate(windows)]
