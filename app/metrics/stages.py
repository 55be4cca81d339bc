"""Time spent per stage of one piece of work, observed once per stage when the work is done."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Histogram


class StageClock:
    """Adds up the time one piece of work spends in each stage; `observe` records each total once.

    A stage entered several times (a parse reads its pages batch by batch) is observed as its total,
    so the histogram's count is the number of parses, not of batches.

        clock = StageClock(PARSE_STAGE_SECONDS)
        with clock.stage("read_pages"):
            ...
        clock.observe()
    """

    def __init__(self, histogram: Histogram) -> None:
        self._histogram = histogram
        self._seconds: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self._seconds[name] = self._seconds.get(name, 0.0) + time.perf_counter() - started

    def observe(self) -> None:
        """Record each stage's total (the work is done); the clock starts again from nothing."""
        for name, seconds in self._seconds.items():
            self._histogram.labels(stage=name).observe(seconds)
        self._seconds.clear()
