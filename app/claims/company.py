"""Which company a report is about, so later searches (news, registries) name the right entity.

Rule-based: names followed by a legal-form suffix ("Northwind Minerals plc", "Siemens AG") and the
subject of the report's title ("Rio Tinto Climate Change Report 2023") are counted across the
report, weighting the first pages, and the most frequent wins. Failing those, a name the report
often makes its owner or actor ("Costco's", "Costco has") is taken. The user's own `companyName` always
takes precedence over the detection.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from app.language.company_names import PROSE_LEGAL_FORM

_NAME_WORD = r"[A-Z][A-Za-z0-9&'.\-]*"
_LEGAL_SUFFIX = re.compile(rf"\s+(?:{PROSE_LEGAL_FORM})$")
_WITH_LEGAL_FORM = re.compile(rf"\b((?:{_NAME_WORD}\s+){{0,4}}{_NAME_WORD})\s+({PROSE_LEGAL_FORM})\b")
_TITLE = re.compile(
    rf"^((?:{_NAME_WORD}\s+){{0,3}}{_NAME_WORD})\s+(?:\d{{4}}\s+)?"
    r"(?:Sustainability|ESG|Climate|Annual|Integrated|Impact|Environmental|Responsibility)\b",
    re.MULTILINE,
)
_AS_SUBJECT = re.compile(
    rf"\b((?:{_NAME_WORD}\s+){{0,2}}{_NAME_WORD})(?:['\u2019]s\b|\s+(?:is|has|was|will|aims|plans|operates)\b)"
)
#: A name seen only as an owner or subject ("Costco's", "Costco has") must recur this often to count.
MIN_SUBJECT_MENTIONS = 3
_NOT_A_NAME = frozenset(
    "The Our This These Group Report Sustainability Climate Annual Scope Board Table Contents Page "
    "Introduction Overview Appendix Note Notes Chief Executive Chair Message We It They This That In As "
    "At For Its Their".split()
)
FIRST_PAGES = 3
FIRST_PAGE_WEIGHT = 3


def detect_company_name(pages: Sequence[tuple[int, str]]) -> str | None:
    """The most likely reporting company, or None when nothing looks like a company name."""
    votes: Counter[str] = Counter()
    for position, (_, text) in enumerate(pages):
        weight = FIRST_PAGE_WEIGHT if position < FIRST_PAGES else 1
        for name, form in _WITH_LEGAL_FORM.findall(text):
            candidate = _clean(f"{name} {form}")
            if candidate:
                votes[candidate] += weight
        if position < FIRST_PAGES:
            for name in _TITLE.findall(text):
                candidate = _clean(name)
                if candidate:
                    votes[candidate] += weight
    if not votes:
        votes = _subject_votes(pages)
    if not votes:
        return None
    merged = _merge_variants(votes)
    text = "\n".join(page for _, page in pages)
    return max(merged, key=lambda name: (merged[name] + _stem_mentions(name, text), name))


def _stem_mentions(name: str, text: str) -> int:
    """How often the report names the company without its legal form ("Rio Tinto" for "Rio Tinto plc"):
    a subsidiary may be cited with its full legal name, but the reporting company is named throughout."""
    stem = _LEGAL_SUFFIX.sub("", name).strip() or name
    return len(re.findall(rf"\b{re.escape(stem)}\b", text))


def _subject_votes(pages: Sequence[tuple[int, str]]) -> Counter[str]:
    """Names the report speaks of as owner or actor ("Costco's fuel", "Costco has"), when no legal
    form appears anywhere."""
    votes: Counter[str] = Counter()
    for _, text in pages:
        for name in _AS_SUBJECT.findall(text):
            candidate = _clean(name)
            if candidate:
                votes[candidate] += 1
    return Counter({name: count for name, count in votes.items() if count >= MIN_SUBJECT_MENTIONS})


def _clean(name: str) -> str | None:
    words = " ".join(name.split()).split(" ")
    while words and words[0] in _NOT_A_NAME:
        words = words[1:]
    if not words or all(word in _NOT_A_NAME or word.isdigit() for word in words):
        return None
    cleaned = " ".join(words)
    return cleaned if 2 <= len(cleaned) <= 120 else None


def _merge_variants(votes: Counter[str]) -> Counter[str]:
    """Count "Siemens" towards "Siemens AG": a name with a legal form absorbs its bare stem."""
    merged = Counter(votes)
    for name in votes:
        for longer in votes:
            if longer != name and longer.startswith(name + " ") and name in merged:
                merged[longer] += merged.pop(name)
                break
    return merged
