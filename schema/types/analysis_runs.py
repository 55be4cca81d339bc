"""Every analysis of a report, not only its latest (`Report.analyses`, `Analysis.verdicts`).

`Report.analysis` and the report-wide lists (`claims`, `findings`, `verdicts`) describe the latest
run. When a re-run fails or is cancelled, the last COMPLETED run's verdicts are still stored (until
a new claim extraction replaces the claims they judged), and these fields reach them.
"""

from __future__ import annotations

import uuid
from typing import Any

import strawberry
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import distinct_on

from app.db.models import AnalysisRun
from app.db.models import Verdict as VerdictModel
from app.db.runs import NEWEST_RUN_FIRST
from schema.context import Context
from schema.types.pagination import check_first

#: Most runs `Report.analyses` lists at once.
MAX_ANALYSES = 50
#: Most verdicts `Analysis.verdicts` returns at once (the exports' claims page size).
MAX_RUN_VERDICTS = 200


async def report_runs(
    info: strawberry.Info[Context], report_id: uuid.UUID, statuses: list[str] | None, first: int
) -> list[AnalysisRun]:
    """The report's runs, newest first, optionally only those in `statuses`."""
    check_first(first, MAX_ANALYSES)
    query: Any = select(AnalysisRun).where(AnalysisRun.report_id == report_id)
    if statuses:
        query = query.where(AnalysisRun.status.in_(statuses))
    async with info.context.read_sessions() as session:
        return list(await session.scalars(query.order_by(*NEWEST_RUN_FIRST).limit(first)))


async def run_verdicts(
    info: strawberry.Info[Context], run_id: uuid.UUID, first: int, offset: int
) -> list[VerdictModel]:
    """Each claim's current verdict in the run (final, else its latest pass), by claim id."""
    check_first(first, MAX_RUN_VERDICTS)
    query = (
        select(VerdictModel)
        .where(VerdictModel.analysis_run_id == run_id)
        .ext(distinct_on(VerdictModel.claim_id))
        .order_by(VerdictModel.claim_id, VerdictModel.is_final.desc(), VerdictModel.iteration.desc())
        .offset(max(offset, 0))
        .limit(first)
    )
    async with info.context.read_sessions() as session:
        return list(await session.scalars(query))
