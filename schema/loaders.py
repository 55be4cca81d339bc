"""Per-request DataLoaders: every list of claims, findings, verdicts or runs loads in one query.

A resolver asks `info.context.loaders.<loader>.load(key)`; keys requested in the same tick are
batched into one `WHERE key IN (...)` query, so a page of 200 claims with their verdicts and
findings costs a fixed handful of queries however many claims it holds. Loaders are keyed by ids
that came from already-authorised parents (a report of the caller's organisation); the two that
take ids from clients (`claim`, `report`) filter by organisation themselves.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.dialects.postgresql import distinct_on
from strawberry.dataloader import DataLoader

from app.db.models import AnalysisRun, Claim, Finding, Report, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.services.runs import NEWEST_RUN_FIRST, latest_run_id_of

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Loaders:
    """The DataLoaders of one request, scoped to the caller's organisation."""

    def __init__(self, session_factory: SessionFactory, organisation_id: uuid.UUID) -> None:
        self._session_factory = session_factory
        self._organisation_id = organisation_id
        self.report = DataLoader(self._reports)
        self.claim = DataLoader(self._claims)
        self.latest_run = DataLoader(self._latest_runs)
        self.verdicts_by_claim = DataLoader(self._current_run_rows(Verdict, Verdict.iteration))
        self.findings_by_claim = DataLoader(self._current_run_rows(Finding, Finding.created_at))
        self.routing_by_claim = DataLoader(
            self._current_run_rows(RoutingAssignment, RoutingAssignment.iteration)
        )
        self.claims_count = DataLoader(self._counter(Claim.report_id))
        self.findings_count = DataLoader(self._counter(Finding.analysis_run_id))
        self.verdicts_count = DataLoader(
            self._counter(Verdict.analysis_run_id, func.distinct(Verdict.claim_id))
        )

    async def _rows(self, query: Select[Any]) -> Sequence[Any]:
        async with self._session_factory() as session:
            return list(await session.scalars(query))

    async def _reports(self, ids: list[uuid.UUID]) -> list[Report | None]:
        rows = await self._rows(
            select(Report).where(Report.id.in_(ids), Report.organisation_id == self._organisation_id)
        )
        return _one_each(ids, rows, lambda row: row.id)

    async def _claims(self, ids: list[uuid.UUID]) -> list[Claim | None]:
        rows = await self._rows(
            select(Claim)
            .join(Report, Report.id == Claim.report_id)
            .where(Claim.id.in_(ids), Report.organisation_id == self._organisation_id)
        )
        return _one_each(ids, rows, lambda row: row.id)

    async def _latest_runs(self, report_ids: list[uuid.UUID]) -> list[AnalysisRun | None]:
        rows = await self._rows(
            select(AnalysisRun)
            .where(AnalysisRun.report_id.in_(report_ids))
            .ext(distinct_on(AnalysisRun.report_id))
            .order_by(AnalysisRun.report_id, *NEWEST_RUN_FIRST)
        )
        return _one_each(report_ids, rows, lambda row: row.report_id)

    def _current_run_rows(
        self, model: type[Verdict] | type[Finding] | type[RoutingAssignment], order: Any
    ) -> Callable[[list[uuid.UUID]], Any]:
        """A batch function: per claim id, its rows from its report's latest run, ordered by `order`."""

        async def load(claim_ids: list[uuid.UUID]) -> list[list[Any]]:
            rows = await self._rows(
                select(model)
                .join(Claim, Claim.id == model.claim_id)
                .where(
                    model.claim_id.in_(claim_ids),
                    model.analysis_run_id == latest_run_id_of(Claim.report_id),
                )
                .order_by(order, model.id)
            )
            return _all_each(claim_ids, rows, lambda row: row.claim_id)

        return load

    def _counter(self, key: Any, counted: Any = None) -> Callable[[list[uuid.UUID]], Any]:
        """A batch function: per key, how many rows carry it (`count(counted)`, default all rows)."""

        async def load(keys: list[uuid.UUID]) -> list[int]:
            async with self._session_factory() as session:
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
