"""The report contradicting itself (one metric and year, two values on two pages): the verdict says
so in its first line, and independent evidence that backs one page's value decides which claim is
CONTRADICTED. Also: citations carry the finding's method, and relays are labelled self-reported."""

from __future__ import annotations

from typing import Any

from app.verification.judge import judge_claim
from app.verification.judge.decision import grounded_verdict
from app.verification.judge.grounding import cite, ground
from app.verification.records import ClaimState, Finding
from tests.app.pipeline.test_grounded_verdicts import _finding, source


def _claim(claim_id: str, text: str, page: int) -> ClaimState:
    return {
        "claim_id": claim_id,
        "text": text,
        "claim_type": "quantitative",
        "priority": "high",
        "source_page": page,
    }


def clash(own: tuple[str, int], other: tuple[str, int]) -> Finding:
    """A cross-page clash as `metric_index.check_cross_page` writes it."""
    return _finding(
        "data_metrics",
        "inconsistency",
        False,
        check="cross_page",
        metric="scope_1_emissions",
        year=2023,
        claim_value={"value": 0, "unit": "t", "text": own[0], "page": own[1]},
        other_values=[{"value": 0, "unit": "t", "text": other[0], "page": other[1]}],
        consistent=False,
        settled=True,
        sources=[{"report_page": own[1]}, {"report_page": other[1]}],
    )


def _judge(claim: ClaimState, *findings: Finding) -> Any:
    own = [{**finding, "claim_id": claim["claim_id"]} for finding in findings]
    return judge_claim(claim, own, {}, run_id="r", iteration=0, max_iterations=1).verdict  # type: ignore[arg-type]


P1 = _claim("c1", "In 2023 our Scope 1 emissions fell 12% to 2.3 Mt CO2e.", 1)
P2 = _claim("c1", "Scope 1 emissions in 2023 were 2.5 Mt CO2e.", 2)


def test_an_unbacked_clash_contradicts_and_says_the_report_states_two_values() -> None:
    verdict = _judge(P2, clash(("2.5 Mt CO2e", 2), ("2.3 Mt CO2e", 1)))
    first = verdict["reasoning"].split("\n")[0]
    assert verdict["verdict"] == "contradicted"
    stated = "The report states two values for scope 1 emissions 2023: 2.5 Mt CO2e on page 2, 2.3 Mt CO2e"
    assert f"{stated} on page 1" in first
    assert "not accurate as stated" not in first
    assert "nothing independent here says which value is right" in first


def test_a_tier_2_source_backing_this_pages_value_makes_the_clash_insufficient_evidence() -> None:
    backing = source("reuters.com", 2, "supports")
    verdict = _judge(P1, clash(("2.3 Mt CO2e", 1), ("2.5 Mt CO2e", 2)), backing)
    first = verdict["reasoning"].split("\n")[0]
    assert verdict["verdict"] == "insufficient_evidence"
    assert "The report states two values for scope 1 emissions 2023: 2.3 Mt CO2e on page 1" in first
    assert "reuters.com (Tier 2)" in first
    assert "does not state it consistently" in verdict["reasoning"]


def test_one_tier_3_voice_is_not_enough_to_outweigh_the_clash_two_are() -> None:
    clashing = clash(("2.3 Mt CO2e", 1), ("2.5 Mt CO2e", 2))
    one = source("marketscreener.com", 3, "supports")
    assert grounded_verdict(ground([clashing, one])) == "contradicted"
    other = source(
        "morningstar.com",
        3,
        "supports",
        quote="Plant-level data reviewed by this outlet put the 2023 Scope 1 figure at 2.3 Mt CO2e.",
    )
    assert grounded_verdict(ground([clashing, one, other])) == "insufficient_evidence"


def test_the_other_pages_claim_stays_contradicted_with_the_independent_source_named() -> None:
    against = source("reuters.com", 2, "contradicts", supports=None)  # one Tier 2: below the §5.4 bar
    verdict = _judge(P2, clash(("2.5 Mt CO2e", 2), ("2.3 Mt CO2e", 1)), against)
    first = verdict["reasoning"].split("\n")[0]
    assert verdict["verdict"] == "contradicted"
    assert "Independent sources also state another value than this claim: reuters.com (Tier 2)" in first


