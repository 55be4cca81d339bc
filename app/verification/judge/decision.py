"""What a claim's grounding (`grounding.ground`) permits its verdict to say: the rules' verdict,
what an LLM review may choose instead, and why the evidence falls short (docs/decisions.md)."""

from __future__ import annotations

from app.verification.judge.grounding import Grounding


def has_independent_evidence(grounding: Grounding) -> bool:
    """Whether any independent source took a side on the claim (above or below the bar)."""
    return any(
        grounding[key] for key in ("corroborating", "weak_support", "contradicting", "weak_contradiction")
    )


def is_mixed(grounding: Grounding) -> bool:
    """Whether anything speaks against a claim that independent sources support."""
    return bool(grounding["weak_contradiction"] or grounding["internal_doubts"])


def grounded_verdict(grounding: Grounding) -> str:
    """The verdict the evidence allows (see the module docstring)."""
    if grounding.get("clash_outweighed"):
        return "insufficient_evidence"  # backed independently, but the report also states another value
    if grounding["contradicting"] or grounding["internal_contradictions"]:
        return "contradicted"
    if grounding["corroborated"] and not is_mixed(grounding):
        return "verified"
    if has_independent_evidence(grounding) or grounding["internal_doubts"]:
        return "insufficient_evidence"
    return "unverified"


def permitted_verdicts(grounding: Grounding) -> frozenset[str]:
    """What a reviewer (the LLM) may choose: it may weigh the evidence, never claim more than exists.

    The rules' verdict, or INSUFFICIENT_EVIDENCE instead of VERIFIED or CONTRADICTED (a reviewer may
    find the deciding evidence less telling than the rules do); nothing else.
    """
    decided = grounded_verdict(grounding)
    if decided in ("verified", "contradicted"):
        return frozenset({decided, "insufficient_evidence"})
    return frozenset({decided})


def shortfall(grounding: Grounding) -> str:
    """Why the evidence falls short of a verdict, in a sentence (for INSUFFICIENT_EVIDENCE)."""
    reasons: list[str] = []
    if grounding.get("clash_outweighed"):
        reasons.append(
            "independent evidence backs the claim's value, but the report states another value for the "
            "same metric and year elsewhere, so the report does not state it consistently"
        )
    elif grounding["corroborated"] and is_mixed(grounding):
        reasons.append("independent support exists, but other evidence speaks against the claim")
    elif grounding["corroborating"] or grounding["weak_support"]:
        reasons.append(
            "no Tier 1–2 source and fewer than two independent publishers support the claim with a "
            "quote found in the source"
        )
    if grounding["weak_contradiction"]:
        reasons.append(
            "the contradicting sources fall short of the contradiction bar (one Tier 1, two Tier 1–2 "
            "or three Tier 1–3 sources)"
        )
    if grounding["internal_doubts"]:
        reasons.append("an internal check disagrees, but not with certainty")
    if not reasons:
        return "More independent evidence."
    text = "; ".join(reasons)
    return text[0].upper() + text[1:] + "."
