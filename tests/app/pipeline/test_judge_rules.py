"""The Judge's rules (FRD 11): the four evaluation dimensions, the combined score, the verdict tree,
confidence, IFRS mapping and when and where a claim is sent back for re-investigation."""

from __future__ import annotations

import itertools
import json
import uuid
from typing import Any

import pytest

from app.verification.judge import (
    agent_weights,
    determine_target_agents,
    evaluate_completeness,
    evaluate_consistency,
    evaluate_evidence,
    evaluate_quality,
    evaluate_sufficiency,
    expected_agents,
    extract_ifrs_mapping,
    judge_claim,
    plan_reinvestigation,
    reinvestigation_triggers,
)
from app.verification.judge.evaluation import combine_scores
from app.verification.judge.verdicts import confidence_level
from app.verification.judge.weights import AGENT_WEIGHTS
from app.verification.records import CLAIM_TYPES, AgentStatus, ClaimState, Finding

CLAIM_TEXT = "We restored 500 ha of rainforest in Borneo between 2020 and 2024."
_ids = itertools.count()


def finding(
    agent: str,
    supports: bool | None = True,
    confidence: float | None = 0.9,
    *,
    evidence_type: str = "analysis",
    claim_id: str = "c1",
    iteration: int = 0,
    summary: str | None = None,
    evidence_kind: str | None = "independent",
    **details: Any,
) -> Finding:
    """A finding; the FRD-11 dimension tests treat every agent's word as independent evidence, so
    the kind is stated (None: derived from agent and type, as the pipeline does)."""
    kind = {"evidence_kind": evidence_kind} if evidence_kind else {}
    return {
        **kind,  # type: ignore[typeddict-item]
        "finding_id": f"f{next(_ids)}",
        "agent_name": agent,
        "claim_id": claim_id,
        "evidence_type": evidence_type,
        "summary": summary if summary is not None else f"{agent} says {supports}",
        "details": details,
        "supports_claim": supports,
        "confidence": confidence,
        "iteration": iteration,
        "method": "test",
    }


def nothing(agent: str, **details: Any) -> Finding:
    """An honest "found nothing" finding."""
    return finding(agent, None, None, evidence_type="none", summary=f"{agent} found nothing", **details)


def failure(agent: str, iteration: int = 0) -> Finding:
    return finding(agent, None, None, evidence_type="error", summary="boom", iteration=iteration)


def claim(claim_type: str = "geographic", ifrs: tuple[str, ...] = ()) -> ClaimState:
    return {
        "claim_id": "c1",
        "text": CLAIM_TEXT,
        "claim_type": claim_type,
        "priority": "high",
        "source_page": 3,
        "ifrs_paragraphs": [{"paragraph_id": paragraph} for paragraph in ifrs],
    }


def status(**states: str) -> dict[str, AgentStatus]:
    return {
        agent: {
            "agent_name": agent,
            "status": state,
            "claims_assigned": 1,
            "claims_completed": 1,
            "iteration": 0,
        }
        for agent, state in states.items()
    }


# --- sufficiency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("findings", "level", "count", "contradictions"),
    [
        ([finding("geography"), finding("legal"), finding("academic")], "high", 3, False),
        ([finding("geography"), finding("geography"), finding("legal")], "medium", 2, False),
        ([finding("legal"), finding("news_media", None)], "low", 1, False),
        ([finding("legal", False)], "very_low", 0, True),
        ([nothing("legal"), nothing("geography")], "very_low", 0, False),
        ([], "very_low", 0, False),
    ],
)
def test_sufficiency_counts_independent_supporting_agents(
    findings: list[Finding], level: str, count: int, contradictions: bool
) -> None:
    result = evaluate_sufficiency(findings)
    assert (result["sufficiency"], result["source_count"], result["has_contradictions"]) == (
        level,
        count,
        contradictions,
    )


