"""The judge node (`app.verification.judge`): a verdict for every claim of this pass, re-investigation
requests for the weak ones while passes remain, and — with an LLM — a second opinion on conflicting
evidence, within the verdicts the independent evidence permits (docs/decisions.md)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Literal

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from app.degradation import RunWarning, WarningCode, failure_cause, fallback_warnings
from app.events.log import EventTransaction
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace
from app.pipeline.metrics import count_verdicts
from app.pipeline.persistence import add_usage, save_verdicts
from app.pipeline.runtime import NodeRecorder, PipelineDeps
from app.pipeline.specialists import unguided_agents
from app.pipeline.state import PipelineState
from app.pipeline.warnings import record_warnings
from app.verification.evidence_kinds import evidence_of, kind_of
from app.verification.judge import ClaimJudgment, build_reasoning, confidence_level, judge_claim
from app.verification.judge.decision import permitted_verdicts
from app.verification.judge.ordering import in_content_order
from app.verification.judge.reinvestigation import repeat_answers
from app.verification.records import (
    ClaimState,
    Finding,
    ReinvestigationRequest,
    Verdict,
    findings_by_claim,
)

logger = logging.getLogger(__name__)

AGENT = "judge"

REVIEW_SYSTEM_PROMPT = """You are the judge reviewing evidence about one claim from a corporate sustainability
report. The evidence conflicts. Weigh source credibility, directness and recency. Decide one verdict among
`permitted_verdicts` only (the others are ruled out by what the evidence can prove): verified (independent,
credible corroboration), unverified (no independent evidence), contradicted (credible evidence shows the
claim is false or misleading), insufficient_evidence (some evidence, not enough or mixed). IFRS disclosure
coverage and the report's agreement with itself are not evidence that a claim is true.
Answer with JSON only: {"verdict": str, "reasoning": str, "confidence": number between 0 and 1}"""


class JudgeReview(BaseModel):
    verdict: Literal["verified", "unverified", "contradicted", "insufficient_evidence"]
    reasoning: str = Field(min_length=1)
    confidence: float = Field(ge=0, le=1)


def asked_again(state: PipelineState) -> dict[str, list[str]]:
    """Per claim, the agents this pass re-investigated it with the judge's guidance (none on the
    first pass)."""
    if state.get("iteration_count", 0) == 0:
        return {}
    return {
        entry["claim_id"]: list(entry["assigned_agents"])
        for entry in state.get("routing_plan") or []
        if entry.get("context")
    }


def claims_to_judge(state: PipelineState) -> list[ClaimState]:
    """Every claim on the first pass; afterwards only the claims re-investigated in this pass."""
    claims = state.get("claims") or []
    if state.get("iteration_count", 0) == 0:
        return claims
    routed = {entry["claim_id"] for entry in state.get("routing_plan") or []}
    return [claim for claim in claims if claim["claim_id"] in routed]


def _review_prompt(
    claim: ClaimState, findings: list[Finding], judgment: ClaimJudgment, permitted: frozenset[str]
) -> str:
    """The review's question: the claim, its independent and internal evidence, and the rules'
    verdict with the verdicts the evidence permits."""
    rule_verdict = judgment.verdict
    evidence = [
        {
            "agent": finding["agent_name"],
            "supports_claim": finding["supports_claim"],
            "confidence": finding["confidence"],
            "summary": finding["summary"],
            "source_tier": evidence_of(finding).source_tier,
            "evidence_kind": kind_of(finding),
        }
        for finding in findings
        if kind_of(finding) in ("independent", "internal")
    ]
    return json.dumps(
        {
            "claim": claim["text"],
            "claim_type": claim["claim_type"],
            "evidence": evidence,
            "rule_based_verdict": rule_verdict["verdict"],
            "permitted_verdicts": sorted(permitted),
            "rule_based_reasoning": rule_verdict["reasoning"],
        },
        ensure_ascii=False,
    )


def _with_review(verdict: Verdict, review: dict[str, Any]) -> Verdict:
    """The verdict, its evaluation recording what the LLM review did."""
    return {**verdict, "evaluation": {**verdict["evaluation"], "llm_review": review}}


def _refused(rule_verdict: Verdict, review: JudgeReview, permitted: frozenset[str]) -> Verdict:
    """The rules' verdict stands: the review chose a verdict the evidence does not allow."""
    return _with_review(
        rule_verdict,
        {
            "status": "refused",
            "rule_verdict": rule_verdict["verdict"],
            "proposed": review.verdict,
            "why": review.reasoning,
            "permitted": sorted(permitted),
            "reason": "the evidence does not allow this verdict (see grounding)",
        },
    )


