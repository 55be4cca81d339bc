"""The GraphQL enums of claims and verdicts, and their mapping to the lower-case stored values."""

from __future__ import annotations

import enum

import strawberry


@strawberry.enum(description="What kind of statement a claim is (FRD-03 §2.1).")
class ClaimType(enum.Enum):
    GEOGRAPHIC = "geographic"
    QUANTITATIVE = "quantitative"
    LEGAL_GOVERNANCE = "legal_governance"
    STRATEGIC = "strategic"
    ENVIRONMENTAL = "environmental"


@strawberry.enum(description="How much a claim matters to a reader of the report (FRD-03 §2.2).")
class Priority(enum.Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@strawberry.enum(description="The judge's verdict on a claim (FRD-11).")
class VerdictLabel(enum.Enum):
    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    CONTRADICTED = "contradicted"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"


@strawberry.enum(
    description="What a finding can prove about its claim. Only INDEPENDENT evidence can verify a claim; "
    "INTERNAL evidence can show the report contradicts itself but never that it is true; DISCLOSURE "
    "(IFRS coverage) says how completely the report discloses, never whether a claim is true."
)
class EvidenceKind(enum.Enum):
    INDEPENDENT = strawberry.enum_value(
        "independent",
        description="A source other than the reporting company: news, research, registries, satellite "
        "imagery, documents in the evidence library; with its publisher, date and quote check.",
    )
    INTERNAL = strawberry.enum_value(
        "internal",
        description="The report checked against itself (arithmetic, the same metric on two pages), or "
        "the company's own word elsewhere (its website, its press releases).",
    )
    DISCLOSURE = strawberry.enum_value(
        "disclosure", description="IFRS S1/S2 requirement coverage by the legal agent."
    )
    NONE = strawberry.enum_value("none", description="The agent looked and honestly found nothing.")
    ERROR = strawberry.enum_value("error", description="The agent failed; this check is missing.")


def evidence_kind(stored: str | None) -> EvidenceKind:
    """The enum of a stored kind; a value this version does not know reads as NONE (proves nothing)."""
    try:
        return EvidenceKind(stored)
    except ValueError:
        return EvidenceKind.NONE


@strawberry.enum(description="How to order a report's claims.")
class ClaimOrder(enum.Enum):
    PAGE = "page"
    PRIORITY = "priority"


#: Sort rank of each stored priority (PRIORITY ordering: high first).
PRIORITY_RANK = {"high": 0, "medium": 1, "low": 2}
