"""`verdictIssued` streams `isFinal` as the judge knows it at issue time: true exactly for the verdicts
that end up final when the run completes, however late a subscriber loads them."""

from __future__ import annotations

import uuid
from dataclasses import replace

from redis.asyncio import Redis
from sqlalchemy import select, update
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import AnalysisRun, Event, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import InvestigationOutcome, SpecialistTask
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient
from tests.support.investigators import outcome_for, supporting
from tests.support.live_subscriptions import until_report_followed
from tests.support.pipeline import investigators, pipeline_runner, seed_report

VERDICTS = """
subscription Verdicts($reportId: ID) { verdictIssued(reportId: $reportId) { id iteration isFinal } }
"""


async def weak_support_each_pass(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
    """Weak support worded anew each pass, so the judge keeps asking for more while passes remain."""
    draft = supporting(0.3, tier=4)
    return outcome_for(task, replace(draft, summary=f"A weak source (pass {task['iteration'] + 1})."))


async def _stored_finality(session_factory: SessionFactory) -> dict[str, bool]:
    async with session_factory() as session:
        return {str(row.id): row.is_final for row in await session.scalars(select(Verdict))}


async def test_streamed_is_final_matches_the_verdicts_final_after_the_run(
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    redis: Redis,
) -> None:
    seeded = await seed_report(session_factory)
    report_id = str(GlobalID("Report", str(seeded.report_id)))
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=3
    )
    agents = investigators(data_metrics=weak_support_each_pass)
    async with client.subscribe(VERDICTS, reportId=report_id) as stream:
        await until_report_followed(redis, seeded.report_id)  # live only: in place before the verdicts
        async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
            outcome = await runner.run(started.run.id)
        stored = await _stored_finality(session_factory)
        streamed = [(await stream.next())["verdictIssued"] for _ in stored]

    async with session_factory() as session:
        events = list(await session.scalars(select(Event).where(Event.event_type == "verdict_issued")))
    assert outcome.result.value == "completed", outcome.detail
    assert {item["iteration"] for item in streamed} == {0, 1, 2}  # re-judged claims: not final at first
    assert sum(not final for final in stored.values()) > 0
    assert {uuid_of(item["id"]): item["isFinal"] for item in streamed} == stored
    assert {event.data["verdict_id"]: event.data["is_final"] for event in events} == stored


def uuid_of(global_id: str) -> str:
    return GlobalID.from_id(global_id).node_id


async def test_a_final_verdict_streams_as_final_while_the_run_still_runs(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog, redis: Redis
) -> None:
    seeded = await seed_analysed_report(session_factory, 2, passes=1)
    async with session_factory() as session, session.begin():
        mine = Verdict.analysis_run_id == seeded.run_id
        await session.execute(update(Verdict).where(mine).values(is_final=False))
        await session.execute(
            update(AnalysisRun).where(AnalysisRun.id == seeded.run_id).values(status="RUNNING")
        )
        rows = {row.claim_id: row.id for row in await session.scalars(select(Verdict).where(mine))}
    issued = {seeded.claim_ids[0]: True, seeded.claim_ids[1]: False}

    async with client.subscribe(VERDICTS, reportId=str(GlobalID("Report", str(seeded.report_id)))) as stream:
        await until_report_followed(redis, seeded.report_id)  # live only
        for claim_id, final in issued.items():
            data = {"claim_id": str(claim_id), "verdict_id": str(rows[claim_id]), "is_final": final}
            await event_log.append(seeded.report_id, "verdict_issued", data, agent_name="judge")
        received = [(await stream.next())["verdictIssued"] for _ in issued]

    assert [(uuid.UUID(uuid_of(item["id"])), item["isFinal"]) for item in received] == [
        (rows[claim_id], final) for claim_id, final in issued.items()
    ]
