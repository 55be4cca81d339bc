"""One `EventLog` for everything that reports progress.

Appending writes the event to Postgres with the report's next sequence number (a row lock on the
report serialises appenders, so numbers run 1, 2, 3, … without gaps), commits, then PUBLISHes it on
Redis. Postgres is the record; Redis only makes delivery fast. Readers follow streams through an
`EventHub` (`app.events.hub`), which the API owns: one pub/sub connection per process, replay from
Postgres (`replay`), gaps and silences filled from Postgres once per report, so a subscriber
receives every event exactly once and in order, across reconnects and Redis restarts. A worker
only appends.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import String, Uuid, insert, literal, select, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Event, Report
from app.db.session import SessionFactory

logger = logging.getLogger(__name__)

REPLAY_BATCH = 500


class ReportNotFound(LookupError):
    """Events were appended for a report that does not exist."""


#: Events also published on their organisation's channel (for organisation-wide subscriptions).
ORGANISATION_EVENT_TYPES = frozenset({"verdict_issued"})


def channel_for(report_id: uuid.UUID) -> str:
    """The Redis channel that carries one report's events."""
    return f"sibyl:events:{report_id}"


def organisation_channel_for(organisation_id: uuid.UUID) -> str:
    """The Redis channel that carries an organisation's `ORGANISATION_EVENT_TYPES` events."""
    return f"sibyl:organisation-events:{organisation_id}"


@dataclass(frozen=True)
class StreamEvent:
    """An event as stored and as delivered; `seq` is its per-report sequence number."""

    report_id: uuid.UUID
    seq: int
    event_type: str
    data: dict[str, Any]
    timestamp: datetime
    agent_name: str | None = None
    analysis_run_id: uuid.UUID | None = None

    @classmethod
    def from_row(cls, row: Event) -> StreamEvent:
        return cls(
            report_id=row.report_id,
            seq=row.seq,
            event_type=row.event_type,
            data=row.data,
            timestamp=row.created_at,
            agent_name=row.agent_name,
            analysis_run_id=row.analysis_run_id,
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "report_id": str(self.report_id),
                "seq": self.seq,
                "event_type": self.event_type,
                "data": self.data,
                "timestamp": self.timestamp.isoformat(),
                "agent_name": self.agent_name,
                "analysis_run_id": str(self.analysis_run_id) if self.analysis_run_id else None,
            }
        )

    @classmethod
    def from_json(cls, raw: str | bytes) -> StreamEvent:
        body = json.loads(raw)
        run_id = body.get("analysis_run_id")
        return cls(
            report_id=uuid.UUID(body["report_id"]),
            seq=int(body["seq"]),
            event_type=body["event_type"],
            data=body["data"],
            timestamp=datetime.fromisoformat(body["timestamp"]),
            agent_name=body.get("agent_name"),
            analysis_run_id=uuid.UUID(run_id) if run_id else None,
        )


@dataclass
class EventTransaction:
    """A database transaction that also records events, published once it commits."""

    session: AsyncSession
    log: EventLog
    events: list[StreamEvent] = field(default_factory=list)

    async def emit(
        self,
        report_id: uuid.UUID,
        event_type: str,
        data: dict[str, Any] | None = None,
        *,
        agent_name: str | None = None,
        analysis_run_id: uuid.UUID | None = None,
        dedupe_key: str | None = None,
    ) -> StreamEvent:
        """Record an event with the other writes of this transaction.

        With a `dedupe_key` already recorded for this report, the stored event is returned and
        nothing new is written or published.
        """
        if dedupe_key is not None:
            existing = await self.session.scalar(
                select(Event).where(Event.report_id == report_id, Event.dedupe_key == dedupe_key)
            )
            if existing is not None:
                return StreamEvent.from_row(existing)
        event = await self.log.write(
            self.session,
            report_id,
            event_type,
            data,
            agent_name=agent_name,
            analysis_run_id=analysis_run_id,
            dedupe_key=dedupe_key,
        )
        self.events.append(event)
        return event


