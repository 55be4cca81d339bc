"""Who a claim is sent back to: only agents whose answer could still move its verdict, and the
completeness that names an agent missing only when it never reported on the claim."""

from __future__ import annotations

import itertools
from typing import Any

from app.pipeline.specialists import BUILT_IN_INVESTIGATORS, no_evidence_source, unguided_agents
from app.verification.judge import (
    determine_target_agents,
    evaluate_evidence,
    identify_evidence_gap,
    judge_claim,
)
from app.verification.judge.reinvestigation import repeat_answers
from app.verification.records import ClaimState, Finding

_ids = itertools.count()


def finding(
    agent: str,
    evidence_type: str,
    supports: bool | None = None,
    confidence: float | None = None,
    *,
    iteration: int = 0,
    kind: str | None = None,
    **details: Any,
) -> Finding:
    """A finding whose kind is derived from agent and type, as in the pipeline, unless `kind`."""
    made: dict[str, Any] = {
        "finding_id": f"f{next(_ids)}",
        "agent_name": agent,
        "claim_id": "c1",
        "evidence_type": evidence_type,
        "summary": f"{agent}: {evidence_type}",
        "details": details,
        "supports_claim": supports,
        "confidence": confidence,
        "iteration": iteration,
        "method": "test",
    }
    if kind:
        made["evidence_kind"] = kind
    return made  # type: ignore[return-value]


def claim(claim_type: str) -> ClaimState:
    return {
        "claim_id": "c1",
        "text": "We completed ESG training for 100% of our employees.",
        "claim_type": claim_type,
        "priority": "high",
        "source_page": 4,
    }


PARTIAL = [{"paragraph_id": "S1.27(a)", "status": "partial"}]


def offline_findings() -> list[Finding]:
    """What an offline pass says about an environmental claim naming a place: a gazetteer location,
    no arithmetic check, nothing found by searches that had no source, partial disclosure."""
    return [
        finding("geography", "location_resolved", source_available=True),
        finding("data_metrics", "none", source_available=True, settled=True),
        finding("academic", "none", source_available=False, queries=[]),
        finding("legal", "ifrs_compliance", True, 0.6, ifrs_mappings=PARTIAL, settled=False),
    ]


def test_an_agent_that_found_nothing_investigated_and_is_not_called_missing() -> None:
    findings = offline_findings()
    evaluation = evaluate_evidence(claim("environmental"), findings, {})
    completeness = evaluation["completeness"]
    assert completeness["investigated_agents"] == ["geography", "legal", "academic", "data_metrics"]
    assert completeness["missing_agents"] == []
    assert "Missing agent perspectives" not in identify_evidence_gap(evaluation, findings)


def test_a_finding_in_an_earlier_pass_counts_as_investigated() -> None:
    findings = [
        finding("data_metrics", "none", settled=True),
        finding("legal", "ifrs_compliance", iteration=1),
    ]
    completeness = evaluate_evidence(claim("quantitative"), findings, {})["completeness"]
    assert completeness["missing_agents"] == []
    assert completeness["completeness_score"] == 1.0


def test_disclosure_coverage_and_a_located_place_never_send_a_claim_back() -> None:
    """Partial IFRS coverage used to send Legal back, and a place located without imagery Geography:
    neither can move a verdict (`disclosure` and `context` evidence)."""
    findings = offline_findings()
    kwargs: dict[str, Any] = {"run_id": "r", "iteration": 0, "max_iterations": 3}
    assert judge_claim(claim("environmental"), findings, {}, **kwargs).request is None
    evaluation = evaluate_evidence(claim("legal_governance"), findings[3:], {})
    assert determine_target_agents(evaluation, findings[3:]) == []


def test_an_agent_known_to_repeat_itself_is_not_asked_again() -> None:
    """Imagery that took no side could be asked again, unless the caller knows the agent would give
    the same answer (the built-in Geography ignores refined queries, see `unguided_agents`)."""
    findings = [finding("geography", "satellite_ndvi", None, source_available=True), *offline_findings()[1:]]
    kwargs: dict[str, Any] = {"run_id": "r", "iteration": 0, "max_iterations": 3}
    judgment = judge_claim(claim("environmental"), findings, {}, **kwargs)
    assert judgment.request is not None and judgment.request["target_agents"] == ["geography"]
    built_in = judge_claim(claim("environmental"), findings, {}, settled={"geography"}, **kwargs)
    assert built_in.request is None


def test_a_missing_legal_agent_is_not_asked_for_disclosure_but_a_missing_searcher_is() -> None:
    findings = [finding("news_media", "news_source", True, 0.4, kind="independent", source_tier=4)]
    evaluation = evaluate_evidence(claim("strategic"), findings, {})
    assert evaluation["completeness"]["missing_agents"] == ["legal", "academic"]
    assert determine_target_agents(evaluation, findings) == ["news_media", "academic"]


def test_a_legal_plugin_with_independent_evidence_can_still_be_asked() -> None:
    findings = [finding("legal", "registry_record", False, 0.9, kind="independent", source_tier=1)]
    findings.append(finding("news_media", "news_source", True, 0.9, kind="independent", source_tier=1))
    evaluation = evaluate_evidence(claim("strategic"), findings, {})
    assert "legal" in determine_target_agents(evaluation, findings)


def test_an_unguided_agent_that_answered_repeats_itself_unless_it_failed() -> None:
    answered = [finding("geography", "location_resolved", source_available=True)]
    assert repeat_answers(answered, unguided={"geography"}, asked=(), iteration=0) == {"geography"}
    assert repeat_answers(answered, unguided=(), asked=(), iteration=0) == set()
    failed = [*answered, finding("geography", "error", iteration=1)]
    assert repeat_answers(failed, unguided={"geography"}, asked=(), iteration=1) == set()
    never = [finding("legal", "ifrs_compliance")]
    assert repeat_answers(never, unguided={"geography"}, asked=(), iteration=0) == set()


def test_an_agent_asked_again_that_had_nothing_new_is_not_asked_a_third_time() -> None:
    first = [finding("news_media", "news_source", True, 0.3, kind="independent", source_tier=4)]
    assert repeat_answers(first, unguided=(), asked={"news_media"}, iteration=1) == {"news_media"}
    changed = [*first, finding("news_media", "news_source", True, 0.5, iteration=1, source_tier=4)]
    assert repeat_answers(changed, unguided=(), asked={"news_media"}, iteration=1) == set()


def test_settled_agents_are_left_out_of_the_request() -> None:
    findings = [finding("geography", "satellite_ndvi", True, 0.3, kind="independent", source_available=True)]
    kwargs: dict[str, Any] = {"run_id": "r", "iteration": 0, "max_iterations": 3}
    asked = judge_claim(claim("geographic"), findings, {}, **kwargs)
    assert asked.request is not None and asked.request["target_agents"] == ["geography"]
    repeated = judge_claim(claim("geographic"), findings, {}, settled={"geography"}, **kwargs)
    assert repeated.request is None


def test_only_built_in_unguided_investigators_are_assumed_to_repeat_themselves() -> None:
    assert unguided_agents(BUILT_IN_INVESTIGATORS) == {"geography", "data_metrics"}
    plugins = {**BUILT_IN_INVESTIGATORS, "geography": no_evidence_source}
    assert unguided_agents(plugins) == {"data_metrics"}
