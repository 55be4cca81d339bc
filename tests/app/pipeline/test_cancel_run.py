"""cancelAnalysis on a running pipeline: the worker stops its graph within about a second (no LLM
request starts after that), the run and report are CANCELLED with a `run_cancelled` event, the lease
is released, what was stored stays, and neither a queued job nor the sweep runs it again."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from arq import ArqRedis, create_pool
from arq.connections import RedisSettings
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import AnalysisRun, Event, Finding, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.organisations import LOCAL_ORGANISATION_ID
from app.pipeline.runner import CANCEL_CHECK_SECONDS, RunResult
from app.services.analysis import open_analysis_run, resume_analysis, runs_to_resume
from app.services.run_control import ControlProblem, ControlRefused, cancel_analysis
from tests.conftest import make_settings
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.investigators import hanging, strong_support
from tests.support.pipeline import investigators, pipeline_runner, seed_parsed_pages, seed_report
from tests.support.services import RunningServices
from workers.recovery import resume_abandoned_analyses

pytestmark = pytest.mark.usefixtures("clean_db")

#: How long one fake LLM reply takes: long enough that the cancel lands mid-extraction.
REPLY_SECONDS = 0.4
#: How long a stop may take in a test. The worker notices a cancel within CANCEL_CHECK_SECONDS at
#: full speed; a slow or loaded machine takes longer, so the test allows ~10x that, which is still
#: far less than running the rest of the extraction (40 pages x REPLY_SECONDS) or a hanging agent.
STOP_BOUND_SECONDS = 10.0


@pytest.fixture
async def isolated_pool(settings: Settings) -> AsyncIterator[ArqRedis]:
    """An ARQ pool on Redis database 9, which no worker of the session polls."""
    url = settings.require_redis_url().rpartition("/")[0] + "/9"
    pool = await create_pool(RedisSettings.from_dsn(url))
    await pool.flushdb()
    yield pool
    await pool.flushdb()
    await pool.aclose()


async def wait_until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


async def row_of(session_factory: SessionFactory, run_id: uuid.UUID) -> tuple[AnalysisRun, Report]:
    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
        assert run is not None
        report = await session.get(Report, run.report_id)
        assert report is not None
        return run, report


async def test_cancel_stops_llm_extraction_within_a_second(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    isolated_pool: ArqRedis,
) -> None:
    # given an analysis whose claim extraction asks a slow LLM about one page at a time
    async with fake_llm_server() as fake:
        arrivals: list[float] = []

        def slow_reply(payload: dict[str, Any]) -> FakeReply:
            arrivals.append(time.monotonic())
            return FakeReply(content={"claims": []}, delay=REPLY_SECONDS)

        fake.handler = slow_reply
        settings = make_settings(
            services,
            **settings_for(fake, llm_timeout_seconds=10.0),
            claims_chunk_size_pages=1,
            claims_chunk_overlap_pages=0,
            claims_max_concurrent_chunks=1,
        )
        pages = [f"Page {number}: our operations reduced water use by {number}%." for number in range(1, 41)]
        report_id = await seed_parsed_pages(session_factory, pages, company_name="Slow Co")
        started = await open_analysis_run(event_log, settings, report_id)
        llm = LLMClient(settings)
        try:
            async with pipeline_runner(settings, session_factory, event_log, llm=llm) as runner:
                job = asyncio.create_task(runner.run(started.run.id))
                await wait_until(lambda: len(arrivals) >= 3)
                # when the operator cancels it
                cancelled = await cancel_analysis(event_log, report_id, LOCAL_ORGANISATION_ID)
                cancelled_at = time.monotonic()
                outcome = await asyncio.wait_for(job, timeout=60)
                stopped_at = time.monotonic()
                await asyncio.sleep(2 * REPLY_SECONDS + CANCEL_CHECK_SECONDS)
                # then the worker stopped promptly and sent no LLM request once it had stopped
                assert outcome.result is RunResult.CANCELLED
                assert stopped_at - cancelled_at < STOP_BOUND_SECONDS
                late = [at for at in arrivals if at > stopped_at]
                assert late == [], f"{len(late)} LLM request(s) after the run stopped"
                assert len(arrivals) < len(pages)
                # and a job queued for the run again does nothing
                again = await runner.run(started.run.id)
                assert again.result is RunResult.NOT_RUNNABLE
        finally:
            await llm.aclose()
    assert cancelled.run.status == "CANCELLED"
    run, report = await row_of(session_factory, started.run.id)
    assert (run.status, report.status) == ("CANCELLED", ReportStatus.CANCELLED)
    assert run.lease_owner is None and run.lease_expires_at is None
    assert run.error_message and "cancelled" in run.error_message
    async with session_factory() as session:
        events = list(
            await session.scalars(select(Event).where(Event.report_id == report_id).order_by(Event.seq))
        )
    kinds = [event.event_type for event in events]
    assert "run_cancelled" in kinds
    cancel_event = events[kinds.index("run_cancelled")]
    assert cancel_event.data["analysis_id"] == str(started.run.id)
    assert cancel_event.data["previous_status"] == "RUNNING"
    # the sweep leaves it alone
    abandoned = await runs_to_resume(session_factory, pending_grace_seconds=0)
    assert started.run.id not in {item.run_id for item in abandoned}
    assert await resume_abandoned_analyses(session_factory, event_log, isolated_pool, max_attempts=3) == 0


async def test_cancel_during_investigation_keeps_findings_so_far(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    # given a run whose news agent never finishes while the others report at once
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    agents = investigators(
        news_media=hanging, geography=strong_support, legal=strong_support, data_metrics=strong_support
    )
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        job = asyncio.create_task(runner.run(started.run.id))

        async def findings() -> int:
            async with session_factory() as session:
                count = await session.scalar(
                    select(func.count()).select_from(Finding).where(Finding.analysis_run_id == started.run.id)
                )
                return int(count or 0)

        deadline = time.monotonic() + 30
        while await findings() == 0:
            assert time.monotonic() < deadline, "no finding stored"
            await asyncio.sleep(0.1)
        # when it is cancelled
        await cancel_analysis(event_log, seeded.report_id, LOCAL_ORGANISATION_ID)
        outcome = await asyncio.wait_for(job, timeout=STOP_BOUND_SECONDS)  # news_media never returns
    # then it stops, and what it found stays readable
    assert outcome.result is RunResult.CANCELLED
    assert await findings() > 0
    run, _ = await row_of(session_factory, started.run.id)
    assert run.status == "CANCELLED" and run.lease_owner is None


async def test_cancel_refusals_and_resume_by_hand(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, isolated_pool: ArqRedis
) -> None:
    seeded = await seed_report(session_factory)
    with pytest.raises(ControlRefused) as never:
        await cancel_analysis(event_log, seeded.report_id, LOCAL_ORGANISATION_ID)
    assert never.value.problem is ControlProblem.NOT_RUNNING
    with pytest.raises(ControlRefused) as unknown:
        await cancel_analysis(event_log, uuid.uuid4(), LOCAL_ORGANISATION_ID)
    assert unknown.value.problem is ControlProblem.NOT_FOUND
    await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    with pytest.raises(ControlRefused) as foreign:
        await cancel_analysis(event_log, seeded.report_id, uuid.uuid4())
    assert foreign.value.problem is ControlProblem.NOT_FOUND
    queued = await cancel_analysis(event_log, seeded.report_id, LOCAL_ORGANISATION_ID)
    assert queued.run.status == "CANCELLED"
    with pytest.raises(ControlRefused) as twice:
        await cancel_analysis(event_log, seeded.report_id, LOCAL_ORGANISATION_ID)
    assert twice.value.problem is ControlProblem.NOT_RUNNING
    # an operator may still continue a cancelled run by hand
    resumed = await resume_analysis(event_log, isolated_pool, seeded.report_id)
    assert resumed.run.id == queued.run.id
    run, report = await row_of(session_factory, queued.run.id)
    assert (run.status, report.status) == ("PENDING", ReportStatus.ANALYZING)
