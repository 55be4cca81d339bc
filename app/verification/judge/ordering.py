"""One order for a claim's findings, decided by what they say, so that the judge's verdict, its
reasoning and the sources it cites do not depend on the order the findings arrived in.

Specialists check several claims at once (`app.verification.investigators.claim_pool`) and run side
by side, so the order findings reach the judge is an accident of timing. Everything the judge
derives is meant to be a function of the set of findings: a source read twice in one pass counts
once (the first kept, `grounding.current`), the first error text of an agent is quoted, cited
sources are listed in order, scores are summed in order. Sorting by content first makes each of
those the same on every run of the same evidence. Finding ids come last only to separate findings
that say exactly the same thing: they are derived from the run's id, so a re-run would otherwise
order by chance.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from app.verification.contract import FindingEvidence
from app.verification.records import Finding

if TYPE_CHECKING:
    from app.verification.judge.grounding import SourceCitation

#: The `Grounding` lists of cited sources, each kept in `citation_key` order.
CITATION_LISTS = (
    "corroborating",
    "weak_support",
    "contradicting",
    "weak_contradiction",
    "internal_contradictions",
    "internal_doubts",
    "internally_consistent",
    "self_reported",
)
#: Where a source without a tier (a check of the report) goes: after every tiered one.
UNTIERED = 5


def content_key(finding: Finding) -> tuple[int, str, str, str, str, str]:
    """The finding's place in `in_content_order`: its pass, agent, source address, evidence type,
    then everything else it says."""
    details = finding["details"]
    said = [
        finding["summary"],
        finding["supports_claim"],
        finding["confidence"],
        finding["method"],
        finding.get("evidence_kind"),
        details,
    ]
    return (
        finding["iteration"],
        finding["agent_name"],
        FindingEvidence.from_details(details).source_url or "",
        finding["evidence_type"],
        json.dumps(said, sort_keys=True, default=str),
        finding["finding_id"],
    )


def in_content_order(findings: Iterable[Finding]) -> list[Finding]:
    """`findings` sorted by `content_key`: the same list whatever order they came in."""
    return sorted(findings, key=content_key)


def citation_key(source: SourceCitation) -> tuple[int, str, str]:
    """Cited sources best tier first, then by publisher and address (a reader sees the strongest
    first); sources alike in all three keep their content order."""
    tier = source["tier"] if source["tier"] is not None else UNTIERED
    return tier, source["publisher"], source["url"] or ""
