"""What LangGraph's checkpointer has stored of a run, for tests that kill a worker mid-run.

A specialist's node logs its end and stores its `agent_completed` event before it returns; LangGraph
stores the node's writes after that. A test that kills the worker to check that finished specialists
are not run again must wait for those writes, not sleep a fixed time a slow machine may overrun.
"""

from __future__ import annotations

import uuid

from sqlalchemy import text

from app.db.session import SessionFactory


def stored_tasks_sql(placeholder: str) -> str:
    """SQL counting the tasks of the run's current step (the specialists working in parallel) whose
    writes are stored: one step's writes are keyed by the checkpoint it started from, the latest.
    `placeholder` is the driver's parameter for the run id (thread), e.g. `%s` or `:thread`."""
    return f"""
SELECT count(DISTINCT task_id) FROM checkpoint_writes
WHERE thread_id = {placeholder} AND checkpoint_ns = '' AND checkpoint_id = (
    SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = {placeholder} AND checkpoint_ns = ''
)"""


def routed_agents_sql(placeholder: str) -> str:
    """SQL counting the specialists the first pass of a run sent work to: one task each."""
    return f"""
SELECT count(DISTINCT agent) FROM routing_assignments
WHERE analysis_run_id = {placeholder} AND iteration = 0"""


async def finished_tasks_stored(session_factory: SessionFactory, run_id: uuid.UUID, running: int) -> bool:
    """Whether every specialist task of `run_id`'s first pass but the `running` ones has its writes
    stored (the others finished: some log their end, the default ones return at once)."""
    async with session_factory() as session:
        stored = await session.scalar(text(stored_tasks_sql(":thread")), {"thread": str(run_id)})
        routed = await session.scalar(text(routed_agents_sql(":run")), {"run": run_id})
    return int(routed or 0) > 0 and int(stored or 0) >= int(routed or 0) - running
