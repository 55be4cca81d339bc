"""The small value objects of claims and verdicts: the IFRS paragraphs a claim speaks to, its
greenwashing risk flags, and the judge's IFRS mapping of a verdict, each built from its stored JSON."""

from __future__ import annotations

from typing import Any

import strawberry

from schema.types.claim_enums import RiskFlagKind, risk_flag_kind


@strawberry.type(description="An IFRS S1/S2 paragraph a claim speaks to (preliminary, from extraction).")
class IfrsParagraph:
    paragraph_id: str = strawberry.field(description='The paragraph, e.g. "S2.29(a)(i)(1)".')
    pillar: str | None = strawberry.field(
        description="governance, strategy, risk_management or metrics_targets."
    )
    relevance: str | None = strawberry.field(description="Why the claim bears on the paragraph.")
    confirmed: bool | None = strawberry.field(
        description="Whether the IFRS knowledge base supported the mapping (null: not checked)."
    )


@strawberry.type(
    description="A greenwashing risk flag on a claim: the pattern, the words that triggered it, and why it "
    "matters."
)
class RiskFlag:
    kind: RiskFlagKind = strawberry.field(description="Which risk pattern (see the enum's values).")
    phrase: str = strawberry.field(description="The phrase in the claim that triggered the flag, verbatim.")
    explanation: str = strawberry.field(description="Why the pattern is a greenwashing risk, in a sentence.")


@strawberry.type(description="An IFRS paragraph as the judge maps the verdict to it.")
class VerdictIfrsMapping:
    paragraph_id: str = strawberry.field(description='The paragraph, e.g. "S2.14(a)".')
    source: str = strawberry.field(
        description="claim (the extraction's mapping) or legal (the Legal agent's)."
    )
    status: str | None = strawberry.field(
        description="The Legal agent's disclosure assessment of the paragraph for this claim (full, partial "
        "or missing sub-requirements): disclosure coverage, not evidence of truth; null for a mapping from "
        "extraction."
    )
    relationship: str = strawberry.field(description="What the verdict means for the paragraph, in words.")


def ifrs_paragraph(item: dict[str, Any]) -> IfrsParagraph:
    return IfrsParagraph(
        paragraph_id=str(item.get("paragraph_id", "")),
        pillar=item.get("pillar"),
        relevance=item.get("relevance"),
        confirmed=item.get("confirmed"),
    )


def risk_flags_of(stored: list[dict[str, Any]]) -> list[RiskFlag]:
    """Stored flags as GraphQL objects; a kind this version does not know is left out."""
    flags = []
    for item in stored:
        kind = risk_flag_kind(item.get("kind"))
        if kind is not None:
            flags.append(
                RiskFlag(
                    kind=kind,
                    phrase=str(item.get("phrase", "")),
                    explanation=str(item.get("explanation", "")),
                )
            )
    return flags


def verdict_ifrs_mapping(item: dict[str, Any]) -> VerdictIfrsMapping:
    return VerdictIfrsMapping(
        paragraph_id=str(item.get("paragraph_id", "")),
        source=str(item.get("source", "claim")),
        status=item.get("status"),
        relationship=str(item.get("relationship", "")),
    )
