"""One normal form of an entity's name, so "RIO TINTO LIMITED" and "Rio Tinto Ltd." meet.

Lower case, accents folded, `&` read as "and", punctuation dropped, a leading "the" and trailing
legal forms (Ltd, AG, S.p.A., Pty Ltd, Inc...) removed. Words such as "Group" or "Holdings" are
kept: they often tell a parent from its subsidiary. This is the first step of entity matching, not
all of it.
"""

from __future__ import annotations

import re
import unicodedata

#: Legal forms, as they read after punctuation is removed ("S.p.A." is "spa", "Pty. Ltd." two words).
LEGAL_FORMS = frozenset(
    {
        "ab", "ag", "as", "asa", "bhd", "bv", "cia", "co", "company", "corp", "corporation", "cv",
        "gmbh", "inc", "incorporated", "jsc", "kg", "kgaa", "kk", "limited", "llc", "llp", "lp", "ltd",
        "ltda", "nv", "oy", "oyj", "pjsc", "plc", "pte", "pty", "pvt", "sa", "saa", "sab", "sas", "se",
        "spa", "srl", "tbk", "ulc",
    }
)  # fmt: skip
_JOINED = re.compile(r"[.'’`]")
_SEPARATORS = re.compile(r"[^0-9a-z]+")


def normalise_name(name: str) -> str:
    """The name's normal form ("" for a name of punctuation only)."""
    folded = name.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded)
        folded = "".join(char for char in folded if not unicodedata.combining(char))
    folded = _JOINED.sub("", folded.replace("&", " and "))
    words = _SEPARATORS.sub(" ", folded).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    kept = list(words)
    while len(kept) > 1 and kept[-1] in LEGAL_FORMS:
        kept.pop()
    return " ".join(kept)
