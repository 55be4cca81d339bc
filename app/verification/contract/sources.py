"""The searching investigators' records: one source read against one claim, and their summary.

A finding is stored (and checkpointed) with a JSON `details` object; these records are that object
with names and types, so a writer cannot drop a key a reader needs and a reader does not guess at
keys. Each record writes exactly today's stored `details` (`to_details`) and reads stored ones back
(`from_details`), older findings included, so storage and checkpoints do not change.

- `SourceFinding`: one source read against one claim (the searching investigators).
- `SourceSummary` with its `KeyFinding`s: one investigator's sources for one claim, counted.
- `RegistryCitation`: the public registry record(s) a `SourceFinding` read from a registry rests on.

    details = SourceFinding(...).to_details()
    if is_source_finding(details):
        source = SourceFinding.from_details(details)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.verification.contract.values import as_details, flag, integer, text

#: A citation as every finding carries it in `details["sources"]` (url, title, domain, tier, …).
Citation = dict[str, Any]


def is_source_finding(details: dict[str, Any]) -> bool:
    """Whether `details` are a `SourceFinding`'s: about one source, not a summary of several."""
    return "source_url" in details and "key_findings" not in details


@dataclass(frozen=True)
class SourceFinding:
    """One source read against one claim.

    Filled by the searching investigators (news/media, academic: `source_findings.source_finding`)
    from the search result, its tier, the reading and the quote check; read by the judge
    (grounding, ordering), the evidence kinds and the verdict's citations.
    """

    #: The source: where it is, who publishes it, its tier (1 best … 4) and why it has that tier
    #: (`credibility.TierAssignment.basis`), when it was published.
    source_url: str
    source_title: str | None
    source_domain: str | None
    source_tier: int | None
    tier_basis: str | None
    published_date: str | None
    #: The reading: what the source says of the claim ("supports", "contradicts", …) and why.
    relevance_summary: str | None
    stance: str | None
    contradicts_claim: bool
    contradiction_type: str | None
    contradiction_explanation: str | None
    #: The reader's rule or model signal (e.g. `not_same_fact:<why>`), None when plain.
    signal: str | None
    #: The quoted sentence (or the result's excerpt), cut to 500 characters.
    snippet: str | None
    #: How it was found.
    query: str | None
    query_type: str | None
    provider: str | None
    #: The quote check: True found in the source's text, False not found, None not checkable.
    quote_verified: bool | None
    quote_checked_against: str | None
    #: Whether the quote states the claim's figure or subject (`quote_relevance.bears_on_claim`).
    quote_bears_on_claim: bool
    #: Whether the quote relays the company's own statement, and how (`attribution.company_voice`).
    relays_company: bool
    company_voice: str | None
    #: The independent voice behind the publisher (`voices.voice_key`): wire copies share one.
    voice: str | None
    sources: list[Citation] = field(default_factory=list)
    #: Why the model's reading failed, when the rule reader stood in (stored only when it did).
    llm_error: str | None = None
    #: The registry record(s) read, when the source is a public registry (stored only then).
    registry: RegistryCitation | None = None

    def to_details(self) -> dict[str, Any]:
        """The stored `details`, key for key (in field order) as findings have always been written."""
        details = as_details(self)
        if not self.llm_error:
            del details["llm_error"]
        if self.registry is None:
            del details["registry"]
        else:
            details["registry"] = self.registry.to_details()
        return details

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> SourceFinding:
        """The record of stored `details` (`is_source_finding`); keys older findings lack read as
        today's defaults (a quote bears on the claim; no company voice)."""
        return cls(
            source_url=str(details["source_url"]),
            **cited_source(details),
            relevance_summary=text(details.get("relevance_summary")),
            contradiction_type=text(details.get("contradiction_type")),
            contradiction_explanation=text(details.get("contradiction_explanation")),
            signal=text(details.get("signal")),
            query=text(details.get("query")),
            query_type=text(details.get("query_type")),
            provider=text(details.get("provider")),
            quote_checked_against=text(details.get("quote_checked_against")),
            company_voice=text(details.get("company_voice")),
            sources=[source for source in details.get("sources") or [] if isinstance(source, dict)],
            llm_error=text(details.get("llm_error")),
            registry=RegistryCitation.from_details(details.get("registry")),
        )


