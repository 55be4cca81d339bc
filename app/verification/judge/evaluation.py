"""The Judge's evidence evaluation in four dimensions (sufficiency, consistency, quality,
completeness), their weighted score, and the synthesis of every agent's findings by its relevance to
the claim type. The score measures how much evidence there is, not what it proves: what a verdict
may say is decided by `grounding`.

Every function here is pure and takes the findings *about one claim*. Two kinds of finding carry
no weight and are ignored by every dimension: agent failures (`evidence_type == "error"`) and
findings whose quote was not found in its source (`FindingEvidence.quote_verified is False`). Findings
with `evidence_type == "none"` (the agent honestly found nothing) count as inconclusive, but they
are not evidence: they have no quality score. They do make their agent "investigated" (it looked).

The result is a plain, JSON-serialisable dict: it is stored with the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.verification.contract import DisclosureFinding
from app.verification.evidence_kinds import evidence_of, kind_of
from app.verification.judge.evaluation_records import (
    AgentContribution,
    Completeness,
    Consistency,
    Evaluation,
    FindingScore,
    Quality,
    Stance,
    Sufficiency,
    SupportCounts,
    Synthesis,
)
from app.verification.judge.grounding import Grounding, ground
from app.verification.judge.weighing import as_weighed
from app.verification.judge.weights import (
    KNOWN_AGENTS,
    agent_weight,
    base_quality,
    confidence_multiplier,
    expected_agents,
)
from app.verification.records import AgentStatus, ClaimState, Finding, agent_of, latest_findings

DIMENSION_WEIGHTS: dict[str, float] = {
    "sufficiency": 0.3,
    "consistency": 0.25,
    "quality": 0.25,
    "completeness": 0.2,
}
LEVEL_SCORES: dict[str, dict[str, float]] = {
    "sufficiency": {"high": 1.0, "medium": 0.6, "low": 0.3, "very_low": 0.0},
    "consistency": {"high": 1.0, "medium": 0.6, "low": 0.3, "unclear": 0.5},
    "quality": {"high": 1.0, "medium": 0.6, "low": 0.3},
    "completeness": {"high": 1.0, "medium": 0.6, "low": 0.3},
}
MISSING_AGENT_PENALTY = 0.2
ERRORED_AGENT_PENALTY = 0.3
NO_STANCE_KINDS = frozenset({"disclosure", "context", "none", "error"})
PRECISION = 4  # scores are rounded so thresholds are not decided by float noise
SUFFICIENT_SCORE = 0.7  # an overall score this high, without contradictions, verifies a claim


# --- which findings count -------------------------------------------------------------------------


def carries_weight(finding: Finding) -> bool:
    """False for an agent failure or a finding whose quote was not found in its source."""
    return finding["evidence_type"] != "error" and evidence_of(finding).quote_verified is not False


def weighted_findings(findings: Iterable[Finding]) -> list[Finding]:
    """The findings every dimension considers (see `carries_weight`)."""
    return [finding for finding in findings if carries_weight(finding)]


def evidence_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Weighted findings that actually hold evidence (an honest "found nothing" does not)."""
    return [finding for finding in weighted_findings(findings) if finding["evidence_type"] != "none"]


def stance(finding: Finding) -> Stance:
    """Whether a finding supports or contradicts its claim; a "none" finding is inconclusive, and
    so is IFRS disclosure coverage, which says nothing about the claim's truth."""
    if kind_of(finding) in NO_STANCE_KINDS or finding["supports_claim"] is None:
        return "inconclusive"
    return "supports" if finding["supports_claim"] else "contradicts"


def pipeline_order(agents: Iterable[str]) -> list[str]:
    """Agent names, de-duplicated, in the pipeline's agent order (unknown names last, by name)."""
    rank = {agent: index for index, agent in enumerate(KNOWN_AGENTS)}
    return sorted(set(agents), key=lambda agent: (rank.get(agent, len(rank)), agent))


def _agents_with(findings: Iterable[Finding], wanted: Stance) -> list[str]:
    return pipeline_order(finding["agent_name"] for finding in findings if stance(finding) == wanted)


def _count(findings: Iterable[Finding]) -> SupportCounts:
    stances = [stance(finding) for finding in findings]
    return {
        "support": stances.count("supports"),
        "contradict": stances.count("contradicts"),
        "inconclusive": stances.count("inconclusive"),
    }


def legal_ifrs_statuses(findings: Iterable[Finding]) -> dict[str, str | None]:
    """IFRS paragraphs the Legal agent assessed, with its status for each (e.g. "partial").

    Read from weighted legal findings (`contract.DisclosureFinding`); a later pass wins.
    """
    legal = [finding for finding in weighted_findings(findings) if finding["agent_name"] == "legal"]
    statuses: dict[str, str | None] = {}
    for finding in sorted(legal, key=lambda item: item["iteration"]):
        for paragraph in DisclosureFinding.from_details(finding["details"]).paragraphs:
            statuses[paragraph.paragraph_id] = paragraph.status
    return statuses


