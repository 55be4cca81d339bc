"""Whether the rule-based extractor could read the report: it knows English only.

Its cues ("we reduced", "Scope 1 emissions", "net zero by") are English words, so a report in German
or Japanese parses fine and yields no claims. Without a warning the user reads "no verifiable claims
were found", which is false. A page counts as English when its letters are mostly Latin and enough of
its common function words are English rather than those of the other major European languages (a
table of English labels has few function words of either kind, and stays English); pages with too
few words to judge are left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: Words that make up a large share of any English prose (and of few other languages' text).
_FUNCTION_WORDS = frozenset(
    "the of and to in our we is for on with that by as are was were at from this its it be has have "
    "an or which their they not will been than".split()
)
#: The same for German, French, Spanish, Italian, Dutch and Portuguese ("in", "an", "die", "el", "y",
#: "com" and the like, shared with English, URLs or stray glyphs, are left out).
_OTHER_FUNCTION_WORDS = frozenset(
    "der das und ist nicht mit für von zu den des dem im auf sich wir unsere unser eine einer "
    "les et est pour dans une du que qui avec sur par nous nos notre sont ont été "
    "los las por con para una del nuestra nuestro nuestros son está "
    "della delle degli che per nel alla sono nostro nostra "
    "het een van niet voor zijn wij onze ook "
    "uma não para nossa nosso são foi".split()
)
_WORD = re.compile(r"[^\W\d_]+")
#: Fewer words than this on a page are too few to judge its language.
MIN_WORDS = 25
#: Share of a page's letters that must be ASCII for it to be read as a Latin-script page.
MIN_ASCII_SHARE = 0.85
#: Share of a page's words that must be another language's function words to call it foreign.
MIN_OTHER_SHARE = 0.05
#: The report is flagged when fewer than this share of its judged pages read as English.
MIN_ENGLISH_PAGES = 0.5


@dataclass(frozen=True)
class LanguageCheck:
    """How many pages could be judged, and how many of those read as English."""

    judged_pages: int
    english_pages: int

    @property
    def mostly_other_language(self) -> bool:
        """Whether most judged pages are in a language the rule extractor cannot read."""
        return self.judged_pages > 0 and self.english_pages < MIN_ENGLISH_PAGES * self.judged_pages


def page_is_english(text: str) -> bool | None:
    """True or False for a page with enough words to judge, else None."""
    words = _WORD.findall(text)
    letters = sum(len(word) for word in words)
    if len(words) < MIN_WORDS or not letters:
        return None
    ascii_letters = sum(len(word) for word in words if word.isascii())
    if ascii_letters < MIN_ASCII_SHARE * letters:
        return False
    lowered = [word.lower() for word in words]
    english = sum(1 for word in lowered if word in _FUNCTION_WORDS)
    other = sum(1 for word in lowered if word in _OTHER_FUNCTION_WORDS)
    return not (other > english and other >= MIN_OTHER_SHARE * len(lowered))


def check_language(pages: Sequence[tuple[int, str]]) -> LanguageCheck:
    """Judge every page of the report."""
    verdicts = [page_is_english(text) for _, text in pages]
    judged = [verdict for verdict in verdicts if verdict is not None]
    return LanguageCheck(judged_pages=len(judged), english_pages=sum(judged))