# --- consistency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stances", "level", "contradictions", "contradict_ratio"),
    [
        ([True, True], "high", False, 0.0),
        ([True, True, False], "medium", True, 0.3333),
        ([True, False, False], "low", True, 0.6667),
        ([False, False], "low", True, 1.0),
        ([True, False], "unclear", True, 0.5),
        ([None], "unclear", False, 0.0),
        ([], "unclear", False, 0.0),
    ],
)
def test_consistency_bands(
    stances: list[bool | None], level: str, contradictions: bool, contradict_ratio: float
) -> None:
    agents = ["geography", "legal", "news_media", "academic"]
    result = evaluate_consistency([finding(agent, s) for agent, s in zip(agents, stances, strict=False)])
    assert result["consistency"] == level
    assert result["has_contradictions"] is contradictions
    assert result["contradict_ratio"] == contradict_ratio


def test_consistency_leaves_none_findings_out_and_names_both_sides() -> None:
    result = evaluate_consistency(
        [finding("legal"), finding("news_media", False), finding("academic", None), nothing("geography")]
    )
    assert result["support_counts"] == {"support": 1, "contradict": 1, "inconclusive": 1}
    assert result["support_ratio"] == 0.3333
    assert result["supporting_agents"] == ["legal"]
    assert result["contradicting_agents"] == ["news_media"]


# --- quality -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "score", "level"),
    [
        (finding("geography", confidence=0.9), 0.9, "high"),
        (finding("legal", confidence=0.75), 0.95, "high"),
        (finding("legal", confidence=0.6), 0.665, "medium"),
        (finding("geography", confidence=0.5), 0.63, "medium"),
        (finding("academic", confidence=0.3), 0.34, "low"),
        (finding("data_metrics", confidence=None), 0.45, "low"),
        (finding("news_media", confidence=0.8, source_tier=1), 0.7, "medium"),
        (finding("news_media", confidence=0.8, source_tier=2), 0.56, "low"),
        (finding("news_media", confidence=0.8, source_tier=4), 0.21, "low"),
        (finding("news_media", confidence=0.8), 0.42, "low"),  # no tier: tier 3
        (finding("news_media", confidence=0.8, source_tier="bogus"), 0.42, "low"),
        (finding("astrology", confidence=0.9), 0.5, "low"),
    ],
)
def test_quality_of_a_single_finding(item: Finding, score: float, level: str) -> None:
    result = evaluate_quality([item])
    assert [entry["score"] for entry in result["finding_scores"]] == [score]
    assert (result["avg_quality_score"], result["quality"]) == (score, level)


def test_quality_averages_evidence_only() -> None:
    findings = [finding("geography", confidence=0.9), finding("legal", confidence=0.6), nothing("academic")]
    result = evaluate_quality(findings)
    assert result["avg_quality_score"] == 0.7825
    assert result["quality"] == "medium"
    assert [entry["agent_name"] for entry in result["finding_scores"]] == ["geography", "legal"]


def test_quality_without_evidence_is_zero() -> None:
    assert evaluate_quality([nothing("legal")]) == {
        "quality": "low",
        "avg_quality_score": 0.0,
        "finding_scores": [],
    }


# --- completeness --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim_type", "findings", "states", "score", "level", "missing", "errored"),
    [
        ("geographic", [finding("geography"), finding("legal")], {}, 1.0, "high", [], []),
        ("geographic", [finding("geography")], {}, 0.8, "high", ["legal"], []),
        # Legal looked and found nothing: investigated, not missing (sufficiency counts the evidence).
        ("geographic", [finding("geography"), nothing("legal")], {}, 1.0, "high", [], []),
        ("geographic", [finding("news_media")], {}, 0.6, "medium", ["geography", "legal"], []),
        ("geographic", [finding("legal")], {"geography": "error"}, 0.7, "medium", [], ["geography"]),
        ("geographic", [failure("geography")], {}, 0.5, "low", ["legal"], ["geography"]),
        (
            "geographic",
            [finding("geography"), finding("legal")],
            {"news_media": "error"},
            1.0,
            "high",
            [],
            [],
        ),
        ("strategic", [], {}, 0.4, "low", ["legal", "academic", "news_media"], []),
        ("legal_governance", [], {"legal": "error"}, 0.7, "medium", [], ["legal"]),
        ("unknown_type", [finding("legal")], {}, 1.0, "high", [], []),
    ],
)
def test_completeness_bands(
    claim_type: str,
    findings: list[Finding],
    states: dict[str, str],
    score: float,
    level: str,
    missing: list[str],
    errored: list[str],
) -> None:
    result = evaluate_completeness(claim(claim_type), findings, status(**states))
    assert (result["completeness_score"], result["completeness"]) == (score, level)
    assert result["missing_agents"] == missing
    assert result["errored_agents"] == errored


