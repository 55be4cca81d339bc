"""Fair work across organisations: one organisation's many queued jobs do not hold up another's
single one, an organisation never runs more than ORG_MAX_RUNNING_JOBS at once, a dead worker's
places come back, waiting uses no tries, and queue positions count the jobs that start first."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from arq.constants import in_progress_key_prefix
from arq.jobs import Job, JobStatus
from sqlalchemy import func, select, update

from app.config import Settings
from app.db.models import AnalysisRun, Event, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.fair_queue import JobOwner, Place, dispatch, queue_position
from app.organisations import ensure_organisation
from app.queue import enqueue_parse, enqueue_pipeline
from app.services.analysis import open_analysis_run
from app.services.lease import PENDING_GRACE_SECONDS
from app.services.uploads import accept_upload
from tests.conftest import make_settings
from tests.fixtures import pdfs
from tests.support.pipeline import seed_report
from tests.support.services import RunningServices
from tests.workers.fair_probe import (
    PROBE_JOB,
    PROBE_SECONDS_ENV,
    enqueue_probe,
    probe_log,
    probe_workers,
)
from workers.recovery import resume_abandoned_analyses

ROOT = Path(__file__).resolve().parents[2]
A_JOBS = 10


@pytest.fixture
async def pool(settings: Settings, clean_db: None) -> AsyncIterator[ArqRedis]:
    """ARQ's pool on the session's Redis; emptied after the test, so that jobs left waiting (with
    no worker to run them) do not hold up the next test's `clean_db`."""
    pool = await create_pool(RedisSettings.from_dsn(settings.require_redis_url()))
    yield pool
    await pool.flushdb()
    await pool.aclose()


async def organisation(session_factory: SessionFactory, name: str) -> uuid.UUID:
    async with session_factory() as session, session.begin():
        return (await ensure_organisation(session, name)).id


def owners(organisation_id: uuid.UUID, count: int) -> list[JobOwner]:
    return [JobOwner(organisation_id, uuid.uuid4()) for _ in range(count)]


def starts(log: list[dict[str, Any]]) -> list[str]:
    return [entry["report"] for entry in log if entry["event"] == "start"]


def most_at_once(log: list[dict[str, Any]], reports: set[str]) -> int:
    """The most of `reports` that were running at one moment, in the order Redis saw."""
    running = most = 0
    for entry in log:
        if entry["report"] in reports:
            running += 1 if entry["event"] == "start" else -1
            most = max(most, running)
    return most


