"""A run whose worker died is taken over and resumed from its checkpoint; followers are told so by a
`run_resumed` event (attempt, cause, stage), which `sibyl analyze --follow` prints."""

from __future__ import annotations

import uuid

from sqlalchemy import select, update

from app.config import Settings
from app.db.models import AnalysisRun, Event
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.runner import RunResult
from app.services.analysis import RUN_RESUMED_EVENT
from clients.console.activity import describe
from clients.sibyl.models import StreamEvent
from tests.app.pipeline.test_run_lease import dead_owner, leased_run
from tests.support.pipeline import pipeline_runner


async def events_of(session_factory: SessionFactory, run_id: uuid.UUID, event_type: str) -> list[Event]:
    async with session_factory() as session:
        return list(
            await session.scalars(
                select(Event)
                .where(Event.analysis_run_id == run_id, Event.event_type == event_type)
                .order_by(Event.seq)
            )
        )


async def test_a_run_taken_over_from_a_dead_worker_announces_its_resumption(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    run = await leased_run(settings, session_factory, event_log, dead_owner(), attempts=1)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(AnalysisRun).where(AnalysisRun.id == run.id).values(pipeline_stage="investigating")
        )

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(run.id)

    assert outcome.result is RunResult.COMPLETED, outcome.detail
    [resumed] = await events_of(session_factory, run.id, RUN_RESUMED_EVENT)
    data = resumed.data
    assert (data["attempt"], data["max_attempts"]) == (2, settings.max_job_attempts)
    assert (data["stage"], data["iteration"]) == ("investigating", 0)
    assert "died while running it" in data["reason"]
    assert "attempt 2 of" in data["message"] and "investigating" in data["message"]
    [completed] = await events_of(session_factory, run.id, "pipeline_completed")
    assert resumed.seq < completed.seq

    line = describe(
        StreamEvent(resumed.seq, resumed.event_type, resumed.agent_name, dict(resumed.data), ""), {}
    )
    assert line is not None and line.startswith("pipeline     RESUMED attempt 2 at investigating")
    assert "died while running it" in line


async def test_a_first_start_announces_no_resumption(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    run = await leased_run(settings, session_factory, event_log, dead_owner(), attempts=0)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(AnalysisRun)
            .where(AnalysisRun.id == run.id)
            .values(status="PENDING", lease_owner=None, lease_expires_at=None)
        )

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(run.id)

    assert outcome.result is RunResult.COMPLETED, outcome.detail
    assert await events_of(session_factory, run.id, RUN_RESUMED_EVENT) == []