# --- the four dimensions -------------------------------------------------------------------------


def evaluate_sufficiency(findings: Sequence[Finding]) -> Sufficiency:
    """How many independent agents support the claim: 3+ high, 2 medium, 1 low, 0 very_low."""
    counted = weighted_findings(findings)
    supporting = _agents_with(counted, "supports")
    contradicting = _agents_with(counted, "contradicts")
    source_count = len(supporting)
    if source_count >= 3:
        level = "high"
    elif source_count == 2:
        level = "medium"
    elif source_count == 1:
        level = "low"
    else:
        level = "very_low"
    return {
        "sufficiency": level,
        "source_count": source_count,
        "supporting_agents": supporting,
        "contradicting_agents": contradicting,
        "has_contradictions": bool(contradicting),
    }


def evaluate_consistency(findings: Sequence[Finding]) -> Consistency:
    """Whether the findings agree, counted per evidence finding.

    An honest "found nothing" (`evidence_type == "none"`) is not evidence either way, so it does not
    dilute the ratios: a claim two sources contradict stays contradicted when a third agent had no
    source to consult.

    high: support and no contradiction; medium: contradictions but more support; low: more
    contradiction than support; unclear: as much of one as of the other (or neither).
    `has_contradictions` is true whenever any finding contradicts the claim (`evaluate_evidence`
    adds the contradictions below the bar that conflict with support, `with_weak_contradictions`).
    """
    counted = evidence_findings(findings)
    counts = _count(counted)
    total = len(counted)
    support, contradict = counts["support"], counts["contradict"]
    if contradict == 0 and support > 0:
        level = "high"
    elif contradict > 0 and support > contradict:
        level = "medium"
    elif contradict > support:
        level = "low"
    else:
        level = "unclear"
    return {
        "consistency": level,
        "has_contradictions": contradict > 0,
        "weak_contradictions": 0,
        "support_ratio": round(support / total, PRECISION) if total else 0.0,
        "contradict_ratio": round(contradict / total, PRECISION) if total else 0.0,
        "support_counts": counts,
        "supporting_agents": _agents_with(counted, "supports"),
        "contradicting_agents": _agents_with(counted, "contradicts"),
    }


def with_weak_contradictions(consistency: Consistency, grounding: Grounding) -> Consistency:
    """`consistency`, with the contradictions below the contradiction bar counted as a conflict when
    independent support stands against them.

    A below-bar contradiction takes no side in the stance counts (`weighing`), so they miss it;
    yet a Tier 2 source that supports a claim next to a blog that contradicts it is conflicting
    evidence (the rules say INSUFFICIENT_EVIDENCE), and the judge's LLM review and the
    re-investigation of both sides exist for exactly that. The consistency level (and so the
    score) is unchanged: the bar decides what the contradiction proves.
    """
    weak = grounding["weak_contradiction"]
    support = grounding["corroborating"] or grounding["weak_support"] or consistency["supporting_agents"]
    if not weak or not support:
        return consistency
    return {
        **consistency,
        "has_contradictions": True,
        "weak_contradictions": len(weak),
        "contradicting_agents": pipeline_order(
            [*consistency["contradicting_agents"], *(source["agent"] for source in weak)]
        ),
    }


def finding_quality(finding: Finding) -> float:
    """One finding's quality: its agent's base credibility times its confidence multiplier."""
    tier = evidence_of(finding).source_tier
    score = base_quality(finding["agent_name"], tier) * confidence_multiplier(finding["confidence"])
    return round(score, PRECISION)


def evaluate_quality(findings: Sequence[Finding]) -> Quality:
    """The average quality of the evidence: >= 0.8 high, >= 0.6 medium, else low.

    No evidence at all scores 0.0 (low).
    """
    scores: list[FindingScore] = [
        {
            "finding_id": finding["finding_id"],
            "agent_name": finding["agent_name"],
            "score": finding_quality(finding),
        }
        for finding in evidence_findings(findings)
    ]
    average = round(sum(item["score"] for item in scores) / len(scores), PRECISION) if scores else 0.0
    if average >= 0.8:
        level = "high"
    elif average >= 0.6:
        level = "medium"
    else:
        level = "low"
    return {"quality": level, "avg_quality_score": average, "finding_scores": scores}


def failed_agents(findings: Sequence[Finding], agent_status: Mapping[str, AgentStatus]) -> set[str]:
    """Agents whose status is "error", or whose latest pass on this claim produced an error finding.

    An error finding that a later pass of the same agent superseded no longer counts: that check
    was redone.
    """
    failed = {name for name, status in agent_status.items() if status.get("status") == "error"}
    failed.update(errors_of(latest_findings(findings, agent_of)))
    return failed


def errors_of(latest: Iterable[Finding]) -> dict[str, str | None]:
    """The agents whose finding among `latest` (each agent's latest pass on a claim) is an error,
    each with its error text (None when it gives none)."""
    errors: dict[str, str | None] = {}
    for finding in latest:
        if finding["evidence_type"] == "error":
            errors.setdefault(finding["agent_name"], evidence_of(finding).error)
    return errors


