"""A run with thousands of findings compiles (no single INSERT passes asyncpg's 32,767 bind
parameters), and a run that fails on the database is left with a short errorMessage, not SQL."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Report, ReportStatus
from app.db.models import Finding as FindingRow
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline import persistence
from app.pipeline.runner import RunResult
from app.services.analysis import open_analysis_run
from app.services.failures import MAX_CAUSE_CHARS
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import ClaimState, Finding, FindingDraft, InvestigationOutcome, SpecialistTask
from tests.support.pipeline import investigators, pipeline_runner, seed_report

#: Findings one specialist reports: 12 columns each, 36,000 parameters as one INSERT.
FINDINGS = 3000


async def many_findings(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """A specialist that reports many distinct findings per claim (as a source-rich web search can)."""
    per_claim = -(-FINDINGS // len(task["claims"]))
    await tools.think(f"reporting {per_claim} findings for each of {len(task['claims'])} claims")
    return InvestigationOutcome(
        findings=[
            FindingDraft(
                claim_id=claim["claim_id"],
                evidence_type="test_source",
                summary=f"Scripted source {index} mentions the claim.",
                supports_claim=None,
                confidence=0.4,
                method="test",
                details={"index": index},
            )
            for claim in task["claims"]
            for index in range(per_claim)
        ]
    )


async def analyse(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> tuple[uuid.UUID, RunResult]:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    agents = investigators(data_metrics=many_findings)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    return started.run.id, outcome.result


async def test_a_run_with_thousands_of_findings_compiles(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    run_id, result = await analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
        stored = await session.scalar(
            select(func.count()).select_from(FindingRow).where(FindingRow.analysis_run_id == run_id)
        )
    assert run is not None
    assert result is RunResult.COMPLETED, run.error_message
    assert run.status == "COMPLETED"
    assert stored is not None and stored >= FINDINGS


async def test_a_database_failure_leaves_a_short_error_message_without_sql(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One batch for everything again: compile's INSERT of the findings fails as it did in trial s23.
    monkeypatch.setattr(persistence, "MAX_BIND_PARAMETERS", 10**6)
    run_id, result = await analyse(settings, session_factory, event_log)

    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
        assert run is not None
        report = await session.get(Report, run.report_id)
    assert result is RunResult.FAILED and run.status == "ERROR"
    assert report is not None and report.status is ReportStatus.ERROR
    for message in (run.error_message, report.error_message):
        assert message is not None
        assert "32767" in message, message
        assert len(message) < MAX_CAUSE_CHARS + 200
        assert "INSERT" not in message and "$1" not in message and "[SQL" not in message


async def test_bulk_writes_of_thousands_of_rows_stay_under_the_parameter_limit(
    session_factory: SessionFactory, settings: Settings, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    claims = [
        ClaimState(
            claim_id=str(uuid.uuid4()),
            text=f"Claim {index}: emissions fell {index % 90 + 1}% in 2023.",
            claim_type="quantitative",
            priority="medium",
            source_page=1,
            page_offset=index,
            method="test",
        )
        for index in range(3000)
    ]
    findings = [
        Finding(
            finding_id=str(uuid.uuid4()),
            agent_name="data_metrics",
            claim_id=claim["claim_id"],
            evidence_type="test_source",
            summary="checked",
            details={},
            supports_claim=None,
            confidence=0.5,
            iteration=0,
            method="test",
        )
        for claim in claims
    ]
    async with session_factory() as session, session.begin():
        await persistence.replace_claims(session, seeded.report_id, started.run.id, claims)
        await persistence.replace_claims(session, seeded.report_id, started.run.id, claims)  # upsert
        await persistence.save_findings(session, started.run.id, findings)
    async with session_factory() as session:
        stored_claims = await session.scalar(
            select(func.count()).select_from(Claim).where(Claim.report_id == seeded.report_id)
        )
        stored_findings = await session.scalar(
            select(func.count()).select_from(FindingRow).where(FindingRow.analysis_run_id == started.run.id)
        )
    assert (stored_claims, stored_findings) == (3000, 3000)


async def test_finished_claims_are_counted_on_the_working_agents_status_only(
    session_factory: SessionFactory, settings: Settings, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    run_id = (
        await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    ).run.id
    working = {"status": "working", "claims_assigned": 4, "claims_completed": 0, "iteration": 1}
    done = {**working, "status": "completed", "claims_completed": 4}
    async with session_factory() as session, session.begin():
        await persistence.set_agent_status(session, run_id, {"news_media": working, "legal": done})
    async with session_factory() as session, session.begin():
        for _ in range(3):
            await persistence.count_claim_completed(session, run_id, "news_media", 1)
        await persistence.count_claim_completed(session, run_id, "news_media", 0)  # another pass: ignored
        await persistence.count_claim_completed(session, run_id, "legal", 1)  # already done: ignored
        await persistence.count_claim_completed(session, run_id, "academic", 1)  # no status: ignored
    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    assert run.agent_status["news_media"] == {**working, "claims_completed": 3}
    assert run.agent_status["legal"] == done and "academic" not in run.agent_status
