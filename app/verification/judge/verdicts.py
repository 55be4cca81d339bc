"""The Judge's verdict on one claim: the verdict the independent evidence allows (`grounding`;
docs/decisions.md says what each verdict means), its confidence, plain-language reasoning and IFRS
paragraph mapping, plus `judge_claim`, which evaluates, decides and plans the re-investigation in
one call."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from app.claims.risk_flags import flags_of
from app.verification.judge.clashes import only_clashes
from app.verification.judge.decision import grounded_verdict, shortfall
from app.verification.judge.evaluation import (
    errors_of,
    evaluate_evidence,
    legal_ifrs_statuses,
    pipeline_order,
)
from app.verification.judge.evaluation_records import Evaluation
from app.verification.judge.grounding import Grounding, SourceCitation, voices
from app.verification.judge.ordering import in_content_order
from app.verification.judge.reinvestigation import plan_reinvestigation
from app.verification.judge.risk import vague_closing, vague_flags, vague_headline, vague_verdict
from app.verification.judge.weights import agent_label
from app.verification.records import (
    AgentStatus,
    ClaimState,
    Finding,
    ReinvestigationRequest,
    Verdict,
    agent_of,
    latest_findings,
)

SUMMARY_LIMIT = 200

HEADLINES: dict[str, str] = {
    "verified": (
        "Claim is VERIFIED: independent sources corroborate it, and no independent source or check of the "
        "report contradicts it."
    ),
    "unverified": "Claim is UNVERIFIED: no independent evidence about it was found.",
    "contradicted": "Claim is CONTRADICTED: the evidence below shows it is not accurate as stated.",
    "insufficient_evidence": (
        "Claim has INSUFFICIENT EVIDENCE: some independent evidence bears on it, but not enough, or not "
        "consistent enough, for a verdict."
    ),
}
IFRS_RELATIONSHIPS: dict[str, str] = {
    "verified": "Claim verified by independent sources; {coverage}",
    "unverified": "Claim not independently verified; {coverage}",
    "contradicted": "Claim contradicted; {coverage}",
    "insufficient_evidence": "Claim has insufficient evidence; {coverage}",
}
COVERAGE_PHRASES: dict[str | None, str] = {
    "full": "the legal agent found {paragraph} fully addressed (disclosure coverage, not truth).",
    "partial": "the legal agent found {paragraph} partially addressed (disclosure coverage, not truth).",
    "missing": "the legal agent found {paragraph} not addressed (disclosure coverage, not truth).",
    None: "{paragraph} is the claim's preliminary IFRS mapping; its disclosure was not assessed.",
}


QUOTE_CHECK_NOTES: dict[bool | None, str] = {
    True: " (quote found in the source)",
    False: " (quote NOT found in the source)",
    None: " (quote not checked)",
}


# --- decision and confidence ---------------------------------------------------------------------


def decide_verdict(evaluation: Evaluation) -> str:
    """The verdict the independent evidence allows (`decision.grounded_verdict`)."""
    return grounded_verdict(evaluation["grounding"])


def all_expected_failed(evaluation: Evaluation) -> bool:
    """True when every specialist the claim type expects failed: nothing was checked, so the
    verdict's confidence is low whatever the score."""
    completeness = evaluation["completeness"]
    return bool(completeness["errored_agents"]) and set(completeness["errored_agents"]) == set(
        completeness["expected_agents"]
    )


def confidence_level(overall_score: float, *, all_failed: bool = False) -> str:
    """How sure the verdict is: >= 0.8 high, >= 0.6 medium, else low; low if all failed."""
    if all_failed:
        return "low"
    if overall_score >= 0.8:
        return "high"
    if overall_score >= 0.6:
        return "medium"
    return "low"


#: Confidence of a verdict decided by a certain check of the report against itself.
CERTAIN_CONFIDENCE = 0.95
#: Confidence of a verdict one independent voice decides; each further agreeing voice adds a step.
ONE_VOICE_CONFIDENCE = 0.8
VOICE_STEP = 0.05


def _voice_confidence(sources: Sequence[SourceCitation]) -> float:
    count = len(voices(sources))
    return min(CERTAIN_CONFIDENCE, ONE_VOICE_CONFIDENCE + VOICE_STEP * max(0, count - 1))


def verdict_confidence(verdict: str, evaluation: Evaluation) -> float:
    """How strongly the deciding evidence holds the verdict (documented on `Verdict.confidence`).

    VERIFIED and CONTRADICTED rest on the deciding evidence only, so more agreeing independent
    evidence never lowers the number: a certain internal contradiction is 0.95, one deciding voice
    0.8, and each further agreeing independent voice adds 0.05 (up to 0.95). For UNVERIFIED and
    INSUFFICIENT_EVIDENCE it is the judge's overall evidence score (`evaluation.combine_scores`),
    which is not a probability of the claim being true.
    """
    grounding = evaluation["grounding"]
    if verdict == "verified":
        return _voice_confidence(grounding["corroborating"])
    if verdict == "contradicted":
        if grounding["internal_contradictions"]:
            return CERTAIN_CONFIDENCE
        if grounding["contradicting"]:
            return _voice_confidence(grounding["contradicting"])
    return float(evaluation["overall_score"])