def test_error_finding_makes_agent_errored_not_investigated() -> None:
    result = evaluate_evidence(claim(), [failure("geography"), finding("legal")], {})
    assert result["completeness"]["errored_agents"] == ["geography"]
    assert result["completeness"]["investigated_agents"] == ["legal"]
    assert result["consistency"]["support_counts"] == {"support": 1, "contradict": 0, "inconclusive": 0}
    assert "geography" not in result["synthesis"]["agent_contributions"]


def test_error_superseded_by_a_later_pass_no_longer_counts() -> None:
    findings = [failure("geography", iteration=0), finding("geography", iteration=1), finding("legal")]
    result = evaluate_completeness(claim(), findings, {})
    assert result["errored_agents"] == []
    assert result["completeness_score"] == 1.0


def test_unverified_quote_is_ignored_everywhere() -> None:
    findings = [finding("geography", quote_verified=False), finding("legal", False, quote_verified=False)]
    findings.append(finding("legal", quote_verified=True))
    result = evaluate_evidence(claim(), findings, {})
    assert result["sufficiency"]["supporting_agents"] == ["legal"]
    assert result["consistency"]["has_contradictions"] is False
    assert result["completeness"]["missing_agents"] == ["geography"]
    assert [entry["agent_name"] for entry in result["quality"]["finding_scores"]] == ["legal"]
    assert list(result["synthesis"]["agent_contributions"]) == ["legal"]


# --- combined score and synthesis ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "overall"),
    [
        (("high", "high", "high", "high"), 1.0),
        (("medium", "medium", "medium", "medium"), 0.6),
        (("low", "unclear", "low", "low"), 0.35),
        (("very_low", "low", "medium", "high"), 0.425),
        (("medium", "high", "medium", "medium"), 0.7),
        (("very_low", "low", "low", "low"), 0.21),
    ],
)
def test_combined_score_weights(levels: tuple[str, str, str, str], overall: float) -> None:
    names = ("sufficiency", "consistency", "quality", "completeness")
    _, score = combine_scores(dict(zip(names, levels, strict=True)))
    assert score == overall


def test_evaluate_evidence_numbers_and_synthesis() -> None:
    findings = [finding("geography", True, 0.9), finding("legal", False, 0.6)]
    result = evaluate_evidence(claim("geographic"), findings, {})
    assert result["dimension_scores"] == {
        "sufficiency": 0.3,
        "consistency": 0.5,
        "quality": 0.6,
        "completeness": 1.0,
    }
    assert result["overall_score"] == 0.565  # 0.3*0.3 + 0.25*0.5 + 0.25*0.6 + 0.2*1.0
    synthesis = result["synthesis"]
    assert synthesis["weighted_support"] == 0.54  # geography weight 0.6 x 0.9
    assert synthesis["weighted_contradiction"] == 0.12  # legal weight 0.2 x 0.6
    assert synthesis["agent_contributions"]["geography"] == {
        "findings_count": 1,
        "supporting": 1,
        "contradicting": 0,
        "inconclusive": 0,
        "weight": 0.6,
        "primary_support": "supports",
    }
    assert synthesis["agent_contributions"]["legal"]["primary_support"] == "contradicts"
    assert json.loads(json.dumps(result)) == result


def test_synthesis_uses_half_confidence_when_unknown() -> None:
    result = evaluate_evidence(claim("quantitative"), [finding("data_metrics", True, None)], {})
    assert result["synthesis"]["weighted_support"] == 0.25  # 0.5 x 0.5


@pytest.mark.parametrize("claim_type", [*CLAIM_TYPES, "something_else"])
def test_agent_weights_sum_to_one(claim_type: str) -> None:
    weights = agent_weights(claim_type)
    assert set(weights) == {"geography", "legal", "news_media", "academic", "data_metrics"}
    assert sum(weights.values()) == pytest.approx(1.0)


def test_every_claim_type_has_weights_and_expected_agents() -> None:
    assert set(AGENT_WEIGHTS) == set(CLAIM_TYPES)
    assert expected_agents("geographic") == ("geography", "legal")
    assert expected_agents("environmental") == ("academic", "geography", "data_metrics")
    assert expected_agents("something_else") == ("legal",)


