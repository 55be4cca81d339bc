"""The judge's verdict is a function of the evidence, not of the order it arrived in.

Specialists check several claims at once and run side by side, so a claim's findings reach the
judge in an order set by timing. An auditor who runs the same report on the same evidence again
must get the same verdict, the same reasoning and the same deciding sources.
"""

from __future__ import annotations

import random
from typing import Any

from app.verification.judge import judge_claim
from app.verification.judge.grounding import ground
from app.verification.records import AgentStatus, ClaimState, Finding

CLAIM: ClaimState = {
    "claim_id": "c1",
    "text": "Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021.",
    "claim_type": "quantitative",
    "priority": "high",
    "source_page": 4,
}
QUOTE = "Its Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021, filings show."
OTHER_QUOTE = "The filings put its Scope 1 and 2 emissions for FY2021 at 19.8 Mt CO2e instead."
STATUS: dict[str, AgentStatus] = {
    "geography": {
        "agent_name": "geography",
        "status": "error",
        "claims_assigned": 1,
        "claims_completed": 0,
        "iteration": 0,
    }
}


def _finding(
    finding_id: str, agent: str, evidence_type: str, supports: bool | None, summary: str, **details: Any
) -> Finding:
    return {
        "finding_id": finding_id,
        "agent_name": agent,
        "claim_id": "c1",
        "evidence_type": evidence_type,
        "summary": summary,
        "details": details,
        "supports_claim": supports,
        "confidence": 0.8,
        "iteration": 0,
        "method": "rules",
    }


def _source(
    finding_id: str, agent: str, domain: str, tier: int, stance: str, quote: str, **extra: Any
) -> Finding:
    contradicts = stance == "contradicts"
    return _finding(
        finding_id,
        agent,
        f"{agent}_contradiction" if contradicts else f"{agent}_source",
        (False if contradicts else True) if tier <= 3 else None,
        f"{domain} {stance} the claim",
        source_url=extra.pop("url", f"https://{domain}/emissions-{finding_id}"),
        source_title=f"Emissions at the company ({domain})",
        source_domain=domain,
        source_tier=tier,
        tier_basis="domain",
        published_date="2024-03-01",
        stance=stance,
        contradicts_claim=contradicts,
        snippet=quote,
        quote_verified=True,
        **extra,
    )


def evidence() -> list[Finding]:
    """A claim's findings from every kind of agent, including what a first-wins rule would decide:
    one outlet read twice in the same pass (a plugin investigator may do that) with two readings,
    two copies of the same quote (one voice), and an agent that failed twice with two errors."""
    twice = "https://www.reuters.com/emissions-read-twice"
    return [
        _source("n1", "news_media", "www.reuters.com", 2, "supports", QUOTE, url=twice),
        _source("n2", "news_media", "www.reuters.com", 2, "contradicts", OTHER_QUOTE, url=twice),
        _source("n3", "news_media", "www.theguardian.com", 3, "supports", QUOTE),
        _source("n4", "academic", "www.nature.com", 3, "supports", QUOTE),
        _source("n5", "news_media", "someblog.example", 4, "supports", QUOTE),
        _finding(
            "d1",
            "data_metrics",
            "calculation",
            True,
            "The stated total matches its parts.",
            check="scope_total",
            consistent=True,
            sources=[{"report_page": 4}],
        ),
        _finding(
            "l1",
            "legal",
            "ifrs_compliance",
            None,
            "S2.29(a)(i) Scope 1 and 2 emissions: full.",
            ifrs_mappings=[{"paragraph_id": "S2.29(a)(i)", "status": "full"}],
        ),
        _finding("g1", "geography", "error", None, "Geography failed.", error="imagery service timed out"),
        _finding("g2", "geography", "error", None, "Geography failed.", error="geocoder answered 503"),
    ]


def _judged(findings: list[Finding]) -> tuple[Any, ...]:
    judgment = judge_claim(CLAIM, findings, STATUS, run_id="run", iteration=0, max_iterations=3)
    return judgment.verdict, judgment.request


def test_shuffled_findings_give_the_same_verdict_reasoning_and_deciding_sources() -> None:
    findings = evidence()
    first, first_request = _judged(findings)
    rng = random.Random(20261124)
    for _ in range(40):
        shuffled = rng.sample(findings, len(findings))
        verdict, request = _judged(shuffled)
        assert verdict["verdict"] == first["verdict"]
        assert verdict["evaluation"]["grounding"] == first["evaluation"]["grounding"]
        assert verdict["reasoning"] == first["reasoning"]
        assert verdict == first
        assert request == first_request
    # the outlet read twice counts once, so it stays one voice: no verdict rests on both readings
    grounding = first["evaluation"]["grounding"]
    reuters = [
        source
        for key in ("corroborating", "contradicting", "weak_contradiction")
        for source in grounding[key]  # type: ignore[literal-required]
        if source["publisher"] == "www.reuters.com"
    ]
    assert len(reuters) == 1


def test_cited_sources_come_best_tier_first_then_by_publisher() -> None:
    grounding = ground(list(reversed(evidence())))
    corroborating = [(source["tier"], source["publisher"]) for source in grounding["corroborating"]]
    assert corroborating == sorted(corroborating)
    assert ground(evidence()) == grounding
