"""Sentences from the text of a PDF page, and the coarser cuts of text that has no layout left.

Headings and table rows sit on their own lines without full stops, and bullets start new items, so
a naive split on full stops glues a heading onto the next sentence and a table row onto the last.
`split_sentences` first rebuilds the page as one normalised string that keeps its line structure
(`app.language.page_text`), cuts it into blocks where the layout shows a break, and only then
splits each block into sentences. Every sentence is a slice of the normalised page text, so its
wording stays verbatim and can be found again on the page.

Text read as running words only is cut two ways:

- `statements`: sentences and semicolon clauses, for rules that decide something from one
  statement (a metric stated for a year, a statement of compliance). The cut never splits a number
  ("2.3 Mt") or an address ("sibyl.example"), and ends a statement at a semicolon, since a report's
  lists and table rows join separate facts with one. A stop (. ; ! ?) ends a statement only when
  white space follows it or the text ends.
- `rough_sentences`: a cut after every full stop, question or exclamation mark followed by white
  space, for comparing or testing a text sentence by sentence, where an abbreviation cut in two
  ("e.g. the") costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from app.language.page_text import NormalisedPage, normalise_page

_FIRST_WORD = re.compile(r"\S+")
_ROUGH_BREAK = re.compile(r"(?<=[.!?])\s+")
_STATEMENT = re.compile(r"(?:[^.;!?]|[.;!?](?=\S))+[.;!?]?")
# Bullets: the glyphs, a dash or a middle dot (what a bullet in a font without "•" reads as), an
# "o" on its own (a word processor's second-level bullet), "(a)" and "1.".
_BULLET_START = re.compile(
    r"^(?:[•●▪■◦‣○►▶➢✓✔·\u2022\u2013\u2014\u2212→›]|[-o](?=\s)|\(?[a-z0-9]{1,2}\)(?=\s)|\d{1,2}\.(?=\s+[A-Z]))"
)
_FOOTNOTE_START = re.compile(r"^\d{1,2}\s+(?=[A-Z][a-z]+\s[a-z])")  # "1 While we have not adopted ..."
_BULLET_ONLY = re.compile(r"^(?:[•●▪■◦‣○►▶➢✓✔·\u2013\u2014\u2212→›-]|\d{1,2}[.)]?)$")
_LEADING_MARKER = re.compile(
    r"^(?:[•●▪■◦‣○►▶➢✓✔·\u2013\u2014\u2212→›-]\s*|o\s+|\(?[a-z0-9]{1,2}\)\s+|\d{1,2}\.\s+"
    r"|\d{1,2}\s+(?=[A-Z][a-z]+\s[a-z]))+"  # bullets, "(a)", "1.", and a footnote number: "2 Clean energy is"
)
_SOFT_END = re.compile(
    r"(?:[,;(\[/&+\-\u2013\u2014]|\b(?:and|or|of|the|a|an|to|in|for|with|by|on|at|from|as|"
    r"our|its|their|which|that|is|are|was|were|be|been|has|have|per|into|than|between|"
    r"across|including|such|this|these|both|nor|whose|while|about|over|under|via))$",
    re.I,
)
_CONNECTOR_END = re.compile(
    r"(?:[(\[/&+\-\u2013\u2014]|\b(?:and|or|of|the|a|an|to|in|for|with|by|on|at|from|as|"
    r"into|than|between|such|nor|whose|called|named|titled|entitled))$",
    re.I,
)
_LETTERLESS_TAIL = re.compile(r"^[^\W_]*\d[\d\s.,%–\-/]*[.;,]?$")
# Running headers and footers: "Company | Report 2023 | 12", "SUSTAINABILITY REPORT 2023 40".
_RUNNING_LINE = re.compile(
    r"\s\|\s.*\s\|\s|\|\s*\d{1,3}$|^\d{1,3}\s*\||"
    r"\b(?:sustainability|annual|esg|climate|integrated|impact)\s+(?:report|review)\s+20\d\d(?:\s+\d{1,3})?$",
    re.I,
)
_TERMINAL_END = re.compile(r"[.!?:][\"'”’)\]]*$")
_STARTS_UPPER = re.compile(r"^[\"“‘(\[]?[A-Z0-9€$£]")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")

_BOUNDARY = re.compile(
    r"[.!?]+[\"'”’)\]]*(?=\s+[\"“‘(\[]?[A-Z0-9€$£•●▪])"  # ". The", ".) In", "? We"
    r"|(?<=[a-z%)])[.!?](?:\d{1,2}|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)(?=\s+[A-Z])"  # a footnote mark: "diesel.7 Fuel"
    r"|(?<=\b(?:19|20)\d\d)\.\d(?=\s+[A-Z])"  # ... and after a year: "compared to 2021.1 Building"
    r"|(?<=[a-z]{2})\.(?=\s+[a-z]{2,}\s)"  # two columns run together: "training. and makes"
)
_NON_TERMINAL = frozenset(
    "e.g. i.e. approx. appr. ca. cf. vs. v. no. nos. nr. dr. mr. mrs. ms. prof. st. fig. figs. p. pp. "
    "vol. incl. excl. esp. resp. est. min. max. avg. jan. feb. mar. apr. jun. jul. aug. sep. sept. "
    "oct. nov. dec. mio. mn. bn. mill. tsd. sr. jr. rev. art. sec. para. ref. viz. al. govt. dept. "
    "approx.: e.g.: i.e.:".split()
)
_INITIAL = re.compile(r"[A-Z]\.")
_TERMINAL_CAPABLE = frozenset("etc. p.a. inc. ltd. plc. co. corp. u.s. u.k. e.u. a.m. p.m. ag. se.".split())
_STARTERS = frozenset(
    "The This These Those That We Our In It Its As All For At By Since During A An Further Furthermore "
    "Additionally Also Over Through With To Each Total However Moreover Following Overall From "
    "Both While Although Between Under Within Across Together Today Going One Two Three".split()
)
_FUNCTION_WORDS = frozenset("in to of and from by the was were is are at for on than with".split())
MIN_WRAP_WIDTH = 30
WRAP_SLACK = 0.8
TITLE_MAX_WORDS = 9


@dataclass(frozen=True)
class Sentence:
    """One sentence of a page, as it reads (whitespace-normalised, de-hyphenated).

    `start`/`end` are offsets into the raw page text given to `split_sentences` (best effort).
    """

    text: str
    page: int
    start: int
    end: int


def split_sentences(page: int, text: str) -> list[Sentence]:
    """The sentences of one page's text, in reading order (headings and fragments included).

    A sentence that runs on to the next page is cut at the page end: it stays on the page where
    it starts.
    """
    normalised = normalise_page(text)
    sentences: list[Sentence] = []
    for start, end in sentence_spans(normalised):
        raw_start = normalised.origin[start]
        raw_end = normalised.origin[end - 1] + 1
        sentences.append(Sentence(normalised.text[start:end], page, raw_start, raw_end))
    return sentences


def sentence_spans(page: NormalisedPage) -> list[tuple[int, int]]:
    """`(start, end)` of every sentence within `page.text`, bullet markers left out."""
    spans: list[tuple[int, int]] = []
    for block_start, block_end in block_spans(page):
        block = page.text[block_start:block_end]
        marker = _LEADING_MARKER.match(block)
        skip = marker.end() if marker else 0
        for start, end in _split_block(block, skip):
            if _LETTER.search(block, start, end) or _DIGIT.search(block, start, end):
                spans.append((block_start + start, block_start + end))
    return spans


def _split_block(block: str, start: int) -> list[tuple[int, int]]:
    """Split a block of running text at sentence ends, respecting abbreviations."""
    spans: list[tuple[int, int]] = []
    for match in _BOUNDARY.finditer(block, start):
        if match.end() <= start or _is_abbreviation(block, match.start(), match.end()):
            continue
        spans.append((start, match.end()))
        start = match.end()
        while start < len(block) and block[start] == " ":
            start += 1
    if start < len(block):
        spans.append((start, len(block.rstrip())))
    return [(s, e) for s, e in spans if e > s]


def _is_abbreviation(block: str, punct_start: int, punct_end: int) -> bool:
    """Whether the full stop ending at `punct_end` belongs to an abbreviation, not a sentence end."""
    if block[punct_start] != "." or punct_end - punct_start != 1:
        return False
    token_start = block.rfind(" ", 0, punct_start) + 1
    token = block[token_start:punct_end].lstrip('(["“‘')
    lowered = token.lower()
    if lowered in _NON_TERMINAL or _INITIAL.fullmatch(token):
        return True
    if lowered in _TERMINAL_CAPABLE:
        following = block[punct_end:].split(maxsplit=1)
        return not following or following[0] not in _STARTERS
    return False


def block_spans(page: NormalisedPage) -> list[tuple[int, int]]:
    """Runs of lines that belong together (a paragraph, a bullet item, a heading, a table row)."""
    texts = [page.text[start:end] for start, end in page.lines]
    blocks: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for index, (start, end) in enumerate(page.lines):
        if current is not None and _breaks_before(texts, index, page.blank_before[index]):
            blocks.append(current)
            current = None
        current = (start, end) if current is None else (current[0], end)
    if current is not None:
        blocks.append(current)
    return blocks


def _breaks_before(texts: list[str], index: int, blank: bool) -> bool:
    """Whether the layout shows a break between line `index - 1` and line `index`."""
    prev, line = texts[index - 1], texts[index]
    if blank or _BULLET_START.match(line) or _is_standalone(prev):
        return True
    if _FOOTNOTE_START.match(line) and not _SOFT_END.search(prev):
        return True
    if _is_standalone(line):
        return not _ends_the_sentence(prev, line)
    if prev.endswith(":"):
        return True
    if _TERMINAL_END.search(prev) or not _STARTS_UPPER.match(line):
        return False
    if _starts_sentence(line) and not _CONNECTOR_END.search(prev):
        return True
    if _SOFT_END.search(prev):
        return False
    if _is_short_line(texts, index):
        return True
    return _is_title(prev) and (index < 2 or bool(_TERMINAL_END.search(texts[index - 2])))


def _ends_the_sentence(prev: str, line: str) -> bool:
    """Whether a line of only figures finishes the unfinished line before it ("... in the period"
    / "2024-2026."), rather than being a page number or a table row."""
    if _TERMINAL_END.search(prev) or not _LETTERLESS_TAIL.match(line):
        return False
    return bool(_CONNECTOR_END.search(prev)) or line.endswith((".", ";", ","))


def _starts_sentence(line: str) -> bool:
    """Whether a line opens with a capitalised function word ("The", "We", "In"): mid-sentence
    these are lower case, so after an unfinished line they mean a heading or a column join."""
    first = line.split(maxsplit=1)[0]
    return first in _STARTERS


def _is_short_line(texts: list[str], index: int) -> bool:
    """Whether line `index - 1` stopped although the next word would have fitted on it."""
    window = texts[max(0, index - 3) : index + 2]
    width = max(len(text) for text in window)
    if width < MIN_WRAP_WIDTH:
        return False
    next_word = _FIRST_WORD.match(texts[index])
    room_needed = len(texts[index - 1]) + 1 + (len(next_word.group()) if next_word else 0)
    return room_needed < WRAP_SLACK * width


def _is_title(line: str) -> bool:
    """A short line of mostly capitalised words: a heading, not a wrapped piece of prose."""
    words = [word for word in line.split() if _LETTER.search(word)]
    if not words or len(words) > TITLE_MAX_WORDS:
        return False
    capitalised = sum(1 for word in words if word[0].isupper() or len(word) <= 3)
    return capitalised / len(words) >= 0.75


def _is_standalone(line: str) -> bool:
    """A line that never runs on into a sentence: a lone bullet, a page number, a row of figures."""
    if _BULLET_ONLY.match(line) or _RUNNING_LINE.search(line):
        return True
    letters = len(_LETTER.findall(line))
    if letters == 0:
        return True
    tokens = line.split()
    if len(tokens) < 2 or any(token.lower() in _FUNCTION_WORDS for token in tokens):
        return False
    numeric = sum(1 for token in tokens if _DIGIT.search(token) and not _LETTER.search(token))
    return numeric * 2 >= len(tokens)


def statements(text: str) -> Iterator[str]:
    """The statements of `text`, its white space collapsed, in order; each but the first keeps the
    space before it."""
    for match in _STATEMENT.finditer(" ".join(text.split())):
        yield match.group(0)


def rough_sentences(text: str) -> list[str]:
    """`text` cut after every full stop, question or exclamation mark followed by white space; every
    piece is a verbatim slice of `text`."""
    return _ROUGH_BREAK.split(text)
