"""Footnote markers fused with a year: "by 20351." is 2035 with footnote 1.

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

#: A footnote at the foot of the page: its number at the start of a line.
_FOOTNOTE_LINE = re.compile(r"^[ \t]*([1-9])(?:[.)][ \t]*|[ \t]+)(?=\S)", re.MULTILINE)
_FUSED = re.compile(r"((?:19|20)\d\d)([1-9])[.,;:)][\"'”’)]*")
_YEAR_WORDS = frozenset("by in since until till from to before after through during".split())
#: Years a sentence-final five-digit token may stand for, when no year word precedes it.
_SENTENCE_END_YEARS = range(1990, 2070)


def footnote_digits(page_text: str) -> frozenset[str]:
    """The marker digits the page's footnotes are numbered with (empty: no footnotes on the page)."""
    return frozenset(match.group(1) for match in _FOOTNOTE_LINE.finditer(page_text))


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


def without_marker(
    word: str, origin: list[int], previous_word: str, digits: frozenset[str]
) -> tuple[str, list[int]]:
    """`word` and the raw offsets of its characters, less a fused footnote marker if it has one."""
    if not digits:
        return word, origin
    index = fused_marker(word, previous_word, digits)
    if index is None:
        return word, origin
    return word[:index] + word[index + 1 :], origin[:index] + origin[index + 1 :]
