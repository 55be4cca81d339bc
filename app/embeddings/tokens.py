"""Text to normalised word tokens for the hashing embedder: cheap, deterministic, English-only.

The normalisation is deliberately light (no dictionary, no real stemmer): it only has to make
obvious variants ("emissions"/"emission", "company's"/"company", "CO₂e"/"co2e") hash alike.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Words too common to say anything about a passage. Kept short: "scope", numbers, units, negations
#: and directions ("not", "no", "up", "down", "above", "below", "more") carry meaning in
#: sustainability claims and stay.
STOPWORDS = frozenset(
    """
    a about after again all also am an and any are as at be because been before being between both
    but by can could did do does doing during each for from further had has have having he her here
    hers herself him himself his how i if in into is it its itself just me my myself of on once only
    or other our ours ourselves out own same she should so some such than that the their theirs them
    themselves then there these they this those through to too until very was we were what when
    where which while who whom why will with would you your yours yourself yourselves
    """.split()
)

#: Words reporters use interchangeably, folded into one (before stemming). Only the direction of a
#: change and the GHG abbreviation: the common paraphrases of emissions claims, no general thesaurus.
SYNONYMS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        "decrease decreased decreases decreasing decline declined declines declining fell fall falls "
        "fallen falling drop dropped drops dropping reduce reduced reduces reducing reduction "
        "reductions lower lowered lowering".split(),
        ("decrease",),
    ),
    **dict.fromkeys(
        "increase increased increases increasing rise rose rises risen rising grew grow grows grown "
        "growing".split(),
        ("increase",),
    ),
    "ghg": ("greenhouse", "gas"),
    "ghgs": ("greenhouse", "gas"),
}

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'"})
# A run of letters/digits, optionally joined by "." / "," (decimals, thousands) or "'" (possessives).
_TOKEN = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def tokenize(text: str) -> list[str]:
    """The text's content words in order: lowercased, synonyms folded, stemmed, stopwords dropped.

    Numbers keep their decimals ("6.1%" -> "6.1") and lose thousands separators ("1,250" -> "1250");
    NFKC folding turns "CO₂e" into "co2e".
    """
    text = unicodedata.normalize("NFKC", text).lower().translate(_APOSTROPHES)
    words: list[str] = []
    for match in _TOKEN.finditer(text):
        for word in _split(match.group()):
            if word not in STOPWORDS:
                words.extend(stem(part) for part in SYNONYMS.get(word, (word,)))
    return words


def _split(token: str) -> list[str]:
    """A raw token as words: numbers whole, possessives stripped, other punctuation split on."""
    if token.isalnum():
        return [token]
    if _NUMBER.fullmatch(token):
        # "1,250.5" -> "1250.5"; a lone comma between short groups ("2,3") is a decimal comma.
        if token.count(",") == 1 and "." not in token and len(token.partition(",")[2]) != 3:
            return [token.replace(",", ".")]
        return [token.replace(",", "")]
    if token.endswith("'s"):
        token = token[:-2]
    return [part for part in re.split(r"[.,']", token) if part]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix stripper: plurals, -ing, -ed and a final -e, on alphabetic words only.

    It is not linguistically right ("timed" -> "tim"), only consistent, which is all hashing needs.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word
