"""The Judge's verdict on one claim (FRD 11 §4–5): the decision tree, confidence, plain-language
reasoning and IFRS paragraph mapping, plus `judge_claim`, which evaluates, decides and plans the
re-investigation in one call."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.agents.judge.evaluation import (
    SUFFICIENT_SCORE,
    Evaluation,
    Stance,
    evaluate_evidence,
    legal_ifrs_statuses,
    stance,
    weighted_findings,
)
from app.agents.judge.reinvestigation import identify_evidence_gap, plan_reinvestigation
from app.agents.judge.weights import agent_label
from app.agents.state import AgentStatus, ClaimState, Finding, ReinvestigationRequest, Verdict

CONTRADICTED_RATIO = 0.5  # more than this share of contradicting findings contradicts the claim
SUMMARY_LIMIT = 200

HEADLINES: dict[str, str] = {
    "verified": "Claim is VERIFIED. Independent evidence corroborates the claim and nothing contradicts it.",
    "unverified": "Claim is UNVERIFIED. No specialist agent found evidence supporting the claim.",
    "contradicted": "Claim is CONTRADICTED. Evidence directly contradicts the claim.",
    "insufficient_evidence": (
        "Claim has INSUFFICIENT EVIDENCE. Some evidence exists but it is not sufficient for a "
        "confident verdict."
    ),
}
SECTION_TITLES: dict[Stance, str] = {
    "supports": "Supporting evidence:",
    "contradicts": "Contradicting evidence:",
    "inconclusive": "Inconclusive or no evidence:",
}
IFRS_RELATIONSHIPS: dict[str, str] = {
    "verified": "Claim verified; meets {paragraph} requirements.",
    "unverified": "Claim unverified; cannot assess {paragraph} compliance.",
    "contradicted": "Claim contradicted; does not meet {paragraph} requirements.",
    "insufficient_evidence": "Claim has insufficient evidence; {paragraph} compliance unclear.",
}


# --- decision and confidence ---------------------------------------------------------------------


def decide_verdict(evaluation: Evaluation) -> str:
    """The §4.2 decision tree: contradicted, unverified, verified, else insufficient_evidence."""
    consistency = evaluation["consistency"]
    if consistency["has_contradictions"] and consistency["contradict_ratio"] > CONTRADICTED_RATIO:
        return "contradicted"
    if evaluation["sufficiency"]["source_count"] == 0:
        return "unverified"
    if evaluation["overall_score"] >= SUFFICIENT_SCORE and not consistency["has_contradictions"]:
        return "verified"
    return "insufficient_evidence"


def all_expected_failed(evaluation: Evaluation) -> bool:
    """True when every specialist the claim type expects failed (§10.2)."""
    completeness = evaluation["completeness"]
    return bool(completeness["errored_agents"]) and set(completeness["errored_agents"]) == set(
        completeness["expected_agents"]
    )


def confidence_level(overall_score: float, *, all_failed: bool = False) -> str:
    """How sure the verdict is (§4.7): >= 0.8 high, >= 0.6 medium, else low; low if all failed."""
    if all_failed:
        return "low"
    if overall_score >= 0.8:
        return "high"
    if overall_score >= 0.6:
        return "medium"
    return "low"


# --- reasoning -----------------------------------------------------------------------------------


def _shorten(text: str, limit: int = SUMMARY_LIMIT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3].rstrip() + "..."


def _cite(finding: Finding) -> str:
    confidence = finding["confidence"]
    shown = "" if confidence is None else f" (confidence {confidence:.2f})"
    return f"- {agent_label(finding['agent_name'])}{shown}: {_shorten(finding['summary']) or '(no summary)'}"


def _closing(verdict: str, evaluation: Evaluation, findings: Sequence[Finding]) -> list[str]:
    if verdict == "verified":
        return [
            f"Evidence is consistent and sufficient (overall score {evaluation['overall_score']:.2f}); "
            "no contradictions found."
        ]
    if verdict == "unverified":
        return ["The claim cannot be independently verified."]
    if verdict == "contradicted":
        return ["The weight of contradicting evidence outweighs the supporting evidence."]
    return [
        f"Evidence gaps: {identify_evidence_gap(evaluation, findings)}",
        "Cannot reach a confident verdict with available evidence.",
    ]


def _failure_notes(evaluation: Evaluation) -> list[str]:
    errored = evaluation["completeness"]["errored_agents"]
    if all_expected_failed(evaluation):
        names = ", ".join(agent_label(agent) for agent in errored)
        return [f"Note: every expected specialist failed ({names}), so the claim could not be checked."]
    return [f"Note: the {agent_label(agent)} failed; its check is missing." for agent in errored]


def build_reasoning(verdict: str, evaluation: Evaluation, findings: Sequence[Finding]) -> str:
    """Plain-language reasoning for a verdict (§4.3–4.6), citing each weighted finding's summary
    grouped by whether it supports the claim, and noting failed specialists (§1.5, §10.2)."""
    order: tuple[Stance, ...] = (
        ("contradicts", "supports", "inconclusive")
        if verdict == "contradicted"
        else ("supports", "contradicts", "inconclusive")
    )
    counted = weighted_findings(findings)
    lines = [HEADLINES[verdict]]
    for wanted in order:
        cited = [_cite(finding) for finding in counted if stance(finding) == wanted]
        if cited:
            lines += [SECTION_TITLES[wanted], *cited]
    consulted = {finding["agent_name"] for finding in counted}
    silent = [agent for agent in evaluation["completeness"]["missing_agents"] if agent not in consulted]
    if silent:
        lines.append("Not investigated: " + ", ".join(agent_label(agent) for agent in silent) + ".")
    lines += _closing(verdict, evaluation, findings)
    lines += _failure_notes(evaluation)
    return "\n".join(lines)


# --- IFRS mapping --------------------------------------------------------------------------------


def extract_ifrs_mapping(
    claim: ClaimState, findings: Sequence[Finding], verdict: str
) -> list[dict[str, Any]]:
    """The IFRS paragraphs the verdict speaks to (§5.3–5.4), sorted by paragraph id.

    Paragraphs come from the claim's preliminary mapping (`source` "claim", no status) and from
    the Legal agent's findings (`source` "legal", with its status); a paragraph in both is listed
    once, as the Legal agent's.
    """
    mapping: dict[str, dict[str, Any]] = {}
    for paragraph in claim.get("ifrs_paragraphs") or []:
        paragraph_id = paragraph.get("paragraph_id")
        if paragraph_id:
            mapping[paragraph_id] = {"paragraph_id": paragraph_id, "source": "claim", "status": None}
    for paragraph_id, status in legal_ifrs_statuses(findings).items():
        mapping[paragraph_id] = {"paragraph_id": paragraph_id, "source": "legal", "status": status}
    return [
        {**mapping[paragraph_id], "relationship": IFRS_RELATIONSHIPS[verdict].format(paragraph=paragraph_id)}
        for paragraph_id in sorted(mapping)
    ]


# --- the verdict and the whole judgment ----------------------------------------------------------


def verdict_id(run_id: str, claim_id: str, iteration: int) -> str:
    """A stable id for a claim's verdict in one pass of one run (a resumed judge rewrites it)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"sibyl:verdict:{run_id}:{claim_id}:{iteration}"))


