"""A run's verdicts before its end, on one connection: `verdictIssued` ahead of the run's last event.

A client following `analysisEvents` and `verdictIssued` on one WebSocket takes the run's last event
(`pipeline_completed`, `run_cancelled`, or an `error` of no node: `ends_run`) to mean "the run's
verdicts are all in", and stops reading. The two subscriptions are separate streams over the same
events: `analysisEvents` sends each stored event as it is, `verdictIssued` first loads the verdict
an event announces, so on their own the end overtakes verdicts still being loaded. The rule is kept
per connection, by the `VerdictsFirst` on its `Context` (Strawberry makes one context per WebSocket
connection and gives it to every operation on it):

* each `verdictIssued` subscription is a `VerdictFollower`: per report, the last event sequence
  number it has handled (its verdict sent, or nothing to send);
* before `analysisEvents` sends a run's last event it waits until every follower on the connection
  that owes the report's verdicts has handled the events before it; at most
  `VERDICTS_FIRST_TIMEOUT_SECONDS`, logged when it runs out, so a stuck verdict stream never holds
  the events back for good;
* while a follower of its report is on the connection, `analysisEvents` does not park behind a
  fan-out leader (`schema.fast_execution`): a parked subscriber's events are written by another
  subscriber's pipeline, which cannot wait for this connection's verdicts.

A report's follower owes every verdict after the event it started at. An organisation-wide one
hears verdict events only, live: it owes a report's verdicts from the first it received of that
report on (the earlier ones were issued before it listened). Over HTTP each operation has its own
context, so nothing is waited for.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from app.events import StreamEvent as StoredEvent
from app.services.run_control import RUN_CANCELLED_EVENT

logger = logging.getLogger(__name__)

VERDICT_EVENT = "verdict_issued"
RUN_COMPLETED_EVENT = "pipeline_completed"
#: With no `node` in its data: the run stopped (a node's own errors name the node and go on).
RUN_FAILED_EVENT = "error"
#: How long a run's last event waits for the connection's verdict streams.
VERDICTS_FIRST_TIMEOUT_SECONDS = 5.0

Wake = Callable[[], None]


def ends_run(event: StoredEvent) -> bool:
    """Whether `event` is its run's last: completed, cancelled, or failed."""
    if event.event_type in (RUN_COMPLETED_EVENT, RUN_CANCELLED_EVENT):
        return True
    return event.event_type == RUN_FAILED_EVENT and event.data.get("node") is None


@dataclass(eq=False)
class VerdictFollower:
    """One `verdictIssued` subscription: how far it has handled each report's events."""

    order: VerdictsFirst
    report_id: uuid.UUID | None  # None: every report of the organisation
    handled: dict[uuid.UUID, int] = field(default_factory=dict)  # report: last sequence handled
    first_received: dict[uuid.UUID, int] = field(default_factory=dict)  # report: first verdict heard

    def received(self, event: StoredEvent) -> None:
        """`event` has reached the subscription (its verdict may still be loading)."""
        self.first_received.setdefault(event.report_id, event.seq)

    def passed(self, event: StoredEvent) -> None:
        """`event` is handled: its verdict sent (the client asked for the next), or none to send."""
        self.handled[event.report_id] = max(self.handled.get(event.report_id, 0), event.seq)
        self.order.advanced()

    def follows(self, report_id: uuid.UUID) -> bool:
        return self.report_id is None or self.report_id == report_id

    def owes(self, report_id: uuid.UUID, end: int, last_verdict: int) -> bool:
        """Whether it has yet to handle a verdict of `report_id` issued before event `end`
        (`last_verdict`: the last verdict event before it that the waiting stream saw)."""
        done = self.handled.get(report_id, 0)
        if self.report_id is not None:
            return self.report_id == report_id and done < end - 1
        first = self.first_received.get(report_id)
        return first is not None and first <= last_verdict and done < last_verdict


