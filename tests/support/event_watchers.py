"""Many light `analysisEvents` subscribers (dashboards) over graphql-transport-ws, for crowd tests.

Each watcher is one `bench.ws_light` connection: it subscribes once acknowledged and keeps the
sequence numbers of the events it receives, when each arrived, and anything that is not an event
(errors, an early `complete`).
"""

from __future__ import annotations

import time
from typing import Any

from bench.ws_light import LightSubscriber, open_subscriber

EVENTS = "subscription Live($reportId: ID!) { analysisEvents(reportId: $reportId) { id sequence eventType } }"


class EventWatcher:
    """One dashboard following one report."""

    def __init__(self, report_id: str) -> None:
        self.report_id = report_id
        self.sequences: list[int] = []
        self.arrived: list[float] = []
        self.errors: list[str] = []
        self.connection: LightSubscriber | None = None

    def on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "connection_ack" and self.connection is not None:
            payload = {"query": EVENTS, "variables": {"reportId": self.report_id}}
            self.connection.send({"id": "1", "type": "subscribe", "payload": payload})
        elif kind == "next" and not message["payload"].get("errors"):
            self.sequences.append(int(message["payload"]["data"]["analysisEvents"]["sequence"]))
            self.arrived.append(time.monotonic())
        elif kind != "pong":
            self.errors.append(str(message))


async def open_watchers(port: int, key: str, report_id: str, count: int) -> list[EventWatcher]:
    """`count` watchers of the report (a global id) on the API at `port`, signed in with `key`."""
    crowd = [EventWatcher(report_id) for _ in range(count)]
    for watcher in crowd:
        watcher.connection = await open_subscriber("127.0.0.1", port, watcher.on_message)
        watcher.connection.send({"type": "connection_init", "payload": {"authorization": f"Bearer {key}"}})
    return crowd
