"""The quote check: a quote attributed to a source must occur in the source's retrieved text, since
a model may quote words the source does not hold. Both sides are compared after
`normalize_for_match` (NFKC, lower case, no whitespace or hyphens), so line breaks and hyphenation
never decide; a quote with ellipses must have each of its parts in the text."""

from __future__ import annotations

import re

from app.language.textmatch import normalize_for_match

#: Parts of an elided quote shorter than this (normalised) are too short to prove anything.
MIN_PART_CHARS = 12
_ELLIPSIS = re.compile(r"\.\.\.|…|\[\.\.\.\]")


def quote_found(quote: str, text: str) -> bool | None:
    """True if every substantial part of `quote` occurs in `text`, False if one does not, None
    when the quote has no substantial part to check."""
    haystack = normalize_for_match(text)
    parts = [normalize_for_match(part.strip(" \"'“”‘’")) for part in _ELLIPSIS.split(quote)]
    parts = [part for part in parts if len(part) >= MIN_PART_CHARS]
    if not parts:
        return None
    return all(part in haystack for part in parts)
