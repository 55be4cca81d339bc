"""Report-level disclosure gaps: key IFRS S2 disclosures that nothing in the report addresses.

Claims only show what a report says; a missing Scope 3 figure or an absent scenario analysis is
what it does not say, and IFRS S2 requires it. So the legal agent checks a fixed list of key
disclosures against every claim and, stricter, against every page: only a disclosure found in no
claim and no page's text is a gap. Only text is read, so a disclosure shown only as an image (an
organisation chart without a text layer) is a gap too, and the summary says so. Each disclosure has
its own, deliberately specific phrases (the registry's keywords are tuned for mapping claims, and
words such as "board" alone would cover anything), and some need an anchor word on the same page or
in the same claim ("remuneration" counts only beside "climate", "emissions" or similar), since the
requirement is about climate, not pay in general.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.knowledge.keywords import TextIndex
from app.knowledge.registry import requirement

_CLIMATE = ("climate", "emissions", "ghg", "carbon", "co2", "decarbonisation", "decarbonization", "net zero")
#: Pages listed per covered disclosure, enough to check by hand.
MAX_PAGES = 5


@dataclass(frozen=True)
class KeyDisclosure:
    """One disclosure every IFRS S2 report should make, and the phrases that show it is there."""

    paragraph_id: str
    keywords: tuple[str, ...]
    anchors: tuple[str, ...] = ()
    #: Phrases telling enough to need no anchor (used when `keywords` are weak alone).
    strong: tuple[str, ...] = ()

    @property
    def searched(self) -> list[str]:
        """Every phrase looked for, for the finding's details."""
        return [*self.strong, *self.keywords]

    @property
    def title(self) -> str:
        found = requirement(self.paragraph_id)
        return found.title if found else self.paragraph_id

    def found_in(self, index: TextIndex) -> bool:
        """A keyword, and (when required) an anchor word, in the same text."""
        if any(index.has(keyword) for keyword in self.strong):
            return True
        if not any(index.has(keyword) for keyword in self.keywords):
            return False
        return not self.anchors or any(index.has(anchor) for anchor in self.anchors)


KEY_DISCLOSURES: tuple[KeyDisclosure, ...] = (
    KeyDisclosure(
        "S2.29(a)(i)(1)",
        ("scope 1", "scopes 1", "direct emissions", "direct ghg emissions", "scope i"),
    ),
    KeyDisclosure(
        "S2.29(a)(i)(2)",
        (
            "scope 2",
            "scope 1 and 2",
            "scopes 1 and 2",
            "scope 1 2",
            "scopes 1 2",
            "location based",
            "market based",
        ),
    ),
    KeyDisclosure(
        "S2.29(a)(i)(3)",
        ("scope 3", "scope 1 2 and 3", "scopes 1 2 and 3", "value chain emissions", "scope 3 emissions"),
    ),
    KeyDisclosure(
        "S2.33",
        (
            "reduction target",
            "emissions target",
            "climate target",
            "climate targets",
            "net zero by",
            "carbon neutral by",
            "science based target",
            "science based targets",
            "sbti",
            "target to reduce",
            "targets to reduce",
            "interim target",
        ),
    ),
    KeyDisclosure(
        "S2.14(a)(iv)",
        (
            "transition plan",
            "climate transition plan",
            "decarbonisation plan",
            "decarbonization plan",
            "net zero plan",
            "decarbonisation roadmap",
            "decarbonization roadmap",
            "climate action plan",
            "decarbonisation pathway",
            "decarbonization pathway",
        ),
    ),
    KeyDisclosure(
        "S2.6(a)",
        (
            "board oversight",
            "oversight of climate",
            "sustainability committee",
            "esg committee",
            "board committee",
            "board oversees",
            "board of directors oversees",
            "climate governance",
        ),
        anchors=_CLIMATE + ("sustainability",),
    ),
    KeyDisclosure(
        "S2.6(b)",
        (
            "executive committee",
            "management committee",
            "chief sustainability officer",
            "sustainability council",
            "delegated to management",
            "management s role",
            "executive board",
        ),
        anchors=_CLIMATE,
    ),
    KeyDisclosure(
        "S2.22",
        (
            "scenario",
            "scenarios",
            "resilience assessment",
            "stress test",
            "stress testing",
            "scenario analyses",
        ),
        anchors=("temperature", "warming", "1 5 c", "2 c", "paris", "iea", "ngfs", "ipcc", "net zero"),
        strong=("scenario analysis", "climate scenario", "climate scenarios", "climate resilience"),
    ),
    KeyDisclosure(
        "S2.25",
        (
            "risk management process",
            "enterprise risk management",
            "risk identification",
            "climate risk assessment",
            "risk register",
            "identify and assess",
            "risk management framework",
        ),
        anchors=_CLIMATE,
    ),
    KeyDisclosure(
        "S2.29(f)",
        ("carbon price", "carbon prices", "carbon pricing"),
        anchors=("investment decision", "investment decisions", "capital allocation", "internal", "shadow"),
        strong=(
            "internal carbon price",
            "internal carbon pricing",
            "shadow carbon price",
            "shadow price",
            "internal carbon fee",
        ),
    ),
    KeyDisclosure(
        "S2.29(g)",
        (
            "remuneration",
            "executive compensation",
            "executive pay",
            "bonus",
            "bonuses",
            "incentive plan",
            "incentive plans",
            "variable pay",
            "ltip",
            "short term incentive",
            "long term incentive",
            "long term incentives",
            "short term incentives",
            "ltips",
        ),
        anchors=_CLIMATE,
    ),
)


