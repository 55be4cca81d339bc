"""The per-connection rule of `schema.verdicts_first`, without a server: which events end a run,
what a verdict stream owes, and when `analysisEvents` is kept off fan-out."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from app.events import StreamEvent as StoredEvent
from schema.verdicts_first import VerdictsFirst, ends_run

REPORT = uuid.uuid4()
OTHER_REPORT = uuid.uuid4()


def event(seq: int, event_type: str, report_id: uuid.UUID = REPORT, **data: Any) -> StoredEvent:
    return StoredEvent(report_id, seq, event_type, data, datetime.now(UTC))


async def forever(*events: StoredEvent) -> AsyncIterator[StoredEvent]:
    """`events`, then nothing more (a live stream that has gone quiet)."""
    for item in events:
        yield item
    await asyncio.Event().wait()


async def collect(stream: AsyncIterator[StoredEvent], into: list[int]) -> None:
    async for item in stream:
        into.append(item.seq)


async def stop(delivery: asyncio.Future[None]) -> None:
    delivery.cancel()
    await asyncio.gather(delivery, return_exceptions=True)


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_run_ends_completed_cancelled_or_failed() -> None:
    assert ends_run(event(1, "pipeline_completed"))
    assert ends_run(event(1, "run_cancelled"))
    assert ends_run(event(1, "error", node=None, message="Analysis failed"))
    assert not ends_run(event(1, "error", node="judge", message="one claim failed"))
    assert not ends_run(event(1, "verdict_issued"))
    assert not ends_run(event(1, "parse_failed"))


async def test_the_end_waits_until_the_report_stream_has_passed_every_event_before_it() -> None:
    order = VerdictsFirst()
    stream = [event(1, "verdict_issued"), event(2, "agent_completed"), event(3, "pipeline_completed")]
    sent: list[int] = []
    with order.following(REPORT, after=0) as follower:
        delivery = asyncio.ensure_future(collect(order.gate(REPORT).held(forever(*stream)), sent))
        await settled()
        assert sent == [1, 2]
        follower.passed(stream[0])
        await settled()
        assert sent == [1, 2]
        follower.passed(stream[1])
        await settled()
        assert sent == [1, 2, 3]
    await stop(delivery)


async def test_a_report_stream_owes_only_what_came_after_it_started() -> None:
    order = VerdictsFirst()
    with order.following(REPORT, after=5) as follower:
        assert not follower.owes(REPORT, 6, last_verdict=4)
        assert follower.owes(REPORT, 8, last_verdict=7)
        assert not follower.owes(OTHER_REPORT, 8, last_verdict=7)


async def test_an_organisation_stream_owes_a_report_from_the_first_verdict_it_heard() -> None:
    order = VerdictsFirst()
    with order.following(None) as follower:
        assert not follower.owes(REPORT, 10, last_verdict=9)  # heard nothing of it: issued before
        follower.received(event(7, "verdict_issued"))
        assert not follower.owes(REPORT, 6, last_verdict=5)
        assert follower.owes(REPORT, 10, last_verdict=9)
        follower.passed(event(9, "verdict_issued"))
        assert not follower.owes(REPORT, 10, last_verdict=9)


async def test_a_verdict_stream_takes_the_connections_events_of_its_report_off_fanout() -> None:
    order = VerdictsFirst()
    woken: list[str] = []
    gate = order.gate(REPORT, lambda: woken.append("events"))
    delivery = asyncio.ensure_future(collect(gate.held(forever()), []))
    await settled()

    with order.following(OTHER_REPORT):
        assert gate.lets_park() and woken == []
    with order.following(REPORT):
        assert not gate.lets_park() and woken == ["events"]
    with order.following(None):
        assert not gate.lets_park() and woken == ["events", "events"]
    assert gate.lets_park()
    await stop(delivery)


@pytest.mark.parametrize("ended", ["left", "never passed"])
async def test_a_stream_that_leaves_or_never_catches_up_does_not_hold_the_end(
    ended: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("schema.verdicts_first.VERDICTS_FIRST_TIMEOUT_SECONDS", 0.2)
    order = VerdictsFirst()
    sent: list[int] = []
    with order.following(REPORT):
        delivery = asyncio.ensure_future(
            collect(
                order.gate(REPORT).held(forever(event(1, "verdict_issued"), event(2, "run_cancelled"))), sent
            )
        )
        await settled()
        assert sent == [1]
        if ended == "never passed":
            await asyncio.sleep(0.3)
            assert sent == [1, 2]
    await settled()
    assert sent == [1, 2]
    await stop(delivery)
