"""Footnote markers fused with a year or glued to a word: "by 20351." is 2035 with footnote 1,
"net zero28" is "net zero" with footnote 28.

PDF text loses superscripts, so a footnote marker after a year reads as a five-digit number
("cut emissions by 30% by 20351.", "In 20232, we ..."): the year is lost to every reader of the
sentence and a claim shows a number nobody wrote. The marker is dropped from the normalised text
(`app.language.page_text.normalise_page` keeps the raw offsets), under a conservative rule, so that a
real five-digit figure ("20351 tonnes") is never cut:

- the page shows footnotes: a line that starts with the marker digit ("1. The support ...",
  "2 Subject to ...");
- the token is a year from 1900 to 2099 and one digit 1-9, then a comma, full stop, semicolon,
  colon or closing parenthesis (never a word or unit: "20351 tonnes" stays);
- it follows a word that introduces a year ("by", "in", "since", "until", "from", "to", "before",
  "after", "through"), or it ends a sentence (a full stop) and the year is between 1990 and 2069.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A footnote at the foot of the page: its number at the start of a line.
_FOOTNOTE_LINE = re.compile(r"^[ \t]*([1-9])(?:[.)][ \t]*|[ \t]+)(?=\S)", re.MULTILINE)
_FUSED = re.compile(r"((?:19|20)\d\d)([1-9])[.,;:)][\"'”’)]*")
_YEAR_WORDS = frozenset("by in since until till from to before after through during".split())
#: Years a sentence-final five-digit token may stand for, when no year word precedes it.
_SENTENCE_END_YEARS = range(1990, 2070)
#: A footnote of any number: one to three digits at the start of a line, then a word.
_NUMBERED_LINE = re.compile(
    r"^[ \t]*([1-9]\d{0,2})(?:[.)][ \t\x07]*|[ \t\x07]+)(?=[^\W\d_]|[\"“‘(]|\n[ \t]*[A-Z])", re.MULTILINE
)
_GLUED = re.compile(r"[\"'“‘(]*([A-Za-z][a-z]{2,})(\.?)([1-9]\d{0,2})[.,;:)\"'”’]*")
#: Words a number belongs to when written without a space.
_NUMBERED_WORDS = frozenset(
    "scope scopes tier phase level category step stage class grade type zone group unit page article "
    "section chapter goal principle sdg gri iso covid euro figure table annex appendix note version "
    "round lot block".split()
)


def footnote_digits(page_text: str) -> frozenset[str]:
    """The marker digits the page's footnotes are numbered with (empty: no footnotes on the page)."""
    return frozenset(match.group(1) for match in _FOOTNOTE_LINE.finditer(page_text))


def footnote_numbers(page_text: str) -> frozenset[str]:
    """The numbers of the footnotes the page shows (any number of digits up to three)."""
    return frozenset(match.group(1) for match in _NUMBERED_LINE.finditer(page_text))


def glued_marker(token: str, numbers: frozenset[str]) -> tuple[int, int] | None:
    """Where in `token` a footnote marker glued to a word sits (`(start, end)`), or None.

    Args:
        token: one whitespace-delimited token of the page ("zero28", "emissions.3").
        numbers: `footnote_numbers` of the page.
    """
    match = _GLUED.fullmatch(token)
    if match is None or match.group(3) not in numbers or match.group(1).casefold() in _NUMBERED_WORDS:
        return None
    return match.start(3), match.end(3)


def fused_marker(token: str, previous_word: str, digits: frozenset[str]) -> int | None:
    """The index in `token` of a footnote marker fused with a year, or None.

    Args:
        token: one whitespace-delimited token of the page ("20351.").
        previous_word: the token before it on the page ("by"), "" at the start.
        digits: `footnote_digits` of the page.
    """
    match = _FUSED.fullmatch(token)
    if match is None or match.group(2) not in digits:
        return None
    after_year_word = previous_word.casefold().strip("(\"'“‘") in _YEAR_WORDS
    sentence_end = token[5] == "." and int(match.group(1)) in _SENTENCE_END_YEARS
    return 4 if after_year_word or sentence_end else None


@dataclass(frozen=True)
class PageFootnotes:
    """The footnote numbers a page shows: single digits (`footnote_digits`, for markers fused with
    a year) and any (`footnote_numbers`, for markers glued to a word)."""

    digits: frozenset[str]
    numbers: frozenset[str]

    @classmethod
    def of(cls, page_text: str) -> PageFootnotes:
        return cls(footnote_digits(page_text), footnote_numbers(page_text))


def marker_span(token: str, previous_word: str, footnotes: PageFootnotes) -> tuple[int, int] | None:
    """Where in `token` a footnote marker (fused with a year or glued to a word) sits, or None."""
    if footnotes.digits:
        index = fused_marker(token, previous_word, footnotes.digits)
        if index is not None:
            return index, index + 1
    return glued_marker(token, footnotes.numbers) if footnotes.numbers else None


def without_marker(
    word: str, origin: list[int], previous_word: str, footnotes: PageFootnotes
) -> tuple[str, list[int], int | None]:
    """`word` and the raw offsets of its characters, less a footnote marker if it has one, and the
    marker's number (None: no marker)."""
    span = marker_span(word, previous_word, footnotes)
    if span is None:
        return word, origin, None
    start, end = span
    return word[:start] + word[end:], origin[:start] + origin[end:], int(word[start:end])