# --- verdict tree and confidence -----------------------------------------------------------------

VERIFIED = [finding("geography", True, 0.9), finding("legal", True, 0.9)]
CONTRADICTED_IN_MINORITY = [
    finding("geography"),
    finding("legal"),
    finding("academic"),
    finding("news_media", False, 0.9, source_tier=1),
]


def test_overall_scores_of_the_evaluation() -> None:
    """The FRD-11 score still measures the evidence (the verdict itself is grounded: see
    test_grounded_verdicts)."""
    assert evaluate_evidence(claim("geographic"), VERIFIED, {})["overall_score"] == 0.88
    assert evaluate_evidence(claim("geographic"), [], {})["overall_score"] == 0.32
    assert evaluate_evidence(claim("geographic"), CONTRADICTED_IN_MINORITY, {})["overall_score"] == 0.9


@pytest.mark.parametrize(
    ("score", "all_failed", "level"),
    [(1.0, False, "high"), (0.8, False, "high"), (0.7999, False, "medium"), (0.6, False, "medium")]
    + [(0.5999, False, "low"), (0.0, False, "low"), (0.95, True, "low")],
)
def test_confidence_bands(score: float, all_failed: bool, level: str) -> None:
    assert confidence_level(score, all_failed=all_failed) == level


# --- the whole judgment --------------------------------------------------------------------------


def judge(findings: list[Finding], claim_type: str = "geographic", **kwargs: Any) -> Any:
    options: dict[str, Any] = {"agent_status": {}, "run_id": "run-1", "iteration": 0, "max_iterations": 3}
    options.update(kwargs)
    agent_status = options.pop("agent_status")
    return judge_claim(claim(claim_type), findings, agent_status, **options)


def test_verdict_fields() -> None:
    findings = [finding("geography", True, 0.9), finding("legal", True, 0.9)]
    findings.append(finding("legal", False, 0.9, claim_id="other-claim"))  # about another claim
    judgment = judge(findings, iteration=1)
    verdict = judgment.verdict
    assert verdict["verdict_id"] == str(uuid.uuid5(uuid.NAMESPACE_URL, "sibyl:verdict:run-1:c1:1"))
    assert (verdict["iteration"], verdict["method"], verdict["confidence"]) == (1, "rules", 0.88)
    assert verdict["confidence_level"] == "high"
    assert verdict["evaluation"] == judgment.evaluation
    assert judgment.request is None
    # An agent's word without a source to cite is no corroboration; geography's is indirect at best.
    assert verdict["verdict"] == "insufficient_evidence"
    assert "Independent" not in verdict["reasoning"].splitlines()[0].replace("no independent", "")


def test_failed_agent_is_noted() -> None:
    judgment = judge([finding("legal")], agent_status=status(geography="error", legal="completed"))
    assert "Note: the Geography agent failed; its check is missing." in judgment.verdict["reasoning"]


def test_every_expected_agent_failed() -> None:
    judgment = judge([failure("geography")], agent_status=status(legal="error"))
    verdict = judgment.verdict
    assert verdict["verdict"] == "unverified"
    assert verdict["confidence_level"] == "low"
    assert "every expected specialist failed (Geography agent, Legal agent)" in verdict["reasoning"]
    assert judgment.evaluation["completeness"]["completeness_score"] == 0.4


# --- IFRS mapping --------------------------------------------------------------------------------


