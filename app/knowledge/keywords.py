"""Matching the registry's keywords in report text, as whole token sequences.

Keywords are lower-case words and phrases ("scope 1", "internal carbon price"); a text contains a
keyword when the keyword's tokens occur in it adjacent and in order, so "Scope 12" never counts
as "scope 1" and "Scope 1, 2 and 3" counts for both "scope 1" and "scope 1, 2 and 3".
"""

from __future__ import annotations

import re

#: The longest registry keyword, in tokens; longer sequences are never looked up.
MAX_KEYWORD_TOKENS = 6
_TOKEN = re.compile(r"[a-z0-9₂]+")


def tokens(text: str) -> tuple[str, ...]:
    """Lower-case word and number tokens."""
    return tuple(_TOKEN.findall(text.lower()))


class TextIndex:
    """The token n-grams of a text, so many keywords can be looked up cheaply."""

    def __init__(self, text: str) -> None:
        words = tokens(text)
        self._grams = {
            words[start : start + size]
            for size in range(1, MAX_KEYWORD_TOKENS + 1)
            for start in range(len(words) - size + 1)
        }

    def has(self, keyword: str) -> bool:
        """Whether the keyword occurs in the text."""
        return self.has_tokens(tokens(keyword))

    def has_tokens(self, wanted: tuple[str, ...]) -> bool:
        """Whether an already tokenised keyword occurs in the text."""
        return bool(wanted) and wanted in self._grams
