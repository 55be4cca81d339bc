"""Findings from evaluated sources: one per relevant source, one summary per claim.

The contradiction bar decides whether contradictions stand: any Tier 1 source, two sources of
Tier 2 or better, or three of Tier 3 or better (docs/decisions.md; `sources.rules`, one vote per
source here). A contradicting source that counts says so (`supports_claim` false, and its
details `contradicts_claim: true`) whether or not the bar is reached: the finding is the reading,
and the judge applies the bar (`judge.weighing`); the summary says whether it stands. Support counts
from Tier 3 up; a Tier 4 source never decides anything. The company's own word (its site, report
or release, or an outlet relaying its statement: `SourceReading.self_reported`) is reported and
marked (`relays_company`, `company_voice`) but counts for neither side. A source whose quote was
not found in its retrieved text is reported, flagged, and ignored by the aggregation (the judge
gives it no weight either).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.search.results import SearchResult
from app.verification.contract import KeyFinding, SourceFinding, SourceSummary
from app.verification.reading.source_reading import SourceReading
from app.verification.records import FindingDraft
from app.verification.sources.rules import contradiction_bar_reached
from app.verification.sources.voices import voice_key

SNIPPET_CHARS = 500


@dataclass(frozen=True)
class EvidenceKinds:
    """The evidence types one agent's findings use."""

    source: str
    contradiction: str
    summary: str


def contradiction_stands(sources: Sequence[SourceReading]) -> bool:
    """The contradiction bar over these sources, one vote per source (the company's own word
    elsewhere is not an independent contradiction)."""
    return contradiction_bar_reached(
        item.tier.tier
        for item in sources
        if item.counts and item.assessment.stance == "contradicts" and not item.self_reported
    )


#: What a quote in the company's own voice means, by stance.
_COMPANY_VOICE_MEANS = {
    "supports": "it is self-reported, not independent confirmation.",
    "contradicts": (
        "the company says something else elsewhere, which shows the report is inconsistent, "
        "not an independent contradiction."
    ),
}


def _publisher(result: SearchResult) -> str:
    """Who publishes the source, as the judge names it (its site, or the library document)."""
    if result.source_domain:
        return result.source_domain
    return f"evidence library: {result.title}" if result.title else "evidence library"


def _whole_text(result: SearchResult) -> str:
    """Title, excerpt and fuller text: a copy's credit line ("(Reuters)") may be in any of them."""
    return "\n".join(part for part in (result.title, result.snippet, result.content) if part)


def source_reference(result: SearchResult, tier: int, snippet: str | None) -> dict[str, Any]:
    """The citation every finding carries, so a reader can find and judge the source: URL, title,
    domain, tier, publication date, snippet and provider."""
    return {
        "url": result.url,
        "title": result.title,
        "domain": result.source_domain,
        "tier": tier,
        "published_date": result.published_date,
        "snippet": (snippet or result.snippet)[:SNIPPET_CHARS],
        "provider": result.provider,
    }


def source_finding(claim_id: str, item: SourceReading, kinds: EvidenceKinds, stands: bool) -> FindingDraft:
    """One relevant source as a finding (its reading of the source plus its citation and quote
    check). `supports_claim` is the reading: false for a counting source that contradicts the
    claim, however weak; whether it counts is the judge's to say (`judge.weighing`). `stands` (the
    bar over this agent's sources) only words the summary."""
    contradicts = item.assessment.stance == "contradicts"
    return FindingDraft(
        claim_id=claim_id,
        evidence_type=kinds.contradiction if contradicts else kinds.source,
        summary=_source_summary(item, stands),
        supports_claim=_reading(item),
        confidence=item.weighted_confidence,
        method=item.assessment.method,
        details=_source_record(item).to_details(),
    )


def _reading(item: SourceReading) -> bool | None:
    """What a counting source says of the claim: False contradicts, True supports (Tier 1–3)."""
    if not item.counts:
        return None
    if item.assessment.stance == "contradicts":
        return False
    return True if item.assessment.stance == "supports" and item.tier.tier <= 3 else None


def _source_summary(item: SourceReading, stands: bool) -> str:
    """The source's reading in a sentence, and why it weighs less when it does."""
    assessment, result, tier = item.assessment, item.result, item.tier.tier
    dated = f", {result.published_date}" if result.published_date else ""
    summary = f"{result.source_domain or 'evidence library'} (Tier {tier}{dated}): {assessment.explanation}"
    if assessment.stance == "contradicts" and not stands:
        summary += (
            " On its own this source is not enough to contradict the claim (the contradiction bar: "
            "one Tier 1 source, two of Tier 1–2 or three of Tier 1–3)."
        )
    if item.quote.verified is False:
        summary += (
            " The quoted passage was not found in the source's text, so this source is given no weight."
        )
    elif not item.bears_on_claim and assessment.stance in {"supports", "contradicts"}:
        summary += " Its quote does not state the claim's figure or subject, so this source decides nothing."
    elif item.company_voice and assessment.stance in {"supports", "contradicts"}:
        summary += f" Its quote {item.company_voice}: {_COMPANY_VOICE_MEANS[assessment.stance]}"
    return summary