def evaluate_completeness(
    claim: ClaimState, findings: Sequence[Finding], agent_status: Mapping[str, AgentStatus]
) -> Completeness:
    """Whether every specialist the claim type expects (its routing matrix row) has looked at it.

    An agent is investigated when it has a weighted finding for the claim in any pass of the run,
    an honest "found nothing" included: it looked, and whether it found evidence is sufficiency's
    business; counting only findings with evidence would list an agent that checked the claim and
    found nothing as one that "should have investigated but did not". Expected agents
    that failed are `errored_agents` (-0.3 each); the others that never reported on the claim are
    `missing_agents` (-0.2 each). Score >= 0.8 high, >= 0.6 medium, else low.
    """
    expected = list(expected_agents(claim["claim_type"]))
    investigated = pipeline_order(finding["agent_name"] for finding in weighted_findings(findings))
    failed = failed_agents(findings, agent_status)
    errored = [agent for agent in expected if agent in failed]
    missing = [agent for agent in expected if agent not in investigated and agent not in failed]
    score = max(0.0, 1.0 - MISSING_AGENT_PENALTY * len(missing) - ERRORED_AGENT_PENALTY * len(errored))
    score = round(score, PRECISION)
    if score >= 0.8:
        level = "high"
    elif score >= 0.6:
        level = "medium"
    else:
        level = "low"
    return {
        "completeness": level,
        "completeness_score": score,
        "expected_agents": expected,
        "investigated_agents": investigated,
        "missing_agents": missing,
        "errored_agents": errored,
    }


# --- synthesis and the combined score ------------------------------------------------------------


def _primary_support(counts: SupportCounts) -> Stance:
    if counts["support"] > counts["contradict"]:
        return "supports"
    if counts["contradict"] > counts["support"]:
        return "contradicts"
    return "inconclusive"


def synthesize_evidence(claim: ClaimState, findings: Sequence[Finding]) -> Synthesis:
    """Weigh each agent's findings by its relevance to the claim type (`weights.AGENT_WEIGHTS`).

    `weighted_support` / `weighted_contradiction` sum agent weight x finding confidence (0.5 when
    unknown) over the supporting / contradicting findings.
    """
    by_agent: dict[str, list[Finding]] = {}
    for finding in weighted_findings(findings):
        by_agent.setdefault(finding["agent_name"], []).append(finding)

    totals: dict[Stance, float] = {"supports": 0.0, "contradicts": 0.0, "inconclusive": 0.0}
    contributions: dict[str, AgentContribution] = {}
    for agent in pipeline_order(by_agent):
        weight = agent_weight(claim["claim_type"], agent)
        for finding in by_agent[agent]:
            confidence = finding["confidence"] if finding["confidence"] is not None else 0.5
            totals[stance(finding)] += weight * confidence
        counts = _count(by_agent[agent])
        contributions[agent] = {
            "findings_count": len(by_agent[agent]),
            "supporting": counts["support"],
            "contradicting": counts["contradict"],
            "inconclusive": counts["inconclusive"],
            "weight": weight,
            "primary_support": _primary_support(counts),
        }
    return {
        "weighted_support": round(totals["supports"], PRECISION),
        "weighted_contradiction": round(totals["contradicts"], PRECISION),
        "agent_contributions": contributions,
    }


def combine_scores(levels: Mapping[str, str]) -> tuple[dict[str, float], float]:
    """Each dimension's level as a score, and their weighted sum (0.3/0.25/0.25/0.2)."""
    scores = {dimension: LEVEL_SCORES[dimension][levels[dimension]] for dimension in DIMENSION_WEIGHTS}
    overall = sum(DIMENSION_WEIGHTS[dimension] * score for dimension, score in scores.items())
    return scores, round(overall, PRECISION)


def evaluate_evidence(
    claim: ClaimState, findings: Sequence[Finding], agent_status: Mapping[str, AgentStatus]
) -> Evaluation:
    """The four-dimensional evaluation of one claim's findings, their combined score and synthesis.

    Grounding reads every finding as its source reads; the stance counts take contradictions only
    where they reach the contradiction bar (`weighing.as_weighed`)."""
    grounding = ground(findings)
    weighed = as_weighed(findings)
    sufficiency = evaluate_sufficiency(weighed)
    consistency = with_weak_contradictions(evaluate_consistency(weighed), grounding)
    quality = evaluate_quality(findings)
    completeness = evaluate_completeness(claim, findings, agent_status)
    dimension_scores, overall = combine_scores(
        {
            "sufficiency": sufficiency["sufficiency"],
            "consistency": consistency["consistency"],
            "quality": quality["quality"],
            "completeness": completeness["completeness"],
        }
    )
    return {
        "sufficiency": sufficiency,
        "consistency": consistency,
        "quality": quality,
        "completeness": completeness,
        "dimension_scores": dimension_scores,
        "overall_score": overall,
        "synthesis": synthesize_evidence(claim, weighed),
        "grounding": grounding,
    }