def _accepted(judgment: ClaimJudgment, findings: list[Finding], review: JudgeReview) -> Verdict:
    """The review's permitted verdict: the rules' verdict confirmed, or replaced with the review's
    reasoning and confidence."""
    rule_verdict = judgment.verdict
    overridden = review.verdict != rule_verdict["verdict"]
    reviewed = _with_review(
        rule_verdict,
        {
            "status": "overridden" if overridden else "confirmed",
            "rule_verdict": rule_verdict["verdict"],
            "why": review.reasoning,
        },
    )
    if not overridden:
        return reviewed
    return {
        **reviewed,
        "verdict": review.verdict,
        "reasoning": build_reasoning(review.verdict, judgment.evaluation, findings)
        + f"\nLLM review (it replaced the rules' {rule_verdict['verdict'].upper()}, within what the evidence "
        f"permits): {review.reasoning}",
        "confidence": round(review.confidence, 3),
        "confidence_level": confidence_level(review.confidence),
        "method": "llm",
    }


async def review_conflict(
    llm: LLMClient, claim: ClaimState, findings: list[Finding], judgment: ClaimJudgment, trace: UsageTrace
) -> Verdict:
    """The LLM's view on a claim with conflicting evidence: it may replace the rule verdict with
    another the evidence permits (`permitted_verdicts`); any other answer is recorded and refused."""
    permitted = permitted_verdicts(judgment.evaluation["grounding"])
    try:
        review = await llm.complete_json(
            LLMRole.JUDGMENT,
            system=REVIEW_SYSTEM_PROMPT,
            user=_review_prompt(claim, findings, judgment, permitted),
            schema=JudgeReview,
            trace=trace,
            max_tokens=2048,
        )
    except LLMUnavailable as exc:
        logger.warning("judge review by LLM failed, keeping the rule verdict: %s", exc)
        failed = {"status": "failed", "error": str(exc), "cause": failure_cause(exc)}
        return _with_review(judgment.verdict, failed)
    if review.verdict not in permitted:
        return _refused(judgment.verdict, review, permitted)
    return _accepted(judgment, findings, review)


async def review_if_conflicting(
    llm: LLMClient | None,
    claim: ClaimState,
    findings: list[Finding],
    judgment: ClaimJudgment,
    trace: UsageTrace,
) -> Verdict:
    """The LLM reviews only claims whose evidence conflicts (reviews run concurrently, within the
    client's process-wide limit); every other verdict is the rules' verdict."""
    if llm is None or not judgment.evaluation["consistency"]["has_contradictions"]:
        return judgment.verdict
    return await review_conflict(llm, claim, findings, judgment, trace)


def review_warnings(verdicts: list[Verdict], iteration: int) -> list[RunWarning]:
    """A warning when LLM reviews of this pass failed and the rule verdicts stood."""
    reviews = [
        verdict["evaluation"]["llm_review"] for verdict in verdicts if "llm_review" in verdict["evaluation"]
    ]
    return fallback_warnings(
        WarningCode.JUDGE_REVIEW_FELL_BACK_TO_RULES,
        "judging",
        "LLM reviews of conflicting evidence",
        [review.get("cause") for review in reviews if review.get("status") == "failed"],
        total=len(reviews),
        iteration=iteration,
        fallback="the rule verdict",
    )


def _grouped_findings(state: PipelineState) -> dict[str, list[Finding]]:
    """The run's findings per claim, in content order: the specialists' findings arrive in an order
    set by timing (`ordering`)."""
    return {
        claim_id: in_content_order(found)
        for claim_id, found in findings_by_claim(state.get("findings") or []).items()
    }


def _judgments(
    state: PipelineState,
    deps: PipelineDeps,
    claims: list[ClaimState],
    grouped: dict[str, list[Finding]],
) -> list[ClaimJudgment]:
    """The rules' judgment of each claim, knowing which agents would only repeat their answers."""
    iteration = state.get("iteration_count", 0)
    agent_status = state.get("agent_status") or {}
    unguided = unguided_agents(deps.investigators)
    asked = asked_again(state)
    return [
        judge_claim(
            claim,
            grouped.get(claim["claim_id"], []),
            agent_status,
            run_id=state["run_id"],
            iteration=iteration,
            max_iterations=state["max_iterations"],
            settled=repeat_answers(
                grouped.get(claim["claim_id"], []),
                unguided=unguided,
                asked=asked.get(claim["claim_id"], ()),
                iteration=iteration,
            ),
        )
        for claim in claims
    ]