# --- reasoning -----------------------------------------------------------------------------------


def _shorten(text: str, limit: int = SUMMARY_LIMIT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3].rstrip() + "..."


def describe_source(source: SourceCitation) -> str:
    """One cited source as a reader checks it: publisher, tier, date, quote, address or pages."""
    if source["url"] is None:
        pages = ", ".join(map(str, source["pages"]))
        where = f" (report page{'s' if len(source['pages']) > 1 else ''} {pages})" if pages else ""
        return f"- {agent_label(source['agent'])}{where}: {_shorten(source['summary'])}"
    facts = [f"Tier {source['tier']}" if source["tier"] is not None else "tier unknown"]
    if source["published_date"]:
        facts.append(str(source["published_date"]))
    title = f" \u201c{_shorten(source['title'], 120)}\u201d" if source["title"] else ""
    quote = f' quote: "{_shorten(source["quote"])}"' if source["quote"] else ""
    checked = QUOTE_CHECK_NOTES[source["quote_verified"]] if source["quote"] else ""
    return f"- {source['publisher']} ({', '.join(facts)}){title}:{quote}{checked} <{source['url']}>"


def _section(title: str, sources: Sequence[SourceCitation]) -> list[str]:
    return [title, *(describe_source(source) for source in sources)] if sources else []


def _evidence_lines(verdict: str, grounding: Grounding) -> list[str]:
    """The deciding sources first, then what else bears on the claim, each labelled for what it is."""
    deciding: dict[str, list[str]] = {
        "verified": _section("Corroborated by independent sources:", grounding["corroborating"]),
        "contradicted": _section("Contradicted by independent sources:", grounding["contradicting"])
        + _section("Contradicted by the report itself:", grounding["internal_contradictions"]),
    }
    lines = deciding.get(verdict, [])
    if verdict != "verified":
        lines += _section("Independent support (does not decide on its own):", grounding["corroborating"])
    lines += _section(
        "Independent support below the bar (Tier 4, indirect, or quote not checked):",
        grounding["weak_support"],
    )
    lines += _section(
        "Independent contradictions below the contradiction bar:", grounding["weak_contradiction"]
    )
    if verdict != "contradicted":
        lines += _section("Contradicting sources:", grounding["contradicting"])
        lines += _section("Report inconsistencies:", grounding["internal_contradictions"])
    lines += _section("Internal checks in doubt:", grounding["internal_doubts"])
    lines += _section(
        "Internally consistent (the report agrees with itself; this does not verify the claim):",
        grounding["internally_consistent"],
    )
    lines += _section(
        "Self-reported by the company, or relaying its statement (not independent evidence):",
        grounding["self_reported"],
    )
    return lines


def _named(sources: Sequence[SourceCitation]) -> str:
    named = {
        f"{source['publisher']} (Tier {source['tier']})"
        if source["tier"] is not None
        else source["publisher"]
        for source in sources
        if source["url"] is not None
    }
    return ", ".join(sorted(named))


def headline(verdict: str, grounding: Grounding) -> str:
    """The verdict's first line. When the only contradiction is the report stating two values for
    one metric and year, it says so rather than "not accurate as stated", names independent sources
    against this claim's value, and for a claim independent evidence backs says why it is not
    CONTRADICTED (`clashes`)."""
    clashes = grounding.get("clashes") or []
    if not clashes or not only_clashes(grounding):
        return HEADLINES[verdict]
    clash = "; ".join(clashes)
    if verdict == "insufficient_evidence" and grounding.get("clash_outweighed"):
        return (
            f"Claim has INSUFFICIENT EVIDENCE. {clash}. Independent evidence backs this claim's value "
            f"({_named(grounding['corroborating'])}), so the clash alone does not make it false, but the "
            "report does not state it consistently."
        )
    if verdict != "contradicted":
        return HEADLINES[verdict]
    against = _named([*grounding["weak_contradiction"]])
    also = (
        f" Independent sources also state another value than this claim: {against}."
        if against
        else " This shows the report inconsistent; nothing independent here says which value is right."
    )
    return f"Claim is CONTRADICTED by the report itself. {clash}.{also}"


def _closing(verdict: str, evaluation: Evaluation) -> list[str]:
    grounding = evaluation["grounding"]
    if verdict == "unverified":
        searched = " and ".join(grounding["searched"])
        return [
            f"Searched {searched}: nothing independent confirms or contradicts the claim."
            if searched
            else "No independent source was consulted for this claim.",
        ]
    if verdict == "insufficient_evidence":
        return [f"What is missing: {shortfall(grounding)}"]
    return []


