"""One noun's singular, as the readers compare the things two sentences name ("buses" and "bus",
"properties" and "property", "processes" and "process")."""

from __future__ import annotations

import re

#: Plurals no suffix rule reads: "women", "gases" (not "phase"-like).
IRREGULAR_PLURALS = {
    "women": "woman",
    "men": "man",
    "staff": "staff",
    "gases": "gas",
    "biases": "bias",
    "campuses": "campus",
    "statuses": "status",
}
#: Plurals that add "es" to a hissing ending: "processes", "boxes", "branches", "dishes".
_ES_PLURAL = re.compile(r"(?:ss|x|ch|sh|z)es$")
#: Words already singular though they end in "s": "gas", "process", "status", "analysis".
_SINGULAR_ENDING = re.compile(r"(?:ss|us|is)$")


def singular(word: str) -> str:
    """The singular of a lower-case English noun; words of three letters or fewer, and words that are
    not plurals, as written."""
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if len(word) <= 3 or _SINGULAR_ENDING.search(word):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if _ES_PLURAL.search(word):
        return word[:-2]
    return word.removesuffix("s")
