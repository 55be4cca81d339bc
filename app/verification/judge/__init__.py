"""The Judge: deterministic, rule-based evaluation of each claim's findings, its verdict, and whether
to send the claim back to the specialists for another pass. What a verdict may say is decided from
independent evidence only (`grounding`; the decisions behind it are in docs/decisions.md)."""

from __future__ import annotations

from app.verification.judge.evaluation import (
    carries_weight,
    evaluate_completeness,
    evaluate_consistency,
    evaluate_evidence,
    evaluate_quality,
    evaluate_sufficiency,
    synthesize_evidence,
)
from app.verification.judge.reinvestigation import (
    determine_target_agents,
    identify_evidence_gap,
    plan_reinvestigation,
    reinvestigation_triggers,
)
from app.verification.judge.verdicts import (
    ClaimJudgment,
    build_reasoning,
    confidence_level,
    decide_verdict,
    extract_ifrs_mapping,
    judge_claim,
    produce_verdict,
)
from app.verification.judge.weights import agent_weights, expected_agents

__all__ = [
    "ClaimJudgment",
    "Evaluation",
    "agent_weights",
    "build_reasoning",
    "carries_weight",
    "confidence_level",
    "decide_verdict",
    "determine_target_agents",
    "evaluate_completeness",
    "evaluate_consistency",
    "evaluate_evidence",
    "evaluate_quality",
    "evaluate_sufficiency",
    "expected_agents",
    "extract_ifrs_mapping",
    "identify_evidence_gap",
    "judge_claim",
    "plan_reinvestigation",
    "produce_verdict",
    "reinvestigation_triggers",
    "synthesize_evidence",
]
