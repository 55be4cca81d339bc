"""How the claim types read their rows: `node(id)` scoped to the caller's organisation, a claim's
prefetched or DataLoader-loaded findings and verdicts, and the current verdict of a run."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry
from sqlalchemy import select
from strawberry import relay
from strawberry.dataloader import DataLoader

from app.db.models import AnalysisRun as AnalysisRunModel
from app.db.models import Claim as ClaimModel
from app.db.models import Finding as FindingModel
from app.db.models import Report as ReportModel
from app.db.models import Verdict as VerdictModel
from schema.context import Context
from schema.types.nodes import nodes_in_order

T = TypeVar("T")
R = TypeVar("R")


async def resolve_scoped(
    info: strawberry.Info[Context], node_ids: list[str], type_name: str, model: Any, convert: Any
) -> list[Any]:
    """`node(id)` for analysis types: rows whose report belongs to the caller's organisation.

    A claim names its report; findings and verdicts are reached through their analysis run (a
    finding need not be about a claim). `convert(row, report_id)` builds each node.
    """
    report_id = ClaimModel.report_id if model is ClaimModel else AnalysisRunModel.report_id

    def query(ids: list[uuid.UUID]) -> Any:
        statement = select(model, report_id).where(model.id.in_(ids))
        if model is not ClaimModel:
            statement = statement.join(AnalysisRunModel, AnalysisRunModel.id == model.analysis_run_id)
        return statement.join(ReportModel, ReportModel.id == report_id).where(
            ReportModel.organisation_id == info.context.organisation_id
        )

    return await nodes_in_order(info, node_ids, type_name, query, convert)


def converted(
    prefetched: list[R] | None,
    info: strawberry.Info[Context],
    loader: Callable[[Context], DataLoader[uuid.UUID, list[R]]],
    claim_id: str,
    convert: Callable[[list[R]], T],
) -> T:
    """`convert` applied to a claim's rows: those `Report.claims` prefetched for its page, answered
    synchronously (graphql-core awaits only what is awaitable, and a page of 200 claims spares 400
    awaits), else the DataLoader's (`loader` of the context) once loaded (graphql-core awaits the
    coroutine). The context is consulted only then: 400 times a page, that lookup is not free."""
    if prefetched is not None:
        return convert(prefetched)
    rows = loader(info.context).load(uuid.UUID(claim_id))

    async def later() -> T:
        return convert(await rows)

    return cast(T, later())


def verdicts_loader(context: Context) -> DataLoader[uuid.UUID, list[VerdictModel]]:
    return context.loaders.verdicts_by_claim


def findings_loader(context: Context) -> DataLoader[uuid.UUID, list[FindingModel]]:
    return context.loaders.findings_by_claim


@functools.lru_cache(maxsize=256)
def report_global_id(report_id: uuid.UUID) -> strawberry.ID:
    """A report's global id (the same for every verdict of a page: encoded once)."""
    return strawberry.ID(str(relay.GlobalID("Report", str(report_id))))


def current_verdict(rows: list[VerdictModel]) -> VerdictModel | None:
    """The final verdict if the run has one, else the latest pass's (rows are in pass order)."""
    final = [row for row in rows if row.is_final]
    return final[-1] if final else (rows[-1] if rows else None)
