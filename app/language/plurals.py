"""One noun's singular, as the readers compare the things two sentences name ("cars" and "car",
"properties" and "property").

The readers compare sets of words, so a plural's singular must not meet a word of another thing:
"processes" and "process heat", "greenhouse gases" and "gas output", "businesses" and "business
travel" share no word when an "-es" plural keeps its "e" ("processe"), and that is how it is read."""

from __future__ import annotations

import re

#: Plurals without an "s" to drop.
IRREGULAR_PLURALS = {"women": "woman", "men": "man", "staff": "staff"}
#: Words already singular though they end in "s": "process", "campus", "analysis".
_SINGULAR_ENDING = re.compile(r"(?:ss|us|is)$")


def singular(word: str) -> str:
    """The singular of a lower-case English noun, by its last letters ("-ies" is "-y", else a final
    "s" drops); words of three letters or fewer, and words that are no plurals, as written."""
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if len(word) <= 3 or _SINGULAR_ENDING.search(word):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word.removesuffix("s")
