"""The whole pipeline on a report with known claims, without an LLM (rule paths)."""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import func, select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding, Report, ReportStatus, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.routing import rule_route
from app.services.analysis import open_analysis_run
from tests.support.pipeline import KNOWN_CLAIMS, pipeline_agents, pipeline_runner, seed_report


async def test_rule_run_routes_by_matrix_and_gives_one_final_verdict_per_claim(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail

    async with session_factory() as session:
        report = await session.get(Report, seeded.report_id)
        run = await session.get(AnalysisRun, started.run.id)
        routing = list(await session.scalars(select(RoutingAssignment)))
        findings = list(await session.scalars(select(Finding)))
        verdicts = list(await session.scalars(select(Verdict)))
        events = list(await session.scalars(select(Event).order_by(Event.seq)))
    assert report is not None and report.status is ReportStatus.COMPLETED
    assert run is not None and run.status == "COMPLETED" and run.pipeline_stage == "completed"

    routed: dict[str, set[str]] = {}
    for row in routing:
        routed.setdefault(str(row.claim_id), set()).add(row.agent)
    for claim_id, claim in zip(seeded.claim_ids, KNOWN_CLAIMS, strict=True):
        assert routed[claim_id] == pipeline_agents(claim), claim["text"]

    # Each routed (claim, agent) produced one honest "none" finding.
    assert len(findings) == len(routing)
    assert {finding.evidence_type for finding in findings} == {"none"}
    assert all(finding.supports_claim is None for finding in findings)

    final = [verdict for verdict in verdicts if verdict.is_final]
    assert sorted(str(verdict.claim_id) for verdict in final) == sorted(seeded.claim_ids)
    assert {verdict.verdict for verdict in final} == {"unverified"}

    types = Counter(event.event_type for event in events)
    assert types["claim_routed"] == len(KNOWN_CLAIMS)
    assert types["verdict_issued"] == len(KNOWN_CLAIMS)
    assert types["pipeline_completed"] == 1
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    assert events[-1].event_type == "pipeline_completed"
    assert events[-1].data["total_verdicts"] == len(KNOWN_CLAIMS)


def test_rule_route_matches_matrix_for_each_type() -> None:
    for index, claim in enumerate(KNOWN_CLAIMS):
        entry = rule_route(
            {
                "claim_id": str(index),
                "text": claim["text"],
                "claim_type": claim["claim_type"],
                "priority": "high",
                "source_page": 1,
            }
        )
        assert set(entry["assigned_agents"]) == claim["agents"], claim["text"]
        assert entry["method"] == "rules"


async def test_two_jobs_for_one_run_in_one_worker_never_both_proceed(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcomes = await asyncio.gather(runner.run(started.run.id), runner.run(started.run.id))

    assert sorted(outcome.result.value for outcome in outcomes) == ["completed", "lease_held"]
    async with session_factory() as session:
        verdicts = await session.scalar(
            select(func.count()).select_from(Verdict).where(Verdict.analysis_run_id == started.run.id)
        )
    assert verdicts == len(KNOWN_CLAIMS)
