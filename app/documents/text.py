"""Text that Postgres can store: no NUL, no lone surrogates.

A damaged PDF can yield page text with NUL characters (Postgres refuses them in text columns:
`invalid byte sequence for encoding "UTF8": 0x00`) or unpaired UTF-16 surrogates (not encodable as
UTF-8). Both are removed, and how many were removed is counted so the parse can report it.
"""

from __future__ import annotations

import re

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> tuple[str, int]:
    """`text` without NUL and lone surrogates, and how many characters were removed."""
    cleaned, removed = _UNSTORABLE.subn("", text)
    return cleaned, removed
