"""Paragraph-level IFRS assessment: which sub-requirements of a paragraph a claim's text addresses.

A paragraph such as S2.6(a) is only fully disclosed when every one of its sub-requirements (the
registry's leaves under it) is, so the legal agent walks down to the leaves and looks for each
one's keywords in the claim and the text around it. Keywords are matched as token sequences, the
way the claims agent's preliminary mapping matches them (`app.claims.ifrs_mapping`), so "Scope 12"
never counts as "scope 1".

The claim and its own source context may address a leaf by any keyword; the rest of the page only by
a phrase (a keyword of two or more words), because single words such as "data" or "board" turn up on
almost any page of a report without saying anything about the requirement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.knowledge.keywords import TextIndex, tokens
from app.knowledge.registry import Requirement, children, requirement

Status = Literal["full", "partial", "missing"]

#: How many names of not-found sub-requirements a summary spells out before "and N more".
MAX_LISTED = 4


@dataclass(frozen=True)
class Passage:
    """A text the assessment may read, where it is ("on page 12"), and whether single words count in it."""

    label: str
    text: str
    phrases_only: bool = False


@dataclass(frozen=True)
class LeafMatch:
    """A sub-requirement found: which keyword showed it, and where."""

    requirement: Requirement
    keyword: str
    where: str


@dataclass
class ParagraphAssessment:
    """One paragraph's status and the sub-requirements behind it."""

    paragraph: Requirement
    status: Status
    addressed: list[LeafMatch] = field(default_factory=list)
    missing: list[Requirement] = field(default_factory=list)

    @property
    def coverage(self) -> float:
        """Share of the paragraph's sub-requirements addressed (0..1)."""
        total = len(self.addressed) + len(self.missing)
        return len(self.addressed) / total if total else 0.0

    def to_mapping(self) -> dict[str, Any]:
        """The `details["ifrs_mappings"]` entry the judge reads (status per paragraph)."""
        return {
            "paragraph_id": self.paragraph.paragraph_id,
            "status": self.status,
            "title": self.paragraph.title,
            "addressed": [match.requirement.paragraph_id for match in self.addressed],
            "missing": [req.paragraph_id for req in self.missing],
            "evidence": [
                {"paragraph_id": m.requirement.paragraph_id, "keyword": m.keyword, "where": m.where}
                for m in self.addressed
            ],
        }


def leaves(paragraph_id: str) -> list[Requirement]:
    """The registry's most specific requirements under `paragraph_id` (itself when it has none)."""
    own = requirement(paragraph_id)
    if own is None:
        return []
    nested = children(own.paragraph_id)
    if not nested:
        return [own]
    return [leaf for child in nested for leaf in leaves(child.paragraph_id)]


def find_leaf(leaf: Requirement, indexes: Sequence[tuple[Passage, TextIndex]]) -> LeafMatch | None:
    """The first passage (claim first) that uses one of the leaf's keywords, if any."""
    for passage, index in indexes:
        for keyword in leaf.keywords:
            if passage.phrases_only and len(tokens(keyword)) < 2:
                continue
            if index.has(keyword):
                return LeafMatch(leaf, keyword, passage.label)
    return None


def index_passages(passages: Sequence[Passage]) -> list[tuple[Passage, TextIndex]]:
    """Index each passage once, so several paragraphs can be assessed against the same text."""
    return [(passage, TextIndex(passage.text)) for passage in passages if passage.text.strip()]


def assess_paragraph(
    paragraph_id: str, indexes: Sequence[tuple[Passage, TextIndex]]
) -> ParagraphAssessment | None:
    """Full when every sub-requirement is addressed, partial when some are, missing when none.

    Returns None for an id the registry does not know: there is nothing to assess it against.
    """
    paragraph = requirement(paragraph_id)
    if paragraph is None:
        return None
    assessment = ParagraphAssessment(paragraph, "missing")
    for leaf in leaves(paragraph.paragraph_id):
        match = find_leaf(leaf, indexes)
        if match is None:
            assessment.missing.append(leaf)
        else:
            assessment.addressed.append(match)
    if assessment.addressed:
        assessment.status = "partial" if assessment.missing else "full"
    return assessment


def best(assessments: Sequence[ParagraphAssessment]) -> ParagraphAssessment | None:
    """The assessment the finding's stance rests on: full first, then the best covered."""
    rank = {"full": 2, "partial": 1, "missing": 0}
    return max(assessments, key=lambda a: (rank[a.status], a.coverage), default=None)


def _named(req: Requirement) -> str:
    return f"{req.paragraph_id} {req.title}"


def describe(assessment: ParagraphAssessment, searched: str) -> str:
    """One sentence naming what was found (and where) and what was not found in `searched`."""
    head = f"{_named(assessment.paragraph)}: {assessment.status}"
    parts: list[str] = []
    if assessment.addressed:
        found = "; ".join(
            f"{_named(m.requirement)} addressed ('{m.keyword}' {m.where})"
            for m in assessment.addressed[:MAX_LISTED]
        )
        extra = len(assessment.addressed) - MAX_LISTED
        parts.append(found + (f"; and {extra} more addressed" if extra > 0 else ""))
    if assessment.missing:
        names = ", ".join(_named(req) for req in assessment.missing[:MAX_LISTED])
        extra = len(assessment.missing) - MAX_LISTED
        parts.append(f"not found in {searched}: {names}" + (f" and {extra} more" if extra > 0 else ""))
    return f"{head} — " + "; ".join(parts) + "."
