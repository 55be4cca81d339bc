"""Cyclic re-investigation: when the Judge sends a claim back, to whom, and with what guidance.

All functions take one claim's evaluation (see `evaluation.evaluate_evidence`) and that claim's
findings.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from app.verification.evidence_kinds import DISCLOSURE_AGENTS, evidence_of, kind_of
from app.verification.judge.clashes import only_clashes
from app.verification.judge.decision import grounded_verdict
from app.verification.judge.evaluation import (
    SUFFICIENT_SCORE,
    errors_of,
    evidence_findings,
    legal_ifrs_statuses,
    weighted_findings,
)
from app.verification.judge.evaluation_records import Evaluation
from app.verification.judge.grounding import STRONG_TIER, Grounding
from app.verification.judge.weights import KNOWN_AGENTS, agent_label
from app.verification.records import ClaimState, Finding, ReinvestigationRequest, agent_of, latest_findings

#: The evidence kinds that can move a verdict (`grounding`); disclosure coverage never does.
VERDICT_KINDS = frozenset({"independent", "internal"})
REINVESTIGATE_BELOW = 0.6  # an overall score below this always asks for more evidence
LOW_QUALITY_FINDING = 0.5  # findings scoring below this make their agent a re-investigation target
INCOMPLETE_IFRS_STATUSES = frozenset({"partial", "missing"})

QUERY_TEMPLATES: dict[str, str] = {
    "geography": (
        "Verify geographic claim: '{claim}'. Focus on satellite imagery analysis for the stated "
        "location and time period."
    ),
    "legal": (
        "Re-assess IFRS compliance for: '{claim}'. Check if all sub-requirements are addressed, "
        "especially those flagged as missing."
    ),
    "news_media": (
        "Search for recent news coverage (prioritize Tier 1-2 sources) about: '{claim}'. Look for "
        "corroboration or contradiction."
    ),
    "academic": (
        "Validate technical claim against peer-reviewed research: '{claim}'. Check methodology "
        "alignment with recognized standards."
    ),
    "data_metrics": (
        "Re-verify quantitative claim for mathematical consistency: '{claim}'. Check calculations, "
        "units, and benchmark plausibility."
    ),
}

REQUIRED_EVIDENCE: dict[str, str] = {
    "geography": (
        "Satellite imagery showing the claimed location/condition with NDVI analysis and temporal "
        "comparison if applicable."
    ),
    "legal": "IFRS paragraph-level compliance assessment with all sub-requirements addressed.",
    "news_media": (
        "News coverage from Tier 1-2 sources (investigative journalism, regulatory actions) "
        "corroborating or contradicting the claim."
    ),
    "academic": "Peer-reviewed research or recognized industry benchmarks validating the technical claim.",
    "data_metrics": "Mathematical consistency verification with benchmark comparison and unit validation.",
}


def _labels(agents: Sequence[str]) -> str:
    return ", ".join(agent_label(agent) for agent in agents) or "no agent"


def incomplete_ifrs_paragraphs(findings: Sequence[Finding]) -> dict[str, str]:
    """Paragraphs the Legal agent assessed as "partial" or "missing", with that status."""
    return {
        paragraph_id: status
        for paragraph_id, status in sorted(legal_ifrs_statuses(findings).items())
        if status in INCOMPLETE_IFRS_STATUSES
    }


def reinvestigation_triggers(evaluation: Evaluation, findings: Sequence[Finding]) -> list[str]:
    """Which re-investigation triggers hold: low_score, contradictions, missing_agents, low_quality,
    incomplete_ifrs (in that order; empty when none does)."""
    conditions = {
        "low_score": evaluation["overall_score"] < REINVESTIGATE_BELOW,
        "contradictions": evaluation["consistency"]["has_contradictions"],
        "missing_agents": bool(evaluation["completeness"]["missing_agents"]),
        "low_quality": evaluation["quality"]["quality"] == "low",
        "incomplete_ifrs": bool(incomplete_ifrs_paragraphs(findings)),
    }
    return [name for name, holds in conditions.items() if holds]


def identify_evidence_gap(evaluation: Evaluation, findings: Sequence[Finding]) -> str:
    """What evidence is missing, in plain language."""
    sufficiency = evaluation["sufficiency"]
    consistency = evaluation["consistency"]
    completeness = evaluation["completeness"]
    gaps: list[str] = []
    if sufficiency["sufficiency"] in ("low", "very_low"):
        gaps.append(
            f"Insufficient sources: only {sufficiency['source_count']} agent(s) found supporting evidence. "
            "Need multiple independent sources."
        )
    if consistency["has_contradictions"]:
        gaps.append(
            f"Contradictions found: evidence from {_labels(consistency['contradicting_agents'])} contradicts "
            f"the claim while evidence from {_labels(consistency['supporting_agents'])} supports it. "
            "Need resolution."
        )
    if evaluation["quality"]["quality"] == "low":
        gaps.append(
            f"Low-quality sources: average quality score {evaluation['quality']['avg_quality_score']:.2f}. "
            "Need higher-credibility sources."
        )
    if completeness["missing_agents"]:
        gaps.append(
            f"Missing agent perspectives: {_labels(completeness['missing_agents'])} should have investigated "
            "but did not."
        )
    if completeness["errored_agents"]:
        gaps.append(f"Failed agents: {_labels(completeness['errored_agents'])} could not complete the check.")
    # IFRS disclosure coverage is never cited: it cannot move a verdict (`grounding`).
    if not gaps:
        gaps.append(
            f"Overall evidence score {evaluation['overall_score']:.2f} is below the {SUFFICIENT_SCORE} "
            "a confident verdict needs."
        )
    return " ".join(gaps)


def _without_source(findings: Sequence[Finding]) -> set[str]:
    """Agents whose every finding for this claim says no evidence source was available."""
    sourced: dict[str, bool] = {}
    for finding in findings:
        agent = finding["agent_name"]
        sourced[agent] = sourced.get(agent, False) or evidence_of(finding).source_available
    return {agent for agent, has_source in sourced.items() if not has_source}


def _settled(findings: Sequence[Finding]) -> set[str]:
    """Agents whose latest pass on this claim says asking again cannot change it (`settled`): a
    check that depends only on the report, or a search already widened as far as it goes."""
    settled: dict[str, bool] = {}
    for finding in latest_findings(findings, agent_of):
        agent = finding["agent_name"]
        settled[agent] = settled.get(agent, True) and evidence_of(finding).settled
    return {agent for agent, done in settled.items() if done}


def _disclosure_only(findings: Sequence[Finding]) -> set[str]:
    """Agents whose word on this claim can only be IFRS disclosure coverage, which never moves a
    verdict: every finding they made is of kind `disclosure`, or they are a disclosure agent
    (Legal) that has not made a finding of a kind that decides verdicts."""
    kinds: dict[str, set[str]] = {agent: set() for agent in DISCLOSURE_AGENTS}
    for finding in weighted_findings(findings):
        kind = kind_of(finding)
        if kind not in ("none", "error"):
            kinds.setdefault(finding["agent_name"], set()).add(kind)
    return {
        agent
        for agent, made in kinds.items()
        if not made & VERDICT_KINDS and (made or agent in DISCLOSURE_AGENTS)
    }


def repeat_answers(
    findings: Sequence[Finding], *, unguided: Collection[str], asked: Collection[str], iteration: int
) -> set[str]:
    """Agents that asked again about this claim would only repeat the answer they gave.

    An `unguided` agent (its investigator ignores the judge's refined queries: the same claim in,
    the same answer out) once it has answered the claim, i.e. its latest pass on it is not a
    failure; and an agent `asked` to look again in pass `iteration` whose answer did not change
    (a re-investigation stores only new findings, so it has none from that pass).
    """
    latest = latest_findings(weighted_findings(findings), agent_of)
    answered = {finding["agent_name"] for finding in latest}
    failed = errors_of(latest_findings(findings, agent_of))
    repeating = {agent for agent in unguided if agent in answered and agent not in failed}
    if iteration > 0:
        new = {finding["agent_name"] for finding in findings if finding["iteration"] == iteration}
        repeating.update(agent for agent in asked if agent not in new)
    return repeating


def determine_target_agents(
    evaluation: Evaluation, findings: Sequence[Finding], *, settled: Collection[str] = ()
) -> list[str]:
    """The specialists that should look again, in the pipeline's agent order.

    Missing agents; both sides of a contradiction; agents with a finding of quality below 0.5 when
    quality is low; expected agents without evidence when sources are insufficient; Legal when it
    assessed a paragraph as partial or missing. Only the five known specialists qualify, and only
    those whose answer could still move the verdict: an agent whose findings all say it had no
    evidence source, whose latest findings are `settled`, whose word can only be disclosure
    coverage, or that the caller knows would repeat itself (`settled`, see `repeat_answers`) is
    left out: asking it again cannot close the gap.
    """
    consistency = evaluation["consistency"]
    completeness = evaluation["completeness"]
    wanted: set[str] = set(completeness["missing_agents"])
    if consistency["has_contradictions"]:
        wanted.update(consistency["supporting_agents"], consistency["contradicting_agents"])
    if evaluation["quality"]["quality"] == "low":
        wanted.update(
            item["agent_name"]
            for item in evaluation["quality"]["finding_scores"]
            if item["score"] < LOW_QUALITY_FINDING
        )
    if evaluation["sufficiency"]["sufficiency"] in ("low", "very_low"):
        with_evidence = {finding["agent_name"] for finding in evidence_findings(findings)}
        wanted.update(agent for agent in completeness["expected_agents"] if agent not in with_evidence)
    if incomplete_ifrs_paragraphs(findings):
        wanted.add("legal")
    wanted -= _without_source(findings) | _settled(findings) | _disclosure_only(findings) | set(settled)
    return [agent for agent in KNOWN_AGENTS if agent in wanted]


def _focus(agent: str, evaluation: Evaluation, findings: Sequence[Finding]) -> str:
    """What a target agent should concentrate on beyond its standard query."""
    consistency = evaluation["consistency"]
    focus = ""
    if consistency["has_contradictions"] and (
        agent in consistency["supporting_agents"] or agent in consistency["contradicting_agents"]
    ):
        focus += (
            f" Resolve the conflict between the supporting ({_labels(consistency['supporting_agents'])}) "
            f"and contradicting ({_labels(consistency['contradicting_agents'])}) findings."
        )
    incomplete = incomplete_ifrs_paragraphs(findings)
    if agent == "legal" and incomplete:
        focus += f" Paragraphs assessed as partial or missing: {', '.join(incomplete)}."
    return focus


def generate_refined_queries(
    claim: ClaimState, evaluation: Evaluation, findings: Sequence[Finding], target_agents: Sequence[str]
) -> list[str]:
    """One query per target agent, naming the agent and quoting the claim."""
    quoted = claim["text"].strip().removesuffix(".")
    return [
        f"{agent_label(agent)}: {QUERY_TEMPLATES[agent].format(claim=quoted)}"
        + _focus(agent, evaluation, findings)
        for agent in target_agents
        if agent in QUERY_TEMPLATES
    ]


def specify_required_evidence(target_agents: Sequence[str]) -> str | None:
    """What evidence from the target agents would settle the claim; None without targets."""
    requirements = [REQUIRED_EVIDENCE[agent] for agent in target_agents if agent in REQUIRED_EVIDENCE]
    return " ".join(requirements) or None


def verdict_settled(grounding: Grounding) -> bool:
    """Whether no further pass can change the verdict: VERIFIED by a Tier 1–2 source from the
    credibility table (nothing found later lifts it), or CONTRADICTED with certainty (a counting
    independent contradiction or an arithmetic one stands whatever supports the claim). A claim
    contradicted only by the report's two values for one metric is not settled: independent
    evidence backing its value would make it INSUFFICIENT_EVIDENCE (`clashes`)."""
    verdict = grounded_verdict(grounding)
    if verdict == "contradicted":
        return not only_clashes(grounding)
    if verdict == "verified":
        return any(
            source["tier"] is not None and source["tier"] <= STRONG_TIER and source["tier_basis"] == "domain"
            for source in grounding["corroborating"]
        )
    return False


def plan_reinvestigation(
    claim: ClaimState,
    evaluation: Evaluation,
    findings: Sequence[Finding],
    *,
    iteration: int,
    max_iterations: int,
    settled: Collection[str] = (),
) -> ReinvestigationRequest | None:
    """The request to send the claim back to specialists, or None when it should not go back.

    `iteration` is the 0-based pass just judged and `max_iterations` the number of passes allowed,
    so the last pass never asks for another, nor does a verdict no pass can change
    (`verdict_settled`). Evidence that scores >= 0.7 without contradictions is enough. Otherwise a
    request is made when any trigger holds (`reinvestigation_triggers`) and some specialist can
    still help (see `determine_target_agents`; `settled` are agents known to repeat their answer).
    """
    if iteration + 1 >= max_iterations or verdict_settled(evaluation["grounding"]):
        return None
    if (
        evaluation["overall_score"] >= SUFFICIENT_SCORE
        and not evaluation["consistency"]["has_contradictions"]
    ):
        return None
    if not reinvestigation_triggers(evaluation, findings):
        return None
    targets = determine_target_agents(evaluation, findings, settled=settled)
    if not targets:
        return None
    return {
        "claim_id": claim["claim_id"],
        "target_agents": targets,
        "evidence_gap": identify_evidence_gap(evaluation, findings),
        "refined_queries": generate_refined_queries(claim, evaluation, findings, targets),
        "required_evidence": specify_required_evidence(targets),
        "cycle_number": iteration + 1,
    }
