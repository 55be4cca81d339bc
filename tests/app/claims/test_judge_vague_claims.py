"""The judge's rule for vague claims (app.verification.judge.risk): a claim carrying a generic-claim or
self-declared-label risk flag is never VERIFIED on sources that can only restate it; it is left
UNVERIFIED with the flag named in the reasoning. Contradictions still count, and a claim without
such a flag is judged exactly as before."""

from __future__ import annotations

import itertools
from typing import Any, cast

from app.claims.risk_flags import RiskFlag, RiskFlagKind, claim_flags
from app.verification.judge import judge_claim
from app.verification.records import ClaimState, Finding, Verdict

_ids = itertools.count()
TEXT = "Our Terra cement range is eco-friendly, the sustainable choice for builders."


def claim(flags: list[RiskFlag]) -> ClaimState:
    state: dict[str, Any] = {
        "claim_id": "c1",
        "text": TEXT,
        "claim_type": "environmental",
        "priority": "low",
        "source_page": 3,
        "risk_flags": [flag.to_dict() for flag in flags],
    }
    return cast(ClaimState, state)


def news(tier: int, stance: str, domain: str) -> Finding:
    """A news source finding with a quote found in the source (what verifies a claim)."""
    return {
        "finding_id": f"f{next(_ids)}",
        "agent_name": "news_media",
        "claim_id": "c1",
        "evidence_type": "news_contradiction" if stance == "contradicts" else "news_source",
        "summary": f"{domain} on the Terra range",
        "details": {
            "source_url": f"https://{domain}/terra-{next(_ids)}",
            "source_title": "Terra cement range",
            "source_domain": domain,
            "source_tier": tier,
            "tier_basis": "domain",
            "published_date": "2024-05-02",
            "stance": stance,
            "contradicts_claim": stance == "contradicts",
            "snippet": "The company calls its Terra range eco-friendly.",
            "quote_verified": True,
        },
        "supports_claim": stance == "supports" if stance != "contradicts" else False,
        "confidence": 0.8,
        "iteration": 0,
        "method": "rules",
    }


def judge(state: ClaimState, *findings: Finding) -> Verdict:
    return judge_claim(state, list(findings), {}, run_id="run", iteration=0, max_iterations=1).verdict


def test_the_claim_text_earns_a_generic_flag() -> None:
    assert [flag.kind for flag in claim_flags(TEXT)] == [RiskFlagKind.GENERIC_ENVIRONMENTAL_CLAIM]


def test_a_restated_generic_claim_is_left_unverified_with_the_flag_named() -> None:
    support = news(2, "supports", "reuters.com")
    assert judge(claim([]), support)["verdict"] == "verified"  # the same evidence, no flag

    verdict = judge(claim(claim_flags(TEXT)), support)

    assert verdict["verdict"] == "unverified"
    reasoning = verdict["reasoning"]
    assert reasoning.startswith("Claim is UNVERIFIED: it carries the risk flag GENERIC_ENVIRONMENTAL_CLAIM")
    assert '"is eco-friendly"' in reasoning and "restatement never verifies" in reasoning
    assert "reuters.com" in reasoning  # the evidence is still shown, labelled
    assert "The evidence alone would have allowed VERIFIED" in reasoning
    assert verdict["evaluation"]["risk_flags"][0]["kind"] == "generic_environmental_claim"


def test_weak_support_does_not_make_a_vague_claim_insufficient_evidence() -> None:
    weak = news(4, "supports", "someblog.example")
    assert judge(claim([]), weak)["verdict"] == "insufficient_evidence"
    assert judge(claim(claim_flags(TEXT)), weak)["verdict"] == "unverified"


def test_a_self_declared_label_is_vague_too() -> None:
    label = RiskFlag(RiskFlagKind.SELF_DECLARED_LABEL, "our own EcoBuild seal", "why")
    assert judge(claim([label]), news(1, "supports", "ft.com"))["verdict"] == "unverified"


def test_contradictions_still_count_for_a_vague_claim() -> None:
    flagged = claim(claim_flags(TEXT))
    assert judge(flagged, news(1, "contradicts", "reuters.com"))["verdict"] == "contradicted"
    below_the_bar = news(2, "contradicts", "reuters.com")
    assert judge(flagged, news(2, "supports", "ft.com"), below_the_bar)["verdict"] == "insufficient_evidence"


def test_other_flags_do_not_change_the_verdict() -> None:
    offset = RiskFlag(RiskFlagKind.OFFSET_BASED_NEUTRALITY, "carbon neutral … offsets", "why")
    verdict = judge(claim([offset]), news(2, "supports", "reuters.com"))
    assert verdict["verdict"] == "verified"
    assert verdict["evaluation"]["risk_flags"][0]["kind"] == "offset_based_neutrality"
