"""Runs (and resumes) one analysis: lease, checkpointed graph, and the run's final state.

The LangGraph thread id is the analysis run's id. A run resumes from its last checkpoint when
one exists, so a node that completed before a crash is not run again. A lease on the run row,
renewed while the graph runs, guarantees that two workers never run one analysis at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import func, or_, select, update

from app.agents.graph import compile_graph
from app.agents.runtime import PipelineDeps
from app.agents.state import PipelineInput
from app.config import libpq_url
from app.db.models import AnalysisRun, Report, ReportStatus

logger = logging.getLogger(__name__)

ACTIVE_RUN_STATUSES = ("PENDING", "RUNNING")


class RunResult(enum.StrEnum):
    COMPLETED = "completed"
    FAILED = "failed"
    LEASE_HELD = "lease_held"
    NOT_RUNNABLE = "not_runnable"


@dataclass(frozen=True)
class RunOutcome:
    result: RunResult
    detail: str = ""
    retry_in_seconds: float = 0.0


def lease_owner_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@asynccontextmanager
async def open_checkpointer(database_url: str) -> AsyncIterator[AsyncPostgresSaver]:
    """A Postgres checkpointer on its own small psycopg pool, with its tables set up."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        libpq_url(database_url),
        min_size=1,
        max_size=4,
        open=False,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    await pool.open()
    try:
        saver = AsyncPostgresSaver(pool)
        await saver.setup()
        yield saver
    finally:
        await pool.close()


class PipelineRunner:
    """Runs analyses in this process; one instance per worker."""

    def __init__(self, deps: PipelineDeps, checkpointer: AsyncPostgresSaver) -> None:
        self.deps = deps
        self.graph = compile_graph(checkpointer)
        self.owner = lease_owner_name()
        self._lease = timedelta(seconds=deps.settings.analysis_lease_seconds)

    async def _acquire_lease(self, run_id: uuid.UUID, owner: str) -> RunOutcome | AnalysisRun:
        async with self.deps.session_factory() as session, session.begin():
            run = await session.scalar(
                update(AnalysisRun)
                .where(
                    AnalysisRun.id == run_id,
                    AnalysisRun.status.in_(ACTIVE_RUN_STATUSES),
                    or_(AnalysisRun.lease_owner.is_(None), AnalysisRun.lease_expires_at < func.now()),
                )
                .values(
                    lease_owner=owner,
                    lease_expires_at=func.now() + self._lease,
                    status="RUNNING",
                    started_at=func.coalesce(AnalysisRun.started_at, func.now()),
                )
                .returning(AnalysisRun)
            )
            if run is not None:
                return cast(AnalysisRun, run)
            current = await session.get(AnalysisRun, run_id)
            if current is None or current.status not in ACTIVE_RUN_STATUSES:
                return RunOutcome(RunResult.NOT_RUNNABLE, "no such active analysis run")
            remaining = await session.scalar(
                select(func.extract("epoch", AnalysisRun.lease_expires_at - func.now())).where(
                    AnalysisRun.id == run_id
                )
            )
            return RunOutcome(
                RunResult.LEASE_HELD, f"leased by {current.lease_owner}", max(float(remaining or 0), 0.1)
            )

    async def _renew_lease(self, run_id: uuid.UUID, owner: str) -> None:
        interval = self.deps.settings.analysis_lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            async with self.deps.session_factory() as session, session.begin():
                await session.execute(
                    update(AnalysisRun)
                    .where(AnalysisRun.id == run_id, AnalysisRun.lease_owner == owner)
                    .values(lease_expires_at=func.now() + self._lease)
                )

    async def _release_lease(self, run_id: uuid.UUID, owner: str) -> None:
        async with self.deps.session_factory() as session, session.begin():
            await session.execute(
                update(AnalysisRun)
                .where(AnalysisRun.id == run_id, AnalysisRun.lease_owner == owner)
                .values(lease_owner=None, lease_expires_at=None)
            )

    async def run(self, run_id: uuid.UUID) -> RunOutcome:
        """Run or resume the analysis to its end (or its failure).

        Each call leases the run under its own name, so two jobs for one run never both proceed,
        even in the same worker.
        """
        owner = f"{self.owner}:{uuid.uuid4().hex[:8]}"
        acquired = await self._acquire_lease(run_id, owner)
        if isinstance(acquired, RunOutcome):
            return acquired
        run = acquired
        config: RunnableConfig = {"configurable": {"thread_id": str(run_id)}}
        snapshot = await self.graph.aget_state(config)
        graph_input: PipelineInput | None = None
        if not snapshot.values:
            report = await self._report(run.report_id)
            graph_input = PipelineInput(
                report_id=str(run.report_id),
                run_id=str(run_id),
                max_iterations=run.max_iterations,
                reuse_claims=run.skip_claims_extraction,
                company_name=report.company_name if report else None,
            )
        renewal = asyncio.create_task(self._renew_lease(run_id, owner))
        try:
            if graph_input is not None or snapshot.next:
                await self.graph.ainvoke(
                    graph_input,
                    config,
                    context=self.deps,
                    durability="sync",
                )
        except Exception as exc:  # noqa: BLE001 - recorded on the run and the report
            logger.exception("analysis %s failed", run_id)
            await self._fail(run, f"{type(exc).__name__}: {exc}")
            return RunOutcome(RunResult.FAILED, str(exc))
        finally:
            renewal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewal
            await self._release_lease(run_id, owner)
        return RunOutcome(RunResult.COMPLETED)

    async def _report(self, report_id: uuid.UUID) -> Report | None:
        async with self.deps.session_factory() as session:
            return await session.get(Report, report_id)

    async def _fail(self, run: AnalysisRun, message: str) -> None:
        text = f"Analysis failed: {message}. Use resumeAnalysis to continue from the last completed step."
        async with self.deps.event_log.transaction() as transaction:
            session = transaction.session
            await session.execute(
                update(AnalysisRun).where(AnalysisRun.id == run.id).values(status="ERROR", error_message=text)
            )
            await session.execute(
                update(Report)
                .where(Report.id == run.report_id)
                .values(status=ReportStatus.ERROR, error_message=text)
            )
            await transaction.emit(
                run.report_id, "error", {"message": text, "node": None}, analysis_run_id=run.id
            )
