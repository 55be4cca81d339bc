"""The IFRS compliance summary of a run, per paragraph, with its two questions kept apart:

- **disclosure**: does the report address what the paragraph asks? From the legal agent's
  sub-requirement assessment of each claim (full / partial / missing) and its report-level gap
  search. This is about completeness, never about truth.
- **verdicts**: do the claims that speak to the paragraph hold up? The final verdicts of the claims
  mapped to it (by the claims agent or the legal agent), counted by label.

They are kept apart because one does not follow from the other: a paragraph can be fully disclosed
by claims that are all unverified, or barely disclosed by one verified claim, and a reader needs to
see both (docs/decisions.md, evidence kinds: disclosure never feeds a verdict).

Coverage rolls up: a paragraph is never reported less addressed than one of its sub-paragraphs
(S2.6 cannot be not_addressed while S2.6(a) is partially_addressed). A sub-paragraph's coverage
makes its parent partially addressed, and fully addressed only when every sub-paragraph the
registry lists under it is; `rolled_up_from` names the sub-paragraphs that raised it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from app.knowledge.registry import children, is_under, parent_ids
from app.verification.contract import DisclosureFinding
from app.verification.evidence_kinds import kind_of
from app.verification.judge.evaluation import legal_ifrs_statuses
from app.verification.records import Finding, Verdict, findings_by_claim

VERDICT_LABELS = ("verified", "unverified", "contradicted", "insufficient_evidence")
ASSESSMENT_STATUSES = ("full", "partial", "missing")
COVERAGE_RANK = {"not_assessed": 0, "not_addressed": 1, "partially_addressed": 2, "fully_addressed": 3}


def verdict_status(counts: Counter[str]) -> str:
    """How the claims mapped to one paragraph held up: contradicted, supported (all verified),
    partially_supported (some verified), unsupported (none verified), or no_claims (a paragraph in the
    summary only for its disclosure, e.g. a key disclosure the report lacks)."""
    if counts["contradicted"]:
        return "contradicted"
    total = sum(counts.values())
    if not total:
        return "no_claims"
    if counts["verified"] == total:
        return "supported"
    if counts["verified"]:
        return "partially_supported"
    return "unsupported"


def _assessments(final: Iterable[Verdict], findings: Iterable[Finding]) -> dict[str, Counter[str]]:
    """Per paragraph, how often the legal agent assessed a claim's disclosure full/partial/missing
    (its latest assessment of each claim with a final verdict)."""
    grouped = findings_by_claim(findings)
    counts: dict[str, Counter[str]] = {}
    for verdict in final:
        for paragraph_id, status in legal_ifrs_statuses(grouped.get(verdict["claim_id"], [])).items():
            if status in ASSESSMENT_STATUSES:
                counts.setdefault(paragraph_id, Counter())[status] += 1
    return counts


def _report_gaps(findings: Iterable[Finding]) -> set[str]:
    """Key disclosures the legal agent did not find in the report's text (its report-level finding)."""
    gaps: set[str] = set()
    for finding in findings:
        if finding["claim_id"] is None and kind_of(finding) == "disclosure":
            gaps.update(DisclosureFinding.from_details(finding["details"]).gap_paragraphs)
    return gaps


def disclosure_coverage(assessed: Mapping[str, int], gap: bool) -> str:
    """fully_addressed when some claim meets every sub-requirement, partially_addressed when some
    meets part, not_addressed when the claims meet none (or the report never mentions it),
    not_assessed when the legal agent did not look."""
    if assessed.get("full"):
        return "fully_addressed"
    if assessed.get("partial"):
        return "partially_addressed"
    if assessed.get("missing") or gap:
        return "not_addressed"
    return "not_assessed"


def roll_up(coverage: dict[str, str]) -> dict[str, list[str]]:
    """Raise, in place, each paragraph's coverage to what its sub-paragraphs in `coverage` show.

    Deepest paragraphs first, so a raise carries up the chain. Returns, per raised paragraph, the
    sub-paragraphs that raised it.
    """
    raised: dict[str, list[str]] = {}
    for parent in sorted(coverage, key=lambda paragraph: -len(parent_ids(paragraph))):
        below = [other for other in coverage if other != parent and is_under(other, parent)]
        addressed = [other for other in below if COVERAGE_RANK[coverage[other]] >= 2]
        if not addressed:
            continue
        registry = [child.paragraph_id for child in children(parent)]
        rolled = (
            "fully_addressed"
            if registry and all(coverage.get(child) == "fully_addressed" for child in registry)
            else "partially_addressed"
        )
        if COVERAGE_RANK[rolled] > COVERAGE_RANK[coverage[parent]]:
            coverage[parent] = rolled
            raised[parent] = sorted(addressed)
    return raised


def compliance_summary(final: Iterable[Verdict], findings: Iterable[Finding]) -> dict[str, Any]:
    """Per IFRS paragraph: its disclosure coverage and the verdicts of the claims that speak to it."""
    final = list(final)
    findings = list(findings)
    verdicts: dict[str, Counter[str]] = {}
    claim_ids: dict[str, list[str]] = {}
    for verdict in final:
        for mapping in verdict["ifrs_mapping"]:
            paragraph = mapping["paragraph_id"]
            verdicts.setdefault(paragraph, Counter())[verdict["verdict"]] += 1
            claim_ids.setdefault(paragraph, []).append(verdict["claim_id"])
    assessed = _assessments(final, findings)
    gaps = _report_gaps(findings)
    paragraphs = sorted({*verdicts, *assessed, *gaps})
    coverage = {p: disclosure_coverage(assessed.get(p, {}), p in gaps) for p in paragraphs}
    raised = roll_up(coverage)
    summary: dict[str, Any] = {}
    for paragraph in paragraphs:
        counts = verdicts.get(paragraph, Counter())
        summary[paragraph] = {
            "disclosure": {
                "coverage": coverage[paragraph],
                "claims_assessed": sum(assessed.get(paragraph, Counter()).values()),
                **{status: assessed.get(paragraph, Counter())[status] for status in ASSESSMENT_STATUSES},
                "report_gap": paragraph in gaps,
                **({"rolled_up_from": raised[paragraph]} if paragraph in raised else {}),
            },
            "status": verdict_status(counts),
            "claims": len(claim_ids.get(paragraph, [])),
            "claim_ids": claim_ids.get(paragraph, []),
            **{label: counts[label] for label in VERDICT_LABELS},
        }
    return summary
