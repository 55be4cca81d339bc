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


@strawberry.enum(description="How to order a report's claims.")
class ClaimOrder(enum.Enum):
    PAGE = "page"
    PRIORITY = "priority"


#: Sort rank of each stored priority (PRIORITY ordering: high first).
PRIORITY_RANK = {"high": 0, "medium": 1, "low": 2}
