"""The lease on an analysis run: a dead owner on this machine is recognised at once, any other
owner only once its lease lapses; every start counts an attempt, and a run out of attempts is left
in ERROR with the reason instead of being started (or swept) again."""

from __future__ import annotations

import asyncio
import subprocess
import time
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from arq import ArqRedis, create_pool
from arq.connections import RedisSettings
from sqlalchemy import func, select, update

from app.config import Settings
from app.db.models import AnalysisRun, Event, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.runner import RunResult
from app.services.analysis import open_analysis_run, resume_analysis, runs_to_resume
from app.services.lease import ProcessIdentity, current_process, owner_is_gone
from tests.support.investigators import hanging
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from workers.recovery import resume_abandoned_analyses


def stat_start(pid: int) -> str:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()[19]


def owner_of(pid: int, started: str) -> str:
    me = current_process()
    return ProcessIdentity(host=me.host, pid=pid, started=started, scope=me.scope).owner("feedbeef")


def dead_owner() -> str:
    """The owner name of a worker process that has exited (and been reaped)."""
    child = subprocess.Popen(["sleep", "30"])
    owner = owner_of(child.pid, stat_start(child.pid))
    child.kill()
    child.wait()
    return owner


@pytest.fixture
async def isolated_pool(settings: Settings) -> AsyncIterator[ArqRedis]:
    """An ARQ pool on Redis database 8, which no worker of the session polls."""
    url = settings.require_redis_url().rpartition("/")[0] + "/8"
    pool = await create_pool(RedisSettings.from_dsn(url))
    await pool.flushdb()
    yield pool
    await pool.flushdb()
    await pool.aclose()


async def leased_run(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, owner: str, attempts: int
) -> AnalysisRun:
    """A RUNNING run of a seeded report, leased by `owner` for another minute."""
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(AnalysisRun)
            .where(AnalysisRun.id == started.run.id)
            .values(
                status="RUNNING",
                lease_owner=owner,
                lease_expires_at=func.now() + timedelta(seconds=60),
                attempts=attempts,
            )
        )
    return started.run


async def current(session_factory: SessionFactory, run_id: uuid.UUID) -> AnalysisRun:
    async with session_factory() as session:
        run = await session.get(AnalysisRun, run_id)
    assert run is not None
    return run


def test_owner_names_describe_this_process_and_legacy_names_are_judged_by_time() -> None:
    me = current_process()
    owner = me.owner("abcd1234")
    assert ProcessIdentity.parse(owner) == me and len(owner) <= 128
    assert me.started and me.scope, "Linux: start time and pid scope come from /proc"
    assert not owner_is_gone(owner)
    assert ProcessIdentity.parse("worker-1:4242:abcd1234") is None
    assert not owner_is_gone("worker-1:4242:abcd1234")


def test_an_exited_zombie_or_reused_pid_is_gone_but_other_hosts_are_never_judged() -> None:
    child = subprocess.Popen(["sleep", "30"])
    owner = owner_of(child.pid, stat_start(child.pid))
    assert not owner_is_gone(owner)
    child.kill()
    while Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        pass  # killed, not yet reaped: a zombie
    assert owner_is_gone(owner)
    child.wait()
    assert owner_is_gone(owner)

    me = current_process()
    assert owner_is_gone(owner_of(me.pid, "1")), "a pid now used by a process started later"
    elsewhere = ProcessIdentity(host="other-host", pid=child.pid, started="1", scope=me.scope)
    assert not owner_is_gone(elsewhere.owner("x"))
    other_namespace = ProcessIdentity(host=me.host, pid=child.pid, started="1", scope="0-1")
    assert not owner_is_gone(other_namespace.owner("x"))