def test_ifrs_mapping_merges_claim_and_legal_paragraphs() -> None:
    legal = [
        finding("legal", ifrs_mappings=[{"paragraph_id": "S2.14(a)(iv)", "status": "partial"}]),
        finding("legal", ifrs_mappings=[{"paragraph_id": "S2.29", "status": "fully_addressed"}]),
        finding("legal", iteration=1, ifrs_mappings=[{"paragraph_id": "S2.29", "status": "missing"}, {}]),
        finding(
            "legal", quote_verified=False, ifrs_mappings=[{"paragraph_id": "S9.99", "status": "partial"}]
        ),
    ]
    mapping = extract_ifrs_mapping(claim(ifrs=("S2.14(a)(iv)", "S1.33")), legal, "verified")
    assert mapping == [
        {
            "paragraph_id": "S1.33",
            "source": "claim",
            "status": None,
            "relationship": "Claim verified by independent sources; S1.33 is the claim's preliminary IFRS "
            "mapping; its disclosure was not assessed.",
        },
        {
            "paragraph_id": "S2.14(a)(iv)",
            "source": "legal",
            "status": "partial",
            "relationship": "Claim verified by independent sources; the legal agent found S2.14(a)(iv) "
            "partially addressed (disclosure coverage, not truth).",
        },
        {
            "paragraph_id": "S2.29",
            "source": "legal",
            "status": "missing",
            "relationship": "Claim verified by independent sources; the legal agent found S2.29 not "
            "addressed (disclosure coverage, not truth).",
        },
    ]


@pytest.mark.parametrize(
    ("verdict", "relationship"),
    [
        ("unverified", "Claim not independently verified; S1.27(a) is the claim's preliminary"),
        ("contradicted", "Claim contradicted; S1.27(a) is the claim's preliminary"),
        ("insufficient_evidence", "Claim has insufficient evidence; S1.27(a) is the claim's preliminary"),
    ],
)
def test_ifrs_relationship_follows_the_verdict(verdict: str, relationship: str) -> None:
    [entry] = extract_ifrs_mapping(claim(ifrs=("S1.27(a)",)), [], verdict)
    assert entry["relationship"].startswith(relationship)


# --- re-investigation ----------------------------------------------------------------------------

ONLY_LEGAL_STRATEGIC = [finding("legal", True, 0.6)]  # overall 0.61, academic + news_media missing


def test_missing_agents_are_sent_back_with_queries_and_required_evidence() -> None:
    judgment = judge(ONLY_LEGAL_STRATEGIC, "strategic", iteration=1)
    request = judgment.request
    assert judgment.evaluation["overall_score"] == 0.61
    assert reinvestigation_triggers(judgment.evaluation, ONLY_LEGAL_STRATEGIC) == ["missing_agents"]
    assert request is not None
    assert judgment.verdict["verdict"] == "unverified"  # provisional; no source to cite
    assert request["claim_id"] == "c1"
    assert request["cycle_number"] == 2
    assert request["target_agents"] == ["news_media", "academic"]
    assert len(request["refined_queries"]) == 2
    assert request["refined_queries"][0].startswith("News/Media agent: Search for recent news coverage")
    assert all(f"'{CLAIM_TEXT.removesuffix('.')}'" in query for query in request["refined_queries"])
    assert request["required_evidence"] == (
        "News coverage from Tier 1-2 sources (investigative journalism, regulatory actions) "
        "corroborating or contradicting the claim. Peer-reviewed research or recognized industry "
        "benchmarks validating the technical claim."
    )
    assert (
        "Missing agent perspectives: Academic/Research agent, News/Media agent should"
        in request["evidence_gap"]
    )


@pytest.mark.parametrize(("iteration", "max_iterations"), [(2, 3), (0, 1), (5, 3)])
def test_last_pass_never_requests_another(iteration: int, max_iterations: int) -> None:
    judgment = judge(ONLY_LEGAL_STRATEGIC, "strategic", iteration=iteration, max_iterations=max_iterations)
    assert judgment.request is None
    assert judgment.verdict["iteration"] == iteration


def test_sufficient_evidence_is_not_sent_back() -> None:
    assert judge(VERIFIED).request is None


def test_high_score_with_contradictions_is_sent_back_to_both_sides() -> None:
    judgment = judge(CONTRADICTED_IN_MINORITY)
    assert judgment.evaluation["overall_score"] == 0.9
    assert judgment.request is not None
    assert judgment.request["target_agents"] == ["geography", "legal", "news_media", "academic"]
    assert "Resolve the conflict between the supporting" in judgment.request["refined_queries"][0]
    assert judgment.request["evidence_gap"] == (
        "Contradictions found: evidence from News/Media agent contradicts the claim while evidence from "
        "Geography agent, Legal agent, Academic/Research agent supports it. Need resolution."
    )


