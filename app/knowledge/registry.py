"""Sibyl's registry of the IFRS S1/S2 paragraphs that require a disclosure.

Claims in a report are checked against these entries, so every id follows the standards' own
numbering ("S2.29(a)(i)(1)"). The summaries and keywords are our own words: the official wording is
copyrighted and is only ever read at run time from a user's copy (see `ifrs_pdf`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast, get_args

from app.knowledge.ifrs_requirements import SECTIONS

Standard = Literal["S1", "S2"]
Pillar = Literal["general", "governance", "strategy", "risk_management", "metrics_targets"]

PARAGRAPH_ID = re.compile(r"^S[12]\.[A-E]?\d{1,3}(?:\([a-z]{1,5}\)|\(\d{1,2}\))*$")

_LOOSE_ID = re.compile(
    r"""^\s*(?:ifrs\s*)?(s[12])           # standard: "IFRS S2", "S2", "s2"
    \s*(?:[.:,\-]\s*|\s+)                 # separator: "." or a space
    (?:(?:paragraphs?|paras?\.?|¶|§)\s*)? # optional "paragraph" / "para"
    ([a-e]?\d{1,3})                       # paragraph number, appendix letter allowed
    ((?:\s*\((?:[a-z]{1,5}|\d{1,2})\))*)  # sub-paragraphs: "(a)(i)(1)"
    \s*\.?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True)
class Requirement:
    """One disclosure requirement: a numbered (sub-)paragraph of IFRS S1 or S2."""

    paragraph_id: str
    standard: Standard
    pillar: Pillar
    section: str
    title: str
    summary: str
    keywords: tuple[str, ...]

    @property
    def source_type(self) -> str:
        """The source kind stored with citations: "ifrs_s1" or "ifrs_s2"."""
        return f"ifrs_{self.standard.lower()}"


def parse_paragraph_id(text: str) -> str | None:
    """Normalise a written reference ("IFRS S2 paragraph 29(a)(i)") to a registry id ("S2.29(a)(i)").

    Returns None when the text is not a paragraph reference, so callers can try other readings.
    """
    match = _LOOSE_ID.match(text)
    if not match:
        return None
    standard, number, subs = match.groups()
    compact = re.sub(r"\s+", "", subs).lower()
    return f"{standard.upper()}.{number.upper()}{compact}"


def parent_ids(paragraph_id: str) -> list[str]:
    """Enclosing ids, nearest first: "S2.29(a)(i)" -> ["S2.29(a)", "S2.29"]."""
    current = parse_paragraph_id(paragraph_id) or paragraph_id
    parents: list[str] = []
    while (trimmed := re.sub(r"\([^()]*\)$", "", current)) != current:
        parents.append(trimmed)
        current = trimmed
    return parents


def is_under(paragraph_id: str, ancestor_id: str) -> bool:
    """Whether `paragraph_id` is `ancestor_id` itself or nested anywhere inside it."""
    own = parse_paragraph_id(paragraph_id) or paragraph_id
    ancestor = parse_paragraph_id(ancestor_id) or ancestor_id
    return own == ancestor or ancestor in parent_ids(own)


def requirement(paragraph_id: str) -> Requirement | None:
    """The registry entry for an id, accepting any spelling `parse_paragraph_id` understands."""
    normalised = parse_paragraph_id(paragraph_id)
    return _BY_ID.get(normalised) if normalised else None


def children(paragraph_id: str) -> list[Requirement]:
    """Registry entries directly nested in `paragraph_id`, in the standard's order."""
    parent = parse_paragraph_id(paragraph_id) or paragraph_id
    return [r for r in REQUIREMENTS if parent_ids(r.paragraph_id)[:1] == [parent]]


def _build() -> tuple[Requirement, ...]:
    """Expand the compact data module, rejecting unknown pillars and malformed ids early."""
    built: list[Requirement] = []
    for pillar, section, rows in SECTIONS:
        if pillar not in get_args(Pillar):
            raise ValueError(f"unknown pillar {pillar!r} in section {section!r}")
        for paragraph_id, title, summary, keywords in rows:
            if not PARAGRAPH_ID.match(paragraph_id):
                raise ValueError(f"malformed paragraph id {paragraph_id!r}")
            built.append(
                Requirement(
                    paragraph_id=paragraph_id,
                    standard=cast(Standard, paragraph_id[:2]),
                    pillar=cast(Pillar, pillar),
                    section=section,
                    title=title,
                    summary=summary,
                    keywords=keywords,
                )
            )
    return tuple(built)


REQUIREMENTS: tuple[Requirement, ...] = _build()
_BY_ID: dict[str, Requirement] = {r.paragraph_id: r for r in REQUIREMENTS}
