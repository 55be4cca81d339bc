"""What a public registry says of a claim, as findings the judge weighs like any other source.

A registry reading (`app.verification.registries`) becomes a `SourceFinding` whose source is the
registry itself: its publisher, the snapshot's date, the record as the quote (checked: it is the
record as imported), and a `RegistryCitation` naming the snapshot and records. What it may prove
follows the registry's kind (docs/decisions.md, registries):

- SBTi and the emission registries are independent registries of record, Tier 1: a reading that
  supports or contradicts the claim counts on its own. A partial emission registry that agrees
  only weakly supports (stance "supports", `supports_claim` unset), and a target record changed after
  the report takes no side.
- The Net Zero Tracker compiles the companies' own statements: the company's word (INTERNAL). A
  difference from the report is an internal doubt, never a contradiction.
"""

from __future__ import annotations

from urllib.parse import quote

from app.claims.risk_flags import RiskFlag, RiskFlagKind
from app.verification.contract import RegistryCitation, SourceFinding
from app.verification.records import FindingDraft
from app.verification.registries.net_zero_tracker import RISK_SIGNALS
from app.verification.registries.records import RegistryReading

EVIDENCE_TYPE = "registry_record"
#: The tier basis of a registry of record (the judge counts it like the credibility table's domains).
REGISTRY_TIER_BASIS = "registry"
REGISTRY_TIER = 1
#: Registries that compile what companies say of themselves, not what an authority verified.
COMPANY_WORD_REGISTRIES = frozenset({"net_zero_tracker"})
#: Where each registry publishes what it holds (the finding's source page).
REGISTRY_PAGES = {
    "sbti": "https://sciencebasedtargets.org/target-dashboard",
    "net_zero_tracker": "https://zerotracker.net/",
    "uk_ets": "https://www.gov.uk/government/publications/uk-ets-compliance-report",
    "epa_ghgrp": "https://ghgdata.epa.gov/ghgp/",
    "nger": "https://cer.gov.au/markets/reports-and-data/nger-reporting-data-and-registers",
}
#: What each stance makes of the finding: (supports_claim, the source's stance, confidence).
_SIDES: dict[str, tuple[bool | None, str, float]] = {
    "supports": (True, "supports", 0.9),
    "contradicts": (False, "contradicts", 0.9),
    "consistent": (None, "supports", 0.5),
    "changed_after_report": (None, "neutral", 0.5),
    "differs": (False, "contradicts", 0.6),
}
SETTLED = {"settled": True}  # a registry snapshot does not change within a run: never re-investigated


def registry_finding(claim_id: str, reading: RegistryReading) -> FindingDraft:
    """One registry's reading of one claim as a finding."""
    supports, stance, confidence = _SIDES[reading.stance]
    summary = reading.summary + _risk_sentence(reading.risk_signals)
    company_word = reading.kind in COMPANY_WORD_REGISTRIES
    citation = _citation(reading)
    page = REGISTRY_PAGES.get(reading.kind, "")
    record = SourceFinding(
        source_url=f"{page}#record={quote(','.join(citation.record_keys) or reading.kind, safe=',:/')}",
        source_title=f"{citation.title} ({citation.snapshot_date or citation.period or 'undated'})",
        source_domain=page.split("/")[2] if page else None,
        published_date=citation.snapshot_date,
        source_tier=REGISTRY_TIER,
        tier_basis=REGISTRY_TIER_BASIS,
        relevance_summary=summary,
        stance=stance,
        contradicts_claim=stance == "contradicts",
        contradiction_type="registry" if stance == "contradicts" else None,
        contradiction_explanation=reading.summary if stance == "contradicts" else None,
        signal=f"registry:{reading.stance}",
        snippet=reading.record_text,
        query=None,
        query_type="registry",
        provider=reading.kind,
        quote_verified=True,  # the quote is the record as imported
        quote_checked_against="registry record",
        quote_bears_on_claim=True,
        relays_company=company_word,
        company_voice="compiles the company's own statements" if company_word else None,
        voice=citation.title,
        registry=citation,
    )
    details = {**record.to_details(), **SETTLED}
    if company_word:
        details["check"] = reading.kind
    if reading.risk_signals:
        details["risk_signals"] = list(reading.risk_signals)
    return FindingDraft(
        claim_id=claim_id,
        evidence_type=EVIDENCE_TYPE,
        summary=summary,
        supports_claim=supports,
        confidence=confidence,
        method="rules",
        details=details,
        evidence_kind="internal" if company_word else "independent",
    )


#: The greenwashing risk flag each of the tracker's integrity fields raises on the claim.
SIGNAL_FLAGS = {
    "no_interim_target": RiskFlagKind.FUTURE_COMMITMENT_WITHOUT_PLAN,
    "no_published_plan": RiskFlagKind.FUTURE_COMMITMENT_WITHOUT_PLAN,
    "relies_on_carbon_credits": RiskFlagKind.OFFSET_BASED_NEUTRALITY,
    "carbon_credits_not_excluded": RiskFlagKind.OFFSET_BASED_NEUTRALITY,
}


def tracker_risk_flags(reading: RegistryReading) -> list[RiskFlag]:
    """The risk flags a reading's integrity fields raise, one per field, phrased as the tracker's."""
    snapshot = reading.snapshot or (reading.records[0].snapshot if reading.records else None)
    title = snapshot.title if snapshot else "Net Zero Tracker"
    return [
        RiskFlag(
            SIGNAL_FLAGS[signal],
            f"{title}: {signal.replace('_', ' ')}",
            RISK_SIGNALS[signal].capitalize() + ".",
        )
        for signal in reading.risk_signals
        if signal in SIGNAL_FLAGS and signal in RISK_SIGNALS
    ]


def _risk_sentence(signals: list[str]) -> str:
    """The tracker's integrity fields in words (they signal greenwashing risk, not falsehood)."""
    said = [RISK_SIGNALS.get(signal, signal.replace("_", " ")) for signal in signals]
    return f" Risk signals: {'; '.join(said)}." if said else ""


def _citation(reading: RegistryReading) -> RegistryCitation:
    records = reading.records
    first = records[0] if records else None
    snapshot = reading.snapshot or (first.snapshot if first else None)
    return RegistryCitation(
        registry=reading.kind,
        title=snapshot.title if snapshot else reading.kind,
        snapshot_id=snapshot.snapshot_id if snapshot else "",
        snapshot_date=snapshot.snapshot_date.isoformat() if snapshot and snapshot.snapshot_date else None,
        period=(first.period if first and first.period else snapshot.period if snapshot else None),
        record_keys=[record.record_key for record in records],
        entity_names=sorted({record.entity_name for record in records}),
        match_basis=min((record.match_basis for record in records), default="absent"),
        match_confidence=min((record.match_confidence for record in records), default=1.0),
        coverage=reading.coverage,
    )