@dataclass
class GapAnalysis:
    """Which key disclosures the claims, or only the report text, cover, and which none covers."""

    gaps: list[KeyDisclosure] = field(default_factory=list)
    covered: list[dict[str, Any]] = field(default_factory=list)

    def to_details(self) -> dict[str, Any]:
        """The report-level finding's `details`."""
        return {
            "gaps": [
                {"paragraph_id": d.paragraph_id, "title": d.title, "searched_keywords": d.searched}
                for d in self.gaps
            ],
            "covered": self.covered,
        }

    def summary(self, page_count: int, claim_count: int) -> str:
        """Which disclosures are missing, said plainly, and what was searched."""
        searched = f"{claim_count} claim(s) and {page_count} page(s)"
        if not self.gaps:
            return (
                f"All {len(KEY_DISCLOSURES)} key IFRS S2 disclosures are addressed somewhere in {searched}."
            )
        names = "; ".join(f"{d.paragraph_id} {d.title}" for d in self.gaps)
        return (
            f"{len(self.gaps)} of {len(KEY_DISCLOSURES)} key IFRS S2 disclosures were not found in "
            f"{searched}: {names}. Only the report's text was searched (a chart that is only an image "
            "is not read). A missing disclosure is a completeness gap, not evidence against any claim."
        )


def find_gaps(claim_texts: Sequence[str], pages: Sequence[tuple[int, str]]) -> GapAnalysis:
    """Check every key disclosure against the claims first, then against each page."""
    claim_indexes = [TextIndex(text) for text in claim_texts]
    page_indexes = [(number, TextIndex(text)) for number, text in pages]
    analysis = GapAnalysis()
    for disclosure in KEY_DISCLOSURES:
        by_claims = sum(disclosure.found_in(index) for index in claim_indexes)
        on_pages = [number for number, index in page_indexes if disclosure.found_in(index)]
        if not by_claims and not on_pages:
            analysis.gaps.append(disclosure)
            continue
        analysis.covered.append(
            {
                "paragraph_id": disclosure.paragraph_id,
                "title": disclosure.title,
                "claims": by_claims,
                "pages": on_pages[:MAX_PAGES],
                "page_count": len(on_pages),
            }
        )
    return analysis