@dataclass(frozen=True)
class RegistryCitation:
    """The public registry record(s) a source finding rests on, as a verdict cites them.

    Filled by the registry findings (`investigators.registry_findings`) from the snapshot and the
    records the reader relied on; read by the verdict's citations (`VerdictSource.registry`).
    """

    #: Which registry (an `app.registries.RegistryKind` value), its title and the snapshot used.
    registry: str
    title: str
    snapshot_id: str
    snapshot_date: str | None
    period: str | None
    #: The records relied on (their keys within the registry) and whose they are.
    record_keys: list[str]
    entity_names: list[str]
    #: How the report's company was matched to those entities (isin, lei, name, parent_company,
    #: name_variant once confirmed) and how sure the match is (0-1).
    match_basis: str
    match_confidence: float
    #: "full": the registry covers the claim's whole boundary; "partial": part of it (a lower
    #: bound); None: not a quantity (targets).
    coverage: str | None = None

    def to_details(self) -> dict[str, Any]:
        return as_details(self)

    @classmethod
    def from_details(cls, stored: object) -> RegistryCitation | None:
        """The citation of stored `details["registry"]`; None when there is none."""
        if not isinstance(stored, dict) or not isinstance(stored.get("registry"), str):
            return None
        confidence = stored.get("match_confidence")
        return cls(
            registry=stored["registry"],
            title=str(stored.get("title") or stored["registry"]),
            snapshot_id=str(stored.get("snapshot_id") or ""),
            snapshot_date=text(stored.get("snapshot_date")),
            period=text(stored.get("period")),
            record_keys=[str(key) for key in stored.get("record_keys") or []],
            entity_names=[str(name) for name in stored.get("entity_names") or []],
            match_basis=str(stored.get("match_basis") or ""),
            match_confidence=float(confidence) if isinstance(confidence, int | float) else 0.0,
            coverage=text(stored.get("coverage")),
        )


@dataclass(frozen=True)
class KeyFinding:
    """One of the (at most three) sources a `SourceSummary` names as deciding."""

    source_url: str
    source_tier: int
    tier_basis: str
    relays_company: bool
    stance: str

    def to_details(self) -> dict[str, Any]:
        return as_details(self)


@dataclass(frozen=True)
class SourceSummary:
    """One searching investigator's sources for one claim, counted.

    Filled by `source_findings.summary_finding`; read by the search-coverage note (whether the
    evidence library had relevant sources) and the evidence kinds (its key findings' voices).
    """

    total_sources: int
    relevant_sources: int
    supporting_sources: int
    contradicting_sources: int
    #: Whether the contradicting sources reach the contradiction bar.
    contradiction_flag: bool
    #: How many sources of each tier ("1" … "4") were evaluated.
    tier_distribution: dict[str, int]
    queries: list[dict[str, Any]]
    key_findings: list[KeyFinding]
    sources: list[Citation]

    def to_details(self) -> dict[str, Any]:
        """The stored `details`, key for key (in field order) as summaries have always been written."""
        details = as_details(self)
        details["key_findings"] = [finding.to_details() for finding in self.key_findings]
        return details


def is_search_summary(details: dict[str, Any]) -> bool:
    """Whether `details` are a searching investigator's per-claim summary (it lists its queries;
    a per-source finding names its source instead)."""
    return "queries" in details and "source_url" not in details


def relevant_sources(details: dict[str, Any]) -> int:
    """How many relevant sources a stored `SourceSummary` counted (0 when it says nothing)."""
    count = details.get("relevant_sources")
    return count if isinstance(count, int) else 0


def source_address(details: dict[str, Any]) -> str | None:
    """The address of the source a finding read (a source finding's URL, or an answer's `url`)."""
    address = details.get("source_url") or details.get("url")
    return str(address) if address else None


def cited_source(details: dict[str, Any]) -> dict[str, Any]:
    """What every reader of a cited source takes from stored `details`, read one way: who
    publishes it and when, its tier and why, its reading of the claim, the quote and its check, and
    whose voice it is. Keys older findings lack read as today's defaults (a quote bears on the
    claim; the company is not relayed)."""
    return {
        "source_title": text(details.get("source_title")),
        "source_domain": text(details.get("source_domain")),
        "published_date": text(details.get("published_date")),
        "source_tier": integer(details.get("source_tier")),
        "tier_basis": text(details.get("tier_basis")),
        "stance": text(details.get("stance")),
        "contradicts_claim": details.get("contradicts_claim") is True,
        "snippet": text(details.get("snippet")),
        "quote_verified": flag(details.get("quote_verified")),
        "quote_bears_on_claim": details.get("quote_bears_on_claim") is not False,
        "relays_company": details.get("relays_company") is True,
        "voice": text(details.get("voice")),
    }
