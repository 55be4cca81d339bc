"""300 dashboards on one report during a live analysis, through `sibyl run` with the database pool
at its default: every subscriber receives every event exactly once and in order, and none gets an
error. (Before the event hub, 120 such subscribers exhausted the pool and 15 of them ended with
"Unexpected error.".)

The subscribers are minimal protocol clients (`bench.ws_light`) so that 300 of them cost this
process little; they use ten API keys of the `local` organisation, as separate dashboards would
(one key's rate limit admits bursts of 100 connections and subscriptions).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.db.session import SessionFactory
from tests.conftest import new_api_key
from tests.fixtures import pdfs
from tests.support.event_watchers import EventWatcher, open_watchers
from tests.support.investigators import slow_first_env
from tests.support.services import RunningServices
from tests.support.sibyl_process import SibylProcess, database_id, running_sibyl

SUBSCRIBERS = 300
RUN_STATUS = "SELECT status FROM analysis_runs WHERE id = :id"
LAST_EVENT = "SELECT max(seq) FROM events WHERE report_id = :id"
KEYS = 10


@pytest.fixture
def sibyl(services: RunningServices, clean_db: None, tmp_path: Path) -> Iterator[SibylProcess]:
    """`sibyl run` on the test databases with scripted specialists (slow for a moment on their
    first call, so the analysis is live while the subscribers watch)."""
    settings = slow_first_env(tmp_path, slow_seconds=1)
    with running_sibyl(services, prefix="sibyl-crowd-", **settings) as process:
        yield process


async def wait_until(condition: Any, timeout: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


@pytest.mark.timeout(120)
async def test_300_subscribers_during_a_live_analysis_all_get_everything(
    sibyl: SibylProcess, session_factory: SessionFactory
) -> None:
    report_id = await asyncio.to_thread(sibyl.upload, pdfs.synthetic_report(page_count=6).pdf)
    await asyncio.to_thread(sibyl.wait_for_status, report_id, "PARSED", timeout=60)
    keys = [await new_api_key(session_factory) for _ in range(KEYS)]
    watchers: list[EventWatcher] = []
    for start in range(0, SUBSCRIBERS, 50):
        opened = await asyncio.gather(
            *(open_watchers(sibyl.api_port, keys[n % KEYS], report_id, 1) for n in range(start, start + 50))
        )
        watchers += [watcher for group in opened for watcher in group]
    try:
        await wait_until(
            lambda: all(w.sequences or w.errors for w in watchers), 30, "every subscriber to replay"
        )
        run_id = database_id(await asyncio.to_thread(sibyl.start_analysis, report_id))
        deadline = asyncio.get_running_loop().time() + 60
        while await scalar(session_factory, RUN_STATUS, run_id) != "COMPLETED":
            assert asyncio.get_running_loop().time() < deadline, "the analysis did not complete"
            await asyncio.sleep(0.2)
        last = int(await scalar(session_factory, LAST_EVENT, database_id(report_id)))
        await wait_until(
            lambda: all(len(w.sequences) >= last or w.errors for w in watchers), 30, "the last event"
        )
    finally:
        for watcher in watchers:
            if watcher.connection is not None:
                watcher.connection.close()

    assert [w.errors for w in watchers if w.errors] == []
    assert all(w.sequences == list(range(1, last + 1)) for w in watchers)
    assert last > 15  # the parse's events and the analysis's agents, verdicts and completion


async def scalar(session_factory: SessionFactory, sql: str, row_id: str) -> Any:
    async with session_factory() as session:
        return await session.scalar(text(sql), {"id": uuid.UUID(row_id)})