def test_an_arithmetic_contradiction_is_not_outweighed_by_support() -> None:
    arithmetic = _finding("data_metrics", "calculation", False, check="percent_change", consistent=False)
    grounding = ground([arithmetic, source("reuters.com", 2, "supports")])
    assert grounded_verdict(grounding) == "contradicted"
    assert not grounding["clash_outweighed"]


def test_cite_carries_the_findings_method() -> None:
    read = {**source("reuters.com", 2, "supports"), "method": "llm"}
    assert cite(read)["method"] == "llm"  # type: ignore[arg-type]
    assert cite(source("reuters.com", 2, "supports"))["method"] == "rules"


def test_self_reported_heading_names_relays() -> None:
    own = source("nordavia.com", 3, "supports", basis="company_site")
    verdict = _judge(P1, own)
    assert (
        "Self-reported by the company, or relaying its statement (not independent evidence):"
        in (verdict["reasoning"])
    )


# --- re-investigation: only when a pass could still change the verdict -------------------------


def _request(claim: ClaimState, *findings: Finding) -> Any:
    own = [{**finding, "claim_id": claim["claim_id"]} for finding in findings]
    return judge_claim(claim, own, {}, run_id="r", iteration=0, max_iterations=3).request  # type: ignore[arg-type]


def test_a_claim_verified_by_tier_2_is_not_sent_back_one_below_the_bar_is() -> None:
    assert _request(P1, source("marketscreener.com", 3, "supports")) is not None  # the triggers hold
    assert _request(P1, source("reuters.com", 2, "supports")) is None


def test_a_certain_contradiction_is_not_sent_back_a_bare_clash_may_be() -> None:
    arithmetic = _finding("data_metrics", "calculation", False, check="percent_change", consistent=False)
    assert _request(P1, arithmetic, source("marketscreener.com", 3, "supports")) is None
    request = _request(
        P1, clash(("2.3 Mt CO2e", 1), ("2.5 Mt CO2e", 2)), source("marketscreener.com", 3, "supports")
    )
    assert request is not None  # independent backing of this page's value could still change it


def test_the_evidence_gap_never_cites_ifrs_coverage() -> None:
    legal = _finding(
        "legal", "ifrs_compliance", None, ifrs_mappings=[{"paragraph_id": "S2.29(a)(i)", "status": "partial"}]
    )
    request = _request(P1, legal, source("marketscreener.com", 3, "supports"))
    assert request is not None
    assert "S2.29" not in request["evidence_gap"] and "sub-requirements" not in request["evidence_gap"]


def test_a_source_found_again_under_a_refined_query_is_the_same_finding() -> None:
    from app.pipeline.persistence import finding_content

    details = {"source_url": "https://reuters.com/a", "snippet": "2.3 Mt", "query": "first query"}
    again = {**details, "query": "Search for recent news coverage about the claim", "query_type": "refined"}
    first = finding_content("c1", "news_source", "states the same figure", True, 0.8, details)
    assert finding_content("c1", "news_source", "states the same figure", True, 0.8, again) == first
    other = {**details, "snippet": "2.5 Mt"}
    assert finding_content("c1", "news_source", "states the same figure", True, 0.8, other) != first


# --- confidence: the deciding evidence's strength, never lower for more agreement ----------------


def test_a_certain_internal_contradiction_is_high_confidence_and_agreement_does_not_lower_it() -> None:
    clashing = clash(("2.5 Mt CO2e", 2), ("2.3 Mt CO2e", 1))
    alone = _judge(P2, clashing)
    against = [source(domain, 2, "contradicts", supports=None) for domain in ("reuters.com", "ft.com")]
    more = _judge(P2, clashing, *against)
    assert alone["confidence_level"] == "high" and alone["confidence"] >= 0.9
    assert more["verdict"] == "contradicted" and more["confidence"] >= alone["confidence"]


def test_verified_confidence_rises_with_agreeing_independent_voices() -> None:
    one = _judge(P1, source("reuters.com", 2, "supports"))
    two = _judge(
        P1,
        source("reuters.com", 2, "supports"),
        source(
            "ft.com",
            2,
            "supports",
            quote="This newspaper's own figures give 2.3 Mt CO2e of Scope 1 for 2023.",
        ),
    )
    assert (one["verdict"], two["verdict"]) == ("verified", "verified")
    assert two["confidence"] > one["confidence"] >= 0.8
