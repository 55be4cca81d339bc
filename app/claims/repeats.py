"""One statement, several pages: when two claim texts are the same statement, and where else a
report states a claim.

Reports repeat themselves: an executive summary restates a target the body sets out, a highlight box
restates a figure. A repeat is the same claim, to be checked once and shown with every page that
states it. Two texts are the same statement when they read the same once case, whitespace,
punctuation, line-end hyphenation and footnote markers are set aside; every figure and year stays,
with its decimal separators, so "cut 12% by 2030" and "cut 12% by 2035" are two statements.

A footnote marker is only set aside where it cannot be part of the text: a superscript after a word
or a punctuation mark (not "m²"), a bracketed number ("[3]"), and the marks "*", "†", "‡", "§". A
plain digit glued to a word ("Zero1") stays: PDF text loses superscripts, and "Scope1" is not a
footnote.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

#: A superscript run after a word of three letters or more, or after a punctuation mark.
_SUPERSCRIPT = re.compile(
    r"(?<=[^\W\d_]{3})[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+"
    r"|(?<=[.,;:!?)%\"'\u201d\u2019])[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+"
)
_MARKER = re.compile(r"\[\d{1,3}\]|[*\u2020\u2021\u00a7]")
#: A figure with its separators, a run of letters, or a unit sign that changes what a figure says.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+|[%$\u20ac\u00a3\u00a5]")
#: Where a page's statements end: a sentence end followed by white space, or a bullet.
_STATEMENT_BREAK = re.compile(r"(?<=[.!?])\s+|\s*[\u2022\u25aa\u25cf\u25e6]\s*")
#: The longest statement (in key characters) a page index keeps: longer than any claim.
MAX_STATEMENT_KEY = 1500


def statement_key(text: str) -> str:
    """The form in which two texts of the same statement are equal.

    Letters are joined without spaces (as `normalize_for_match` does, so "net-zero", "net zero" and
    "net-\\nzero" agree) and each figure is fenced, so "1 12" and "112" stay apart.
    """
    text = _MARKER.sub(" ", _SUPERSCRIPT.sub("", text))
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "").casefold()
    return "".join(f"#{token}#" if token[0].isdigit() else token for token in _TOKEN.findall(text))


class StatementIndex:
    """Every statement of a report, by key, with the pages that state it and its text there.

    A page's statements are its pieces between sentence ends and bullets; a piece whose first lines
    are a heading (a line without a full stop, glued on by the layout) also counts from each later
    line that starts like a sentence (a capital or a figure), so a claim read past its heading is
    found again on another page under another heading.
    """

    def __init__(self, pages: Iterable[tuple[int, str]]) -> None:
        self._pages: dict[str, dict[int, str]] = {}
        for number, text in pages:
            for key, statement in _statements(text):
                self._pages.setdefault(key, {}).setdefault(number, statement)

    def pages_stating(self, text: str) -> dict[int, str]:
        """The pages stating `text` (the same statement), each with the statement as it reads there."""
        key = statement_key(text)
        return dict(self._pages.get(key, {})) if key else {}


def _statements(page_text: str) -> Iterator[tuple[str, str]]:
    """(key, text) of each statement on a page, and of each of its sentence-like tails."""
    for piece in _STATEMENT_BREAK.split(page_text):
        lines = [line.strip() for line in piece.splitlines() if line.strip()]
        tail_key = ""
        for start in range(len(lines) - 1, -1, -1):
            tail_key = statement_key(lines[start]) + tail_key
            if len(tail_key) > MAX_STATEMENT_KEY:
                break
            first = lines[start][0]
            if tail_key and (start == 0 or first.isupper() or first.isdigit()):
                yield tail_key, " ".join(lines[start:])
