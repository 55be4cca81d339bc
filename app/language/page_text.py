"""PDF page text rebuilt as one string that sentences are verbatim slices of.

PDF text arrives as visual lines: sentences wrap mid-phrase, words are hyphenated at line ends,
soft hyphens and zero-width characters hide inside words, and ligatures stand for two or three
letters. `normalise_page` joins the lines into one normalised string while remembering where each
visual line was and where each character came from, so segmentation (`app.language.sentences`)
can still see the layout and every sentence can be found again on the raw page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.footnotes import PageFootnotes, without_marker

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


@dataclass(frozen=True)
class NormalisedPage:
    """A page rebuilt as one string, remembering where its visual lines were.

    Attributes:
        text: the normalised text (see `normalise_text`).
        origin: for each character of `text`, the index of the raw character it came from.
        lines: `(start, end)` of every non-empty raw line within `text`.
        blank_before: for each line, whether one or more blank lines preceded it.
        markers: `(offset in text, number)` of every footnote marker dropped from a word or a
            year: where the marker stood, so a sentence can still name its footnotes.
    """

    text: str
    origin: tuple[int, ...]
    lines: tuple[tuple[int, int], ...]
    blank_before: tuple[bool, ...]
    markers: tuple[tuple[int, int], ...] = ()

    def footnotes_in(self, start: int, end: int) -> tuple[int, ...]:
        """The numbers of the footnote markers dropped from `text[start:end]`, in order."""
        return tuple(number for offset, number in self.markers if start < offset <= end)


def normalise_text(text: str) -> str:
    """The canonical form of page text that claim texts are verbatim substrings of.

    Whitespace runs (line breaks included) become one space, soft hyphens and zero-width characters
    go, ligatures (ﬁ, ﬂ, ...) are spelled out, and a word hyphenated across a line break is joined
    again ("emis-\\nsions" → "emissions", but "low-\\ncarbon" → "low-carbon"). A footnote
    marker fused with a year ("by 20351.") or glued to a word ("zero28") is dropped
    (`app.language.footnotes`).
    """
    return normalise_page(text).text


def normalise_page(text: str, skip_lines: frozenset[int] = frozenset()) -> NormalisedPage:
    """`normalise_text` plus the line structure and offsets that segmentation needs.

    `skip_lines` are indexes of raw lines (in `text.split("\n")`) read as if they were not there:
    a page's running header, footer and page number (`app.language.furniture`). The lines before
    and after them join as they would have without them; offsets still point into `text`.
    """
    builder = _Builder(PageFootnotes.of(text))
    offset = 0
    for index, raw in enumerate(text.split("\n")):
        if index not in skip_lines:
            builder.add_line(raw, offset)
        offset += len(raw) + 1
    return builder.build()


class _Builder:
    """Accumulates cleaned lines into the normalised text, joining them as they arrive."""

    def __init__(self, footnotes: PageFootnotes) -> None:
        self.footnotes = footnotes  # the page's footnote numbers (`app.language.footnotes`)
        self.markers: list[tuple[int, int]] = []
        self.parts: list[str] = []
        self.origin: list[int] = []
        self.length = 0
        self.lines: list[tuple[int, int]] = []
        self.blank_before: list[bool] = []
        self.pending_blank = False
        self.prev_line = ""
        self.prev_soft = False

    def add_line(self, raw: str, offset: int) -> None:
        line, origin, markers = _clean_line(raw, offset, self.footnotes, self.prev_line.rpartition(" ")[2])
        if not line:
            self.pending_blank = bool(self.lines)
            return
        start = self.length
        if self.lines:
            start = self._join(line, offset)
        self.markers.extend((start + at, number) for at, number in markers)
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
            markers=tuple(self.markers),
        )


def _clean_line(
    raw: str, offset: int, footnotes: PageFootnotes, previous: str
) -> tuple[str, list[int], list[tuple[int, int]]]:
    """A raw line with single spaces, no invisible characters, ligatures spelled out and no footnote
    marker (`previous` is the last word of the line before), and the `(offset in the line, number)`
    of each marker dropped."""
    words: list[str] = []
    origin: list[int] = []
    markers: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(raw):
        token, raw_positions = _clean_token(match.group(), offset + match.start())
        if not token:
            continue
        word, positions, number = without_marker(
            token, raw_positions, words[-1] if words else previous, footnotes
        )
        if words:
            origin.append(positions[0] - 1)
        if number is not None:
            kept = next((i for i, (a, b) in enumerate(zip(word, token, strict=False)) if a != b), len(word))
            markers.append((len(origin) + kept, number))
        words.append(word)
        origin.extend(positions)
    return " ".join(words), origin, markers


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