def _source_record(item: SourceReading) -> SourceFinding:
    """The source finding's details: the citation, the reading and the quote check."""
    assessment, result, tier = item.assessment, item.result, item.tier.tier
    contradicts = assessment.stance == "contradicts"
    return SourceFinding(
        source_url=result.url,
        source_title=result.title,
        source_domain=result.source_domain,
        published_date=result.published_date,
        source_tier=tier,
        tier_basis=item.tier.basis,
        stance=assessment.stance,
        relevance_summary=assessment.explanation,
        contradicts_claim=contradicts,
        contradiction_type=assessment.contradiction_type,
        contradiction_explanation=assessment.explanation if contradicts else None,
        signal=assessment.signal,
        snippet=(assessment.quote or result.snippet)[:SNIPPET_CHARS],
        query=item.query,
        query_type=item.query_type,
        provider=result.provider,
        quote_verified=item.quote.verified,
        quote_checked_against=item.quote.checked_against,
        quote_bears_on_claim=item.bears_on_claim,
        relays_company=item.company_voice is not None,
        company_voice=item.company_voice,
        voice=voice_key(_publisher(result), _whole_text(result), result.url),
        sources=[source_reference(result, tier, assessment.quote)],
        llm_error=item.llm_error,
    )


def summary_finding(
    claim_id: str,
    label: str,
    sources: Sequence[SourceReading],
    kinds: EvidenceKinds,
    *,
    queries: Sequence[dict[str, Any]],
    searched: int,
) -> FindingDraft:
    """The per-claim summary: counts, tiers, and the agent's overall position on the claim."""
    relevant = [item for item in sources if item.counts]
    contradicting = [item for item in relevant if item.assessment.stance == "contradicts"]
    supporting = [
        item
        for item in relevant
        if item.assessment.stance == "supports" and item.tier.tier <= 3 and not item.self_reported
    ]
    stands = contradiction_stands(sources)
    supports: bool | None = False if stands else (True if supporting and not contradicting else None)
    deciding = contradicting if stands else supporting if supports else []
    confidence = max((item.weighted_confidence for item in deciding), default=None)
    text = (
        f"{label} agent: {len(supporting)} supporting and {len(contradicting)} contradicting source(s) among "
        f"{len(sources)} evaluated ({searched} found by {len(queries)} queries)."
    ) + _summary_caveats(sources, relevant, contradicting, stands)
    key = sorted(deciding or relevant, key=lambda item: (item.tier.tier, -item.assessment.confidence))[:3]
    return FindingDraft(
        claim_id=claim_id,
        evidence_type=kinds.summary if relevant else "none",
        summary=text,
        supports_claim=supports,
        confidence=confidence,
        method="rules",
        details=SourceSummary(
            total_sources=len(sources),
            relevant_sources=len(relevant),
            supporting_sources=len(supporting),
            contradicting_sources=len(contradicting),
            contradiction_flag=stands,
            tier_distribution=dict(sorted(Counter(str(item.tier.tier) for item in sources).items())),
            queries=list(queries),
            key_findings=[
                KeyFinding(
                    source_url=item.result.url,
                    source_tier=item.tier.tier,
                    tier_basis=item.tier.basis,
                    relays_company=item.company_voice is not None,
                    stance=item.assessment.stance,
                )
                for item in key
            ],
            sources=[source_reference(item.result, item.tier.tier, item.assessment.quote) for item in key],
        ).to_details(),
    )


def _summary_caveats(
    sources: Sequence[SourceReading],
    relevant: Sequence[SourceReading],
    contradicting: Sequence[SourceReading],
    stands: bool,
) -> str:
    """What the summary adds to its counts: whether the contradictions stand, how many sources are
    the company's own word, and how many were ignored for a quote not in their text."""
    text = ""
    if stands:
        types = ", ".join(sorted({item.assessment.contradiction_type or "direct" for item in contradicting}))
        text += f" Public sources contradict the claim ({types})."
    elif contradicting:
        text += " Contradicting sources fall short of the contradiction bar."
    own = sum(item.self_reported for item in relevant)
    if own:
        text += (
            f" {own} source(s) are the company's own word (its site, report or release, or an outlet "
            "relaying its statement), not independent evidence."
        )
    unchecked = sum(item.quote.verified is False for item in sources)
    if unchecked:
        text += f" {unchecked} source(s) ignored: their quote was not in their text."
    return text
