"""The reporting company's name as sources write it: whether a text names it, and what stands for it
on its own (a distinctive first word, a domain's key). The name without its legal form is
`app.language.company_names.search_name`."""

from __future__ import annotations

import re

from app.geo.gazetteer import load_gazetteer
from app.geo.names import name_key
from app.language.company_names import search_name

#: First words too common to stand for a company on their own ("General", "United").
COMMON_NAME_WORDS = frozenset(
    """general international american national united global first royal standard british
    european energy power public digital national pacific atlantic northern southern eastern
    western central new great china canadian australian green capital city the""".split()
)


#: A first word shorter than this is too easily part of another name ("Rio", "BP"). One of just this
#: length stands for the company in a text only where it reads as a name (`_written_as_a_name`):
#: many four-letter words open sentences ("Just", "Data", "Best").
MIN_DISTINCTIVE_CHARS = 4


def distinctive_first_word(name: str) -> str | None:
    """The name's first word when it stands for the company on its own as written ("Costco",
    "Siemens", "Holm"), or None for a shorter or common one ("Rio", "General") or a short one that
    names a place ("Kent", "Oslo": "Kent's dairy farms" are the county's)."""
    words = name.split()
    first = words[0] if words else ""
    if len(first) < MIN_DISTINCTIVE_CHARS or first.lower() in COMMON_NAME_WORDS:
        return None
    return None if len(first) == MIN_DISTINCTIVE_CHARS and _a_place(first) else first


def _a_place(word: str) -> bool:
    """Whether the offline gazetteer knows `word` as a place's own name."""
    return bool(load_gazetteer().candidates(name_key(word))[0])


def names_company(text: str, company: str) -> bool:
    """Whether `company` (its search name, or a distinctive first word of it) appears in `text`."""
    if not company:
        return False
    if re.search(rf"(?<!\w){re.escape(company)}(?!\w)", text, re.IGNORECASE):
        return True
    first = distinctive_first_word(company)  # as written, never a common word ("General")
    if first is None:
        return False
    written = re.finditer(rf"(?<!\w){re.escape(first)}(?!\w)", text)
    return any(len(first) > MIN_DISTINCTIVE_CHARS or _written_as_a_name(text, match) for match in written)


def _written_as_a_name(text: str, match: re.Match[str]) -> bool:
    """Whether a short first word is written as the company's name: after a word that is no
    preposition or article ("estimates Tarn collected", "said Holm") or in the possessive ("of Holm's
    packaging"); never as a sentence's first word, as part of another name ("Lake Holm", "Blue
    Flag", "Best in Class") or another's thing ("the regulator's Star rating"), nor after a word
    that sets a place ("in Kent", "the Tarn valley", "near Sola")."""
    before, after = text[: match.start()], text[match.end() :]
    if not before.strip():
        return False  # a sentence's first word may be any word ("Coal's share", "Wind's share")
    if re.match(r"['’]?s?\s(?:(?:in|of|for|and|&)\s)?[A-Z]", after) or re.search(
        r"(?:[A-Z][\w'’-]*|['’]s)\s$", before
    ):
        return False
    if re.match(r"['’]s?\b", after):
        return re.search(r"\b(?:" + _NEAR_WORDS + r")\s$", before) is None  # "near Holm's plant"
    return (
        re.search(r"(?:,|\b(?!(?:" + _PLACE_WORDS + "|" + _NEAR_WORDS + r")\b)[a-z]+)\s$", before) is not None
    )


#: Words before a place or another body's name: "in Kent", "the Tarn", "led by Kova", "such as Dorn",
#: "with Tarn the largest".
_PLACE_WORDS = "in|at|on|of|the|from|to|across|by|into|outside|within|unlike|than|as|with|using|supplying"
#: Words before a place, even in the possessive: "near Holm's plant", "the river Tarn", "fresh Sage".
_NEAR_WORDS = "near|along|around|upper|lower|river|lake|mount|fresh|own|wild"


def about_company(company: str, *texts: str | None) -> bool:
    """Whether a source is about the report's company: one of its texts (title, passage, fuller
    content) names it. With no company name known, every source may be."""
    return not company or any(names_company(text or "", company) for text in texts)


def name_words(company_name: str | None) -> list[str]:
    """The search name's words, lower-case, without a leading "The" ("The Home Depot" -> home, depot)."""
    words = re.findall(r"[a-z0-9]+", search_name(company_name).lower())
    return words[1:] if words[:1] == ["the"] else words


def distinctive_key(company_name: str | None) -> str | None:
    """What stands for the company on its own in a domain name: its first word when distinctive
    ("costco", "volkswagen"), else its first two words run together ("generalmotors", "riotinto"),
    or None when even that is too short or generic to tell the company apart."""
    words = name_words(company_name)
    if not words:
        return None
    first = words[0]
    if len(first) >= MIN_DISTINCTIVE_CHARS and first not in COMMON_NAME_WORDS:
        return first
    if len(words) >= 2:
        return first + words[1]
    return None