async def wait_for(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_queue_positions_count_the_jobs_that_start_first(
    pool: ArqRedis, session_factory: SessionFactory
) -> None:
    # Given organisation A's 10 parses and B's one, queued in that order with the default limit
    # (no worker runs them)
    await dispatch(pool, 2)  # what each worker publishes
    a, b, c = [await organisation(session_factory, name) for name in ("A", "B", "C")]
    a_reports, b_reports, c_reports = owners(a, A_JOBS), owners(b, 1), owners(c, 3)
    for owner in [*a_reports, *b_reports]:
        assert await enqueue_parse(pool, owner.report_id, organisation_id=owner.organisation_id)
        await asyncio.sleep(0.002)  # distinct queue scores: ties would start in job-id order

    # When their positions are asked
    a_positions = [await queue_position(pool, owner.report_id) for owner in a_reports]
    b_position = await queue_position(pool, b_reports[0].report_id)

    # Then A's first two and B's one start first, and A's others wait in turn
    assert a_positions == [0, 1, 3, 4, 5, 6, 7, 8, 9, 10]
    assert b_position == 2
    assert await Job(f"parse_report:{a_reports[2].report_id}", pool).status() is JobStatus.deferred
    assert await queue_position(pool, uuid.uuid4()) is None

    # And when C queues three, its first two go after B's, and its third takes turns with A's
    for owner in c_reports:
        await enqueue_parse(pool, owner.report_id, organisation_id=owner.organisation_id)
        await asyncio.sleep(0.002)
    assert [await queue_position(pool, owner.report_id) for owner in a_reports[2:5]] == [5, 7, 8]
    assert [await queue_position(pool, owner.report_id) for owner in c_reports] == [3, 4, 5]


async def test_one_organisations_backlog_does_not_hold_up_another_across_two_workers(
    pool: ArqRedis, settings: Settings, session_factory: SessionFactory
) -> None:
    # Given two workers with the default limit (2), A queues 10 jobs and then B one
    a, b = await organisation(session_factory, "A"), await organisation(session_factory, "B")
    a_reports, b_reports = owners(a, A_JOBS), owners(b, 1)
    async with probe_workers(settings, 2):
        for owner in [*a_reports, *b_reports]:
            assert await enqueue_probe(pool, owner.report_id, owner)

        # When they have all run
        async def all_ended() -> bool:
            log = await probe_log(pool)
            return sum(entry["event"] == "end" for entry in log) == A_JOBS + 1

        await wait_for(all_ended, 60, "every probe to end")
    log = await probe_log(pool)

    # Then B started before A's third, A never ran more than 2 at once, and nothing ran twice
    order = starts(log)
    a_ids, b_id = {str(owner.report_id) for owner in a_reports}, str(b_reports[0].report_id)
    a_order = [report for report in order if report in a_ids]
    assert order.index(b_id) < order.index(a_order[2]), order
    assert most_at_once(log, a_ids) == settings.org_max_running_jobs == 2
    assert sorted(order) == sorted([*a_ids, b_id])
    assert all(entry["position"] is None for entry in log if entry["event"] == "start")


async def test_real_parses_take_turns_and_each_report_is_parsed_once(
    pool: ArqRedis, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    # Given A's 10 uploaded reports and B's one, queued for parsing in that order, and two workers
    a, b = await organisation(session_factory, "A"), await organisation(session_factory, "B")
    a_reports = [await upload(session_factory, event_log, settings, a, f"A{n}") for n in range(A_JOBS)]
    b_report = await upload(session_factory, event_log, settings, b, "B0")
    await dispatch(pool, settings.org_max_running_jobs)  # as the workers will
    for report_id, organisation_id in [*((r, a) for r in a_reports), (b_report, b)]:
        assert await enqueue_parse(pool, report_id, organisation_id=organisation_id)
    async with probe_workers(settings, 2):
        # When every report is parsed
        async def all_parsed() -> bool:
            async with session_factory() as session:
                statuses = (await session.scalars(select(Report.status))).all()
            return len(statuses) == A_JOBS + 1 and set(statuses) == {ReportStatus.PARSED}

        await wait_for(all_parsed, 90, "every report to be parsed")
    parses = await parse_intervals(session_factory)

    # Then B's parse started before A's eighth, where first come, first served would start it after
    # all ten (the probe test above checks the order jobs start in, before A's third; here parses run
    # in document processes, whose start times a loaded machine shifts by more than a parse takes), A
    # never parsed more than 2 at once, each report once
    a_starts = sorted(parses[report][0] for report in a_reports)
    assert parses[b_report][0] < a_starts[7]
    assert most_overlapping([parses[report] for report in a_reports]) <= 2
    assert all(len(times) == 2 for times in parses.values())


async def upload(
    session_factory: SessionFactory,
    event_log: EventLog,
    settings: Settings,
    organisation_id: uuid.UUID,
    tag: str,
    page_count: int = 3,
) -> uuid.UUID:
    """A report of `organisation_id` of its own (the tag makes its bytes unique), stored as uploaded;
    `bench.fair_queue` uploads its larger ones with it too."""
    pages = [*pdfs.synthetic_report(page_count=page_count).pages, [f"Fair queue test report {tag}."]]
    outcome = await accept_upload(
        session_factory,
        event_log,
        settings,
        filename=f"{tag}.pdf",
        content=pdfs.make_report_pdf(pages),
        company_name=None,
        organisation_id=organisation_id,
    )
    return outcome.report.id


async def parse_intervals(session_factory: SessionFactory) -> dict[uuid.UUID, list[datetime]]:
    """Per report: when each `parse_started` and `parse_completed` was recorded (a report parsed
    twice has four)."""
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(Event.report_id, Event.created_at)
                .where(Event.event_type.in_(["parse_started", "parse_completed"]))
                .order_by(Event.report_id, Event.seq)
            )
        ).all()
    intervals: dict[uuid.UUID, list[datetime]] = {}
    for report_id, created_at in rows:
        intervals.setdefault(report_id, []).append(created_at)
    return intervals


