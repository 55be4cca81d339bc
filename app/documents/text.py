"""Text that Postgres can store (no NUL, no lone surrogates) and a reader can read (no control
characters).

A damaged PDF can yield page text with NUL characters (Postgres refuses them in text columns:
`invalid byte sequence for encoding "UTF8": 0x00`) or unpaired UTF-16 surrogates (not encodable as
UTF-8). Both are removed, and how many were removed is counted so the parse can report it.

Some PDFs also carry other C0 control characters in their text layer (a BEL, U+0007, between two
paragraphs); they would travel into claims, excerpts and answers. Each becomes a space, which keeps
the words on either side apart and every other character where it was; newlines and tabs stay.

A document may also yield no more text than `TextLimit` allows for its size and page count: a
few KB of compressed operators can otherwise become megabytes of text per page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.config import Settings

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_CONTROL = re.compile("[\x01-\x08\x0b-\x1f]")


def storable(text: str) -> tuple[str, int]:
    """`text` without NUL and lone surrogates, and how many characters were removed."""
    cleaned, removed = _UNSTORABLE.subn("", text)
    return cleaned, removed


def readable(text: str) -> str:
    """`text` with C0 control characters other than newline and tab turned into spaces."""
    return _CONTROL.sub(" ", text)


#: Text every document may yield whatever its file size, so a short PDF that compresses well is
#: never refused by the size ratio.
RATIO_FREE_TEXT_BYTES = 1_048_576


@dataclass(frozen=True)
class TextLimit:
    """How much text one document may yield: `bytes_per_page` on average over its pages, and
    `ratio` times its file size (past `RATIO_FREE_TEXT_BYTES`).

    A page of a report holds a few KB of text; a few KB of compressed content stream can expand
    to megabytes of text operators, which cost minutes of extraction and gigabytes of storage per
    file. The limit sits far above any real report and far below what such a file yields.
    """

    bytes_per_page: int
    ratio: float

    @classmethod
    def from_settings(cls, settings: Settings) -> TextLimit:
        return cls(settings.document_text_max_bytes_per_page, settings.document_text_max_ratio)

    def budget(self, file_bytes: int, page_count: int) -> int:
        """Most UTF-8 bytes of text a file of `file_bytes` bytes and `page_count` pages may yield."""
        by_pages = self.bytes_per_page * max(page_count, 1)
        by_size = max(RATIO_FREE_TEXT_BYTES, int(self.ratio * file_bytes))
        return min(by_pages, by_size)


@dataclass
class TextBudget:
    """The text one document may still yield under `limit`, spent page by page (`spent` may start
    above 0 when earlier pages were read by an earlier call)."""

    limit: TextLimit
    file_bytes: int
    page_count: int
    spent: int = 0

    def spend(self, text: str) -> bool:
        """Count a page's text; True once the document's text is past its budget."""
        self.spent += text_bytes(text)
        return self.spent > self.limit.budget(self.file_bytes, self.page_count)

    def refusal(self, page_number: int) -> str:
        """Why the document is refused, in plain words, its text having passed the budget on
        page `page_number`."""
        limit = self.limit
        return (
            f"The PDF holds far more text than a report: by page {page_number} it passed "
            f"{_size(limit.budget(self.file_bytes, self.page_count))}, the most Sibyl reads from a "
            f"{_size(self.file_bytes)}, {self.page_count}-page file (about {_size(limit.bytes_per_page)} "
            f"per page, and at most {limit.ratio:g} times the file size)."
        )


def text_bytes(text: str) -> int:
    """The size of `text` as stored (UTF-8)."""
    return len(text.encode("utf-8", "surrogatepass"))


def _size(count: int) -> str:
    return f"{count / 1_048_576:.1f} MB" if count >= 1_048_576 else f"{count / 1024:.0f} KB"