class VerdictsFirst:
    """The `verdictIssued` subscriptions of one connection, and the run ends waiting for them."""

    def __init__(self) -> None:
        self._followers: set[VerdictFollower] = set()
        self._wakes: dict[uuid.UUID, set[Wake]] = {}
        self._changed: asyncio.Event | None = None

    @contextmanager
    def following(self, report_id: uuid.UUID | None, after: int = 0) -> Iterator[VerdictFollower]:
        """A `verdictIssued` subscription of `report_id` (None: the organisation) for its lifetime;
        a report's starts owing the verdicts after event `after`."""
        follower = VerdictFollower(self, report_id)
        if report_id is not None:
            follower.handled[report_id] = after
        self._followers.add(follower)
        for report, wakes in self._wakes.items():
            if follower.follows(report):
                for wake in list(wakes):
                    wake()  # off fan-out: its run's end must come through its own stream
        try:
            yield follower
        finally:
            self._followers.discard(follower)
            self.advanced()

    def gate(self, report_id: uuid.UUID, wake: Wake | None = None) -> RunEndGate:
        """For an `analysisEvents` subscription of `report_id`; `wake` takes it off fan-out."""
        return RunEndGate(self, report_id, wake)

    def followed(self, report_id: uuid.UUID) -> bool:
        """Whether a `verdictIssued` subscription on the connection follows `report_id`."""
        return any(follower.follows(report_id) for follower in self._followers)

    def advanced(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def verdicts_in(self, end: StoredEvent, last_verdict: int) -> None:
        """Return once no follower owes a verdict issued before `end`, or after the timeout."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        waited = False
        if any(follower.report_id is None for follower in self._followers):
            await asyncio.sleep(0)  # their readers note what the hub has just handed them
        while behind := sum(f.owes(end.report_id, end.seq, last_verdict) for f in self._followers):
            remaining = started + VERDICTS_FIRST_TIMEOUT_SECONDS - loop.time()
            if remaining <= 0:
                logger.warning(
                    "report %s: sending %s (event %d) with %d verdictIssued subscription(s) of the same "
                    "connection still behind after %.1f s",
                    end.report_id,
                    end.event_type,
                    end.seq,
                    behind,
                    VERDICTS_FIRST_TIMEOUT_SECONDS,
                )
                return
            if self._changed is None:
                self._changed = asyncio.Event()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
            waited = True
        if waited:
            logger.debug(
                "report %s: %s waited %.3f s for verdicts",
                end.report_id,
                end.event_type,
                loop.time() - started,
            )

    def add_wake(self, report_id: uuid.UUID, wake: Wake) -> None:
        """`wake` takes an `analysisEvents` subscription of `report_id` off fan-out (called when a
        follower of the report starts)."""
        self._wakes.setdefault(report_id, set()).add(wake)

    def drop_wake(self, report_id: uuid.UUID, wake: Wake) -> None:
        wakes = self._wakes.get(report_id)
        if wakes is not None:
            wakes.discard(wake)
            if not wakes:
                del self._wakes[report_id]


@dataclass(eq=False)
class RunEndGate:
    """One `analysisEvents` subscription's side of the rule."""

    order: VerdictsFirst
    report_id: uuid.UUID
    wake: Wake | None

    def lets_park(self) -> bool:
        """Whether the subscription may leave delivery to a fan-out leader: not while a verdict
        stream of its report is on the connection."""
        return not self.order.followed(self.report_id)

    async def held(self, stream: AsyncIterator[StoredEvent]) -> AsyncIterator[StoredEvent]:
        """`stream`, each run's last event held until the connection's verdicts of the run are sent."""
        last_verdict = 0
        if self.wake is not None:
            self.order.add_wake(self.report_id, self.wake)
        try:
            async for event in stream:
                if event.event_type == VERDICT_EVENT:
                    last_verdict = event.seq
                elif ends_run(event):
                    await self.order.verdicts_in(event, last_verdict)
                yield event
        finally:
            if self.wake is not None:
                self.order.drop_wake(self.report_id, self.wake)
