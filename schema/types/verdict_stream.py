"""The `verdictIssued` subscription: verdicts as the judge issues them, for one report or all.

The subscription reads the event stream ahead of what it has sent (`_ReadAhead`, at most
`READ_AHEAD` events): the verdicts of the events that arrive together start loading at once, in one
query shared with the organisation's other subscribers (`schema.types.verdict_loads`), and are sent
in the order of their events. So the stream keeps up with the judge however many verdicts a pass
issues, instead of falling a round trip per verdict behind.

On a WebSocket each subscription is a follower of its connection's `VerdictsFirst`
(`schema.verdicts_first`): it records how far it has handled each report's events, and
`analysisEvents` on the same connection holds a run's last event until the run's verdicts are sent.

`isFinal` comes from the event, not from the loaded row: the row is marked final only when the run
completes (`compile_report`), so reading it at delivery time made the flag depend on how late the
subscriber read it. The judge knows at issue time whether a later pass will judge the claim again,
and says so in the event (`is_final`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Annotated

import strawberry

from app.events import StreamEvent as StoredEvent
from schema.context import Context
from schema.subscription_metrics import open_subscription
from schema.types.claims import Verdict
from schema.types.reports_lookup import followed_report
from schema.types.verdict_loads import SHARED, Load, LoadedVerdict, outcome, verdicts_reader
from schema.verdicts_first import VERDICT_EVENT, VERDICTS_FIRST_TIMEOUT_SECONDS

#: Events read but not yet sent, at most: a client that stops reading holds the stream back here
#: (and the event hub keeps the rest: it catches up from Postgres), not in memory.
READ_AHEAD = 512

Pending = tuple[StoredEvent, Load | None]


class _ReadAhead:
    """Events read from the hub ahead of delivery, each verdict's load started as it arrived.

    A task follows the stream and tells `heard` of each event at once; the events it gets in one go
    (the hub hands over what it has without waiting) are passed to `arrived` together, on the next
    turn of the loop, so a burst of verdicts is one query.
    """

    def __init__(
        self,
        events: AsyncIterator[StoredEvent],
        heard: Callable[[StoredEvent], None],
        arrived: Callable[[list[StoredEvent]], list[Load | None]],
    ) -> None:
        self._events = events
        self._heard = heard
        self._arrived = arrived
        self._unstarted: list[StoredEvent] = []
        self._ready: list[Pending] = []
        self._readable = asyncio.Event()
        self._room = asyncio.Event()
        self._failure: BaseException | None = None
        self._ended = False
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> _ReadAhead:
        self._task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._ended = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def take(self) -> list[Pending]:
        """Everything read so far, waiting for one event at least; empty when the stream has ended."""
        while not self._ready:
            if self._failure is not None:
                raise self._failure
            if self._ended:
                return []
            self._readable.clear()
            await self._readable.wait()
        taken, self._ready = self._ready, []
        self._room.set()
        return taken

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            async for event in self._events:
                self._heard(event)
                if not self._unstarted:
                    loop.call_soon(self._start)
                self._unstarted.append(event)
                while len(self._ready) + len(self._unstarted) >= READ_AHEAD:
                    self._room.clear()
                    await self._room.wait()
        except Exception as exc:
            self._failure = exc
        finally:
            self._start()
            self._ended = True
            self._readable.set()
            close = getattr(self._events, "aclose", None)
            if close is not None:
                await close()

    def _start(self) -> None:
        burst, self._unstarted = self._unstarted, []
        if not burst or self._ended:
            return
        try:
            self._ready.extend(zip(burst, self._arrived(burst), strict=True))
        except Exception as exc:
            self._failure = exc
        self._readable.set()


class _Loads:
    """One subscription's verdict loads: shared with the organisation's other subscribers, and
    cancelled when the subscription goes away."""

    def __init__(self, context: Context) -> None:
        self._organisation_id = context.organisation_id
        self._read = verdicts_reader(context.services.session_factory, self._organisation_id)
        self._started: set[asyncio.Task[None]] = set()

    def start(self, events: list[StoredEvent]) -> list[Load | None]:
        wanted = [_announced(event) for event in events]
        loads = iter(SHARED.start(self._organisation_id, [w for w in wanted if w], self._read, self._started))
        return [next(loads) if verdict_id else None for verdict_id in wanted]

    async def verdict(self, event: StoredEvent, load: Load) -> LoadedVerdict | None:
        verdict_id = _announced(event)
        assert verdict_id is not None
        return await outcome(
            load, lambda: SHARED.start(self._organisation_id, [verdict_id], self._read, self._started)[0]
        )

    def cancel(self) -> None:
        for task in list(self._started):
            task.cancel()


def _announced(event: StoredEvent) -> uuid.UUID | None:
    """The verdict a `verdict_issued` event announces (None: another event, or no verdict id)."""
    if event.event_type != VERDICT_EVENT:
        return None
    try:
        return uuid.UUID(str(event.data.get("verdict_id", "")))
    except ValueError:
        return None


async def _following(
    info: strawberry.Info[Context], report_id: strawberry.ID | None
) -> tuple[AsyncIterator[StoredEvent], uuid.UUID | None, int]:
    """The events to read, the report followed (None: the organisation) and the last event before."""
    event_hub = info.context.services.event_hub
    if report_id is None:
        return event_hub.follow_organisation(info.context.organisation_id), None, 0
    report = await followed_report(info, report_id)
    return event_hub.follow(report.id, report.last_event_seq), report.id, report.last_event_seq


def _as_issued(verdict: Verdict, event: StoredEvent) -> Verdict:
    """The verdict with `isFinal` as the judge issued it (events from before the judge said so keep
    the stored flag). A copy: loads are shared between subscribers."""
    issued_final = event.data.get("is_final")
    if not isinstance(issued_final, bool) or issued_final == verdict.is_final:
        return verdict
    return dataclasses.replace(verdict, is_final=issued_final)


@strawberry.type
class VerdictSubscription:
    @strawberry.subscription(
        description="Each verdict as the judge issues it, pass by pass, from now on: for one report, or "
        "with no `reportId` for every report of your organisation. `isFinal` is true when no later pass "
        "of the run will judge the claim again: it is the claim's final verdict (`Report.verdicts` "
        "marks it so once the run completes; if the run fails it never becomes final). A run's verdicts "
        "are all in when every claim has had an `isFinal` verdict (`Analysis.claimsCount` claims). "
        "On one WebSocket connection, this subscription sends a run's verdicts before the run's last "
        "event (`pipeline_completed`, `run_cancelled`, or `error` with no `node`) reaches `analysisEvents` "
        "on the same connection: subscribe to both there before the run starts and stop at that event, "
        "and you have every verdict of the run. (Without `reportId`, a report's verdicts count from the "
        "first this subscription received; the last event waits for them at most "
        f"{VERDICTS_FIRST_TIMEOUT_SECONDS:g} s.) Across connections, or over HTTP, nothing orders the two. "
        "A client that reconnects catches up with `Report.verdicts`."
    )
    async def verdict_issued(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID | None,
            strawberry.argument(description="The report to follow; omit for your whole organisation."),
        ] = None,
    ) -> AsyncGenerator[Verdict, None]:
        events, followed, after = await _following(info, report_id)
        loads = _Loads(info.context)
        following = info.context.verdicts_first.following(followed, after)
        with following as follower, open_subscription("verdictIssued") as sent:
            async with _ReadAhead(events, follower.received, loads.start) as ahead:
                try:
                    while taken := await ahead.take():
                        for event, load in taken:
                            loaded = await loads.verdict(event, load) if load is not None else None
                            if loaded is not None:
                                info.context.loaders.claim.prime(loaded.claim.id, loaded.claim)
                                yield _as_issued(loaded.verdict, event)
                                sent.inc()
                            follower.passed(event)
                finally:
                    loads.cancel()
