"""`Report.queuePosition`: where a report's queued parse stands, as a user sees it in the API.

Here, not in tests/schema, whose package runs a worker in this process that would take the jobs."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from app.db.session import SessionFactory
from tests.fixtures.planted_report import planted_report
from tests.fixtures.repeating_report import repeating_report
from tests.support.analysed import seed_analysed_report
from tests.support.graphql import GraphQLClient

POSITION = "query Position($id: ID!) { report(id: $id) { status queuePosition } }"


@pytest.fixture
async def no_worker(redis: Redis) -> AsyncIterator[None]:
    """No worker runs: the queued parses stay queued, and are removed after the test so that they
    do not hold up the next one's clean-up."""
    yield
    await redis.flushdb()


async def test_queued_reports_say_how_many_start_first(client: GraphQLClient, no_worker: None) -> None:
    first = (await client.upload_result(planted_report().pdf))["report"]["id"]
    second = (await client.upload_result(repeating_report(), filename="second.pdf"))["report"]["id"]

    positions = [(await client.data(POSITION, id=report_id))["report"] for report_id in (first, second)]

    assert positions == [
        {"status": "UPLOADED", "queuePosition": 0},
        {"status": "UPLOADED", "queuePosition": 1},
    ]


async def test_a_report_with_no_job_waiting_has_no_position(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_analysed_report(session_factory, 1)

    answer = await client.data(POSITION, id=str(seeded.report_id))

    assert answer["report"]["queuePosition"] is None
