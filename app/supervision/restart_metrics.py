"""The restarts `sibyl run` made, as metrics of the API it supervises.

The supervisor serves nothing over HTTP; it counts each restart in its run record under DATA_DIR
(`app.supervision.run_lock`), which the API reads when it is scraped, as `/readyz` reads the
processes given up on. Counts start again with each `sibyl run`, as a counter may.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from prometheus_client import REGISTRY
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.metrics.scrape import Sources
from app.supervision.run_lock import lock_path, owner_alive, read_record

#: The processes `sibyl run` supervises (their names in the record are the labels, and only these).
PROCESSES = ("api", "worker", "redis", "postgres")

#: DATA_DIRs whose run record the API reads (its own).
SOURCES: Sources[Path] = Sources()


class SupervisorRestarts(Collector):
    """Restarts and given-up processes of a live `sibyl run` of each attached DATA_DIR (no samples
    when the API runs without one)."""

    def __init__(self, sources: Sources[Path]) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        restarts = CounterMetricFamily(
            "sibyl_supervisor_restarts",
            "Processes `sibyl run` restarted after they died, by process, since it started.",
            labels=["process"],
        )
        gave_up = GaugeMetricFamily(
            "sibyl_supervisor_gave_up",
            "1 for each process `sibyl run` stopped restarting (it kept failing; `/readyz` names it).",
            labels=["process"],
        )
        for data_dir in dict.fromkeys(self.sources):
            record = read_record(lock_path(data_dir))
            if not record or not owner_alive(record):
                continue
            counts = record.get("restarts")
            down = record.get("down")
            for process in PROCESSES:
                restarts.add_metric([process], _count(counts, process))
                gave_up.add_metric([process], 1 if isinstance(down, dict) and process in down else 0)
        yield restarts
        yield gave_up


def _count(counts: object, name: str) -> int:
    value = counts.get(name, 0) if isinstance(counts, dict) else 0
    return value if isinstance(value, int) and value >= 0 else 0


REGISTRY.register(SupervisorRestarts(SOURCES))
