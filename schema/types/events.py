"""Event stream types: `StreamEvent`, `Report.events` and the `analysisEvents` subscription."""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator
from datetime import datetime
from typing import Annotated, cast

import strawberry
from strawberry.relay import GlobalID
from strawberry.scalars import JSON

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
from schema.types.pagination import check_first
from schema.types.reports_lookup import followed_report

#: Recently converted events (the hub hands every subscriber of a report the same stored object).
CONVERTED_KEPT = 4096
_converted: OrderedDict[int, tuple[StoredEvent, StreamEvent]] = OrderedDict()


@strawberry.type(description="One thing that happened while Sibyl worked on a report.")
class StreamEvent:
    id: int = strawberry.field(
        description="Sequence number within the report: 1, 2, 3, … without gaps. Pass the last one "
        "you saw as `afterId` to resume."
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
        return ("StreamEvent", str(self.report_id), self.id)

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
            id=event.seq,
            report_id=strawberry.ID(str(GlobalID("Report", str(event.report_id)))),
            event_type=event.event_type,
            agent_name=event.agent_name,
            data=cast(JSON, event.data),
            timestamp=event.timestamp,
        )


def check_after_id(after_id: int) -> int:
    """`afterId` as given, refused when negative (it is not read as "from the start")."""
    if after_id < 0:
        raise client_error(ErrorCode.INVALID_ARGUMENT, "`afterId` must be 0 or more.", argument="afterId")
    return after_id


async def list_events(
    info: strawberry.Info[Context], report_id: uuid.UUID, after_id: int, first: int
) -> list[StreamEvent]:
    """Stored events after `after_id`, at most `first` (the resolver behind `Report.events`)."""
    check_after_id(after_id)
    events = await info.context.services.event_log.replay(report_id, after_id, check_first(first, 500))
    return [StreamEvent.from_stored(event) for event in events]


@strawberry.type
class EventSubscription:
    @strawberry.subscription(
        description="Every event of a report after `afterId` (default: from the start), replayed from "
        "the log and then live, each exactly once and in order. Reconnect with the last `id` you saw."
    )
    async def analysis_events(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[strawberry.ID, strawberry.argument(description="The report to follow.")],
        after_id: Annotated[
            int, strawberry.argument(description="Deliver events with a larger id (0: from the start).")
        ] = 0,
    ) -> AsyncGenerator[StreamEvent, None]:
        report = await followed_report(info, report_id)
        check_after_id(after_id)
        stream = info.context.services.event_hub.follow(report.id, after_id)
        scope = subscription_scope(info) if enabled() else None  # fan-out is a shortcut too
        member = member_for_current_operation() if scope is not None else None
        if scope is None or member is None:
            async for event in stream:
                yield StreamEvent.shared_from_stored(event)
            return
        async for converted in _with_fanout(
            stream, scope, str(GlobalID("Report", str(report.id))), member, after_id
        ):
            yield converted


async def _with_fanout(
    stream: AsyncIterator[StoredEvent], scope: str, report: str, member: Member, after_id: int
) -> AsyncGenerator[StreamEvent, None]:
    """The stream, parking whenever this subscriber can leave delivery to its group's leader
    (`schema.fast_execution.fanout`); events fan-out already sent it are skipped when it resumes."""
    group = group_for(scope, report)
    member.cursor = after_id
    group.members.add(member)
    try:
        async for event in stream:
            if event.seq <= member.cursor:
                continue
            yield StreamEvent.shared_from_stored(event)
            member.cursor = max(member.cursor, event.seq)  # sent: the consumer asked for more
            if group.may_park(member):
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
