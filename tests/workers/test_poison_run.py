"""A poison analysis: every start kills its worker process. Each restarted worker resumes it at once
(the dead worker's lease is recognised, no lease wait), counting attempts in Postgres; after
MAX_JOB_ATTEMPTS the run is left in ERROR with the reason, the next worker lives on, and no sweep
queues the run again."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from arq import create_pool
from arq.connections import RedisSettings

from app.config import Settings
from app.db.models import AnalysisRun, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.queue import enqueue_pipeline
from app.services.analysis import open_analysis_run, runs_to_resume
from tests.support.pipeline import seed_report
from tests.workers.test_pipeline_resume import ROOT, isolated_redis_url, start_worker

MAX_ATTEMPTS = 3


async def wait_for_exit(process: object, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while (code := process.poll()) is None:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the worker did not die"
        await asyncio.sleep(0.1)
    return int(code)


async def test_a_run_that_kills_its_worker_is_tried_max_attempts_times_then_left_in_error(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    tmp_path: Path,
    clean_db: None,
) -> None:
    env: dict[str, str] = {
        **os.environ,
        "DATABASE_URL": settings.require_database_url(),
        "REDIS_URL": isolated_redis_url(settings.require_redis_url()),
        "PYTHONPATH": str(ROOT),
        "SPECIALIST_PLUGINS": "tests.support.investigators:POISON_TEST",
        "ANALYSIS_LEASE_SECONDS": "600",  # a resume must not wait for the lease
        "MAX_JOB_ATTEMPTS": str(MAX_ATTEMPTS),
    }
    env.pop("LLM_API_KEY", None)
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    pool = await create_pool(RedisSettings.from_dsn(env["REDIS_URL"]))
    await pool.flushdb()
    log = tmp_path / "workers.log"
    try:
        await enqueue_pipeline(pool, started.run.id, reason="start")
        for attempt in range(1, MAX_ATTEMPTS + 1):
            worker = start_worker(env, slow_seconds=0, log=log)
            assert await wait_for_exit(worker, 90) != 0, log.read_text()[-3000:]
            async with session_factory() as session:
                run = await session.get(AnalysisRun, started.run.id)
            assert run is not None and run.status == "RUNNING" and run.attempts == attempt

        survivor = start_worker(env, slow_seconds=0, log=log)
        try:
            deadline = time.monotonic() + 60
            while True:
                async with session_factory() as session:
                    run = await session.get(AnalysisRun, started.run.id)
                    report = await session.get(Report, seeded.report_id)
                assert run is not None and report is not None
                if run.status == "ERROR":
                    break
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                await asyncio.sleep(0.2)
            await asyncio.sleep(2)
            assert survivor.poll() is None, "the worker after the give-up must live on"
        finally:
            survivor.terminate()
            survivor.wait(15)
    finally:
        await pool.flushdb()
        await pool.aclose()

    assert run.attempts == MAX_ATTEMPTS
    assert run.error_message is not None
    assert run.error_message.startswith(f"Analysis gave up after {MAX_ATTEMPTS} attempts: its worker ")
    assert "died while running it" in run.error_message
    assert report.status is ReportStatus.ERROR and report.error_message == run.error_message
    assert await runs_to_resume(session_factory, pending_grace_seconds=0) == []
