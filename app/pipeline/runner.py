"""Runs (and resumes) one analysis: lease, checkpointed graph, and the run's final state.

The LangGraph thread id is the analysis run's id. A run resumes from its last checkpoint when
one exists, so a node that completed before a crash is not run again. A lease on the run row,
renewed while the graph runs, guarantees that two workers never run one analysis at once. A lease
whose owner process has exited (on this machine) is taken over at once; any other lease only once
it lapses (see `app.services.lease`). Each start that takes the lease counts as an attempt; a run
that has used `MAX_JOB_ATTEMPTS` without finishing is left in ERROR instead of started again.

A run that fails because its database connection was lost (Postgres restarted) is not an analysis
failure: the runner waits for Postgres to answer again, releases the lease and resumes the run at
once as its next attempt, telling followers why (`app.db.outages`). The checkpointer's pool checks
each connection before handing it out, so one that died with an old postmaster is replaced instead
of failing the next run.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import func, select, update

from app.config import libpq_url
from app.db.models import AnalysisRun, Report, ReportStatus, RunStatus
from app.db.outages import is_transient_db_error, wait_for_database
from app.log_setup import add_log_context, ensure_log_context
from app.pipeline.graph import compile_graph
from app.pipeline.runtime import PipelineDeps
from app.pipeline.state import PipelineInput
from app.services.analysis import announce_resumed, gave_up_message, give_up_run, locked_run
from app.services.failures import failure_summary
from app.services.lease import ACTIVE_RUN_STATUSES, CANCELLED, current_process, lease_state

logger = logging.getLogger(__name__)

__all__ = ["ACTIVE_RUN_STATUSES", "PipelineRunner", "RunOutcome", "RunResult", "open_checkpointer"]


class RunResult(enum.StrEnum):
    COMPLETED = "completed"
    FAILED = "failed"
    GAVE_UP = "gave_up"
    LEASE_HELD = "lease_held"
    NOT_RUNNABLE = "not_runnable"
    #: The database did not come back within `DB_RECOVERY_WAIT_SECONDS`: the job retries later.
    DB_UNAVAILABLE = "database_unavailable"
    #: Internal: the run lost its database connection and Postgres is back; it resumes at once.
    INTERRUPTED = "interrupted"
    #: An operator cancelled the run (`cancelAnalysis`); its graph was stopped.
    CANCELLED = "cancelled"


#: The `application_name` of the checkpointer's connections.
CHECKPOINTER_APPLICATION = "sibyl-checkpointer"
#: How long a run that lost its database connection waits for Postgres before its job is retried
#: later instead (`sibyl run` restarts Postgres in seconds).
DB_RECOVERY_WAIT_SECONDS = 120.0
#: When the job retries after Postgres stayed away that long.
DB_RETRY_SECONDS = 15.0
#: How often a running analysis checks its row for a cancel: the longest a cancelled run keeps
#: spending on LLM and search calls.
CANCEL_CHECK_SECONDS = 0.5


@dataclass(frozen=True)
class RunOutcome:
    result: RunResult
    detail: str = ""
    retry_in_seconds: float = 0.0


@asynccontextmanager
async def open_checkpointer(database_url: str) -> AsyncIterator[AsyncPostgresSaver]:
    """A Postgres checkpointer on its own small psycopg pool, with its tables set up."""
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        libpq_url(database_url),
        min_size=1,
        max_size=4,
        open=False,
        # A connection that died with an earlier postmaster is replaced, not handed to a run.
        check=AsyncConnectionPool.check_connection,
        kwargs={
            "autocommit": True,
            "prepare_threshold": 0,
            "row_factory": dict_row,
            "application_name": CHECKPOINTER_APPLICATION,  # tells its connections apart in pg_stat_activity
        },
    )
    await pool.open()
    try:
        saver = AsyncPostgresSaver(pool)
        await saver.setup()
        yield saver
    finally:
        await pool.close()


class PipelineRunner:
    """Runs analyses in this process; one instance per worker.

    `stopping` is set when the worker shuts down on a signal: an analysis cancelled then gets its
    attempt back, since a clean stop is no sign of a poison run.
    """

    def __init__(self, deps: PipelineDeps, checkpointer: AsyncPostgresSaver) -> None:
        self.deps = deps
        self.graph = compile_graph(checkpointer)
        self.stopping = False
        self._lease = timedelta(seconds=deps.settings.analysis_lease_seconds)
        #: Runs whose job gave up waiting for Postgres: the owner whose lease may remain, and why.
        self._cut_off: dict[uuid.UUID, tuple[str, str]] = {}

    async def _acquire_lease(
        self, run_id: uuid.UUID, owner: str, interrupted: str | None = None
    ) -> RunOutcome | AnalysisRun:
        """Take the run's lease, counting an attempt; `interrupted` is why this process's own last
        attempt stopped (it names the cause better than the lease can)."""
        async with self.deps.event_log.transaction() as transaction:
            session = transaction.session
            row = await locked_run(session, run_id)
            if row is None or row[0].status not in ACTIVE_RUN_STATUSES:
                return RunOutcome(RunResult.NOT_RUNNABLE, "no such active analysis run")
            run, now = row
            add_log_context(report_id=run.report_id)
            state = lease_state(run, now)
            if state.held:
                return RunOutcome(
                    RunResult.LEASE_HELD, f"leased by {run.lease_owner}", max(state.remaining_seconds, 0.1)
                )
            if interrupted is not None:
                state = dataclasses.replace(state, interrupted=interrupted)
            if run.attempts >= self.deps.settings.max_job_attempts:
                message = gave_up_message(run.attempts, state.interrupted)
                await give_up_run(transaction, run, message)
                logger.warning("analysis %s: %s", run_id, message)
                return RunOutcome(RunResult.GAVE_UP, message)
            if state.interrupted:
                logger.info(
                    "analysis %s resumes (attempt %d): %s", run_id, run.attempts + 1, state.interrupted
                )
            run.lease_owner = owner
            run.lease_expires_at = now + self._lease
            run.status = RunStatus.RUNNING
            run.started_at = run.started_at or now
            run.attempts += 1
            if state.interrupted:
                await announce_resumed(
                    transaction, run, state.interrupted, max_attempts=self.deps.settings.max_job_attempts
                )
            await session.flush()
            return run

    async def _renew_lease(self, run_id: uuid.UUID, owner: str) -> None:
        """Renew every third of the lease; a renewal the database misses is tried at the next one."""
        interval = self.deps.settings.analysis_lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                async with self.deps.session_factory() as session, session.begin():
                    await session.execute(
                        update(AnalysisRun)
                        .where(AnalysisRun.id == run_id, AnalysisRun.lease_owner == owner)
                        .values(lease_expires_at=func.now() + self._lease)
                    )
            except Exception as exc:
                if not is_transient_db_error(exc):
                    raise
                cause = failure_summary(exc)
                logger.warning("analysis %s: lease renewal missed the database (%s)", run_id, cause)

    async def _release_lease(self, run_id: uuid.UUID, owner: str, *, refund_attempt: bool = False) -> None:
        values: dict[str, Any] = {"lease_owner": None, "lease_expires_at": None}
        if refund_attempt:
            values["attempts"] = func.greatest(AnalysisRun.attempts - 1, 0)
        async with self.deps.session_factory() as session, session.begin():
            await session.execute(
                update(AnalysisRun)
                .where(AnalysisRun.id == run_id, AnalysisRun.lease_owner == owner)
                .values(**values)
            )

    async def run(self, run_id: uuid.UUID) -> RunOutcome:
        """Run or resume the analysis to its end (or its failure).

        Each call leases the run under its own name, so two jobs for one run never both proceed,
        even in the same worker.
        """
        owner = current_process().owner(uuid.uuid4().hex[:8])
        with ensure_log_context(run_id=run_id):  # the lines below (and the agents') name the report
            interrupted = await self._take_cut_off(run_id)
            while True:
                acquired = await self._acquire_lease(run_id, owner, interrupted)
                if isinstance(acquired, RunOutcome):
                    return acquired
                outcome = await self._run_leased(acquired, owner)
                if outcome.result is not RunResult.INTERRUPTED:
                    return outcome
                interrupted = outcome.detail

    async def _run_leased(self, run: AnalysisRun, owner: str) -> RunOutcome:
        renewal = asyncio.create_task(self._renew_lease(run.id, owner))
        cancelled = False
        try:
            if not await self._invoke_unless_cancelled(run, owner):
                logger.info("analysis %s cancelled; its graph was stopped", run.id)
                return RunOutcome(RunResult.CANCELLED, "cancelled by cancelAnalysis")
        except Exception as exc:  # noqa: BLE001 - recorded on the run and the report
            if is_transient_db_error(exc):
                return await self._after_database_loss(run, owner, exc)
            logger.exception("analysis %s failed", run.id)
            cause = failure_summary(exc)  # short: the traceback (with any SQL) is in the log above
            await self._fail(run, cause)
            return RunOutcome(RunResult.FAILED, cause)
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            renewal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewal
            refund = cancelled and self.stopping
            await self._release_lease_unless_unreachable(run.id, owner, refund_attempt=refund)
        return RunOutcome(RunResult.COMPLETED)

    async def _invoke_unless_cancelled(self, run: AnalysisRun, owner: str) -> bool:
        """Run the graph while the run stays ours; False when it was cancelled (or taken from us)
        and the graph was stopped, ending whatever LLM or search request it had in flight."""
        graph = asyncio.create_task(self._invoke(run))
        watch = asyncio.create_task(self._watch_for_cancel(run.id, owner))
        try:
            await asyncio.wait((graph, watch), return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not graph.done():
                graph.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await graph
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        if graph.cancelled():
            return False
        graph.result()  # the graph's own failure, if any
        return True

    async def _watch_for_cancel(self, run_id: uuid.UUID, owner: str) -> None:
        """Return once the run is no longer RUNNING under `owner` (cancelled, or its lease cleared);
        a check the database misses is tried again at the next one."""
        while True:
            await asyncio.sleep(CANCEL_CHECK_SECONDS)
            try:
                async with self.deps.session_factory() as session:
                    row = (
                        await session.execute(
                            select(AnalysisRun.status, AnalysisRun.lease_owner).where(
                                AnalysisRun.id == run_id
                            )
                        )
                    ).one_or_none()
            except Exception as exc:
                if not is_transient_db_error(exc):
                    raise
                continue
            if row is None or row.status == CANCELLED or row.lease_owner != owner:
                return

    async def _after_database_loss(self, run: AnalysisRun, owner: str, exc: Exception) -> RunOutcome:
        """Wait for Postgres; INTERRUPTED (resume now) once it answers, else DB_UNAVAILABLE."""
        cause = failure_summary(exc)
        reason = f"the database connection was lost ({cause})"
        logger.warning("analysis %s lost its database connection (%s); waiting for Postgres", run.id, cause)
        if await wait_for_database(self.deps.session_factory, within=DB_RECOVERY_WAIT_SECONDS):
            return RunOutcome(RunResult.INTERRUPTED, reason)
        logger.warning("analysis %s: Postgres still unreachable; the job retries later", run.id)
        self._cut_off[run.id] = (owner, reason)
        return RunOutcome(RunResult.DB_UNAVAILABLE, cause, retry_in_seconds=DB_RETRY_SECONDS)

    async def _take_cut_off(self, run_id: uuid.UUID) -> str | None:
        """For a run this process gave back while Postgres was away: release the lease that attempt
        could not (so the retry need not wait for it to lapse), and say why the attempt stopped."""
        left = self._cut_off.get(run_id)
        if left is None:
            return None
        await self._release_lease(run_id, left[0])  # still unreachable: raises, the job retries later
        del self._cut_off[run_id]
        return left[1]

    async def _release_lease_unless_unreachable(
        self, run_id: uuid.UUID, owner: str, *, refund_attempt: bool
    ) -> None:
        """Release the lease; with the database away, leave it to lapse (a release error must not
        hide why the run stopped)."""
        try:
            await self._release_lease(run_id, owner, refund_attempt=refund_attempt)
        except Exception as exc:
            if not is_transient_db_error(exc):
                raise
            cause = failure_summary(exc)
            logger.warning("analysis %s: lease not released, database unreachable (%s)", run_id, cause)

    async def _invoke(self, run: AnalysisRun) -> None:
        """Start the graph, or continue it from its last checkpoint (nothing left: nothing to do)."""
        config: RunnableConfig = {"configurable": {"thread_id": str(run.id)}}
        snapshot = await self.graph.aget_state(config)
        graph_input: PipelineInput | None = None
        if not snapshot.values:
            report = await self._report(run.report_id)
            graph_input = PipelineInput(
                report_id=str(run.report_id),
                run_id=str(run.id),
                max_iterations=run.max_iterations,
                reuse_claims=run.skip_claims_extraction,
                company_name=report.company_name if report else None,
            )
        if graph_input is not None or snapshot.next:
            await self.graph.ainvoke(graph_input, config, context=self.deps, durability="sync")

    async def _report(self, report_id: uuid.UUID) -> Report | None:
        async with self.deps.session_factory() as session:
            return await session.get(Report, report_id)

    async def _fail(self, run: AnalysisRun, message: str) -> None:
        text = f"Analysis failed: {message}. Use resumeAnalysis to continue from the last completed step."
        async with self.deps.event_log.transaction() as transaction:
            session = transaction.session
            await session.execute(
                update(AnalysisRun)
                .where(AnalysisRun.id == run.id, AnalysisRun.status != CANCELLED)
                .values(status=RunStatus.ERROR, error_message=text)
            )
            await session.execute(
                update(Report)
                .where(Report.id == run.report_id, Report.status != ReportStatus.CANCELLED)
                .values(status=ReportStatus.ERROR, error_message=text)
            )
            await transaction.emit(
                run.report_id, "error", {"message": text, "node": None}, analysis_run_id=run.id
            )