def produce_verdict(
    claim: ClaimState, evaluation: Evaluation, findings: Sequence[Finding], *, run_id: str, iteration: int
) -> Verdict:
    """The verdict for one claim after pass `iteration`, decided by rules from its evaluation."""
    verdict = decide_verdict(evaluation)
    overall = evaluation["overall_score"]
    return {
        "verdict_id": verdict_id(run_id, claim["claim_id"], iteration),
        "claim_id": claim["claim_id"],
        "verdict": verdict,
        "reasoning": build_reasoning(verdict, evaluation, findings),
        "ifrs_mapping": extract_ifrs_mapping(claim, findings, verdict),
        "confidence": round(overall, 3),
        "confidence_level": confidence_level(overall, all_failed=all_expected_failed(evaluation)),
        "iteration": iteration,
        "method": "rules",
        "evaluation": dict(evaluation),
    }


@dataclass(frozen=True)
class ClaimJudgment:
    """The Judge's output for one claim in one pass.

    `verdict` always exists; while `request` is not None it is provisional (the latest pass's
    verdict becomes the final one).
    """

    verdict: Verdict
    request: ReinvestigationRequest | None
    evaluation: Evaluation


def judge_claim(
    claim: ClaimState,
    findings: Sequence[Finding],
    agent_status: Mapping[str, AgentStatus],
    *,
    run_id: str,
    iteration: int,
    max_iterations: int,
) -> ClaimJudgment:
    """Evaluate one claim's evidence, issue its verdict for pass `iteration` (0-based) and decide
    whether to send it back for another pass. Findings about other claims are ignored."""
    own = [finding for finding in findings if finding["claim_id"] == claim["claim_id"]]
    evaluation = evaluate_evidence(claim, own, agent_status)
    return ClaimJudgment(
        verdict=produce_verdict(claim, evaluation, own, run_id=run_id, iteration=iteration),
        request=plan_reinvestigation(
            claim, evaluation, own, iteration=iteration, max_iterations=max_iterations
        ),
        evaluation=evaluation,
    )
