"""Subscriptions open now and the events they send, for the metrics (`app.metrics`).

    with open_subscription("analysisEvents") as sent:
        async for event in stream:
            yield event
            sent.inc()  # the client asked for the next one: this one went out

A subscriber parked behind its fan-out group's leader (`schema.fast_execution.fanout`) is sent
events without its resolver running; fan-out tells it of each (`Member.on_fanout`), and
`analysisEvents` counts those as sent too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Counter

from app.metrics.catalogue import SUBSCRIPTION_EVENTS, SUBSCRIPTIONS_OPEN


@contextmanager
def open_subscription(field: str) -> Iterator[Counter]:
    """The subscription of `field` counts as open while the block runs; it counts what it sends
    on the counter it is given."""
    SUBSCRIPTIONS_OPEN.labels(field).inc()
    try:
        yield SUBSCRIPTION_EVENTS.labels(field)
    finally:
        SUBSCRIPTIONS_OPEN.labels(field).dec()
