"""How place names are compared and how text is cut into words for matching.

A name and a mention match when their keys match: accents stripped ("Québec" = "Quebec"), case
folded, hyphens read as spaces ("Guinea-Bissau"), and dots dropped ("U.S." = "US").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_WORD = re.compile(r"[^\W\d_]+(?:['’\-.][^\W\d_]+)*")
_SEPARATORS = re.compile(r"[\s\-]+")
#: Abbreviations whose dot may sit inside a name ("St. Louis").
_DOTTED_ABBREVIATIONS = frozenset({"St", "Ste", "Mt", "Ft", "Pt"})


def name_key(text: str) -> str:
    """The form names and mentions are compared in."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    plain = plain.replace("’", "'").replace(".", "").casefold()
    return " ".join(part for part in _SEPARATORS.split(plain) if part)


@dataclass(frozen=True)
class Word:
    """One word of a text, where it is, and whether a name may run on to it from the word before."""

    text: str
    start: int
    end: int
    joined: bool  # only a space (or an abbreviation's dot and a space) separates it from the previous word

    @property
    def capitalised(self) -> bool:
        return self.text[0].isupper()

    @property
    def shouted(self) -> bool:
        """All capitals (a heading or an acronym), which plain place names never are."""
        letters = [char for char in self.text if char.isalpha()]
        return len(letters) > 1 and all(char.isupper() for char in letters)


def words(text: str) -> list[Word]:
    """The words of `text` in order (letters with inner hyphens, apostrophes or dots)."""
    found: list[Word] = []
    for match in _WORD.finditer(text):
        previous = found[-1] if found else None
        gap = text[previous.end : match.start()] if previous else ""
        joined = previous is not None and (
            gap.isspace() or (previous.text in _DOTTED_ABBREVIATIONS and gap[:1] == "." and gap[1:].isspace())
        )
        found.append(Word(match.group(), match.start(), match.end(), joined))
    return found
