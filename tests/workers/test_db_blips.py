"""Analyses survive a Postgres restart: the checkpointer's pool replaces connections the restart
killed instead of handing them to the next run, and a run cut off by the restart waits for the
database, resumes from its checkpoint at once (telling followers why) and completes with nothing
stored twice. The blips are real: backends ended by `pg_terminate_backend`, or the embedded
server stopped and started again."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from arq import Retry
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event, Finding, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline import runner as run_module
from app.pipeline.runner import RunResult
from app.services.analysis import RUN_RESUMED_EVENT, open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.records import InvestigationOutcome, SpecialistTask
from tests.support.db_blips import terminate_backends
from tests.support.investigators import strong_support
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices
from workers.jobs import run_pipeline


async def stored_run(session_factory: SessionFactory, run_id: uuid.UUID) -> AnalysisRun:
    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
        assert run is not None
        return run


async def events_of(session_factory: SessionFactory, report_id: uuid.UUID) -> list[Event]:
    async with session_factory() as session:
        return list(
            await session.scalars(select(Event).where(Event.report_id == report_id).order_by(Event.seq))
        )


async def assert_stored_once(session_factory: SessionFactory, report_id: uuid.UUID) -> list[Event]:
    """Every claim, routing, finding, verdict and event of the report exactly once; events contiguous."""
    async with session_factory() as session:
        claims = list(await session.scalars(select(Claim).where(Claim.report_id == report_id)))
        routing = list(await session.scalars(select(RoutingAssignment)))
        findings = list(await session.scalars(select(Finding)))
        verdicts = list(await session.scalars(select(Verdict)))
    events = await events_of(session_factory, report_id)
    assert len(claims) == len(KNOWN_CLAIMS)
    assert len(routing) == len({(r.claim_id, r.agent, r.iteration) for r in routing})
    assert len(findings) == len({(f.claim_id, f.agent, f.iteration) for f in findings})
    assert len(verdicts) == len({(v.claim_id, v.iteration) for v in verdicts})
    assert sorted(str(v.claim_id) for v in verdicts if v.is_final) == sorted(str(c.id) for c in claims)
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    keys = [event.dedupe_key for event in events if event.dedupe_key]
    assert len(keys) == len(set(keys))
    assert sum(1 for event in events if event.event_type == "pipeline_completed") == 1
    return events


async def test_checkpointer_connections_killed_while_idle_do_not_fail_the_next_run(
    settings: Settings,
    session_factory: SessionFactory,
    engine: AsyncEngine,
    event_log: EventLog,
    clean_db: None,
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    async with pipeline_runner(settings, session_factory, event_log) as runner:
        # Given every connection the worker's pools hold is ended, as a Postgres restart does
        assert await terminate_backends(engine) >= 1

        # When the next run starts
        outcome = await runner.run(started.run.id)

    # Then it completes on its first attempt: no dead connection was handed to it
    assert outcome.result is RunResult.COMPLETED, outcome.detail
    run = await stored_run(session_factory, started.run.id)
    assert (run.status, run.attempts) == ("COMPLETED", 1)
    events = await assert_stored_once(session_factory, seeded.report_id)
    assert not [event for event in events if event.event_type in (RUN_RESUMED_EVENT, "error")]


async def test_a_run_cut_off_by_a_postgres_restart_resumes_at_once_and_completes_once(
    services: RunningServices,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
) -> None:
    postgres = services.postgres
    if postgres is None:
        pytest.skip("needs the embedded Postgres (it is stopped and started again)")
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    reached, stopped = asyncio.Event(), asyncio.Event()
    calls: Counter[tuple[str, int]] = Counter()

    async def held_over_the_restart(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
        calls[(task["agent"], task["iteration"])] += 1
        if not reached.is_set():
            reached.set()
            await stopped.wait()  # the node stores its findings into a stopped Postgres
        return await strong_support(task, tools)

    agents = investigators(legal=held_over_the_restart)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        running = asyncio.create_task(runner.run(started.run.id))
        await asyncio.wait_for(reached.wait(), 30)

        # When Postgres stops in the middle of the specialists and is back a second later
        await asyncio.to_thread(postgres.stop)
        try:
            stopped.set()
            await asyncio.sleep(1.0)
        finally:
            await asyncio.to_thread(postgres.restart)
        back = datetime.now(UTC)
        outcome = await asyncio.wait_for(running, 120)

    # Then the run resumed by itself (one more attempt) and completed, with nothing stored twice
    assert outcome.result is RunResult.COMPLETED, outcome.detail
    run = await stored_run(session_factory, started.run.id)
    assert (run.status, run.attempts, run.lease_owner) == ("COMPLETED", 2, None)
    events = await assert_stored_once(session_factory, seeded.report_id)
    assert not [event for event in events if event.event_type == "error"]
    [resumed] = [event for event in events if event.event_type == RUN_RESUMED_EVENT]
    assert resumed.data["reason"].startswith("the database connection was lost (")
    assert "because the database connection was lost" in resumed.data["message"]
    resumed_after = (resumed.created_at - back).total_seconds()
    print(f"resumed {resumed_after:.2f} s after Postgres was back")
    assert resumed_after < 30  # not after the lease (60 s) and a sweep (30 s); slow machines need seconds
    assert calls[("legal", 0)] == 2  # the cut-off pass ran again from the checkpoint


@pytest.mark.timeout(300)
async def test_a_run_whose_database_stays_away_is_given_back_and_its_retry_resumes_at_once(
    services: RunningServices,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    postgres = services.postgres
    if postgres is None:
        pytest.skip("needs the embedded Postgres (it is stopped and started again)")
    monkeypatch.setattr(run_module, "DB_RECOVERY_WAIT_SECONDS", 0.5)  # the worker stops waiting early
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    reached, stopped = asyncio.Event(), asyncio.Event()

    async def held_over_the_outage(task: SpecialistTask, tools: InvestigationTools) -> InvestigationOutcome:
        if not reached.is_set():
            reached.set()
            await stopped.wait()
        return await strong_support(task, tools)

    agents = investigators(legal=held_over_the_outage)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        ctx: dict[str, Any] = {"pipeline_runner": runner, "job_try": 1}
        job = asyncio.create_task(run_pipeline(ctx, str(started.run.id)))
        await asyncio.wait_for(reached.wait(), 30)

        # When Postgres stays away longer than the worker waits for it
        await asyncio.to_thread(postgres.stop)
        try:
            stopped.set()
            with pytest.raises(Retry):  # the job is given back to ARQ, to be tried again later
                # About 60 s here since the run's log context (stop 24), 30 s before; see the note.
                await asyncio.wait_for(job, 150)
        finally:
            await asyncio.to_thread(postgres.restart)

        # Then its retry frees the lease the cut-off attempt kept and resumes at once
        ctx["job_try"] = 2
        result = await asyncio.wait_for(run_pipeline(ctx, str(started.run.id)), 60)

    assert result == RunResult.COMPLETED.value
    run = await stored_run(session_factory, started.run.id)
    assert (run.status, run.attempts, run.lease_owner) == ("COMPLETED", 2, None)
    events = await assert_stored_once(session_factory, seeded.report_id)
    [resumed] = [event for event in events if event.event_type == RUN_RESUMED_EVENT]
    assert resumed.data["reason"].startswith("the database connection was lost (")
