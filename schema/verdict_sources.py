"""The sources a verdict rests on (`Verdict.decidingSources`), read from the judge's grounding.

The judge stores, with every verdict, the evidence sorted by what it can prove
(`app.agents.judge.grounding`); this module exposes the part that decided the verdict, so a
dashboard can show who said what without parsing the reasoning text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import strawberry

from schema.claim_enums import EvidenceKind, evidence_kind

#: Which grounding lists decide each verdict label.
DECIDING_LISTS: dict[str, tuple[str, ...]] = {
    "verified": ("corroborating",),
    "contradicted": ("contradicting", "internal_contradictions"),
    "insufficient_evidence": (
        "corroborating",
        "weak_support",
        "contradicting",
        "weak_contradiction",
        "internal_doubts",
    ),
    "unverified": (),
}


@strawberry.type(
    description="A source a verdict rests on: who said it, when, where, and whether its quote was found."
)
class VerdictSource:
    finding_id: strawberry.ID = strawberry.field(
        description="Global id of the finding that reports the source."
    )
    agent: str = strawberry.field(description="The specialist that found it.")
    evidence_kind: EvidenceKind = strawberry.field(
        description="What the source can prove (INDEPENDENT or INTERNAL)."
    )
    publisher: str = strawberry.field(
        description="The publisher's domain, the evidence-library document, or the agent for a check of the "
        "report against itself."
    )
    title: str | None = strawberry.field(description="The source's title, if it has one.")
    url: str | None = strawberry.field(
        description="The source's address (library:// for a library document)."
    )
    published_date: str | None = strawberry.field(description="When it was published (YYYY-MM-DD), if known.")
    tier: int | None = strawberry.field(
        description="FRD-08 credibility tier, 1 (best) to 4; null for internal checks."
    )
    quote: str | None = strawberry.field(description="The source's sentence the finding relies on.")
    quote_verified: bool | None = strawberry.field(
        description="true: the quote was found in the source's text; false: it was not (the source "
        "then has no weight); null: not checked."
    )
    pages: list[int] = strawberry.field(description="Report pages an internal check compared.")
    summary: str = strawberry.field(description="The finding in a sentence.")


def _source(item: Mapping[str, Any]) -> VerdictSource:
    return VerdictSource(
        finding_id=strawberry.ID(str(strawberry.relay.GlobalID("Finding", str(item.get("finding_id", ""))))),
        agent=str(item.get("agent", "")),
        evidence_kind=evidence_kind(item.get("kind")),
        publisher=str(item.get("publisher", "")),
        title=item.get("title"),
        url=item.get("url"),
        published_date=item.get("published_date"),
        tier=item.get("tier"),
        quote=item.get("quote"),
        quote_verified=item.get("quote_verified"),
        pages=list(item.get("pages") or []),
        summary=str(item.get("summary", "")),
    )


def deciding_sources(label: str, details: Mapping[str, Any]) -> list[VerdictSource]:
    """The sources behind a stored verdict of `label`, from its `details.evaluation.grounding`."""
    grounding = (details.get("evaluation") or {}).get("grounding") or {}
    items = [item for key in DECIDING_LISTS.get(label, ()) for item in grounding.get(key) or []]
    return [_source(item) for item in _once_per_source(items)]


def _once_per_source(items: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Each source once: two specialists (or two passes) reading the same document are one source
    for the reader, listed where it first appears. Internal checks, which have no URL, all stay."""
    seen: set[str] = set()
    kept = []
    for item in items:
        url = item.get("url")
        if url:
            if url in seen:
                continue
            seen.add(url)
        kept.append(item)
    return kept