def most_overlapping(intervals: list[list[datetime]]) -> int:
    edges = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
    running = most = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    return most


async def test_a_start_that_only_waits_its_turn_uses_no_try(
    pool: ArqRedis,
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Given a limit of 1, and two probes of A queued plainly (without their owner: each worker looks
    # it up when the job starts), whose ARQ function allows a single try
    settings = make_settings(services, org_max_running_jobs=1)
    a = await organisation(session_factory, "A")
    reports = [await parsed_report(session_factory, a, f"A{n}") for n in range(2)]
    for report_id in reports:
        assert await enqueue_probe(pool, report_id, owner=None)

    # When a worker starts both at once
    with caplog.at_level(logging.INFO, logger="workers.fair"):
        async with probe_workers(settings, 1):
            await wait_for(lambda: ended(pool, 2), 30, "both probes to end")
    log = await probe_log(pool)

    # Then one waited for the other's place, and still ran once, on its first try
    assert sum("waits for a place" in record.message for record in caplog.records) == 1
    assert most_at_once(log, {str(report) for report in reports}) == 1
    assert sorted(entry["try"] for entry in log if entry["event"] == "start") == [1, 1]
    for report_id in reports:
        result = await Job(f"{PROBE_JOB}:{report_id}", pool).result_info()
        assert result is not None and result.success


async def parsed_report(session_factory: SessionFactory, organisation_id: uuid.UUID, tag: str) -> uuid.UUID:
    """A report row, already PARSED (so no worker's startup sweep queues a parse of it)."""
    report = Report(
        organisation_id=organisation_id,
        filename=f"{tag}.pdf",
        sha256=tag.ljust(64, "0"),
        size_bytes=1,
        status=ReportStatus.PARSED,
        page_count=1,
    )
    async with session_factory() as session, session.begin():
        session.add(report)
    return report.id


async def ended(pool: ArqRedis, count: int) -> bool:
    return sum(entry["event"] == "end" for entry in await probe_log(pool)) == count


async def test_a_place_held_by_a_worker_that_stopped_renewing_frees_when_its_lease_lapses(
    pool: ArqRedis, services: RunningServices, session_factory: SessionFactory
) -> None:
    # Given a limit of 1 and a 1 s lease, and A's job started by a worker on another machine that
    # then died: ARQ's in-progress mark and the place stay behind
    settings = make_settings(services, org_max_running_jobs=1, org_job_lease_seconds=1.0)
    await dispatch(pool, 1)
    a = await organisation(session_factory, "A")
    lost, waiting = owners(a, 2)
    await enqueue_probe(pool, lost.report_id, lost)
    job_id = f"{PROBE_JOB}:{lost.report_id}"
    await pool.psetex(in_progress_key_prefix + job_id, 3_600_000, b"1")
    place = Place(pool, job_id, str(lost.report_id), lost, limit=1, lease_ms=1000, worker="elsewhere:1:1:x:y")
    assert await place.take()
    await enqueue_probe(pool, waiting.report_id, waiting)
    assert await queue_position(pool, waiting.report_id) == 0

    # When a worker runs here
    async with probe_workers(settings, 1):
        began = time.monotonic()
        await wait_for(lambda: ended(pool, 1), 15, "the waiting probe to run")
        waited = time.monotonic() - began

    # Then A's waiting job ran once the dead worker's lease lapsed (1 s), not an hour later
    assert starts(await probe_log(pool)) == [str(waiting.report_id)]
    assert waited < 1.0 + 1.0 + 2.0 + 0.3 + 2.0  # lease, a dispatch round, polling, the probe, slack


@pytest.fixture
def probe_process_env(settings: Settings) -> Iterator[dict[str, str]]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.require_database_url(),
        "REDIS_URL": settings.require_redis_url(),
        "PYTHONPATH": str(ROOT),
        "ORG_MAX_RUNNING_JOBS": "1",
        "ANALYSIS_SWEEP_SECONDS": "0",
        PROBE_SECONDS_ENV: "120",
    }
    env.pop("LLM_API_KEY", None)
    yield env


def start_probe_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "tests.workers.fair_probe"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


async def test_a_killed_workers_place_frees_at_once_on_the_same_machine(
    pool: ArqRedis,
    services: RunningServices,
    session_factory: SessionFactory,
    probe_process_env: dict[str, str],
    tmp_path: Path,
) -> None:
    # Given a limit of 1 (default 30 s leases), A's first job running in a worker process
    settings = make_settings(services, org_max_running_jobs=1)
    a = await organisation(session_factory, "A")
    first, second = owners(a, 2)
    log_path = tmp_path / "worker.log"
    process = start_probe_worker(probe_process_env, log_path)
    try:
        await enqueue_probe(pool, first.report_id, first)
        await wait_for(lambda: started(pool, 1), 90, f"the first probe: {log_path.read_text()[-2000:]}")

        # And A's second waiting for a place while a worker runs here too
        async with probe_workers(settings, 1):
            await enqueue_probe(pool, second.report_id, second)
            await asyncio.sleep(1.5)
            assert await started(pool, 1), "A's second job must wait while its first holds the place"

            # When the first's worker process is killed
            os.killpg(process.pid, signal.SIGKILL)
            killed = time.monotonic()
            await wait_for(lambda: ended(pool, 1), 15, "the second probe to run")
            waited = time.monotonic() - killed
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    # Then the second ran within a dispatch round or two, long before the 30 s lease lapses
    assert starts(await probe_log(pool)) == [str(first.report_id), str(second.report_id)]
    assert waited < 8.0


async def started(pool: ArqRedis, count: int) -> bool:
    return len(starts(await probe_log(pool))) == count


async def test_the_sweep_leaves_a_pending_analysis_whose_job_waits_its_turn(
    pool: ArqRedis, session_factory: SessionFactory, event_log: EventLog, settings: Settings
) -> None:
    # Given an analysis whose job waits for its organisation's only place, longer than the grace
    # period after which the sweep takes a PENDING run for lost
    await dispatch(pool, 1)
    seeded = await seed_report(session_factory)
    async with session_factory() as session:
        report = await session.get(Report, seeded.report_id)
    assert report is not None
    owner = JobOwner(report.organisation_id, report.id)
    await enqueue_probe(pool, uuid.uuid4(), JobOwner(report.organisation_id, uuid.uuid4()))
    started_run = await open_analysis_run(event_log, settings, report.id, skip_claims_extraction=True)
    await enqueue_pipeline(pool, started_run.run.id, reason="start", owner=owner)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(AnalysisRun)
            .where(AnalysisRun.id == started_run.run.id)
            .values(created_at=func.now() - timedelta(seconds=PENDING_GRACE_SECONDS + 60))
        )
    assert await queue_position(pool, started_run.run.id) == 1

    # When the sweep runs, then it queues nothing more for that run
    assert await resume_abandoned_analyses(session_factory, event_log, pool, max_attempts=3) == 0

    # But once that job is lost, the next sweep queues the run again
    await pool.flushdb()
    assert await resume_abandoned_analyses(session_factory, event_log, pool, max_attempts=3) == 1
