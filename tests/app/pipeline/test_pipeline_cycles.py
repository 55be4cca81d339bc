"""Re-investigation cycles, failing specialists, and the LLM paths of the pipeline."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import InvestigationOutcome, SpecialistTask
from tests.conftest import make_settings
from tests.support.investigators import hanging, outcome_for, raising, supporting
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_agents, pipeline_runner, seed_report
from tests.support.services import RunningServices


async def weak_support_each_pass(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Weak support that reads differently each pass: asked again, the agent has something new."""
    draft = supporting(0.3, tier=4)
    summary = f"A weak scripted source supports the claim (pass {task['iteration'] + 1})."
    return outcome_for(task, replace(draft, summary=summary))


async def _rows(session_factory: SessionFactory, model: type) -> list:  # type: ignore[type-arg]
    async with session_factory() as session:
        return list(await session.scalars(select(model)))


async def test_reinvestigation_runs_exactly_the_allowed_passes_and_reroutes_only_requested_work(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=3
    )
    agents = investigators(data_metrics=weak_support_each_pass)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail

    routing = await _rows(session_factory, RoutingAssignment)
    verdicts = await _rows(session_factory, Verdict)
    run = (await _rows(session_factory, AnalysisRun))[0]
    data_claims = {
        claim_id
        for claim_id, claim in zip(seeded.claim_ids, KNOWN_CLAIMS, strict=True)
        if "data_metrics" in claim["agents"]
    }
    assert run.iteration_count == 2  # passes 0, 1 and 2: max_iterations = 3
    by_pass = {
        iteration: {(str(row.claim_id), row.agent) for row in routing if row.iteration == iteration}
        for iteration in (0, 1, 2)
    }
    assert len(by_pass[0]) == sum(len(pipeline_agents(claim)) for claim in KNOWN_CLAIMS)
    # Later passes: only the weakly supported claims, only to the agent that has a source.
    for iteration in (1, 2):
        assert by_pass[iteration] == {(claim_id, "data_metrics") for claim_id in data_claims}
    assert max(row.iteration for row in routing) == 2

    final = [verdict for verdict in verdicts if verdict.is_final]
    assert sorted(str(verdict.claim_id) for verdict in final) == sorted(seeded.claim_ids)
    for verdict in final:
        assert verdict.iteration == (2 if str(verdict.claim_id) in data_claims else 0)
    assert Counter(verdict.iteration for verdict in verdicts) == {0: 6, 1: 3, 2: 3}

    async with session_factory() as session:
        events = list(await session.scalars(select(Event).order_by(Event.seq)))
    reinvestigations = [event for event in events if event.event_type == "reinvestigation"]
    assert [event.data["cycle"] for event in reinvestigations] == [1, 2]
    assert all(event.data["target_agents"] == ["data_metrics"] for event in reinvestigations)


async def test_failing_and_hanging_specialists_are_isolated_and_the_judge_notes_the_gap(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    # The limit stops the hanging agent, and every other agent must finish within it: their event
    # writes compete for a slow machine's CPU with the whole pipeline, so leave them seconds.
    settings = make_settings(services, agent_timeout_seconds=5.0)
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    agents = investigators(legal=raising, geography=hanging)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail

    run = (await _rows(session_factory, AnalysisRun))[0]
    assert run.status == "COMPLETED"
    assert run.agent_status["legal"]["status"] == "error"
    assert "search backend exploded" in run.agent_status["legal"]["error_message"]
    assert run.agent_status["geography"]["status"] == "error"
    assert "timed out" in run.agent_status["geography"]["error_message"]
    assert run.agent_status["academic"]["status"] == "completed"

    findings = await _rows(session_factory, Finding)
    errors = [finding for finding in findings if finding.evidence_type == "error"]
    assert {finding.agent for finding in errors} == {"legal", "geography"}

    async with session_factory() as session:
        events = list(await session.scalars(select(Event).where(Event.event_type == "error")))
    assert {event.agent_name for event in events} == {"legal", "geography"}

    final = {str(v.claim_id): v for v in await _rows(session_factory, Verdict) if v.is_final}
    assert len(final) == len(KNOWN_CLAIMS)
    governance = final[seeded.claim_ids[2]]  # routed to legal only
    assert "failed (legal agent)" in governance.reasoning.lower(), governance.reasoning
