"""A source finding says what its source says; the judge decides which contradictions count: a
contradicting source counts in the stance counts only when, with its agent's other contradicting
sources of the pass, it reaches the contradiction bar (the company's own word has no vote)."""

from __future__ import annotations

from typing import Any

from app.verification.judge.evaluation import evaluate_consistency
from app.verification.judge.weighing import as_weighed, contradictions_below_bar
from app.verification.records import Finding


def source(
    finding_id: str, tier: int, *, agent: str = "news_media", iteration: int = 0, **extra: Any
) -> Finding:
    """A counting source finding that contradicts the claim."""
    return {
        "finding_id": finding_id,
        "claim_id": "c1",
        "agent_name": agent,
        "evidence_type": "news_contradiction",
        "summary": "A source says otherwise.",
        "supports_claim": False,
        "confidence": 0.8,
        "method": "rules",
        "details": {
            "source_url": f"https://outlet-{finding_id}.example.org/story",
            "source_tier": tier,
            "tier_basis": "domain",
            "stance": "contradicts",
            "contradicts_claim": True,
            "quote_verified": True,
            **extra,
        },
        "iteration": iteration,
    }


def test_a_lone_tier_3_contradiction_is_below_the_bar_and_takes_no_side_in_the_counts() -> None:
    findings = [source("a", 3)]
    assert contradictions_below_bar(findings) == {"a"}
    consistency = evaluate_consistency(as_weighed(findings))
    assert consistency["support_counts"]["contradict"] == 0
    assert findings[0]["supports_claim"] is False  # the reading itself is left as it is


def test_a_tier_1_source_or_two_of_tier_2_in_one_pass_reach_the_bar() -> None:
    assert contradictions_below_bar([source("a", 1)]) == frozenset()
    assert contradictions_below_bar([source("a", 2), source("b", 2)]) == frozenset()
    assert (
        evaluate_consistency(as_weighed([source("a", 2), source("b", 2)]))["support_counts"]["contradict"]
        == 2
    )


def test_the_bar_is_met_within_one_agent_and_pass_not_across_them() -> None:
    apart = [source("a", 2), source("b", 2, agent="academic"), source("c", 2, iteration=1)]
    assert contradictions_below_bar(apart) == {"a", "b", "c"}


def test_the_companys_own_word_has_no_vote_but_counts_when_others_reach_the_bar() -> None:
    own = source("own", 1, tier_basis="company_site")
    assert contradictions_below_bar([own]) == {"own"}
    assert contradictions_below_bar([own, source("a", 1)]) == frozenset()


def test_support_and_checks_are_not_weighed_here() -> None:
    support = {**source("s", 4), "supports_claim": True}
    check: Finding = {**source("k", 3), "details": {"check": "cross_page", "consistent": False}}
    assert contradictions_below_bar([support, check]) == frozenset()
