"""Text that Postgres can store (no NUL, no lone surrogates) and a reader can read (no control
characters).

A damaged PDF can yield page text with NUL characters (Postgres refuses them in text columns:
`invalid byte sequence for encoding "UTF8": 0x00`) or unpaired UTF-16 surrogates (not encodable as
UTF-8). Both are removed, and how many were removed is counted so the parse can report it.

Some PDFs also carry other C0 control characters in their text layer (a BEL, U+0007, between two
paragraphs); they would travel into claims, excerpts and answers. Each becomes a space, which keeps
the words on either side apart and every other character where it was; newlines and tabs stay.
"""

from __future__ import annotations

import re

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_CONTROL = re.compile("[\x01-\x08\x0b-\x1f]")


def storable(text: str) -> tuple[str, int]:
    """`text` without NUL and lone surrogates, and how many characters were removed."""
    cleaned, removed = _UNSTORABLE.subn("", text)
    return cleaned, removed


def readable(text: str) -> str:
    """`text` with C0 control characters other than newline and tab turned into spaces."""
    return _CONTROL.sub(" ", text)
