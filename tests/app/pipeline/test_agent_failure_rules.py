"""The rules behind a failed agent's partial work: claims worked a few at a time with results in claim
order, the kept findings and error findings in task order, one AGENT_FAILED warning per pass, and
verdict notes for every failed agent whose check of the claim is missing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.config import Settings
from app.pipeline.progress import (
    ProgressLog,
    agent_failure_warnings,
    claim_done,
    partial_outcome,
    timeout_message,
    tracking_progress,
)
from app.verification.investigators.claim_pool import MAX_CLAIMS_AT_ONCE, claims_at_once, each_claim
from app.verification.judge import judge_claim
from app.verification.records import ClaimState, Finding, FindingDraft, SpecialistTask


def _claim(n: int, claim_type: str = "quantitative") -> ClaimState:
    return {
        "claim_id": f"c{n}",
        "text": f"Claim {n} says 4{n} tonnes.",
        "claim_type": claim_type,
        "priority": "high",
        "source_page": 1,
    }


def _task(agent: str, claims: list[ClaimState]) -> SpecialistTask:
    return SpecialistTask(
        report_id="r",
        run_id="run",
        agent=agent,
        iteration=0,
        company_name=None,
        claims=claims,
        routing=[],
        info_requests=[],
    )


def _draft(claim_id: str, summary: str = "checked") -> FindingDraft:
    return FindingDraft(
        claim_id=claim_id,
        evidence_type="news_investigation_summary",
        summary=summary,
        supports_claim=None,
        confidence=None,
        method="rules",
    )


async def test_claims_run_a_few_at_a_time_and_results_keep_claim_order() -> None:
    claims = [_claim(n) for n in range(6)]
    running, most = 0, 0

    async def check(claim: ClaimState) -> str:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.05 * (6 - int(claim["claim_id"][1:])))  # the last finishes first
        running -= 1
        return claim["claim_id"]

    assert await each_claim(claims, 3, check) == [f"c{n}" for n in range(6)]
    assert most == 3


async def test_the_first_failure_stops_the_other_claims() -> None:
    finished: list[str] = []

    async def check(claim: ClaimState) -> None:
        if claim["claim_id"] == "c0":
            raise ValueError("bad claim")
        await asyncio.sleep(5)
        finished.append(claim["claim_id"])

    with pytest.raises(ValueError, match="bad claim"):
        await asyncio.wait_for(each_claim([_claim(n) for n in range(4)], 4, check), 2)
    await asyncio.sleep(0)
    assert finished == []


def test_claims_at_once_follows_the_llm_limit_within_a_cap() -> None:
    assert claims_at_once(Settings(_env_file=None, llm_max_concurrency=4)) == 4  # type: ignore[call-arg]
    assert claims_at_once(Settings(_env_file=None, llm_max_concurrency=64)) == MAX_CLAIMS_AT_ONCE  # type: ignore[call-arg]


async def test_progress_is_kept_in_task_order_and_the_rest_get_error_findings() -> None:
    task = _task("news_media", [_claim(n) for n in range(4)])
    claim_done("c0", [_draft("c0")])  # outside tracking: nothing to record it in, and no error
    with tracking_progress() as progress:

        async def finish(claim_id: str) -> None:
            claim_done(claim_id, [_draft(claim_id, "source"), _draft(claim_id)])

        await asyncio.gather(asyncio.create_task(finish("c2")), asyncio.create_task(finish("c0")))

    outcome = partial_outcome(task, progress, timeout_message(120))
    assert [(draft.claim_id, draft.evidence_type) for draft in outcome.findings] == [
        ("c0", "news_investigation_summary"),
        ("c0", "news_investigation_summary"),
        ("c1", "error"),
        ("c2", "news_investigation_summary"),
        ("c2", "news_investigation_summary"),
        ("c3", "error"),
    ]
    error = outcome.findings[2]
    assert error.summary == (
        "The News/Media agent timed out after 120 s before it finished checking this claim; its evidence "
        "for this claim is missing."
    )
    assert error.details == {"error": "timed out after 120 s", "agent_failed": True}
    failed = partial_outcome(task, ProgressLog(), "RuntimeError: boom")
    assert failed.findings[0].summary.startswith("The News/Media agent failed (RuntimeError: boom) before")


def _status(agent: str, state: str, assigned: int, completed: int, iteration: int = 0, **extra: Any) -> Any:
    return {
        "agent_name": agent,
        "status": state,
        "claims_assigned": assigned,
        "claims_completed": completed,
        "iteration": iteration,
        **extra,
    }


def test_one_warning_names_every_agent_that_failed_in_the_pass() -> None:
    statuses = {
        "academic": _status("academic", "error", 50, 0, error_message="RuntimeError: boom"),
        "news_media": _status("news_media", "error", 121, 105, error_message="timed out after 120 s"),
        "legal": _status("legal", "completed", 121, 121),
        "geography": _status("geography", "error", 3, 0, iteration=1, error_message="timed out after 9 s"),
    }
    [warning] = agent_failure_warnings(statuses, 0)
    assert warning == {
        "code": "AGENT_FAILED",
        "stage": "investigating",
        "message": "News/Media agent timed out after 120 s: 105 of 121 claims checked, 16 left without its "
        "evidence; Academic/Research agent failed (RuntimeError: boom): 0 of 50 claims checked, 50 left "
        "without its evidence",
        "count": 66,
        "total": 171,
        "iteration": 0,
    }
    [later] = agent_failure_warnings(statuses, 1)
    assert later["message"].endswith("3 left without its evidence (pass 2)")
    assert agent_failure_warnings({"legal": statuses["legal"]}, 0) == []


def _finding(agent: str, evidence_type: str, iteration: int = 0, **details: Any) -> Finding:
    return {
        "finding_id": f"{agent}-{evidence_type}-{iteration}",
        "agent_name": agent,
        "claim_id": "c1",
        "evidence_type": evidence_type,
        "summary": "x",
        "details": details,
        "supports_claim": None,
        "confidence": None,
        "iteration": iteration,
        "method": "error" if evidence_type == "error" else "rules",
    }


def _reasoning(findings: list[Finding], statuses: dict[str, Any]) -> tuple[str, str]:
    judgment = judge_claim(_claim(1), findings, statuses, run_id="run", iteration=0, max_iterations=1)
    return judgment.verdict["verdict"], judgment.verdict["reasoning"]


def test_a_failed_agent_the_claim_type_does_not_expect_is_named() -> None:
    statuses = {
        "news_media": _status("news_media", "error", 10, 7, error_message="timed out after 120 s"),
        "legal": _status("legal", "completed", 10, 10),
        "data_metrics": _status("data_metrics", "completed", 10, 10),
    }
    findings = [
        _finding("legal", "ifrs_coverage"),
        _finding("data_metrics", "consistency_check"),
        _finding("news_media", "error", error="timed out after 120 s"),
    ]
    verdict, reasoning = _reasoning(findings, statuses)
    assert verdict == "unverified"
    assert "Note: the News/Media agent failed (timed out after 120 s); its check is missing." in reasoning


def test_a_failed_agent_that_had_checked_the_claim_is_not_named() -> None:
    statuses = {"news_media": _status("news_media", "error", 10, 7, error_message="timed out after 120 s")}
    findings = [_finding("legal", "ifrs_coverage"), _finding("news_media", "news_investigation_summary")]
    _, reasoning = _reasoning(findings, statuses)
    assert "News/Media agent failed" not in reasoning


def test_an_error_a_later_pass_redid_is_not_named() -> None:
    findings = [
        _finding("news_media", "error", 0, error="timed out after 120 s"),
        _finding("news_media", "news_investigation_summary", 1),
    ]
    _, reasoning = _reasoning(findings, {})
    assert "News/Media agent failed" not in reasoning
