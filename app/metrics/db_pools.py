"""Database connection pools in use, read from SQLAlchemy's pools each time the process is scraped."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.ext.asyncio import AsyncEngine

from app.metrics.scrape import Sources

#: (pool name, engine): `api` or `worker`, as the process that attaches it calls it.
SOURCES: Sources[tuple[str, AsyncEngine]] = Sources()


class DbPools(Collector):
    """Size, connections checked out and overflow connections of each attached engine's pool; pools
    attached under one name (several apps in one process) are added up."""

    def __init__(self, sources: Sources[tuple[str, AsyncEngine]]) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        figures: dict[str, list[int]] = {}
        for name, engine in self.sources:
            pool = engine.pool
            totals = figures.setdefault(name, [0, 0, 0])
            for index, method in enumerate(("size", "checkedout", "overflow")):
                read = getattr(pool, method, None)  # a pool without a queue (NullPool) has none of them
                totals[index] += max(int(read()), 0) if callable(read) else 0
        families = [
            GaugeMetricFamily(
                "sibyl_db_pool_size", "Connections the pool keeps (POOL_SIZE).", labels=["pool"]
            ),
            GaugeMetricFamily(
                "sibyl_db_pool_checked_out", "Connections in use by requests or jobs now.", labels=["pool"]
            ),
            GaugeMetricFamily(
                "sibyl_db_pool_overflow",
                "Connections open beyond the pool's size now (negative overflow reads 0).",
                labels=["pool"],
            ),
        ]
        for name, totals in sorted(figures.items()):
            for family, total in zip(families, totals, strict=True):
                family.add_metric([name], total)
        yield from families


REGISTRY.register(DbPools(SOURCES))