class EventLog:
    """Appends (and publishes) and replays per-report event streams."""

    def __init__(self, session_factory: SessionFactory, redis: Redis) -> None:
        self._session_factory = session_factory
        self._redis = redis
        self._organisations: dict[uuid.UUID, uuid.UUID] = {}  # report -> organisation (never changes)

    @property
    def session_factory(self) -> SessionFactory:
        return self._session_factory

    @property
    def redis(self) -> Redis:
        return self._redis

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[EventTransaction]:
        """A session in a transaction whose `emit`ted events are published after it commits.

        If the block raises, the transaction rolls back and nothing is published.
        """
        async with self._session_factory() as session:
            async with session.begin():
                transaction = EventTransaction(session, self)
                yield transaction
            await self.publish(*transaction.events)

    async def append(
        self,
        report_id: uuid.UUID,
        event_type: str,
        data: dict[str, Any] | None = None,
        *,
        agent_name: str | None = None,
        analysis_run_id: uuid.UUID | None = None,
        dedupe_key: str | None = None,
    ) -> StreamEvent:
        """Record one event in its own transaction, then publish it."""
        async with self.transaction() as transaction:
            return await transaction.emit(
                report_id,
                event_type,
                data,
                agent_name=agent_name,
                analysis_run_id=analysis_run_id,
                dedupe_key=dedupe_key,
            )

    async def write(
        self,
        session: AsyncSession,
        report_id: uuid.UUID,
        event_type: str,
        data: dict[str, Any] | None = None,
        *,
        agent_name: str | None = None,
        analysis_run_id: uuid.UUID | None = None,
        dedupe_key: str | None = None,
    ) -> StreamEvent:
        """Record one event inside the caller's transaction; `publish` it after the commit.

        One statement: bump the report's counter (locking its row until commit) and insert the event
        with the new number.
        """
        payload = data or {}
        next_seq = (
            update(Report)
            .where(Report.id == report_id)
            .values(last_event_seq=Report.last_event_seq + 1)
            .returning(Report.id, Report.last_event_seq)
            .cte("next_seq")
        )
        row = (
            await session.execute(
                insert(Event)
                .from_select(
                    ["report_id", "seq", "event_type", "agent_name", "analysis_run_id", "data", "dedupe_key"],
                    select(
                        next_seq.c.id,
                        next_seq.c.last_event_seq,
                        literal(event_type, String),
                        literal(agent_name, String),
                        literal(analysis_run_id, Uuid),
                        literal(payload, JSONB),
                        literal(dedupe_key, String),
                    ),
                )
                .returning(Event.seq, Event.created_at)
            )
        ).one_or_none()
        if row is None:
            raise ReportNotFound(f"report {report_id} does not exist")
        return StreamEvent(
            report_id=report_id,
            seq=row.seq,
            event_type=event_type,
            data=payload,
            timestamp=row.created_at,
            agent_name=agent_name,
            analysis_run_id=analysis_run_id,
        )

    async def publish(self, *events: StreamEvent) -> None:
        """PUBLISH committed events; a Redis failure is logged, never raised (Postgres has them).

        `ORGANISATION_EVENT_TYPES` events go to their organisation's channel too.
        """
        try:
            for event in events:
                body = event.to_json()
                await self._redis.publish(channel_for(event.report_id), body)
                if event.event_type in ORGANISATION_EVENT_TYPES:
                    organisation_id = await self._organisation_of(event.report_id)
                    await self._redis.publish(organisation_channel_for(organisation_id), body)
        except (RedisError, OSError, ReportNotFound) as exc:
            logger.warning("event publish failed (subscribers will catch up from Postgres): %s", exc)

    async def _organisation_of(self, report_id: uuid.UUID) -> uuid.UUID:
        if report_id not in self._organisations:
            async with self._session_factory() as session:
                organisation_id = await session.scalar(
                    select(Report.organisation_id).where(Report.id == report_id)
                )
            if organisation_id is None:
                raise ReportNotFound(f"report {report_id} does not exist")
            self._organisations[report_id] = organisation_id
        return self._organisations[report_id]

    async def replay(
        self, report_id: uuid.UUID, after_seq: int = 0, limit: int = REPLAY_BATCH
    ) -> Sequence[StreamEvent]:
        """Up to `limit` stored events with `seq > after_seq`, in order."""
        async with self._session_factory() as session:
            rows = await session.scalars(
                select(Event)
                .where(Event.report_id == report_id, Event.seq > after_seq)
                .order_by(Event.seq)
                .limit(limit)
            )
            return [StreamEvent.from_row(row) for row in rows]
