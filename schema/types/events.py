"""Event stream types: `StreamEvent`, `Report.events` and the `analysisEvents` subscription.

An event's `sequence` is its place in its report's log (1, 2, 3, … without gaps): clients resume
with it (`afterSequence`). Its `id` is a global id (`StreamEvent:<report UUID>:<sequence>`), unique
across reports, so that caches keying objects by type and id never mix two reports' events.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from datetime import datetime
from typing import Annotated, cast

import strawberry
from prometheus_client import Counter
from sqlalchemy import select, tuple_
from strawberry import relay
from strawberry.relay import GlobalID
from strawberry.scalars import JSON

from app.db.models import Event as EventModel
from app.db.models import Report as ReportModel
from app.events import StreamEvent as StoredEvent
from schema.context import Context
from schema.errors import ErrorCode, client_error
from schema.fast_execution import (
    Member,
    drop_if_empty,
    enabled,
    group_for,
    member_for_current_operation,
    operation_scope,
)
from schema.subscription_metrics import open_subscription
from schema.types.pagination import check_first
from schema.types.reports_lookup import followed_report
from schema.verdicts_first import VERDICTS_FIRST_TIMEOUT_SECONDS

#: Recently converted events (the hub hands every subscriber of a report the same stored object).
CONVERTED_KEPT = 4096
_converted: OrderedDict[int, tuple[StoredEvent, StreamEvent]] = OrderedDict()
#: Why `afterId` is deprecated (on `analysisEvents` and `Report.events`).
AFTER_ID_DEPRECATION = (
    "Renamed: pass the last `sequence` you saw as `afterSequence` (`id` is now a global id, not a "
    "number). `afterId` keeps working, with the same meaning, during the deprecation period."
)
MAX_EVENTS_PAGE = 500


@strawberry.type(
    description="One thing that happened while Sibyl worked on a report. Its `id` is a global id, unique "
    "across reports (for caches and `node(id:)`); resume a stream with its `sequence`."
)
class StreamEvent(relay.Node):
    id: relay.NodeID[str]
    sequence: int = strawberry.field(
        description="Place in the report's log: 1, 2, 3, … without gaps. Resume with the last one you saw "
        "as `afterSequence`."
    )
    report_id: strawberry.ID = strawberry.field(description="Global id of the report this event is about.")
    event_type: str = strawberry.field(
        description="What happened, e.g. report_uploaded, parse_started, parse_progress, parse_completed, "
        "parse_failed."
    )
    agent_name: str | None = strawberry.field(description="The agent that emitted it, if any.")
    data: JSON = strawberry.field(description="Event-specific details (camelCase keys).")
    timestamp: datetime = strawberry.field(description="When the event was recorded (UTC).")

    def sharing_key(self) -> tuple[str, str, int]:
        """Subscribers of one operation and organisation share this event's execution
        (`schema.fast_execution.shared_execution`)."""
        return ("StreamEvent", str(self.report_id), self.sequence)

    @classmethod
    def shared_from_stored(cls, event: StoredEvent) -> StreamEvent:
        """`from_stored`, converted once for all the subscribers the hub hands the same event to."""
        cached = _converted.get(id(event))
        if cached is not None and cached[0] is event:
            return cached[1]
        converted = cls.from_stored(event)
        _converted[id(event)] = (event, converted)
        while len(_converted) > CONVERTED_KEPT:
            _converted.popitem(last=False)
        return converted

    @classmethod
    def from_stored(cls, event: StoredEvent) -> StreamEvent:
        return cls(
            id=f"{event.report_id}:{event.seq}",
            sequence=event.seq,
            report_id=strawberry.ID(str(GlobalID("Report", str(event.report_id)))),
            event_type=event.event_type,
            agent_name=event.agent_name,
            data=cast(JSON, event.data),
            timestamp=event.timestamp,
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[StreamEvent | None]:
        wanted = [event_key(node_id) for node_id in node_ids]
        keys = [key for key in wanted if key is not None]
        found: dict[tuple[uuid.UUID, int], StreamEvent] = {}
        if keys:
            async with info.context.read_sessions() as session:
                rows = await session.scalars(
                    select(EventModel)
                    .join(ReportModel, ReportModel.id == EventModel.report_id)
                    .where(
                        tuple_(EventModel.report_id, EventModel.seq).in_(keys),
                        ReportModel.organisation_id == info.context.organisation_id,
                    )
                )
                for row in rows:
                    found[(row.report_id, row.seq)] = cls.from_stored(StoredEvent.from_row(row))
        return [found.get(key) if key is not None else None for key in wanted]


def event_key(node_id: str) -> tuple[uuid.UUID, int] | None:
    """(report, sequence) of a `StreamEvent` global id's node part `<report UUID>:<sequence>`;
    None when it is not one (a well-formed global id that names nothing)."""
    report, _, sequence = node_id.rpartition(":")
    try:
        return uuid.UUID(report), int(sequence)
    except ValueError:
        return None


#: `afterSequence`, on `analysisEvents` and `Report.events`.
AfterSequence = Annotated[
    int | None,
    strawberry.argument(
        description="The last `sequence` you saw: only events after it (omitted or 0: from the start)."
    ),
]
#: `afterId`, its deprecated name (it always meant the sequence).
AfterId = Annotated[
    int | None,
    strawberry.argument(
        description="Deprecated name of `afterSequence` (the same number).",
        deprecation_reason=AFTER_ID_DEPRECATION,
    ),
]


def resume_after(after_sequence: int | None, after_id: int | None) -> int:
    """The sequence to start after: `afterSequence`, or the deprecated `afterId` (neither: 0).

    Both at once, or a negative one, is INVALID_ARGUMENT naming it (a negative one is not read as
    "from the start").
    """
    if after_sequence is not None and after_id is not None:
        raise client_error(
            ErrorCode.INVALID_ARGUMENT,
            "Give `afterSequence` or its deprecated name `afterId`, not both.",
            argument="afterId",
        )
    argument, after = ("afterId", after_id) if after_id is not None else ("afterSequence", after_sequence)
    if after is not None and after < 0:
        raise client_error(ErrorCode.INVALID_ARGUMENT, f"`{argument}` must be 0 or more.", argument=argument)
    return after or 0


async def list_events(
    info: strawberry.Info[Context], report_id: uuid.UUID, after: int, first: int
) -> list[StreamEvent]:
    """Stored events after sequence `after`, at most `first` (the resolver behind `Report.events`)."""
    events = await info.context.services.event_log.replay(
        report_id, after, check_first(first, MAX_EVENTS_PAGE)
    )
    return [StreamEvent.from_stored(event) for event in events]


@strawberry.type
class EventSubscription:
    @strawberry.subscription(
        description="Every event of a report after `afterSequence` (default: from the start), replayed "
        "from the log and then live, each exactly once and in order. Reconnect with the last `sequence` "
        "you saw as `afterSequence`; `id` is a global id, for caches, not for resuming. A run's last "
        "event (`pipeline_completed`, `run_cancelled`, or `error` with no `node`) comes after every "
        "verdict of the run that `verdictIssued` subscriptions on the same WebSocket connection send: "
        f"it waits for them (at most {VERDICTS_FIRST_TIMEOUT_SECONDS:g} s), so stopping there loses none."
    )
    async def analysis_events(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[strawberry.ID, strawberry.argument(description="The report to follow.")],
        after_sequence: AfterSequence = None,
        after_id: AfterId = None,
    ) -> AsyncGenerator[StreamEvent, None]:
        report = await followed_report(info, report_id)
        after = resume_after(after_sequence, after_id)
        stream = info.context.services.event_hub.follow(report.id, after)
        scope = subscription_scope(info) if enabled() else None  # fan-out is a shortcut too
        member = member_for_current_operation() if scope is not None else None
        gate = info.context.verdicts_first.gate(report.id, member.unpark if member is not None else None)
        stream = gate.held(stream)  # a run's last event waits for this connection's verdictIssued
        with open_subscription("analysisEvents") as sent:
            if scope is None or member is None:
                async for event in stream:
                    yield StreamEvent.shared_from_stored(event)
                    sent.inc()
                return
            async for converted in _with_fanout(
                stream, scope, str(GlobalID("Report", str(report.id))), member, after, gate.lets_park, sent
            ):
                yield converted


async def _with_fanout(
    stream: AsyncIterator[StoredEvent],
    scope: str,
    report: str,
    member: Member,
    after: int,
    may_park: Callable[[], bool],
    sent: Counter,
) -> AsyncGenerator[StreamEvent, None]:
    """The stream, parking whenever this subscriber can leave delivery to its group's leader
    (`schema.fast_execution.fanout`); events fan-out already sent it are skipped when it resumes.
    Every event sent counts on `sent`, by this pipeline or by fan-out."""
    group = group_for(scope, report)
    member.cursor = after
    member.on_fanout = sent.inc
    group.members.add(member)
    try:
        async for event in stream:
            if event.seq <= member.cursor:
                continue
            yield StreamEvent.shared_from_stored(event)
            member.cursor = max(member.cursor, event.seq)  # sent: the consumer asked for more
            sent.inc()
            if may_park() and group.may_park(member):
                member.wake.clear()
                member.parked = True
                await member.wake.wait()
    finally:
        group.leave(member)
        drop_if_empty(scope, report)


def subscription_scope(info: strawberry.Info[Context]) -> str | None:
    """The operation's sharing scope, as `schema.fast_execution.execution` computes it (None: not shared)."""
    location = info.operation.loc
    principal = info.context.principal
    if location is None or principal is None:
        return None
    name = info.operation.name.value if info.operation.name else None
    return operation_scope(location.source.body, name, info.variable_values, principal.organisation_id)
