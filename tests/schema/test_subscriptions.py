"""analysisEvents over graphql-transport-ws: late, reconnecting and multi-process subscribers
all get every event exactly once and in order; Report.events serves the same log."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.session import SessionFactory
from app.events import EventLog
from app.supervision.embedded.redis import free_port
from schema.fast_execution.shared_execution import SHARED_RESULTS
from schema.types.ids import parse_node_id
from tests.app.test_event_log import new_report
from tests.conftest import new_api_key
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient, Subscription
from tests.support.reports import wait_for_status
from tests.support.sibyl_process import STARTUP_SECONDS

EVENTS = """
subscription Events($reportId: ID!, $after: Int!) {
  analysisEvents(reportId: $reportId, afterSequence: $after) {
    id sequence eventType agentName data timestamp reportId
  }
}
"""

EVENT_LOG_QUERY = """
query Log($id: ID!, $after: Int!, $first: Int!) {
  report(id: $id) { events(afterSequence: $after, first: $first) { id sequence eventType data } }
}
"""


async def sequences_from(subscription: Subscription, count: int) -> list[int]:
    return [(await subscription.next())["analysisEvents"]["sequence"] for _ in range(count)]


async def uploaded_report(client: GraphQLClient) -> tuple[str, uuid.UUID]:
    """A parsed 7-page report (6 events so far): its global id and its UUID."""
    result = await client.upload_result(pdfs.synthetic_report(page_count=7).pdf)
    report_id = str(result["report"]["id"])
    await wait_for_status(client, report_id, "PARSED")
    report_uuid = parse_node_id(report_id, "Report")
    assert report_uuid is not None
    return report_id, report_uuid


async def test_parse_emits_started_progress_and_completed(client: GraphQLClient, worker: object) -> None:
    report_id, _ = await uploaded_report(client)

    events = (await client.data(EVENT_LOG_QUERY, id=report_id, after=0, first=100))["report"]["events"]

    assert [event["sequence"] for event in events] == list(range(1, len(events) + 1))
    assert [event["eventType"] for event in events] == [
        "report_uploaded",
        "parse_started",
        "parse_progress",
        "parse_progress",
        "parse_progress",
        "parse_completed",
    ]
    assert [event["data"]["pagesParsed"] for event in events[2:5]] == [3, 6, 7]
    assert events[-1]["data"]["pageCount"] == 7


async def test_late_subscriber_replays_then_follows_live(
    client: GraphQLClient, worker: object, event_log: EventLog
) -> None:
    report_id, report_uuid = await uploaded_report(client)

    async with client.subscribe(EVENTS, reportId=report_id, after=0) as subscription:
        replayed = await sequences_from(subscription, 6)
        for n in range(3):
            await event_log.append(report_uuid, "test_live", {"n": n}, agent_name="tester")
        live = [(await subscription.next())["analysisEvents"] for _ in range(3)]

    assert replayed == [1, 2, 3, 4, 5, 6]
    assert [event["sequence"] for event in live] == [7, 8, 9]
    assert [event["data"]["n"] for event in live] == [0, 1, 2]
    assert live[0]["agentName"] == "tester"
    assert live[0]["reportId"] == report_id


async def test_reconnect_after_the_last_sequence_gets_only_what_was_missed(
    client: GraphQLClient, worker: object, event_log: EventLog
) -> None:
    report_id, report_uuid = await uploaded_report(client)
    async with client.subscribe(EVENTS, reportId=report_id, after=0) as subscription:
        before = await sequences_from(subscription, 4)

    for n in range(3):
        await event_log.append(report_uuid, "while_disconnected", {"n": n})
    async with client.subscribe(EVENTS, reportId=report_id, after=before[-1]) as subscription:
        after = await sequences_from(subscription, 5)
        with pytest.raises(TimeoutError):
            await subscription.next(timeout=1.0)

    assert before + after == list(range(1, 10))


async def test_unknown_report_subscription_is_an_error(client: GraphQLClient) -> None:
    async with client.subscribe(EVENTS, reportId="UmVwb3J0Om5vcGU=", after=0) as subscription:
        message = await subscription.first_message()

    assert message["type"] == "next"
    assert "No report" in message["payload"]["errors"][0]["message"]


@pytest.fixture
def second_api_process(settings: Settings) -> Iterator[str]:
    """Another API process (uvicorn, as deployed) on the same Postgres and Redis."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": settings.require_database_url(),
        "REDIS_URL": settings.require_redis_url(),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "schema.asgi:app", "--port", str(port), "--log-level", "warning"],
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS  # importing the app takes a while on a slow machine
    while True:
        try:
            if httpx.get(f"{url}/healthz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, "second API did not start"
        time.sleep(0.1)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(10)


async def test_subscribers_on_two_api_processes_each_get_every_event_once(
    client: GraphQLClient, worker: object, event_log: EventLog, second_api_process: str
) -> None:
    report_id, report_uuid = await uploaded_report(client)
    other = GraphQLClient(second_api_process, client.api_key)

    async with (
        client.subscribe(EVENTS, reportId=report_id, after=2) as here,
        other.subscribe(EVENTS, reportId=report_id, after=0) as there,
    ):
        appends = asyncio.ensure_future(
            asyncio.gather(*(event_log.append(report_uuid, "burst", {"n": n}) for n in range(20)))
        )
        got_here = await sequences_from(here, 24)
        got_there = await sequences_from(there, 26)
        await appends
        with pytest.raises(TimeoutError):
            await here.next(timeout=1.0)
        with pytest.raises(TimeoutError):
            await there.next(timeout=0.5)
    await other.aclose()

    assert got_here == list(range(3, 27))
    assert got_there == list(range(1, 27))


LIVE_EVENTS = (
    "subscription Live($reportId: ID!) { analysisEvents(reportId: $reportId) { id sequence eventType data } }"
)


async def follow_sequences(
    client: GraphQLClient, report_id: str, count: int, arrived: list[str] | None = None
) -> list[int]:
    """The sequences of the first `count` events of the report; the report id goes into `arrived`
    once the first event is in, so the test can wait for a whole crowd to be following."""
    sequences: list[int] = []
    async with client.subscribe(LIVE_EVENTS, reportId=report_id) as subscription:
        for _ in range(count):
            sequences.append(int((await subscription.next(timeout=30))["analysisEvents"]["sequence"]))
            if len(sequences) == 1 and arrived is not None:
                arrived.append(report_id)
        return sequences


async def all_following(arrived: list[str], subscribers: list[asyncio.Task[list[int]]]) -> None:
    """Wait until every subscriber has its first event (or one of them failed: awaiting it then
    says why), polling instead of sleeping a fixed time: how long a crowd takes to connect and
    replay depends on the machine, so only a hang may fail here."""
    deadline = time.monotonic() + 60
    while len(arrived) < len(subscribers) and not any(task.done() for task in subscribers):
        assert time.monotonic() < deadline, f"{len(arrived)} of {len(subscribers)} subscribers following"
        await asyncio.sleep(0.05)


async def test_many_subscribers_of_one_and_of_several_reports_share_executions(
    api_url: str, clean_db: None, session_factory: SessionFactory, event_log: EventLog
) -> None:
    reports = [await new_report(session_factory) for _ in range(3)]
    ids = {report: str(GlobalID("Report", str(report))) for report in reports}
    # One key per report's crowd: a key's rate limit allows bursts of 100 admissions (2 per subscriber).
    clients = {report: GraphQLClient(api_url, await new_api_key(session_factory)) for report in reports}
    for report in reports:
        await event_log.append(report, "ready")
    crowd = {report: 40 if n == 0 else 15 for n, report in enumerate(reports)}
    arrived: list[str] = []
    tasks = {
        report: [
            asyncio.create_task(follow_sequences(clients[report], ids[report], 31, arrived))
            for _ in range(count)
        ]
        for report, count in crowd.items()
    }
    await all_following(arrived, [task for crowd_tasks in tasks.values() for task in crowd_tasks])
    executed_before = SHARED_RESULTS.executions

    ticks = (event_log.append(report, "tick", {"n": n}) for report in reports for n in range(30))
    await asyncio.gather(*ticks)

    for report in reports:
        for task in tasks[report]:
            assert await task == list(range(1, 32))
        await clients[report].aclose()
    executed = SHARED_RESULTS.executions - executed_before
    assert executed <= 3 * 30 * 2  # one execution per event and report (a little slack for races)
    assert sum(crowd.values()) * 30 >= 10 * executed


async def test_many_subscribers_on_two_api_processes_each_get_every_event_once(
    client: GraphQLClient, session_factory: SessionFactory, event_log: EventLog, second_api_process: str
) -> None:
    report = await new_report(session_factory)
    report_id = str(GlobalID("Report", str(report)))
    other = GraphQLClient(second_api_process, client.api_key)
    arrived: list[str] = []
    subscribers = [
        asyncio.create_task(follow_sequences(api, report_id, 40, arrived))
        for api in (client, other)
        for _ in range(12)
    ]
    await event_log.append(report, "first")
    await all_following(arrived, subscribers)

    await asyncio.gather(*(event_log.append(report, "burst", {"n": n}) for n in range(39)))

    try:
        for task in subscribers:
            assert await task == list(range(1, 41))
    finally:
        await other.aclose()
