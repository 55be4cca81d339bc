"""`Analysis.ifrsCompliance`: per IFRS paragraph, disclosure coverage and claim verdicts, apart.

Read from the run's stored compliance summary (`app.pipeline.compliance`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import strawberry

from app.knowledge.registry import requirement


@strawberry.enum(description="How completely the report discloses what an IFRS paragraph asks (legal agent).")
class DisclosureCoverage(enum.Enum):
    FULLY_ADDRESSED = strawberry.enum_value(
        "fully_addressed", description="A claim meets every sub-requirement of the paragraph."
    )
    PARTIALLY_ADDRESSED = strawberry.enum_value(
        "partially_addressed", description="Claims meet some of its sub-requirements, none all of them."
    )
    NOT_ADDRESSED = strawberry.enum_value(
        "not_addressed",
        description="The claims mapped to it meet none of its sub-requirements, or the report never "
        "addresses this key disclosure at all.",
    )
    NOT_ASSESSED = strawberry.enum_value(
        "not_assessed", description="Claims were mapped to it but the legal agent did not assess it."
    )


@strawberry.enum(description="How the claims that speak to an IFRS paragraph held up (their final verdicts).")
class ClaimsStanding(enum.Enum):
    SUPPORTED = strawberry.enum_value("supported", description="Every claim mapped to it is VERIFIED.")
    PARTIALLY_SUPPORTED = strawberry.enum_value(
        "partially_supported", description="Some of its claims are VERIFIED, none CONTRADICTED."
    )
    UNSUPPORTED = strawberry.enum_value("unsupported", description="None of its claims is VERIFIED.")
    CONTRADICTED = strawberry.enum_value(
        "contradicted", description="At least one of its claims is CONTRADICTED."
    )
    NO_CLAIMS = strawberry.enum_value(
        "no_claims",
        description="No claim is mapped to it: it is listed for its disclosure coverage only (for example "
        "a key disclosure the report lacks).",
    )


@strawberry.type(
    description="One IFRS paragraph of the run's compliance summary. Disclosure coverage (does the report "
    "say what the paragraph asks?) and the claims' verdicts (is what it says true?) are separate "
    "questions: a paragraph can be fully disclosed by claims nobody could verify."
)
class ParagraphCompliance:
    paragraph_id: str = strawberry.field(description='The paragraph, e.g. "S2.29(a)(i)(1)".')
    pillar: str | None = strawberry.field(
        description="Its pillar in the IFRS registry: general, governance, strategy, risk_management or "
        "metrics_targets (null for a paragraph the registry does not hold)."
    )
    title: str | None = strawberry.field(description="The paragraph's short title in the IFRS registry.")
    disclosure_coverage: DisclosureCoverage = strawberry.field(
        description="Disclosure coverage from the legal agent's sub-requirement assessment of each claim and "
        "its report-level search for key disclosures. Never evidence of a claim's truth."
    )
    claims_assessed: int = strawberry.field(
        description="Claims whose disclosure the legal agent assessed for it."
    )
    report_gap: bool = strawberry.field(
        description="Whether it is a key IFRS S2 disclosure not found in the report's text (its claims and "
        "the text of its pages; a chart that exists only as an image is not read)."
    )
    claims_standing: ClaimsStanding = strawberry.field(
        description="How the claims mapped to the paragraph held up, from their final verdicts."
    )
    claims: int = strawberry.field(
        description="Claims mapped to the paragraph (claims agent or legal agent)."
    )
    verified: int = strawberry.field(description="Of those, VERIFIED.")
    unverified: int = strawberry.field(description="Of those, UNVERIFIED.")
    contradicted: int = strawberry.field(description="Of those, CONTRADICTED.")
    insufficient_evidence: int = strawberry.field(description="Of those, INSUFFICIENT_EVIDENCE.")


def _paragraph(paragraph_id: str, entry: Mapping[str, Any]) -> ParagraphCompliance:
    disclosure = entry.get("disclosure") or {}
    known = requirement(paragraph_id)
    return ParagraphCompliance(
        paragraph_id=paragraph_id,
        pillar=known.pillar if known else None,
        title=known.title if known else None,
        disclosure_coverage=DisclosureCoverage(disclosure.get("coverage", "not_assessed")),
        claims_assessed=int(disclosure.get("claims_assessed", 0)),
        report_gap=bool(disclosure.get("report_gap", False)),
        claims_standing=ClaimsStanding(entry.get("status", "unsupported")),
        claims=int(entry.get("claims", 0)),
        verified=int(entry.get("verified", 0)),
        unverified=int(entry.get("unverified", 0)),
        contradicted=int(entry.get("contradicted", 0)),
        insufficient_evidence=int(entry.get("insufficient_evidence", 0)),
    )


def paragraphs(compliance: Mapping[str, Any]) -> list[ParagraphCompliance]:
    """The stored summary as typed paragraphs, in paragraph order."""
    return [_paragraph(paragraph_id, entry) for paragraph_id, entry in sorted(compliance.items())]
