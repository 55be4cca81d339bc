"""What a specialist finished before it failed, so that a time-out keeps the work already done.

`investigate` (app.pipeline.specialists) runs each investigator inside `tracking_progress()`. An
investigator that works claim by claim calls `claim_done` as each claim is finished; when the agent
then runs out of time (or raises), the finished claims keep their findings and every other claim
gets an error finding that says why it was not checked (`partial_outcome`). An investigator that
reports no progress loses nothing it could have kept: each of its claims gets the error finding.

The run says so too: an `AGENT_FAILED` warning built from the run's stored agent statuses
(`agent_failure_warnings`), so the agents that fail in parallel within one pass share one warning.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AnalysisRun
from app.degradation import RunWarning, WarningCode
from app.verification.catalog import AGENT_LABELS
from app.verification.records import FindingDraft, InfoRequest, InvestigationOutcome, SpecialistTask

STAGE = "investigating"
TIMED_OUT = "timed out after"


@dataclass
class ProgressLog:
    """The claims an investigator has finished so far, with their findings, in finishing order."""

    findings: dict[str, list[FindingDraft]] = field(default_factory=dict)
    info_requests: dict[str, InfoRequest] = field(default_factory=dict)

    def finished(self, claim_id: str, findings: Sequence[FindingDraft], request: InfoRequest | None) -> None:
        self.findings[claim_id] = list(findings)
        if request is not None:
            self.info_requests[claim_id] = request


_CURRENT: ContextVar[ProgressLog | None] = ContextVar("sibyl_investigation_progress", default=None)


@contextmanager
def tracking_progress() -> Iterator[ProgressLog]:
    """Collect what the investigator called within this block finishes (its tasks included)."""
    progress = ProgressLog()
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)


def claim_done(claim_id: str, findings: Sequence[FindingDraft], request: InfoRequest | None = None) -> None:
    """Report one claim as finished (a no-op outside `tracking_progress`, e.g. in a unit test)."""
    progress = _CURRENT.get()
    if progress is not None:
        progress.finished(claim_id, findings, request)


def timeout_message(seconds: float) -> str:
    """The agent status's error message for a time-out ("timed out after 120 s")."""
    return f"{TIMED_OUT} {seconds:g} s"


def failure_phrase(error: str) -> str:
    """What happened to the agent, as a sentence's verb: "timed out after 120 s" or
    "failed (RuntimeError: boom)"."""
    return error if error.startswith(TIMED_OUT) else f"failed ({error})"


def partial_outcome(task: SpecialistTask, progress: ProgressLog, error: str) -> InvestigationOutcome:
    """The findings of the claims finished before the failure, and an error finding for each other
    claim, in the task's claim order (finding ids follow that order, so a re-run writes the same ids)."""
    label = AGENT_LABELS[task["agent"]]
    outcome = InvestigationOutcome()
    for claim in task["claims"]:
        claim_id = claim["claim_id"]
        if claim_id in progress.findings:
            outcome.findings.extend(progress.findings[claim_id])
            if claim_id in progress.info_requests:
                outcome.info_requests.append(progress.info_requests[claim_id])
            continue
        outcome.findings.append(
            FindingDraft(
                claim_id=claim_id,
                evidence_type="error",
                summary=f"The {label} agent {failure_phrase(error)} before it finished checking this "
                "claim; its evidence for this claim is missing.",
                supports_claim=None,
                confidence=None,
                method="error",
                details={"error": error, "agent_failed": True},
            )
        )
    return outcome


def claims_checked(task: SpecialistTask, progress: ProgressLog) -> int:
    """How many of the task's claims the investigator finished."""
    return sum(claim["claim_id"] in progress.findings for claim in task["claims"])


async def failure_warnings(session: AsyncSession, run_id: uuid.UUID, iteration: int) -> list[RunWarning]:
    """The pass's `AGENT_FAILED` warning, rebuilt from every agent's stored status, so agents failing
    in parallel share one warning (stored by `record_warnings`, it replaces the earlier one)."""
    statuses = await session.scalar(select(AnalysisRun.agent_status).where(AnalysisRun.id == run_id))
    return agent_failure_warnings(statuses or {}, iteration)


def agent_failure_warnings(statuses: Mapping[str, Any], iteration: int) -> list[RunWarning]:
    """One `AGENT_FAILED` warning naming every agent that failed in pass `iteration`, or none.

    Reads "News/Media agent timed out after 120 s: 105 of 121 claims checked, 16 left without its
    evidence"; `count` is the claims left unchecked and `total` the claims those agents had.
    """
    failed = [
        (agent, statuses[agent])
        for agent in AGENT_LABELS  # pipeline order
        if isinstance(statuses.get(agent), Mapping)
        and statuses[agent].get("status") == "error"
        and statuses[agent].get("iteration") == iteration
    ]
    if not failed:
        return []
    parts: list[str] = []
    unchecked = assigned = 0
    for agent, status in failed:
        total = int(status.get("claims_assigned") or 0)
        done = int(status.get("claims_completed") or 0)
        unchecked += total - done
        assigned += total
        parts.append(
            f"{AGENT_LABELS[agent]} agent "
            f"{failure_phrase(str(status.get('error_message') or 'unknown failure'))}: {done} of {total} "
            f"claims checked, {total - done} left without its evidence"
        )
    message = "; ".join(parts)
    if iteration:
        message += f" (pass {iteration + 1})"
    return [
        RunWarning(
            code=WarningCode.AGENT_FAILED.value,
            stage=STAGE,
            message=message,
            count=unchecked,
            total=assigned,
            iteration=iteration,
        )
    ]
