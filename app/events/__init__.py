"""The event log: durable in Postgres, live through Redis pub/sub."""

from app.events.log import EventLog, StreamEvent, channel_for

__all__ = ["EventLog", "StreamEvent", "channel_for"]
