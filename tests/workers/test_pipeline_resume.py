"""A worker killed with SIGKILL in the middle of the specialists; another worker resumes the run
from its checkpoint without duplicating anything or re-running what had completed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arq import create_pool
from arq.connections import RedisSettings
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event, Finding, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.queue import enqueue_pipeline
from app.services.analysis import open_analysis_run
from tests.support.checkpoints import finished_tasks_stored
from tests.support.investigators import INVOCATION_LOG_ENV
from tests.support.pipeline import KNOWN_CLAIMS, seed_report

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 2.0


def isolated_redis_url(url: str) -> str:
    """Redis database 7: the session's in-process worker (database 0) never sees these jobs."""
    base, _, _ = url.rpartition("/") if url.count("/") > 2 else (url, "", "")
    return f"{base}/7"


@pytest.fixture
def worker_env(settings: Settings, tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.require_database_url(),
        "REDIS_URL": isolated_redis_url(settings.require_redis_url()),
        "SPECIALIST_PLUGINS": "tests.support.investigators:KILL_TEST",
        "ANALYSIS_LEASE_SECONDS": str(LEASE_SECONDS),
        INVOCATION_LOG_ENV: str(tmp_path / "invocations.jsonl"),
        "PYTHONPATH": str(ROOT),
    }
    env.pop("LLM_API_KEY", None)
    yield env


def start_worker(env: dict[str, str], slow_seconds: float, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "workers"],
            cwd=ROOT,
            env={**env, "SIBYL_TEST_SLOW_SECONDS": str(slow_seconds)},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def invocations(env: dict[str, str]) -> list[dict[str, Any]]:
    path = Path(env[INVOCATION_LOG_ENV])
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def wait_until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


async def test_sigkill_during_specialists_then_resume_completes_without_duplicates(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    worker_env: dict[str, str],
    tmp_path: Path,
    clean_db: None,
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    run_id = started.run.id
    pool = await create_pool(RedisSettings.from_dsn(worker_env["REDIS_URL"]))
    await pool.flushdb()
    log = tmp_path / "workers.log"
    first = start_worker(worker_env, slow_seconds=60, log=log)
    try:
        await enqueue_pipeline(pool, run_id, reason="start")

        async def fast_agents_done_and_slow_one_working() -> bool:
            calls = invocations(worker_env)
            ended = {(c["agent"], c["phase"]) for c in calls}
            if not {("legal", "end"), ("data_metrics", "end"), ("geography", "start")} <= ended:
                return False
            async with session_factory() as session:
                done = await session.scalar(
                    select(func.count())
                    .select_from(Event)
                    .where(
                        Event.event_type == "agent_completed", Event.agent_name.in_(["legal", "data_metrics"])
                    )
                )
            return done == 2

        await wait_until(fast_agents_done_and_slow_one_working, 60, "the fast specialists to finish")

        async def all_but_geography_stored() -> bool:
            return await finished_tasks_stored(session_factory, run_id, running=1)

        await wait_until(all_but_geography_stored, 60, "LangGraph to store the finished tasks' writes")
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)

        async with session_factory() as session:
            run = await session.get(AnalysisRun, run_id)
            assert run is not None and run.status == "RUNNING"
            events_before = await session.scalar(select(func.count()).select_from(Event))
        await asyncio.sleep(LEASE_SECONDS + 0.5)  # the dead worker's lease lapses

        second = start_worker(worker_env, slow_seconds=0.2, log=log)
        try:

            async def completed() -> bool:
                async with session_factory() as session:
                    current = await session.get(AnalysisRun, run_id, populate_existing=True)
                    return current is not None and current.status == "COMPLETED"

            await wait_until(completed, 60, "the resumed run to complete")
        finally:
            second.send_signal(signal.SIGINT)
            second.wait(15)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        await pool.flushdb()
        await pool.aclose()

    calls = Counter((c["agent"], c["iteration"], c["phase"]) for c in invocations(worker_env))
    # Completed specialists ran once; only the interrupted one ran again.
    assert calls[("legal", 0, "start")] == 1 and calls[("data_metrics", 0, "start")] == 1
    assert calls[("geography", 0, "start")] == 2 and calls[("geography", 0, "end")] == 1, log.read_text()[
        -3000:
    ]

    async with session_factory() as session:
        claims = await session.scalar(select(func.count()).select_from(Claim))
        routing = list(await session.scalars(select(RoutingAssignment)))
        findings = list(await session.scalars(select(Finding)))
        verdicts = list(await session.scalars(select(Verdict)))
        events = list(await session.scalars(select(Event).order_by(Event.seq)))
    assert claims == len(KNOWN_CLAIMS)
    assert len(routing) == len({(r.claim_id, r.agent, r.iteration) for r in routing})
    assert len(findings) == len({(f.claim_id, f.agent, f.iteration) for f in findings})
    assert len(verdicts) == len({(v.claim_id, v.iteration) for v in verdicts})
    assert sorted(str(v.claim_id) for v in verdicts if v.is_final) == sorted(seeded.claim_ids)
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    keys = [event.dedupe_key for event in events if event.dedupe_key]
    assert len(keys) == len(set(keys))
    started_events = Counter(
        (event.agent_name, event.data.get("iteration"))
        for event in events
        if event.event_type == "agent_started"
    )
    assert all(count == 1 for count in started_events.values()), started_events
    assert sum(1 for event in events if event.event_type == "pipeline_completed") == 1
    assert len(events) > (events_before or 0)
