"""The judge's rule for vague claims: a claim carrying a GENERIC_ENVIRONMENTAL_CLAIM or
SELF_DECLARED_LABEL risk flag (`app.claims.risk_flags`) names no specific performance, so no source
can corroborate it: anything that "supports" it only restates it. Such a claim is never VERIFIED
(and not INSUFFICIENT_EVIDENCE on support alone, which would suggest that more of the same could
verify it); it is left UNVERIFIED, and the reasoning names the flag and its phrase. Evidence against
it still counts: CONTRADICTED stands, and so does INSUFFICIENT_EVIDENCE when some evidence is against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.claims.risk_flags import VAGUE_KINDS, RiskFlag, flags_of
from app.verification.judge.grounding import Grounding

#: Verdicts a vague claim cannot keep: its support can only be a restatement.
OVERRULED = frozenset({"verified", "insufficient_evidence"})


def vague_flags(claim: Mapping[str, Any]) -> list[RiskFlag]:
    """The claim's flags that make it too vague to verify."""
    return [flag for flag in flags_of(claim) if flag.kind in VAGUE_KINDS]


def vague_verdict(verdict: str, flags: list[RiskFlag], grounding: Grounding) -> str:
    """UNVERIFIED instead of VERIFIED, or of INSUFFICIENT_EVIDENCE resting on support alone, when the
    claim is vague (evidence against it, even below the bar, keeps INSUFFICIENT_EVIDENCE)."""
    if not flags or verdict not in OVERRULED:
        return verdict
    if verdict == "insufficient_evidence" and (
        grounding["weak_contradiction"] or grounding["internal_doubts"]
    ):
        return verdict
    return "unverified"


def vague_headline(flags: list[RiskFlag]) -> str:
    """The reasoning's first line for a vague claim left UNVERIFIED."""
    named = "; ".join(f'{flag.kind.name} ("{flag.phrase}")' for flag in flags)
    return (
        f"Claim is UNVERIFIED: it carries the risk flag {named}. It asserts no specific, verifiable "
        "performance, so a source can only restate it, and a restatement never verifies a claim."
    )


def vague_closing(decided: str) -> str:
    """What the evidence alone would have allowed, so a reader sees what the rule overruled."""
    return (
        f"The evidence alone would have allowed {decided.upper()}; the vague-claim rule "
        "(Directive (EU) 2024/825 generic claims and self-declared labels) leaves it UNVERIFIED."
    )
