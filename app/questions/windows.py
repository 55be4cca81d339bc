"""Sentence windows: how a page's text becomes passages that a question can land on precisely.

A window is a run of consecutive sentences of one page, about `WINDOW_CHARS` long, and windows
overlap by about half: a fact is then always inside some window together with its neighbours (the
heading above it, the sentence that names the subject), yet no window is so long that a page's
unrelated sentences dilute it. PDF text is full of headings, figures and table cells that split
into very short "sentences"; windows group them, so those count by their words like any prose.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.language.sentences import split_sentences

#: A window grows sentence by sentence until it reaches this many characters.
WINDOW_CHARS = 420
#: A single sentence longer than this (a table flattened into one line) is cut into pieces.
MAX_SENTENCE_CHARS = 700


@dataclass(frozen=True)
class Window:
    """Consecutive sentences `first`..`last` (0-based, inclusive) of a page, joined."""

    text: str
    first: int
    last: int


def page_sentences(number: int, page_text: str) -> list[str]:
    """The page's sentences in reading order, over-long ones cut at word boundaries."""
    sentences: list[str] = []
    for sentence in split_sentences(number, page_text):
        sentences += _pieces(sentence.text.strip())
    return [sentence for sentence in sentences if sentence]


def sentence_windows(sentences: list[str], size: int = WINDOW_CHARS) -> list[Window]:
    """Overlapping windows covering every sentence; each next window starts about halfway into
    the previous one, and no later than its last sentence (so neighbouring windows always share a
    sentence), but never at the same sentence (so the walk always advances)."""
    windows: list[Window] = []
    start = 0
    while start < len(sentences):
        end, length = start, len(sentences[start])
        while end + 1 < len(sentences) and length < size:
            end += 1
            length += 1 + len(sentences[end])
        windows.append(Window(" ".join(sentences[start : end + 1]), start, end))
        if end == len(sentences) - 1:
            break
        start = max(start + 1, min(_halfway(sentences, start, end), end))
    return windows


def _halfway(sentences: list[str], start: int, end: int) -> int:
    """The first sentence past the middle (in characters) of the window `start`..`end`."""
    total = sum(len(sentence) + 1 for sentence in sentences[start : end + 1])
    seen = 0
    for index in range(start, end + 1):
        seen += len(sentences[index]) + 1
        if seen * 2 >= total:
            return index + 1
    return end + 1


def _pieces(sentence: str) -> list[str]:
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return [sentence]
    pieces: list[str] = []
    rest = sentence
    while len(rest) > MAX_SENTENCE_CHARS:
        cut = rest.rfind(" ", 0, MAX_SENTENCE_CHARS)
        cut = cut if cut > MAX_SENTENCE_CHARS // 2 else MAX_SENTENCE_CHARS
        pieces.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    return [*pieces, rest]
