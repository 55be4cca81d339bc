"""Fair work across organisations: how long one organisation's single report waits behind another's
backlog, with plain first-in-first-out queueing and with the fair queue.

Embedded Postgres + Redis and `--workers` ARQ workers in this process (production worker settings:
WORKER_MAX_JOBS 4 each, document processes shared by the process). Organisation A uploads
`--a-reports` synthetic reports of `--pages` pages and organisation B one; once all are stored,
A's parses are queued and then B's, through `enqueue_parse` with their organisation (the
production path). The clock runs from queueing B's parse to its `parse_started` event (B's wait)
and to its `parse_completed` (B's turnaround); A's makespan runs from queueing A's first parse to
its last `parse_completed`. Measured with ORG_MAX_RUNNING_JOBS=0 (one FIFO queue: "before") and
at `--limit` (default 2, the default setting: "after"); median of `--runs` runs each.

Run: `cd /work/main && .venv/bin/python -m bench.fair_queue [--workers 2] [--runs 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import datetime

from arq import create_pool
from arq.connections import ArqRedis, RedisSettings
from sqlalchemy import select, text

from app.config import Settings
from app.db.models import Event
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from app.queue import enqueue_parse
from bench.common import bench_settings, print_summary, print_table
from tests.conftest import TABLES, run_worker, wait_for_idle_queue
from tests.support.services import running_services
from tests.workers.fair_probe import started as worker_started
from tests.workers.test_fair_queue import organisation, upload

PARSE_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Run:
    """One run's figures, in seconds from queueing."""

    b_wait_s: float
    b_done_s: float
    a_makespan_s: float
    a_mean_wait_s: float


async def parse_times(session_factory: SessionFactory, event_type: str) -> dict[uuid.UUID, datetime]:
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(Event.report_id, Event.created_at).where(Event.event_type == event_type)
            )
        ).all()
    return {report_id: created_at for report_id, created_at in rows}


async def wait_until_parsed(session_factory: SessionFactory, count: int) -> None:
    deadline = time.monotonic() + PARSE_TIMEOUT_S
    while len(await parse_times(session_factory, "parse_completed")) < count:
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the parses")
        await asyncio.sleep(0.05)


async def empty_storage(settings: Settings, pool: ArqRedis) -> None:
    engine = create_engine(settings.require_database_url())
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f"TRUNCATE {TABLES} CASCADE"))
            await connection.execute(text("DELETE FROM organisations WHERE name IN ('bench-a', 'bench-b')"))
    finally:
        await engine.dispose()
    await pool.flushdb()


async def one_run(settings: Settings, workers: int, a_reports: int, pages: int) -> Run:
    """Upload, start the workers, queue A's parses then B's, and time them."""
    pool = await create_pool(RedisSettings.from_dsn(settings.require_redis_url()))
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    event_log = EventLog(session_factory, pool)
    try:
        await empty_storage(settings, pool)
        a, b = await organisation(session_factory, "bench-a"), await organisation(session_factory, "bench-b")
        async with AsyncExitStack() as stack:
            for _ in range(workers):  # one after another: two startups at once race on a fresh database
                await worker_started(await stack.enter_async_context(run_worker(settings)))
            # Stored once the workers' startup sweeps ran, so that only this queues their parses.
            a_ids = [
                await upload(session_factory, event_log, settings, a, f"A{n}", pages)
                for n in range(a_reports)
            ]
            b_id = await upload(session_factory, event_log, settings, b, "B", pages)
            queued_a = time.time()
            for report_id in a_ids:
                await enqueue_parse(pool, report_id, organisation_id=a)
            queued_b = time.time()
            await enqueue_parse(pool, b_id, organisation_id=b)
            await wait_until_parsed(session_factory, a_reports + 1)
            await wait_for_idle_queue(pool)
        starts = await parse_times(session_factory, "parse_started")
        completed = await parse_times(session_factory, "parse_completed")
    finally:
        await engine.dispose()
        await pool.aclose()
    return Run(
        b_wait_s=starts[b_id].timestamp() - queued_b,
        b_done_s=completed[b_id].timestamp() - queued_b,
        a_makespan_s=max(completed[report].timestamp() for report in a_ids) - queued_a,
        a_mean_wait_s=statistics.mean(starts[report].timestamp() - queued_a for report in a_ids),
    )


async def measure(services_settings: dict[str, Settings], args: argparse.Namespace) -> dict[str, list[Run]]:
    results: dict[str, list[Run]] = {}
    for mode, settings in services_settings.items():
        results[mode] = []
        for _ in range(args.runs):
            results[mode].append(await one_run(settings, args.workers, args.a_reports, args.pages))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2, help="ARQ workers (4 jobs each)")
    parser.add_argument("--a-reports", type=int, default=10, help="reports organisation A queues")
    parser.add_argument("--pages", type=int, default=60, help="pages per report")
    parser.add_argument("--limit", type=int, default=2, help="ORG_MAX_RUNNING_JOBS of the fair run")
    parser.add_argument("--runs", type=int, default=3, help="runs per mode (median reported)")
    args = parser.parse_args()
    with running_services(prefix="sibyl-bench-fair-") as services:
        modes = {
            "before (FIFO, limit 0)": bench_settings(services, org_max_running_jobs=0),
            f"after (fair, limit {args.limit})": bench_settings(services, org_max_running_jobs=args.limit),
        }
        results = asyncio.run(measure(modes, args))
    columns = ["b_wait_s", "b_done_s", "a_makespan_s", "a_mean_wait_s"]
    medians = {
        mode: {column: statistics.median(getattr(run, column) for run in runs) for column in columns}
        for mode, runs in results.items()
    }
    print_table(
        f"A queues {args.a_reports} parses, then B one ({args.pages} pages each); {args.workers} workers; "
        f"median of {args.runs} runs, seconds from queueing",
        ["mode", "B waits", "B parsed", "A all parsed", "A mean wait"],
        [[mode, *(f"{figures[column]:.2f}" for column in columns)] for mode, figures in medians.items()],
    )
    before, after = medians.values()
    print(
        f"\nB's wait for its parse to start: {before['b_wait_s']:.2f}s before, {after['b_wait_s']:.2f}s after"
    )
    print_summary(
        {
            "bench": "fair_queue",
            "workers": args.workers,
            "a_reports": args.a_reports,
            "pages": args.pages,
            "limit": args.limit,
            "runs": args.runs,
            "before_b_wait_s": round(before["b_wait_s"], 3),
            "after_b_wait_s": round(after["b_wait_s"], 3),
            "before_a_makespan_s": round(before["a_makespan_s"], 3),
            "after_a_makespan_s": round(after["a_makespan_s"], 3),
        }
    )


if __name__ == "__main__":
    main()
