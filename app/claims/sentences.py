"""Sentences from the text of a PDF page.

PDF text arrives as visual lines: sentences wrap mid-phrase, words are hyphenated at line ends,
headings and table rows sit on their own lines without full stops, and bullets start new items.
A naive split on full stops glues a heading onto the next sentence and a table row onto the last,
so this module first rebuilds the page as one normalised string (`normalise_text`) while keeping
the line structure, cuts it into blocks where the layout shows a break, and only then splits each
block into sentences. Every sentence is a slice of the normalised page text, so its wording stays
verbatim and can be found again on the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.claims.footnotes import footnote_digits, without_marker

_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb06": "st",
}
_SPECIAL = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff\ufb00-\ufb06]")
_TOKEN = re.compile(r"\S+")
_LINE_HYPHEN = re.compile(r"(\w+)-$")
_FIRST_WORD = re.compile(r"\S+")
_WORD_CHARS = re.compile(r"[^\w]+")

# Words that keep their hyphen when a compound is split at a line end ("low-" / "carbon").
_COMPOUND_LEFT = frozenset(
    "low high long short mid medium non self well in on off web state fast life energy carbon climate "
    "science market location cross multi one two three four five six seven eight ten year full part "
    "end pre post sub anti semi zero net first second third real top large small cost time data water "
    "world greenhouse fossil coal gas wind solar value supply business tier ultra near best all "
    "decision user deep hands hard soft back front side follow start build to of and the third-party "
    "on-site".split()
)
_COMPOUND_RIGHT = frozenset(
    "based related term free wide scale owned led level specific intensive friendly neutral making up "
    "house site year going effective efficient emitting intensity like oriented driven focused "
    "sharing zero carbon time date party cycle charging grade".split()
)
_BULLET_START = re.compile(
    r"^(?:[•●▪■◦‣○►▶➢✓✔\u2022\u2013\u2014\u2212→›]|-(?=\s)|\(?[a-z0-9]{1,2}\)(?=\s)|\d{1,2}\.(?=\s+[A-Z]))"
)
_FOOTNOTE_START = re.compile(r"^\d{1,2}\s+(?=[A-Z][a-z]+\s[a-z])")  # "1 While we have not adopted ..."
_BULLET_ONLY = re.compile(r"^(?:[•●▪■◦‣○►▶➢✓✔\u2013\u2014\u2212→›-]|\d{1,2}[.)]?)$")
_LEADING_MARKER = re.compile(
    r"^(?:[•●▪■◦‣○►▶➢✓✔\u2013\u2014\u2212→›-]\s*|\(?[a-z0-9]{1,2}\)\s+|\d{1,2}\.\s+"
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


@dataclass(frozen=True)
class NormalisedPage:
    """A page rebuilt as one string, remembering where its visual lines were.

    Attributes:
        text: the normalised text (see `normalise_text`).
        origin: for each character of `text`, the index of the raw character it came from.
        lines: `(start, end)` of every non-empty raw line within `text`.
        blank_before: for each line, whether one or more blank lines preceded it.
    """

    text: str
    origin: tuple[int, ...]
    lines: tuple[tuple[int, int], ...]
    blank_before: tuple[bool, ...]


def normalise_text(text: str) -> str:
    """The canonical form of page text that claim texts are verbatim substrings of.

    Whitespace runs (line breaks included) become one space, soft hyphens and zero-width characters
    go, ligatures (ﬁ, ﬂ, ...) are spelled out, and a word hyphenated across a line break is joined
    again ("emis-\\nsions" → "emissions", but "low-\\ncarbon" → "low-carbon"). A footnote
    marker fused with a year ("by 20351.") is dropped (`app.claims.footnotes`).
    """
    return normalise_page(text).text


def normalise_page(text: str) -> NormalisedPage:
    """`normalise_text` plus the line structure and offsets that segmentation needs."""
    builder = _Builder(footnote_digits(text))
    offset = 0
    for raw in text.split("\n"):
        builder.add_line(raw, offset)
        offset += len(raw) + 1
    return builder.build()


class _Builder:
    """Accumulates cleaned lines into the normalised text, joining them as they arrive."""

    def __init__(self, footnotes: frozenset[str]) -> None:
        self.footnotes = footnotes  # the page's footnote numbers (`app.claims.footnotes`)
        self.parts: list[str] = []
        self.origin: list[int] = []
        self.length = 0
        self.lines: list[tuple[int, int]] = []
        self.blank_before: list[bool] = []
        self.pending_blank = False
        self.prev_line = ""
        self.prev_soft = False

    def add_line(self, raw: str, offset: int) -> None:
        line, origin = _clean_line(raw, offset, self.footnotes, self.prev_line.rpartition(" ")[2])
        if not line:
            self.pending_blank = bool(self.lines)
            return
        start = self.length
        if self.lines:
            start = self._join(line, offset)
        self.parts.append(line)
        self.origin.extend(origin)
        self.length += len(line)
        self.lines.append((start, self.length))
        self.blank_before.append(self.pending_blank)
        self.pending_blank = False
        self.prev_line = line
        self.prev_soft = raw.rstrip().endswith("\u00ad")

    def _join(self, line: str, offset: int) -> int:
        """Glue `line` to what came before; returns where `line` starts in the normalised text."""
        joiner = _joiner(self.prev_line, line, self.prev_soft)
        if joiner == "drop":
            self.parts[-1] = self.parts[-1][:-1]
            self.origin.pop()
            self.length -= 1
            last_start, _ = self.lines[-1]
            self.lines[-1] = (last_start, self.length)
        elif joiner == " ":
            self.parts.append(" ")
            self.origin.append(max(offset - 1, 0))
            self.length += 1
        return self.length

    def build(self) -> NormalisedPage:
        return NormalisedPage(
            text="".join(self.parts),
            origin=tuple(self.origin),
            lines=tuple(self.lines),
            blank_before=tuple(self.blank_before),
        )


def _clean_line(raw: str, offset: int, footnotes: frozenset[str], previous: str) -> tuple[str, list[int]]:
    """A raw line with single spaces, no invisible characters, ligatures spelled out and no footnote
    marker fused with a year (`previous` is the last word of the line before)."""
    words: list[str] = []
    origin: list[int] = []
    for match in _TOKEN.finditer(raw):
        word, positions = _clean_token(match.group(), offset + match.start())
        if not word:
            continue
        word, positions = without_marker(word, positions, words[-1] if words else previous, footnotes)
        if words:
            origin.append(positions[0] - 1)
        words.append(word)
        origin.extend(positions)
    return " ".join(words), origin


def _clean_token(token: str, start: int) -> tuple[str, list[int]]:
    if not _SPECIAL.search(token):
        return token, list(range(start, start + len(token)))
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(token):
        if char in _INVISIBLE:
            continue
        spelled = _LIGATURES.get(char, char)
        chars.append(spelled)
        origin.extend([start + index] * len(spelled))
    return "".join(chars), origin


def _joiner(prev: str, line: str, soft_hyphen: bool) -> str:
    """How to join two lines: "" (no space), " " or "drop" (remove the hyphen, no space)."""
    if soft_hyphen:
        return ""
    match = _LINE_HYPHEN.search(prev)
    if match is None or not line[0].isalnum():
        return " "
    left = match.group(1)
    right = _WORD_CHARS.split(line, maxsplit=1)[0]
    keep = (
        left.lower() in _COMPOUND_LEFT
        or right.lower() in _COMPOUND_RIGHT
        or left[-1].isdigit()
        or not line[0].islower()
        or not left.isalpha()
    )
    return "" if keep else "drop"


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
