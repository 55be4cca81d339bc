"""What a finding can prove about its claim: its evidence kind.

The judge decides a claim's truth from independent evidence only (see `app.verification.judge.grounding`),
so every finding declares which of six kinds it is:

- `independent`: a source other than the reporting company (news, research, registries, imagery,
  documents in the evidence library), with its publisher, date and quote check;
- `internal`: the report checked against itself (arithmetic, cross-page consistency), or the
  company's own word repeated elsewhere (its website, its press releases, its own report or CDP
  response in the evidence library, an outlet relaying its statement): it can show the report is
  inconsistent, never that it is true;
- `disclosure`: IFRS S1/S2 requirement coverage. A claim that mentions an IFRS topic is disclosed,
  not true, so disclosure findings feed the compliance summary and never a verdict;
- `context`: where the claim is, not whether it is true (a place located in the gazetteer with no
  imagery to compare): it never supports or contradicts a claim;
- `none`: the agent honestly found nothing;
- `error`: the agent failed.

Investigators may state a kind on their findings; otherwise it follows from the agent and the
evidence type here, in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from app.verification.contract import FindingEvidence

EvidenceKind = Literal["independent", "internal", "disclosure", "context", "none", "error"]
EVIDENCE_KINDS: tuple[str, ...] = ("independent", "internal", "disclosure", "context", "none", "error")

#: Agents whose findings check the report against itself.
INTERNAL_AGENTS = frozenset({"data_metrics"})
#: Agents whose findings are IFRS disclosure coverage.
DISCLOSURE_AGENTS = frozenset({"legal"})
#: Evidence types of the searching agents' per-claim summaries (they aggregate per-source findings).
DISCLOSURE_TYPES = frozenset({"ifrs_compliance", "disclosure_gap"})
INTERNAL_TYPES = frozenset({"calculation", "inconsistency"})
#: Evidence types that place a claim without bearing on its truth.
CONTEXT_TYPES = frozenset({"location_resolved"})


def is_self_reported(details: Mapping[str, Any]) -> bool:
    """Whether a source finding's source is the reporting company itself (own site, own report, press
    release, a press wire that publishes what companies send it), or an outlet relaying the company's
    statement ("Acme said …", `relays_company`): the company's word, wherever it is printed."""
    return FindingEvidence.from_details(dict(details)).self_reported


def evidence_of(finding: Mapping[str, Any]) -> FindingEvidence:
    """What a pipeline finding's details say of its evidence (`contract.FindingEvidence`)."""
    return FindingEvidence.from_details(finding.get("details") or {})


def _summary_kind(sources: list[FindingEvidence]) -> EvidenceKind:
    """A searching agent's summary is as independent as the sources it rests on."""
    if sources and all(source.self_reported for source in sources):
        return "internal"
    return "independent"


def evidence_kind_of(agent: str, evidence_type: str, details: Mapping[str, Any]) -> EvidenceKind:
    """The kind of a finding by `agent` of `evidence_type` (see the module docstring)."""
    if evidence_type == "error":
        return "error"
    if evidence_type == "none":
        return "none"
    if agent in DISCLOSURE_AGENTS or evidence_type in DISCLOSURE_TYPES:
        return "disclosure"
    if agent in INTERNAL_AGENTS or evidence_type in INTERNAL_TYPES:
        return "internal"
    if evidence_type in CONTEXT_TYPES:
        return "context"
    evidence = FindingEvidence.from_details(dict(details))
    if evidence.key_findings is not None:
        return _summary_kind(evidence.key_findings)
    if evidence.self_reported:
        return "internal"
    return "independent"


def kind_of(finding: Mapping[str, Any]) -> EvidenceKind:
    """A pipeline finding's kind: as recorded, or derived from its agent and type for a stored
    finding that carries none."""
    return declared_or_derived(
        finding.get("evidence_kind"),
        finding["agent_name"],
        finding["evidence_type"],
        finding.get("details") or {},
    )


def declared_or_derived(
    declared: object, agent: str, evidence_type: str, details: Mapping[str, Any]
) -> EvidenceKind:
    """A declared kind when it is one of ours, else the kind that follows from agent and type."""
    if declared in EVIDENCE_KINDS:
        return cast(EvidenceKind, declared)
    return evidence_kind_of(agent, evidence_type, details)
