"""Splitting a document's text into overlapping passages on paragraph and sentence boundaries.

Passages of about `evidence_chunk_chars` characters keep both search branches sharp (a whole
article would match everything a little), and cutting at paragraph, then sentence, then line, then
word boundaries keeps each passage readable as a quote. A small overlap, starting at a sentence,
stops a fact that straddles a cut from being lost to both passages. Offsets point into the stored
text, so `text[chunk.start:chunk.end] == chunk.text` and a quote can be traced to its place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Cut candidates, best first: after a paragraph, after a sentence, at a line break, at a space.
_CUTS = (
    re.compile(r"\S(?=[ \t]*\n[ \t]*\n)"),
    re.compile(r"[.!?…][\"'”’)\]]*(?=\s)"),
    re.compile(r"\S(?=[ \t]*\n)"),
    re.compile(r"\S(?=\s)"),
)
#: Where a sentence starts: after a sentence end and its spaces.
_SENTENCE_START = re.compile(r"[.!?…][\"'”’)\]]*\s+(?=\S)")
#: A cut is looked for only in the last part of a chunk, so chunks are never much shorter than asked.
MIN_FILL = 0.5
#: Characters past the limit a boundary's look-ahead may read (the blank line after a paragraph).
LOOKAHEAD = 8


@dataclass(frozen=True)
class Chunk:
    """One passage: its position in the document and `text[start:end]`."""

    index: int
    start: int
    end: int
    text: str


def default_overlap(size: int) -> int:
    """About a tenth of a chunk, at most 200 characters: a sentence or two."""
    return min(200, size // 10)


def split_into_chunks(text: str, size: int, overlap: int | None = None) -> list[Chunk]:
    """Passages of at most `size` characters covering all of `text`, each starting on a non-space.

    Args:
        text: The document's (normalised) text.
        size: Longest passage, in characters.
        overlap: Characters of the previous passage a passage may repeat (default `default_overlap`).
    """
    if size <= 0:
        raise ValueError("chunk size must be positive")
    overlap = default_overlap(size) if overlap is None else overlap
    chunks: list[Chunk] = []
    start = _skip_spaces(text, 0)
    while start < len(text):
        end = _cut(text, start, size)
        chunks.append(Chunk(len(chunks), start, end, text[start:end]))
        if end >= len(text.rstrip()):
            break
        start = max(_next_start(text, end, overlap), start + 1)
    return chunks


def _cut(text: str, start: int, size: int) -> int:
    """End (exclusive) of the chunk starting at `start`, at the best boundary in its last half."""
    limit = start + size
    if limit >= len(text):
        return len(text.rstrip())
    window_start = start + int(size * MIN_FILL)
    for pattern in _CUTS:
        last = None
        for match in pattern.finditer(text, window_start, limit + LOOKAHEAD):
            if match.end() > limit:
                break
            last = match
        if last is not None:
            return last.end()
    return limit


def _next_start(text: str, end: int, overlap: int) -> int:
    """Where the next chunk starts: the first sentence start in the overlap, else right after `end`."""
    if overlap > 0:
        match = _SENTENCE_START.search(text, max(0, end - overlap), end)
        if match is not None and match.end() < end:
            return match.end()
    return _skip_spaces(text, end)


def _skip_spaces(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position