def missing_checks(evaluation: Evaluation, findings: Sequence[Finding]) -> dict[str, str | None]:
    """The agents whose check of this claim is missing because they failed, each with its error
    (None when only its status says it failed), in pipeline order.

    Every agent the claim was routed to counts, expected by its type or not: one whose latest pass
    on the claim left an error finding, and one the claim type expects whose status is "error" and
    that left no other finding on the claim. An agent that failed later in its pass but had already
    checked this claim is not listed: that check stands.
    """
    latest = latest_findings(findings, agent_of)
    missing = errors_of(latest)
    reported = {finding["agent_name"] for finding in latest if finding["evidence_type"] != "error"}
    for agent in evaluation["completeness"]["errored_agents"]:
        if agent not in reported:
            missing.setdefault(agent, None)
    return {agent: missing[agent] for agent in pipeline_order(missing)}


def _failure_notes(evaluation: Evaluation, findings: Sequence[Finding]) -> list[str]:
    """A note per failed agent whose check of this claim is missing, with the failure's cause."""
    missing = missing_checks(evaluation, findings)
    expected = [agent for agent in evaluation["completeness"]["expected_agents"] if agent in missing]
    notes: list[str] = []
    if expected and len(expected) == len(evaluation["completeness"]["expected_agents"]):
        names = ", ".join(agent_label(agent) for agent in expected)
        notes.append(f"Note: every expected specialist failed ({names}), so the claim could not be checked.")
        missing = {agent: error for agent, error in missing.items() if agent not in expected}
    for agent, error in missing.items():
        cause = f" ({_shorten(error)})" if error else ""
        notes.append(f"Note: the {agent_label(agent)} failed{cause}; its check is missing.")
    return notes


def build_reasoning(verdict: str, evaluation: Evaluation, findings: Sequence[Finding] = ()) -> str:
    """Plain-language reasoning: the headline, the sources that decided the verdict (publisher, date,
    quote, address, or report pages), what else bears on the claim labelled for what it can prove,
    the IFRS disclosure coverage (never evidence of truth), and failed specialists."""
    grounding = evaluation["grounding"]
    lines = [headline(verdict, grounding), *_evidence_lines(verdict, grounding)]
    if grounding["disclosure"]:
        lines.append("IFRS disclosure coverage (not evidence of the claim's truth):")
        lines += [f"- {_shorten(line, 300)}" for line in grounding["disclosure"]]
    lines += _closing(verdict, evaluation)
    lines += _failure_notes(evaluation, findings)
    return "\n".join(lines)


# --- IFRS mapping --------------------------------------------------------------------------------


def extract_ifrs_mapping(
    claim: ClaimState, findings: Sequence[Finding], verdict: str
) -> list[dict[str, Any]]:
    """The IFRS paragraphs the verdict speaks to, sorted by paragraph id.

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
        {
            **mapping[paragraph_id],
            "relationship": IFRS_RELATIONSHIPS[verdict].format(
                coverage=COVERAGE_PHRASES.get(mapping[paragraph_id]["status"], COVERAGE_PHRASES[None]).format(
                    paragraph=paragraph_id
                )
            ),
        }
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
    decided = decide_verdict(evaluation)
    carried = flags_of(cast(Mapping[str, Any], claim))
    flags = vague_flags(cast(Mapping[str, Any], claim))
    verdict = vague_verdict(decided, flags, evaluation["grounding"])
    reasoning = build_reasoning(verdict, evaluation, findings)
    if verdict != decided:
        evidence = build_reasoning(decided, evaluation, findings).split("\n")[1:]
        reasoning = "\n".join([vague_headline(flags), *evidence, vague_closing(decided)])
    overall = verdict_confidence(verdict, evaluation)
    return {
        "verdict_id": verdict_id(run_id, claim["claim_id"], iteration),
        "claim_id": claim["claim_id"],
        "verdict": verdict,
        "reasoning": reasoning,
        "ifrs_mapping": extract_ifrs_mapping(claim, findings, verdict),
        "confidence": round(overall, 3),
        "confidence_level": confidence_level(overall, all_failed=all_expected_failed(evaluation)),
        "iteration": iteration,
        "method": "rules",
        "evaluation": {**evaluation, "risk_flags": [flag.to_dict() for flag in carried]}
        if carried
        else dict(evaluation),
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
    settled: Collection[str] = (),
) -> ClaimJudgment:
    """Evaluate one claim's evidence, issue its verdict for pass `iteration` (0-based) and decide
    whether to send it back for another pass (never to the `settled` agents, which would repeat
    their answer). Findings about other claims are ignored; the others are judged in content order
    (`ordering`), so the judgment is the same whatever order they arrived in."""
    own = in_content_order(finding for finding in findings if finding["claim_id"] == claim["claim_id"])
    evaluation = evaluate_evidence(claim, own, agent_status)
    return ClaimJudgment(
        verdict=produce_verdict(claim, evaluation, own, run_id=run_id, iteration=iteration),
        request=plan_reinvestigation(
            claim, evaluation, own, iteration=iteration, max_iterations=max_iterations, settled=settled
        ),
        evaluation=evaluation,
    )