async def _reviewed(
    llm: LLMClient | None,
    claims: list[ClaimState],
    grouped: dict[str, list[Finding]],
    judgments: list[ClaimJudgment],
    trace: UsageTrace,
) -> list[Verdict]:
    """Each claim's verdict, conflicting ones reviewed by the LLM concurrently."""
    return list(
        await asyncio.gather(
            *(
                review_if_conflicting(llm, claim, grouped.get(claim["claim_id"], []), judgment, trace)
                for claim, judgment in zip(claims, judgments, strict=True)
            )
        )
    )


def _evaluation_summary(evaluation: dict[str, Any]) -> str:
    """The evaluation's overall score, then each dimension's, in one line."""
    return f"overall {evaluation['overall_score']:.2f}; " + ", ".join(
        f"{name} {score:.2f}" for name, score in evaluation["dimension_scores"].items()
    )


async def _emit_verdict(
    recorder: NodeRecorder, transaction: EventTransaction, verdict: Verdict, iteration: int, *, is_final: bool
) -> None:
    """The verdict's evaluation, then the verdict itself."""
    await recorder.emit_in(
        transaction,
        "evidence_evaluation",
        {"claim_id": verdict["claim_id"], "evaluation_summary": _evaluation_summary(verdict["evaluation"])},
    )
    await recorder.emit_in(
        transaction,
        "verdict_issued",
        {
            "claim_id": verdict["claim_id"],
            "verdict_id": verdict["verdict_id"],
            "verdict": verdict["verdict"],
            "reasoning": verdict["reasoning"],
            "ifrs_mapping": [mapping["paragraph_id"] for mapping in verdict["ifrs_mapping"]],
            "confidence": verdict["confidence_level"],
            "confidence_score": verdict["confidence"],
            "iteration": iteration,
            "cycle_count": iteration + 1,
            "method": verdict["method"],
            # what `verdictIssued` streams as `isFinal`: known now, stored at completion
            "is_final": is_final,
        },
    )


async def _emit_reinvestigation(
    recorder: NodeRecorder,
    transaction: EventTransaction,
    requests: list[ReinvestigationRequest],
    iteration: int,
) -> None:
    """The claims sent back for another pass, to which agents, and what they should look for."""
    await recorder.emit_in(
        transaction,
        "reinvestigation",
        {
            "claim_ids": [request["claim_id"] for request in requests],
            "target_agents": sorted({agent for request in requests for agent in request["target_agents"]}),
            "cycle": iteration + 1,
            "evidence_gaps": [request["evidence_gap"] for request in requests],
            "refined_queries_count": sum(len(request["refined_queries"]) for request in requests),
        },
    )


async def judge_evidence(state: PipelineState, runtime: Runtime[PipelineDeps]) -> dict[str, Any]:
    """Judge this pass's claims by the rules (the LLM reviewing conflicting evidence), store the
    verdicts and ask for another pass on the weak ones while passes remain."""
    deps = runtime.context
    iteration = state.get("iteration_count", 0)
    recorder = NodeRecorder.for_run(deps, state, node="judge_evidence", iteration=iteration, agent_name=AGENT)
    await recorder.start("judging")
    grouped = _grouped_findings(state)
    trace = UsageTrace()
    claims = claims_to_judge(state)
    judgments = _judgments(state, deps, claims, grouped)
    verdicts = await _reviewed(deps.llm, claims, grouped, judgments, trace)
    requests = [judgment.request for judgment in judgments if judgment.request is not None]
    # A later pass judges again exactly the claims sent back (`plan_reinvestigation` sends none on
    # the last allowed pass); every other verdict is final, which `compile_report` marks at the end.
    not_final = {request["claim_id"] for request in requests}

    async with recorder.transaction() as transaction:
        await save_verdicts(transaction.session, recorder.run_id, verdicts)
        await add_usage(transaction.session, recorder.run_id, trace)
        await record_warnings(recorder, transaction, review_warnings(verdicts, iteration))
        for verdict in verdicts:
            await _emit_verdict(
                recorder, transaction, verdict, iteration, is_final=verdict["claim_id"] not in not_final
            )
        if requests:
            await _emit_reinvestigation(recorder, transaction, requests, iteration)
        await recorder.emit_in(
            transaction,
            "agent_completed",
            {
                "verdicts_count": len(verdicts),
                "reinvestigation_requests": len(requests),
                "iteration": iteration,
            },
        )
    count_verdicts(verdicts)
    return {"verdicts": verdicts, "reinvestigation_requests": requests}