async def test_a_run_leased_by_a_dead_worker_is_taken_over_at_once(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    run = await leased_run(settings, session_factory, event_log, dead_owner(), attempts=1)
    abandoned = await runs_to_resume(session_factory, pending_grace_seconds=60)
    assert [(a.run_id, a.attempts) for a in abandoned] == [(run.id, 1)]
    assert abandoned[0].interrupted is not None and "died while running it" in abandoned[0].interrupted

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(run.id)

    assert outcome.result is RunResult.COMPLETED, outcome.detail
    finished = await current(session_factory, run.id)
    assert finished.status == "COMPLETED" and finished.attempts == 2 and finished.lease_owner is None


async def test_a_run_leased_by_a_worker_elsewhere_waits_for_its_lease(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    run = await leased_run(settings, session_factory, event_log, "other-host:1:1:0-1:feedbeef", attempts=1)
    assert await runs_to_resume(session_factory, pending_grace_seconds=60) == []

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(run.id)

    assert outcome.result is RunResult.LEASE_HELD and 50 < outcome.retry_in_seconds <= 60
    assert (await current(session_factory, run.id)).attempts == 1


async def test_a_run_out_of_attempts_is_left_in_error_with_the_reason_until_resumed(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    isolated_pool: ArqRedis,
    clean_db: None,
) -> None:
    owner = dead_owner()
    run = await leased_run(settings, session_factory, event_log, owner, attempts=settings.max_job_attempts)

    async with pipeline_runner(settings, session_factory, event_log) as runner:
        outcome = await runner.run(run.id)

    expected = (
        f"Analysis gave up after 3 attempts: its worker {owner} died while running it. "
        "Use resumeAnalysis to try again."
    )
    assert outcome.result is RunResult.GAVE_UP and outcome.detail == expected
    gave_up = await current(session_factory, run.id)
    assert gave_up.status == "ERROR" and gave_up.error_message == expected and gave_up.lease_owner is None
    async with session_factory() as session:
        report = await session.get(Report, run.report_id)
        errors = list(await session.scalars(select(Event).where(Event.event_type == "error")))
    assert report is not None and report.status is ReportStatus.ERROR and report.error_message == expected
    assert [event.data["message"] for event in errors] == [expected]
    assert await runs_to_resume(session_factory, pending_grace_seconds=0) == []

    await resume_analysis(event_log, isolated_pool, run.report_id)
    resumed = await current(session_factory, run.id)
    assert resumed.status == "PENDING" and resumed.attempts == 0


async def test_the_sweep_gives_up_on_runs_out_of_attempts_and_queues_the_others(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    isolated_pool: ArqRedis,
    clean_db: None,
) -> None:
    retry = await leased_run(settings, session_factory, event_log, dead_owner(), attempts=2)
    poison = await leased_run(settings, session_factory, event_log, dead_owner(), attempts=3)

    queued = await resume_abandoned_analyses(session_factory, event_log, isolated_pool, max_attempts=3)

    assert queued == 1
    jobs = await isolated_pool.queued_jobs()
    assert [job.args for job in jobs] == [(str(retry.id),)]
    assert (await current(session_factory, poison.id)).status == "ERROR"
    assert (await current(session_factory, retry.id)).status == "RUNNING"
    assert await resume_abandoned_analyses(session_factory, event_log, isolated_pool, max_attempts=3) == 1
    assert len(await isolated_pool.queued_jobs()) == 2, "the poison run is never queued"


@pytest.mark.parametrize("stopping", [True, False])
async def test_a_clean_stop_gives_a_cancelled_run_its_attempt_back(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    stopping: bool,
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    agents = investigators(legal=hanging)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        task = asyncio.create_task(runner.run(started.run.id))
        deadline = time.monotonic() + 60  # the run takes its lease (a slow machine needs a while)
        while (await current(session_factory, started.run.id)).attempts != 1:
            assert time.monotonic() < deadline, "the run never took its lease"
            await asyncio.sleep(0.05)
        runner.stopping = stopping
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    cancelled = await current(session_factory, started.run.id)
    assert cancelled.status == "RUNNING" and cancelled.lease_owner is None
    assert cancelled.attempts == (0 if stopping else 1)
