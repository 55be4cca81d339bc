"""The location check: a claim must be findable on the page it names, or it is fixed or dropped.

Downstream, the page number is what an auditor clicks to see the claim in the PDF, and what the
data/metrics agent cites; a wrong page is worse than no claim. LLMs misnumber pages near chunk
edges and paraphrase, so every candidate is checked against the parsed text:

1. its text (or its source context) is on the stated page: located;
2. it is on another page (the nearest one wins): the page is corrected;
3. a sentence on the stated or a neighbouring page reads almost the same: that verbatim sentence
   becomes the source context (the claim's own wording is kept);
4. otherwise the claim is dropped.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from app.claims.candidates import CandidateClaim
from app.language.sentences import rough_sentences
from app.language.textmatch import collapse_whitespace, normalize_for_match

Outcome = Literal["located", "page_corrected", "context_corrected", "dropped"]

#: How alike (difflib ratio on normalised text) a page sentence must be to stand in for a claim.
FUZZY_RATIO = 0.85
#: Pages either side of the stated page searched for a near-verbatim sentence.
FUZZY_PAGE_RADIUS = 1


@dataclass
class LocationStats:
    """How many candidates each outcome had; stored on the analysis run."""

    located: int = 0
    page_corrected: int = 0
    context_corrected: int = 0
    dropped: int = 0
    dropped_texts: list[str] = field(default_factory=list)

    def count(self, outcome: Outcome) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def to_dict(self) -> dict[str, object]:
        return {
            "located": self.located,
            "page_corrected": self.page_corrected,
            "context_corrected": self.context_corrected,
            "dropped": self.dropped,
            "dropped_examples": self.dropped_texts[:5],
        }


class PageIndex:
    """The report's pages in the compared form, for repeated look-ups."""

    def __init__(self, pages: Mapping[int, str]) -> None:
        self._raw = dict(pages)
        self._normalized = {number: normalize_for_match(text) for number, text in pages.items()}

    def contains(self, page: int, text: str | None) -> bool:
        """Whether `text` (normalised) occurs on `page`."""
        needle = normalize_for_match(text or "")
        return bool(needle) and needle in self._normalized.get(page, "")

    def offset(self, page: int, text: str) -> int:
        """Where `text` starts in `page`'s compared form (0 when it is not there): reading order."""
        return max(self._normalized.get(page, "").find(normalize_for_match(text)), 0)

    def pages_containing(self, text: str | None, near: int) -> list[int]:
        """Every page holding `text`, nearest to `near` first."""
        needle = normalize_for_match(text or "")
        if not needle:
            return []
        found = [number for number, page in self._normalized.items() if needle in page]
        return sorted(found, key=lambda number: (abs(number - near), number))

    def closest_sentence(self, text: str, near: int) -> tuple[int, str] | None:
        """The verbatim page sentence most like `text` on `near` ± radius, if alike enough."""
        target = normalize_for_match(text)
        best: tuple[float, int, str] | None = None
        for number in range(near - FUZZY_PAGE_RADIUS, near + FUZZY_PAGE_RADIUS + 1):
            for sentence in rough_sentences(collapse_whitespace(self._raw.get(number, ""))):
                matcher = difflib.SequenceMatcher(None, target, normalize_for_match(sentence), autojunk=False)
                if matcher.real_quick_ratio() < FUZZY_RATIO or matcher.quick_ratio() < FUZZY_RATIO:
                    continue
                ratio = matcher.ratio()
                if ratio >= FUZZY_RATIO and (best is None or ratio > best[0]):
                    best = (ratio, number, sentence)
        return (best[1], best[2]) if best else None


def locate(claim: CandidateClaim, index: PageIndex) -> tuple[Outcome, CandidateClaim]:
    """Check one candidate; returns the outcome and the (possibly corrected) claim."""
    page = claim.source_page
    if index.contains(page, claim.text) or index.contains(page, claim.source_context):
        return "located", claim
    for anchor in (claim.text, claim.source_context):
        elsewhere = index.pages_containing(anchor, page)
        if elsewhere:
            return "page_corrected", replace(claim, source_page=elsewhere[0])
    close = index.closest_sentence(claim.text, page)
    if close is not None:
        return "context_corrected", replace(claim, source_page=close[0], source_context=close[1])
    return "dropped", claim


def locate_all(claims: list[CandidateClaim], index: PageIndex, stats: LocationStats) -> list[CandidateClaim]:
    """The candidates that pass the check (corrected where needed), counting every outcome."""
    kept: list[CandidateClaim] = []
    for claim in claims:
        outcome, checked = locate(claim, index)
        stats.count(outcome)
        if outcome == "dropped":
            stats.dropped_texts.append(claim.text)
        else:
            kept.append(checked)
    return kept
