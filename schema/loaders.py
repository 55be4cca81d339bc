"""Per-request DataLoaders: every list of claims, findings, verdicts or runs loads in one query.

A resolver asks `info.context.loaders.<loader>.load(key)`; keys requested in the same tick are
batched into one `WHERE key IN (...)` query, so a page of 200 claims with their verdicts and
findings costs a fixed handful of queries however many claims it holds. Loaders are keyed by ids
that came from already-authorised parents (a report of the caller's organisation); the two that
take ids from clients (`claim`, `report`) filter by organisation themselves.

The batch functions are closures over the session factory and organisation only, never over the
`Loaders` object: a loader that referred back to its owner would make a reference cycle, and every
row a request loaded (hundreds of ORM objects for a page of claims) would then wait for the cyclic
garbage collector instead of being freed when the request ends. Those collections (full ones,
walking the whole heap) cost about as much CPU as the request itself under load.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.dialects.postgresql import distinct_on
from strawberry.dataloader import DataLoader

from app.db.models import AnalysisRun, Claim, Finding, Report, RoutingAssignment, Verdict
from app.db.runs import NEWEST_RUN_FIRST, latest_run_id_of
from schema.transport.request_reads import ReadSessions

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
BatchFn = Callable[[list[uuid.UUID]], Awaitable[list[Any]]]


class Loaders:
    """The DataLoaders of one request, scoped to the caller's organisation."""

    def __init__(self, session_factory: ReadSessions, organisation_id: uuid.UUID) -> None:
        rows = _row_reader(session_factory)
        self.report = DataLoader(_reports(rows, organisation_id))
        self.claim = DataLoader(_claims(rows, organisation_id))
        self.latest_run = DataLoader(_latest_runs(rows))
        self.verdicts_by_claim = DataLoader(_current_run_rows(rows, Verdict, Verdict.iteration))
        self.findings_by_claim = DataLoader(_current_run_rows(rows, Finding, Finding.created_at))
        self.routing_by_claim = DataLoader(
            _current_run_rows(rows, RoutingAssignment, RoutingAssignment.iteration)
        )
        self.claims_count = DataLoader(_counter(session_factory, Claim.report_id))
        self.findings_count = DataLoader(_counter(session_factory, Finding.analysis_run_id))
        self.verdicts_count = DataLoader(
            _counter(session_factory, Verdict.analysis_run_id, func.distinct(Verdict.claim_id))
        )


RowReader = Callable[[Select[Any]], Awaitable[Sequence[Any]]]


def _row_reader(session_factory: ReadSessions) -> RowReader:
    async def rows(query: Select[Any]) -> Sequence[Any]:
        async with session_factory() as session:
            return list(await session.scalars(query))

    return rows


def _reports(rows: RowReader, organisation_id: uuid.UUID) -> BatchFn:
    async def load(ids: list[uuid.UUID]) -> list[Any]:
        found = await rows(
            select(Report).where(Report.id.in_(ids), Report.organisation_id == organisation_id)
        )
        return _one_each(ids, found, lambda row: row.id)

    return load


def _claims(rows: RowReader, organisation_id: uuid.UUID) -> BatchFn:
    async def load(ids: list[uuid.UUID]) -> list[Any]:
        found = await rows(
            select(Claim)
            .join(Report, Report.id == Claim.report_id)
            .where(Claim.id.in_(ids), Report.organisation_id == organisation_id)
        )
        return _one_each(ids, found, lambda row: row.id)

    return load


def _latest_runs(rows: RowReader) -> BatchFn:
    async def load(report_ids: list[uuid.UUID]) -> list[Any]:
        found = await rows(
            select(AnalysisRun)
            .where(AnalysisRun.report_id.in_(report_ids))
            .ext(distinct_on(AnalysisRun.report_id))
            .order_by(AnalysisRun.report_id, *NEWEST_RUN_FIRST)
        )
        return _one_each(report_ids, found, lambda row: row.report_id)

    return load


def _current_run_rows(
    rows: RowReader, model: type[Verdict] | type[Finding] | type[RoutingAssignment], order: Any
) -> BatchFn:
    """A batch function: per claim id, its rows from its report's latest run, ordered by `order`."""

    async def load(claim_ids: list[uuid.UUID]) -> list[Any]:
        found = await rows(
            select(model)
            .join(Claim, Claim.id == model.claim_id)
            .where(
                model.claim_id.in_(claim_ids),
                model.analysis_run_id == latest_run_id_of(Claim.report_id),
            )
            .order_by(order, model.id)
        )
        return _all_each(claim_ids, found, lambda row: row.claim_id)

    return load


def _counter(session_factory: ReadSessions, key: Any, counted: Any = None) -> BatchFn:
    """A batch function: per key, how many rows carry it (`count(counted)`, default all rows)."""

    async def load(keys: list[uuid.UUID]) -> list[Any]:
        async with session_factory() as session:
            rows = await session.execute(
                select(key, func.count(counted) if counted is not None else func.count())
                .where(key.in_(keys))
                .group_by(key)
            )
            counts = {row[0]: int(row[1]) for row in rows}
        return [counts.get(wanted, 0) for wanted in keys]

    return load


def _one_each(keys: Iterable[K], rows: Iterable[V], key_of: Callable[[V], K]) -> list[V | None]:
    by_key = {key_of(row): row for row in rows}
    return [by_key.get(key) for key in keys]


def _all_each(keys: Iterable[K], rows: Iterable[V], key_of: Callable[[V], K]) -> list[list[V]]:
    grouped: defaultdict[K, list[V]] = defaultdict(list)
    for row in rows:
        grouped[key_of(row)].append(row)
    return [grouped.get(key, []) for key in keys]
