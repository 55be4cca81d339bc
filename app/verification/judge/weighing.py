"""Which contradictions count in the evaluation's stance counts: the judge applies the bar here.

A source finding says what its source says (`supports_claim` false when the source contradicts the
claim, however weak the source). The evaluation's dimensions count a contradicting source finding
only when, with the other contradicting sources the same agent read in the same pass, it reaches
the contradiction bar (`sources.rules.contradiction_bar_reached`, one vote per source, the company's
own word not counted; docs/decisions.md). Below the bar it counts for neither side there; grounding
still weighs it as a weak contradiction (`grounding.Grounding.weak_contradiction`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from app.verification.contract import FindingEvidence
from app.verification.evidence_kinds import evidence_of
from app.verification.records import Finding
from app.verification.sources.rules import contradiction_bar_reached


def contradictions_below_bar(findings: Sequence[Finding]) -> frozenset[str]:
    """The ids of one claim's contradicting source findings that fall short of the bar within
    their agent's pass."""
    by_pass: dict[tuple[str, int], list[tuple[str, FindingEvidence]]] = defaultdict(list)
    for finding in findings:
        if finding["supports_claim"] is not False:
            continue
        evidence = evidence_of(finding)
        if evidence.about_one_source:
            by_pass[(finding["agent_name"], finding["iteration"])].append((finding["finding_id"], evidence))
    below: set[str] = set()
    for contradicting in by_pass.values():
        tiers = [item.source_tier for _, item in contradicting if not item.self_reported and item.source_tier]
        if not contradiction_bar_reached(tiers):
            below.update(finding_id for finding_id, _ in contradicting)
    return frozenset(below)


def as_weighed(findings: Sequence[Finding]) -> list[Finding]:
    """The findings as the evaluation counts them: contradictions below the bar take no side."""
    below = contradictions_below_bar(findings)
    if not below:
        return list(findings)
    return [
        {**finding, "supports_claim": None} if finding["finding_id"] in below else finding
        for finding in findings
    ]
