"""Following an analysis live: activity lines from `analysisEvents`, progress from `Report.analysis`.

The end is decided by polling the report's status, never by the event stream alone, so a dropped or
blocked WebSocket degrades the display but cannot hang or fail the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from contextlib import aclosing

from clients.console.activity import claim_label, describe, labels_in, referenced_claims
from clients.console.display import Display
from clients.sibyl.client import SibylClient
from clients.sibyl.errors import AuthenticationError, SibylError, WaitTimeout
from clients.sibyl.ids import node_uuid
from clients.sibyl.models import FINAL_STATUSES, Report, StreamEvent

MIN_REFRESH_SECONDS = 0.5  # at most two progress queries a second, however fast events come
POLL_SECONDS = 2.0  # progress query when no event arrives
DRAIN_SECONDS = 2.0  # after the report is final, how long to wait for the closing events
LABEL_RELOAD_SECONDS = 5.0


class ClaimLabels:
    """Names claims in activity lines: from `claims_extracted` events, else from `Report.claims`."""

    def __init__(self, client: SibylClient, report_id: str) -> None:
        self.client = client
        self.report_id = report_id
        self.labels: dict[str, str] = {}
        self._loaded_at = float("-inf")

    async def resolve(self, event: StreamEvent) -> None:
        """Learn the labels of the claims `event` refers to (one bounded query when unknown)."""
        self.labels.update(labels_in(event))
        unknown = [claim for claim in referenced_claims(event) if claim not in self.labels]
        if unknown and time.monotonic() - self._loaded_at > LABEL_RELOAD_SECONDS:
            self._loaded_at = time.monotonic()
            try:
                claims = await self.client.claims(self.report_id)
            except SibylError:
                return
            for claim in claims:
                label = claim_label(claim.source_page, claim.text)
                self.labels[claim.id] = label
                self.labels[node_uuid(claim.id) or claim.id] = label


class Follower:
    """Shows an analysis of one report until the report is COMPLETED or ERROR."""

    def __init__(self, client: SibylClient, report_id: str, display: Display) -> None:
        self.client = client
        self.report_id = report_id
        self.display = display
        self.labels = ClaimLabels(client, report_id)
        self._changed = asyncio.Event()
        self._finished = asyncio.Event()

    async def run(self, after_sequence: int, deadline: float | None) -> Report:
        """Follow the events after sequence `after_sequence`; returns the final report (`WaitTimeout`
        at `deadline`)."""
        events = asyncio.create_task(self._show_events(after_sequence))
        try:
            report = await self._watch(events, deadline)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._finished.wait(), DRAIN_SECONDS)
            return report
        finally:
            events.cancel()
            await asyncio.gather(events, return_exceptions=True)
            self.display.close()

    async def _show_events(self, after_sequence: int) -> None:
        async with aclosing(self.client.events(self.report_id, after_sequence)) as events:
            async for event in events:
                await self.labels.resolve(event)
                line = describe(event, self.labels.labels)
                if line:
                    self.display.line(line)
                self._changed.set()
                if event.event_type in ("pipeline_completed", "run_cancelled") or (
                    event.event_type == "error" and event.get("node") is None
                ):
                    self._finished.set()

    def _check_events(self, events: asyncio.Task[None]) -> asyncio.Task[None] | None:
        """Re-raise an auth failure of the event stream; warn once on any other and stop watching it."""
        if not events.done() or events.cancelled():
            return events
        error = events.exception()
        if isinstance(error, AuthenticationError):
            raise error
        if error is not None:
            self.display.line(f"{'warning'.ljust(12)} live events unavailable ({error}); polling instead")
        self._finished.set()
        return None

    async def _watch(self, events: asyncio.Task[None], deadline: float | None) -> Report:
        watched: asyncio.Task[None] | None = events
        while True:
            queried = time.monotonic()
            self._changed.clear()
            report = await self.client.report(self.report_id)
            self.display.progress(report)
            if report.status in FINAL_STATUSES:
                return report
            if deadline is not None and queried >= deadline:
                raise WaitTimeout(f"Report {self.report_id} is still {report.status}.", report.status)
            if watched is not None:
                watched = self._check_events(watched)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), POLL_SECONDS)
            await asyncio.sleep(max(0.0, queried + MIN_REFRESH_SECONDS - time.monotonic()))