def test_contradiction_targets_include_missing_agents_that_can_move_the_verdict() -> None:
    findings = [finding("geography", True, 0.9), finding("news_media", False, 0.9, source_tier=1)]
    evaluation = evaluate_evidence(claim("strategic"), findings, {})
    assert evaluation["completeness"]["missing_agents"] == ["legal", "academic"]
    # Legal is missing too, but its word is IFRS disclosure coverage, which never moves a verdict.
    assert determine_target_agents(evaluation, findings) == ["geography", "news_media", "academic"]


def test_low_quality_targets_agents_with_weak_findings() -> None:
    findings = [finding("data_metrics", True, 0.4), finding("legal", None, 0.3)]
    evaluation = evaluate_evidence(claim("quantitative"), findings, {})
    assert evaluation["overall_score"] == 0.615
    assert reinvestigation_triggers(evaluation, findings) == ["low_quality"]
    request = plan_reinvestigation(claim("quantitative"), evaluation, findings, iteration=0, max_iterations=3)
    assert request is not None
    assert request["target_agents"] == ["legal", "data_metrics"]
    assert "Low-quality sources: average quality score 0.37" in request["evidence_gap"]


def test_partial_ifrs_paragraph_sends_legal_back() -> None:
    partial = [finding("legal", True, 0.6, ifrs_mappings=[{"paragraph_id": "S1.27(a)", "status": "partial"}])]
    judgment = judge(partial, "legal_governance")
    assert judgment.evaluation["overall_score"] == 0.69
    assert reinvestigation_triggers(judgment.evaluation, partial) == ["incomplete_ifrs"]
    assert judgment.request is not None
    assert judgment.request["target_agents"] == ["legal"]
    assert judgment.request["refined_queries"][0].endswith(
        "Paragraphs assessed as partial or missing: S1.27(a)."
    )
    # Disclosure coverage cannot move a verdict, so the evidence gap never cites it.
    assert "S1.27(a)" not in judgment.request["evidence_gap"]
    assert "Incomplete sub-requirements" not in judgment.request["evidence_gap"]


def test_no_trigger_means_no_request() -> None:
    complete = [finding("legal", True, 0.6, ifrs_mappings=[{"paragraph_id": "S1.27(a)", "status": "full"}])]
    judgment = judge(complete, "legal_governance")
    assert judgment.evaluation["overall_score"] == 0.69
    assert reinvestigation_triggers(judgment.evaluation, complete) == []
    assert judgment.request is None


@pytest.mark.parametrize(
    ("source_available", "targets"),
    [(False, ["legal"]), (True, ["geography", "legal"]), (None, ["geography", "legal"])],
)
def test_agent_without_an_evidence_source_is_not_asked_again(
    source_available: bool | None, targets: list[str]
) -> None:
    details = {} if source_available is None else {"source_available": source_available}
    findings = [finding("legal", True, 0.3), nothing("geography", **details)]
    judgment = judge(findings)
    assert judgment.evaluation["overall_score"] == 0.615
    assert judgment.evaluation["completeness"]["missing_agents"] == []  # geography looked
    assert judgment.request is not None
    assert judgment.request["target_agents"] == targets


def test_unknown_agents_are_never_targets() -> None:
    findings = [finding("geography", True, 0.9), finding("legal"), finding("astrology", False)]
    evaluation = evaluate_evidence(claim("geographic"), findings, {})
    assert evaluation["consistency"]["contradicting_agents"] == ["astrology"]
    assert determine_target_agents(evaluation, findings) == ["geography", "legal"]


def test_an_agent_whose_latest_findings_are_settled_is_not_asked_again() -> None:
    """A check that depends on the report alone, or a search already widened, cannot change."""
    partial = [{"paragraph_id": "S2.14(a)", "status": "partial"}]
    first_pass = [
        finding("data_metrics", None, None, settled=True),
        finding("legal", None, None, ifrs_mappings=partial, settled=False),
    ]
    targets = determine_target_agents(evaluate_evidence(claim("quantitative"), first_pass, {}), first_pass)
    assert "legal" in targets and "data_metrics" not in targets

    widened = [*first_pass, finding("legal", None, None, iteration=1, ifrs_mappings=partial, settled=True)]
    targets = determine_target_agents(evaluate_evidence(claim("quantitative"), widened, {}), widened)
    assert "legal" not in targets
