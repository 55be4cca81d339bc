"""A report's rows of one kind from its latest analysis (`Report.findings`, `verdicts`, `routingPlan`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, TypeVar

import strawberry
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import distinct_on

from app.db.models import Finding, RoutingAssignment, Verdict
from schema.context import Context

#: Most rows a report-wide list returns at once.
MAX_REPORT_LIST = 1000

RowT = TypeVar("RowT", Finding, Verdict, RoutingAssignment)


async def latest_run_rows(
    info: strawberry.Info[Context],
    report_id: uuid.UUID,
    model: type[RowT],
    *,
    iteration: int | None = None,
    conditions: Sequence[Any] = (),
    limit: int = MAX_REPORT_LIST,
) -> list[RowT]:
    """Rows of `model` from the report's latest run meeting `conditions`, by pass then time.

    [] if the report was never analysed.
    """
    run = await info.context.loaders.latest_run.load(report_id)
    if run is None:
        return []
    query: Any = select(model).where(model.analysis_run_id == run.id, *conditions)
    if iteration is not None:
        query = query.where(model.iteration == iteration)
    query = query.order_by(model.iteration, model.created_at, model.id).limit(limit)
    async with info.context.read_sessions() as session:
        return list(await session.scalars(query))


async def current_verdicts(info: strawberry.Info[Context], report_id: uuid.UUID) -> list[Verdict]:
    """Each claim's current verdict in the report's latest run (`claim_rows.current_verdict`)."""
    run = await info.context.loaders.latest_run.load(report_id)
    if run is None:
        return []
    query = (
        select(Verdict)
        .where(Verdict.analysis_run_id == run.id)
        .ext(distinct_on(Verdict.claim_id))
        .order_by(Verdict.claim_id, Verdict.is_final.desc(), Verdict.iteration.desc())
    )
    async with info.context.read_sessions() as session:
        return list(await session.scalars(query))
