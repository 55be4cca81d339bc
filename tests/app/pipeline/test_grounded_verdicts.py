"""Grounded verdicts: a label means what the schema says, whatever the specialists' own stances.

VERIFIED only on independent corroboration (Tier 1–2, or two publishers, quote found); CONTRADICTED
only on a counting independent contradiction or a certain internal one; disclosure coverage and
internal consistency never verify; the company's own word is not independent; an LLM review cannot
go beyond what the evidence permits.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from app.verification.evidence_kinds import evidence_kind_of, kind_of
from app.verification.judge import judge_claim
from app.verification.judge.decision import grounded_verdict, permitted_verdicts
from app.verification.judge.grounding import ground
from app.verification.records import ClaimState, Finding

_ids = itertools.count()
CLAIM: ClaimState = {
    "claim_id": "c1",
    "text": "Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021.",
    "claim_type": "quantitative",
    "priority": "high",
    "source_page": 4,
}


#: A second outlet's own wording of the figure (the same sentence with another outlet's name in it
#: would be one story reworded: `app.verification.sources.voices.same_story`).
OWN = "Plant-level data reviewed by this outlet put the FY2021 Scope 1 and 2 total at 16.2 Mt CO2e."


def _finding(agent: str, evidence_type: str, supports: bool | None, **details: Any) -> Finding:
    return {
        "finding_id": f"f{next(_ids)}",
        "agent_name": agent,
        "claim_id": "c1",
        "evidence_type": evidence_type,
        "summary": f"{agent} {evidence_type}",
        "details": details,
        "supports_claim": supports,
        "confidence": 0.8,
        "iteration": 0,
        "method": "rules",
    }


def source(
    domain: str,
    tier: int,
    stance: str,
    *,
    supports: bool | None = None,
    quote_verified: bool | None = True,
    basis: str = "domain",
    url: str | None = None,
    quote: str | None = None,
) -> Finding:
    """A news/media source finding as `source_findings.source_finding` writes it."""
    if supports is None and stance == "supports" and tier <= 3:
        supports = True
    return _finding(
        "news_media",
        "news_contradiction" if stance == "contradicts" else "news_source",
        supports,
        source_url=url or f"https://{domain}/article-{next(_ids)}",
        source_title=f"An article on {domain}",
        source_domain=domain,
        source_tier=tier,
        tier_basis=basis,
        published_date="2024-03-01",
        stance=stance,
        contradicts_claim=stance == "contradicts",
        snippet=quote or f"Its Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021, {domain} found.",
        quote_verified=quote_verified,
    )


def disclosure(status: str = "full") -> Finding:
    return _finding(
        "legal", "ifrs_compliance", None, ifrs_mappings=[{"paragraph_id": "S2.29(a)(i)", "status": status}]
    )


def internal(check: str, supports: bool | None, **details: Any) -> Finding:
    return _finding(
        "data_metrics",
        "inconsistency" if check == "cross_page" else "calculation",
        supports,
        check=check,
        sources=[{"report_page": 4}, {"report_page": 9}],
        **details,
    )


def verdict_of(*findings: Finding) -> str:
    return grounded_verdict(ground(list(findings)))


# --- evidence kinds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "evidence_type", "details", "kind"),
    [
        ("legal", "ifrs_compliance", {}, "disclosure"),
        ("legal", "disclosure_gap", {}, "disclosure"),
        ("data_metrics", "calculation", {}, "internal"),
        ("data_metrics", "inconsistency", {}, "internal"),
        ("news_media", "news_source", {"tier_basis": "domain"}, "independent"),
        ("academic", "academic_source", {"tier_basis": "domain"}, "independent"),
        ("news_media", "news_source", {"tier_basis": "company_site"}, "internal"),
        ("news_media", "news_source", {"tier_basis": "press_release"}, "internal"),
        ("geography", "satellite_ndvi", {}, "independent"),
        ("geography", "location_resolved", {"source_available": True}, "context"),
        ("news_media", "none", {}, "none"),
        ("legal", "error", {}, "error"),
    ],
)
def test_evidence_kind_follows_agent_type_and_source(
    agent: str, evidence_type: str, details: dict[str, Any], kind: str
) -> None:
    assert evidence_kind_of(agent, evidence_type, details) == kind


def test_a_recorded_kind_wins_over_derivation() -> None:
    finding = _finding("legal", "ifrs_compliance", None)
    assert kind_of(finding) == "disclosure"
    assert kind_of({**finding, "evidence_kind": "independent"}) == "independent"  # type: ignore[typeddict-item]


# --- the bar -------------------------------------------------------------------------------------


def test_nothing_independent_is_unverified_whatever_else_agrees() -> None:
    consistent = internal("percent_change", True, consistent=True)
    assert verdict_of(disclosure("full"), consistent) == "unverified"
    assert verdict_of() == "unverified"


def test_one_tier_2_source_with_a_found_quote_verifies() -> None:
    assert verdict_of(source("reuters.com", 2, "supports")) == "verified"


def test_a_tier_3_source_alone_is_below_the_bar_two_publishers_meet_it() -> None:
    assert verdict_of(source("marketscreener.com", 3, "supports")) == "insufficient_evidence"
    assert (
        verdict_of(
            source("marketscreener.com", 3, "supports"), source("morningstar.com", 3, "supports", quote=OWN)
        )
        == "verified"
    )
    # Two articles of one publisher are one publisher.
    assert (
        verdict_of(source("marketscreener.com", 3, "supports"), source("marketscreener.com", 3, "supports"))
        == "insufficient_evidence"
    )


@pytest.mark.parametrize("quote_verified", [None, False])
def test_support_whose_quote_was_not_found_does_not_verify(quote_verified: bool | None) -> None:
    expected = "insufficient_evidence" if quote_verified is None else "unverified"
    assert verdict_of(source("reuters.com", 2, "supports", quote_verified=quote_verified)) == expected


def test_a_tier_4_blog_is_below_the_bar() -> None:
    assert verdict_of(source("medium.com", 4, "supports")) == "insufficient_evidence"


@pytest.mark.parametrize("basis", ["company_site", "press_release"])
def test_the_companys_own_word_is_not_independent(basis: str) -> None:
    own = source("riotinto.com", 3, "supports", basis=basis)
    grounding = ground([own])
    assert grounded_verdict(grounding) == "unverified"
    assert [item["publisher"] for item in grounding["self_reported"]] == ["riotinto.com"]


def test_a_counting_contradiction_contradicts_and_one_below_the_bar_makes_it_mixed() -> None:
    assert verdict_of(source("reuters.com", 1, "contradicts", supports=False)) == "contradicted"
    below = source("reuters.com", 2, "contradicts", supports=None)
    assert verdict_of(below) == "insufficient_evidence"
    assert verdict_of(source("ft.com", 2, "supports"), below) == "insufficient_evidence"


@pytest.mark.parametrize(
    ("check", "verdict"), [("percent_change", "contradicted"), ("cross_page", "contradicted")]
)
def test_certain_internal_contradictions_contradict(check: str, verdict: str) -> None:
    assert verdict_of(internal(check, False, consistent=False)) == verdict


@pytest.mark.parametrize("check", ["unit_conversion", "scope_total", "impossible_value", "of_which_sum"])
def test_uncertain_internal_contradictions_only_cast_doubt(check: str) -> None:
    doubt = internal(check, False, consistent=False)
    assert verdict_of(doubt) == "insufficient_evidence"
    assert verdict_of(source("reuters.com", 2, "supports"), doubt) == "insufficient_evidence"


def test_disclosure_never_supports_or_contradicts() -> None:
    legacy_support = {**disclosure("full"), "supports_claim": True}  # as findings were stored before
    assert verdict_of(legacy_support) == "unverified"  # type: ignore[arg-type]


def test_indirect_imagery_never_decides() -> None:
    imagery = _finding("geography", "satellite_ndvi", True)
    assert verdict_of(imagery) == "insufficient_evidence"
    assert verdict_of({**imagery, "supports_claim": False}) == "insufficient_evidence"  # type: ignore[arg-type]


# --- what the verdict says -----------------------------------------------------------------------


def _judge(*findings: Finding) -> Any:
    return judge_claim(CLAIM, list(findings), {}, run_id="run", iteration=0, max_iterations=1)


def test_verified_reasoning_names_the_deciding_source() -> None:
    found = source("reuters.com", 2, "supports", url="https://www.reuters.com/sustainability/acme-2024")
    verdict = _judge(found, disclosure("full")).verdict
    assert verdict["verdict"] == "verified"
    reasoning = verdict["reasoning"]
    assert reasoning.startswith("Claim is VERIFIED: independent sources corroborate it")
    assert "reuters.com (Tier 2, 2024-03-01)" in reasoning
    assert "<https://www.reuters.com/sustainability/acme-2024>" in reasoning
    assert (
        '"Its Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021, reuters.com found." '
        "(quote found in the source)" in reasoning
    )
    assert "IFRS disclosure coverage (not evidence of the claim's truth):" in reasoning


def test_unverified_reasoning_never_claims_independence() -> None:
    searched = _finding(
        "news_media", "none", None, queries=[{"query": "Acme emissions", "providers": ["library"]}]
    )
    consistent = internal("percent_change", True, consistent=True)
    verdict = _judge(searched, consistent, disclosure("full")).verdict
    assert verdict["verdict"] == "unverified"
    reasoning = verdict["reasoning"]
    assert "corroborate" not in reasoning
    assert (
        "Internally consistent (the report agrees with itself; this does not verify the claim):" in reasoning
    )
    assert (
        "Searched the evidence library: nothing independent confirms or contradicts the claim." in reasoning
    )


def test_contradicted_by_the_report_itself_names_its_pages() -> None:
    verdict = _judge(internal("cross_page", False, consistent=False)).verdict
    assert verdict["verdict"] == "contradicted"
    assert "Contradicted by the report itself:" in verdict["reasoning"]
    assert "(report pages 4, 9)" in verdict["reasoning"]


def test_insufficient_reasoning_says_what_is_missing() -> None:
    verdict = _judge(source("medium.com", 4, "supports")).verdict
    assert verdict["verdict"] == "insufficient_evidence"
    assert (
        "What is missing: No Tier 1–2 source and fewer than two independent publishers"
        in verdict["reasoning"]
    )


# --- what a reviewer may do ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("findings", "permitted"),
    [
        ([], {"unverified"}),
        ([source("reuters.com", 2, "supports")], {"verified", "insufficient_evidence"}),
        (
            [source("reuters.com", 1, "contradicts", supports=False)],
            {"contradicted", "insufficient_evidence"},
        ),
        ([source("medium.com", 4, "supports")], {"insufficient_evidence"}),
    ],
)
def test_permitted_verdicts(findings: list[Finding], permitted: set[str]) -> None:
    assert permitted_verdicts(ground(findings)) == permitted


# --- the bar holds whatever the passes, agents and plugins did -----------------------------------


def test_contradictions_are_weighed_together_after_every_pass() -> None:
    tier_1 = source(
        "reuters.com", 1, "contradicts", supports=False, url="https://www.reuters.com/investigates/x"
    )
    tier_3 = source("marketscreener.com", 3, "contradicts", supports=False)
    reread = {
        **tier_1,
        "iteration": 1,
        "supports_claim": None,
        "details": {**tier_1["details"], "stance": "irrelevant", "contradicts_claim": False},
    }
    # Pass 1 read the Tier 1 source as irrelevant: the Tier 3 one alone does not reach the bar.
    assert verdict_of(tier_1, tier_3, reread) == "insufficient_evidence"  # type: ignore[arg-type]
    # Two Tier 2 publishers found by two agents reach it together, though neither agent's alone did.
    news = source("ft.com", 2, "contradicts", supports=None)
    academic = {**source("nature.com", 2, "contradicts", supports=None, quote=OWN), "agent_name": "academic"}
    assert verdict_of(news, academic) == "contradicted"  # type: ignore[arg-type]


def test_press_wires_are_the_companys_word_even_in_old_findings() -> None:
    wire = source("prnewswire.com", 3, "supports", url="https://www.prnewswire.com/news/acme")
    other = source("globenewswire.com", 3, "supports", url="https://www.globenewswire.com/acme")
    assert verdict_of(wire, other) == "unverified"


def test_a_declared_kind_cannot_make_the_companys_site_independent() -> None:
    own = {**source("acme.com", 3, "supports", basis="company_site"), "evidence_kind": "independent"}
    assert verdict_of(own, source("acme.com", 3, "supports", basis="company_site")) == "unverified"  # type: ignore[arg-type]


def test_geography_never_decides_whatever_its_evidence_type() -> None:
    imagery = {**source("planetarycomputer.microsoft.com", 2, "supports"), "agent_name": "geography"}
    assert verdict_of(imagery) == "insufficient_evidence"  # type: ignore[arg-type]


def test_a_tier_the_model_guessed_does_not_verify_alone() -> None:
    guessed = source("unknown-outlet.example", 2, "supports", basis="llm")
    assert verdict_of(guessed) == "insufficient_evidence"
    # Two unknown outlets a model called Tier 2 (findings stored before model tiers stopped counting).
    assert verdict_of(guessed, source("another-outlet.example", 2, "supports", basis="llm")) == (
        "insufficient_evidence"
    )
    blog = source("a-blog.example", 2, "contradicts", supports=False, basis="llm")
    assert verdict_of(blog, source("b-blog.example", 2, "contradicts", supports=False, basis="llm")) == (
        "insufficient_evidence"
    )


def test_one_text_on_two_sites_is_one_voice() -> None:
    copied = "Costco understated its total emissions, a review of its filings shows."
    first = source("ft.com", 2, "contradicts", supports=None, quote=copied)
    mirror = {**source("nature.com", 2, "contradicts", supports=None, quote=copied), "agent_name": "academic"}
    assert verdict_of(first, mirror) == "insufficient_evidence"  # type: ignore[arg-type]
    said = "Its Scope 1 and 2 emissions totalled 16.2 Mt CO2e in FY2021."
    support = source("marketscreener.com", 3, "supports", quote=said)
    assert (
        verdict_of(support, source("morningstar.com", 3, "supports", quote=said)) == "insufficient_evidence"
    )
    assert verdict_of(support, source("morningstar.com", 3, "supports", quote=OWN)) == "verified"


def test_a_quote_that_does_not_bear_on_the_claim_does_not_corroborate() -> None:
    beside = source("reuters.com", 2, "supports", quote="Acme said its data was published in its report.")
    beside["details"]["quote_bears_on_claim"] = False
    assert verdict_of(beside) == "insufficient_evidence"
