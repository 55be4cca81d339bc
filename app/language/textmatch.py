"""Text normalisation shared by everything that must find a claim's words on a page.

PDF text differs from what an LLM (or a reader) writes in ways that do not change meaning: line
breaks, hyphenation at line ends, typographic quotes and dashes, ligatures, case. Comparing the
normalised forms makes "is this sentence on page 12?" a reliable question.
"""

from __future__ import annotations

import re
import unicodedata

# Hyphens vanish in the compared form: "emis-\nsions", "net-\nzero" and "net-zero" must all match
# whatever the line breaking was.
_HYPHEN = re.compile(r"-\s*")
_WHITESPACE = re.compile(r"\s+")
_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2022": " ",
    }
)


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace (line breaks included) become one space; ends are trimmed."""
    return _WHITESPACE.sub(" ", text).strip()


def normalize_for_match(text: str) -> str:
    """The form two texts are compared in: NFKC, plain punctuation, lower case, and neither hyphens
    nor whitespace, since PDF text breaks words at line ends ("emis- sions", "con firmed") that a
    sentence splitter or an LLM writes whole."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "").translate(_TRANSLATE)
    return _WHITESPACE.sub("", _HYPHEN.sub("", text)).lower()
