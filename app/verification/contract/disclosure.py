"""The legal investigator's records: how far the report discloses what IFRS S1/S2 ask."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.verification.contract.values import text


@dataclass(frozen=True)
class ParagraphStatus:
    """One IFRS paragraph assessed for one claim, and how fully the claim's page meets it."""

    paragraph_id: str
    #: full, partial or missing (`app.verification.ifrs.ifrs_assessment`); None when not stored.
    status: str | None


@dataclass(frozen=True)
class DisclosureFinding:
    """What the legal investigator found of a claim's (or the whole report's) IFRS disclosure.

    Filled by `investigators.legal` from `ifrs.ifrs_assessment` (per claim: `ifrs_mappings`) and
    `ifrs.disclosure_gaps` (the report-level finding: `gaps`); read by the judge's IFRS mapping and
    the report's compliance summary. Disclosure never supports or contradicts a claim.
    """

    #: Per claim: the paragraphs assessed, in the order written (a paragraph named twice: the last).
    paragraphs: list[ParagraphStatus] = field(default_factory=list)
    #: The report-level finding: the key disclosures no claim and no page addresses.
    gap_paragraphs: list[str] = field(default_factory=list)

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> DisclosureFinding:
        paragraphs = [
            ParagraphStatus(str(mapping["paragraph_id"]), text(mapping.get("status")))
            for mapping in details.get("ifrs_mappings") or []
            if isinstance(mapping, dict) and mapping.get("paragraph_id")
        ]
        gaps = [str(gap.get("paragraph_id")) for gap in details.get("gaps") or []]
        return cls(paragraphs=paragraphs, gap_paragraphs=gaps)
