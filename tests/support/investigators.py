"""Scripted investigators for pipeline tests (and, via SPECIALIST_PLUGINS, for worker processes)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

from app.verification.contract.investigator import InvestigationTools
from app.verification.records import FindingDraft, InvestigationOutcome, SpecialistTask

INVOCATION_LOG_ENV = "SIBYL_TEST_INVOCATION_LOG"


def _log_invocation(task: SpecialistTask, phase: str) -> None:
    path = os.environ.get(INVOCATION_LOG_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as log:
            entry = {
                "agent": task["agent"],
                "iteration": task["iteration"],
                "run_id": task["run_id"],
                "phase": phase,
                "at": time.time(),
                "pid": os.getpid(),
            }
            log.write(json.dumps(entry) + "\n")


def scripted_source(tier: int, stance: str) -> dict[str, object]:
    """The citation a searching specialist attaches to a source finding, quote checked."""
    return {
        "source_available": True,
        "source_url": f"https://tier{tier}.example.org/scripted-{stance}",
        "source_title": f"A scripted Tier {tier} source",
        "source_domain": f"tier{tier}.example.org",
        "source_tier": tier,
        "tier_basis": "domain",
        "published_date": "2025-01-15",
        "stance": stance,
        "contradicts_claim": stance == "contradicts",
        "snippet": f"A scripted sentence that {stance} the claim.",
        "quote_verified": True,
    }


def supporting(confidence: float, *, tier: int = 2) -> FindingDraft:
    """Support from one independent source of `tier` (Tier 1–2 corroborates on its own)."""
    details = scripted_source(tier, "supports")
    return FindingDraft(
        claim_id=None,
        evidence_type="test_source",
        summary="A scripted source supports the claim.",
        supports_claim=True,
        confidence=confidence,
        method="test",
        details=details,
    )


def outcome_for(task: SpecialistTask, draft: FindingDraft) -> InvestigationOutcome:
    return InvestigationOutcome(
        findings=[
            FindingDraft(**{**draft.__dict__, "claim_id": claim["claim_id"]}) for claim in task["claims"]
        ]
    )


async def weak_support(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Low-confidence support: never enough, so the judge keeps asking for more."""
    await tools.think(f"checking {len(task['claims'])} claim(s) against a weak source")
    return outcome_for(task, supporting(0.3, tier=4))


async def strong_support(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    return outcome_for(task, supporting(0.95))


async def contradicting(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    return InvestigationOutcome(
        findings=[
            FindingDraft(
                claim_id=claim["claim_id"],
                evidence_type="test_source",
                summary="A scripted source contradicts the claim.",
                supports_claim=False,
                confidence=0.9,
                method="test",
                details=scripted_source(1, "contradicts"),
            )
            for claim in task["claims"]
        ]
    )


async def raising(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    raise RuntimeError("search backend exploded")


async def hanging(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    await asyncio.sleep(3600)
    raise AssertionError("unreachable")


async def logged_fast(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    _log_invocation(task, "start")
    outcome = await strong_support(task, tools)
    _log_invocation(task, "end")
    return outcome


async def logged_slow(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    _log_invocation(task, "start")
    await asyncio.sleep(float(os.environ.get("SIBYL_TEST_SLOW_SECONDS", "4")))
    outcome = await strong_support(task, tools)
    _log_invocation(task, "end")
    return outcome


def _started_before(task: SpecialistTask) -> bool:
    path = os.environ.get(INVOCATION_LOG_ENV)
    if not path or not os.path.exists(path):
        return False
    with open(path, encoding="utf-8") as log:
        entries = [json.loads(line) for line in log if line.strip()]
    return any(
        (entry.get("run_id"), entry["agent"], entry["iteration"], entry["phase"])
        == (task["run_id"], task["agent"], task["iteration"], "start")
        for entry in entries
    )


async def logged_slow_first(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Slow (`SIBYL_TEST_SLOW_SECONDS`) the first time its agent works on a pass of a run, fast when
    that pass runs again: a worker killed during the first call is followed by a quick resume."""
    again = _started_before(task)
    _log_invocation(task, "start")
    if not again:
        await asyncio.sleep(float(os.environ.get("SIBYL_TEST_SLOW_SECONDS", "4")))
    outcome = await strong_support(task, tools)
    _log_invocation(task, "end")
    return outcome


async def crashing(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Kills its own process, as a segfault would: a poison run."""
    _log_invocation(task, "start")
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


#: For SPECIALIST_PLUGINS=tests.support.investigators:KILL_TEST in the SIGKILL test's worker.
KILL_TEST = {"legal": logged_fast, "geography": logged_slow, "data_metrics": logged_fast}
#: For `sibyl run` tests: legal and data/metrics fast, the others slow only on their first call.
SLOW_FIRST_TEST = {
    "legal": logged_fast,
    "data_metrics": logged_fast,
    "geography": logged_slow_first,
    "academic": logged_slow_first,
    "news_media": logged_slow_first,
}
#: A run that kills its worker every time (legal is routed every claim of the seeded report but one).
POISON_TEST = {agent: crashing for agent in ("legal", "geography", "data_metrics", "academic", "news_media")}


def slow_first_env(data_dir: Path, slow_seconds: float) -> dict[str, str]:
    """Scripted specialists: legal and data/metrics fast, the others slow on their first call."""
    return {
        "SPECIALIST_PLUGINS": "tests.support.investigators:SLOW_FIRST_TEST",
        "SIBYL_TEST_SLOW_SECONDS": str(slow_seconds),
        INVOCATION_LOG_ENV: str(data_dir / "invocations.jsonl"),
    }
