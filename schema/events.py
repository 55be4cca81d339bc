"""Event stream types: `StreamEvent`, `Report.events` and the `analysisEvents` subscription."""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated, cast

import strawberry
from strawberry.relay import GlobalID
from strawberry.scalars import JSON

from app.events import StreamEvent as StoredEvent
from schema.context import Context
from schema.errors import ErrorCode, client_error
from schema.pagination import check_first
from schema.reports_lookup import find_report


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


async def list_events(
    info: strawberry.Info[Context], report_id: uuid.UUID, after_id: int, first: int
) -> list[StreamEvent]:
    """Stored events after `after_id`, at most `first` (the resolver behind `Report.events`)."""
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
        report = await find_report(info, report_id)
        if report is None:
            raise client_error(ErrorCode.NOT_FOUND, f"No report with id {report_id!r}.", argument="reportId")
        if after_id < 0:
            raise client_error(ErrorCode.INVALID_ARGUMENT, "`afterId` must be 0 or more.", argument="afterId")
        async for event in info.context.services.event_log.follow(report.id, after_id):
            yield StreamEvent.from_stored(event)
