"""A Redis or Postgres that is up but answers nothing (stopped, swapping, partitioned) bounds every
request instead of hanging it: reads go on without the rate limiter, queueing a job answers
SERVICE_UNAVAILABLE with nothing stored, a hung database answers SERVICE_UNAVAILABLE, and live
subscriptions keep delivering. The API under test reaches the real session servers through a proxy
that stops forwarding (`tests.support.hung_proxy`), so no other test sees the hang."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from unittest.mock import ANY

import pytest
from sqlalchemy import func, select
from strawberry.relay import GlobalID

from app.db.models import AnalysisRun, Report, ReportStatus
from app.db.session import SessionFactory
from app.events import EventLog
from app.organisations import LOCAL_ORGANISATION_ID
from tests.conftest import make_settings, serve_api
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.hung_proxy import HungProxy, hung_proxy
from tests.support.reports import wait_for_status
from tests.support.services import RunningServices

REPORTS = "query Reports { reports(first: 1) { totalCount } }"
START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { code message } }
}
"""
EVENTS = "subscription Events($id: ID!) { analysisEvents(reportId: $id) { id eventType } }"
#: "Answers within a few seconds": the configured timeouts are 1 s (the old code never answered).
PROMPT_SECONDS = 8.0
#: No test may hang the suite, whatever the code under test does.
HARD_LIMIT_SECONDS = 60.0


@asynccontextmanager
async def api_behind(
    services: RunningServices, api_key: str, *, redis: bool = False, postgres: bool = False, **overrides: Any
) -> AsyncIterator[tuple[GraphQLClient, HungProxy]]:
    """The real API, reaching Redis or Postgres through a proxy that can hang (thawed on exit)."""
    url = services.redis_url if redis else services.database_url
    async with hung_proxy(url) as (proxy, proxied):
        key = "redis_url" if redis else "database_url"
        timeouts = {
            "redis_command_timeout_seconds": 1.0,
            "api_statement_timeout_seconds": 1.0,
            "api_db_pool_timeout_seconds": 1.0,
            "api_db_connect_timeout_seconds": 1.0,
        }
        settings = make_settings(services, **{key: proxied, **timeouts, **overrides})
        try:
            async with serve_api(settings) as base_url:
                client = GraphQLClient(base_url, api_key)
                client.http.timeout.read = 30.0  # a hang shows as a slow answer, asserted below
                try:
                    yield client, proxy
                finally:
                    proxy.thaw()
                    await client.aclose()
        finally:
            proxy.thaw()


async def timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    result = await call
    return result, time.monotonic() - started


async def stored_parsed_report(session_factory: SessionFactory) -> uuid.UUID:
    async with session_factory() as session, session.begin():
        report = Report(
            organisation_id=LOCAL_ORGANISATION_ID,
            filename="parsed.pdf",
            sha256=hashlib.sha256(uuid.uuid4().bytes).hexdigest(),
            size_bytes=1000,
            status=ReportStatus.PARSED,
            page_count=1,
        )
        session.add(report)
    return report.id


async def test_reads_answer_while_redis_hangs_and_rate_limiting_fails_open(
    services: RunningServices, api_key: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A read that asked the hung Redis would take the command timeout: 3 s (not the usual 1 s) keeps
    # that well apart from an ordinary read on a slow, loaded machine (a few tenths of a second).
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, redis=True, redis_command_timeout_seconds=3.0) as (client, proxy),
    ):
        assert (await client.data(REPORTS))["reports"]["totalCount"] == 0
        proxy.freeze()
        with caplog.at_level(logging.WARNING, logger="app.ratelimit"):
            first, first_took = await timed(client.data(REPORTS))
            then, then_took = await timed(client.data(REPORTS))

    assert first["reports"]["totalCount"] == 0
    assert first_took < PROMPT_SECONDS
    assert then_took < 3.0  # the limiter leaves a failing Redis alone for a while
    assert then["reports"]["totalCount"] == 0
    assert any("rate limiting is off" in r.getMessage() for r in caplog.records)


async def test_upload_while_redis_hangs_answers_service_unavailable_and_stores_nothing(
    services: RunningServices, api_key: str, session_factory: SessionFactory, worker: object
) -> None:
    content = pdfs.synthetic_report().pdf
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, redis=True) as (client, proxy),
    ):
        # Uploads are inspected in a document process: have one started (a refused upload stores
        # nothing), so the time below is the hung queue's, not a cold start's (seconds when slow).
        refused = (await client.upload(pdfs.scanned_pdf())).json()["data"]["uploadReport"]
        assert refused["code"] == "NO_TEXT_LAYER", refused
        proxy.freeze()
        response, took = await timed(client.upload(content))
        async with session_factory() as session:
            stored = await session.scalar(select(func.count()).select_from(Report))
        proxy.thaw()
        retried = await client.upload_result(content)
        parsed = await wait_for_status(client, retried["report"]["id"], "PARSED", "ERROR")

    body = response.json()
    assert took < PROMPT_SECONDS
    assert body["errors"][0]["extensions"] == {"code": "SERVICE_UNAVAILABLE", "requestId": ANY}
    assert "job queue" in body["errors"][0]["message"]
    assert stored == 0
    assert retried["created"] is True
    assert parsed["status"] == "PARSED"


async def test_start_analysis_while_redis_hangs_answers_service_unavailable_and_changes_nothing(
    services: RunningServices, api_key: str, session_factory: SessionFactory
) -> None:
    report_id = await stored_parsed_report(session_factory)
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, redis=True) as (client, proxy),
    ):
        proxy.freeze()
        body, took = await timed(client.execute(START, id=str(GlobalID("Report", str(report_id)))))

    assert took < PROMPT_SECONDS
    assert body["errors"][0]["extensions"] == {"code": "SERVICE_UNAVAILABLE", "requestId": ANY}
    async with session_factory() as session:
        report = await session.get(Report, report_id)
        runs = await session.scalar(select(func.count()).select_from(AnalysisRun))
    assert report is not None and report.status is ReportStatus.PARSED
    assert runs == 0


async def test_reads_answer_service_unavailable_while_postgres_hangs_and_recover(
    services: RunningServices, api_key: str
) -> None:
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, postgres=True) as (client, proxy),
    ):
        assert (await client.data(REPORTS))["reports"]["totalCount"] == 0  # the key is now cached
        proxy.freeze()
        hung, took = await timed(client.execute(REPORTS))
        proxy.thaw()
        after = await client.data(REPORTS)

    assert took < PROMPT_SECONDS
    assert hung["errors"][0]["extensions"] == {"code": "SERVICE_UNAVAILABLE", "requestId": ANY}
    assert after["reports"]["totalCount"] == 0


async def test_unknown_key_while_postgres_hangs_answers_service_unavailable(
    services: RunningServices, api_key: str
) -> None:
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, postgres=True) as (client, proxy),
    ):
        proxy.freeze()
        response, took = await timed(client.http.post("/graphql", json={"query": REPORTS}))

    assert took < PROMPT_SECONDS
    assert response.status_code == 503
    assert response.json()["errors"][0]["extensions"] == {"code": "SERVICE_UNAVAILABLE", "requestId": ANY}


async def test_idle_subscription_outlives_the_command_timeout(
    services: RunningServices,
    api_key: str,
    session_factory: SessionFactory,
    event_log: EventLog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Silent for longer than both the command timeout and the hub's PING interval, then live."""
    report_id = await stored_parsed_report(session_factory)
    relay_id = str(GlobalID("Report", str(report_id)))
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, redis=True, event_poll_seconds=60.0) as (client, _),
        client.subscribe(EVENTS, id=relay_id) as subscription,
    ):
        with caplog.at_level(logging.INFO, logger="app.events.hub"):
            await asyncio.sleep(7.0)  # > REDIS_COMMAND_TIMEOUT_SECONDS (1 s) and HEARTBEAT_SECONDS (5 s)
            await event_log.append(report_id, "parse_started")
            event, took = await timed(subscription.next(timeout=30.0))

    assert event["analysisEvents"]["eventType"] == "parse_started"
    # Delivered by the pub/sub connection it held all along: the hub never took the silence for a
    # lost Redis (reconnecting would deliver it too, a second or two later, so no time bound tells
    # them apart on a slow machine) ...
    assert not [r.getMessage() for r in caplog.records if "event hub lost Redis" in r.getMessage()]
    assert took < 30.0  # ... and not by the 60 s poll


async def test_subscription_keeps_delivering_while_redis_hangs(
    services: RunningServices, api_key: str, session_factory: SessionFactory, event_log: EventLog
) -> None:
    """The hub notices the hung pub/sub connection (no PONG) and polls Postgres until Redis is back."""
    report_id = await stored_parsed_report(session_factory)
    relay_id = str(GlobalID("Report", str(report_id)))
    async with (
        asyncio.timeout(HARD_LIMIT_SECONDS),
        api_behind(services, api_key, redis=True, event_poll_seconds=60.0) as (client, proxy),
        client.subscribe(EVENTS, id=relay_id) as subscription,
    ):
        await asyncio.sleep(0.5)
        proxy.freeze()
        await event_log.append(report_id, "parse_started")  # published on Redis the API can't hear
        event, took = await timed(subscription.next(timeout=40.0))

    assert event["analysisEvents"]["eventType"] == "parse_started"
    # PING after 5 s silent, no PONG in 1 s, then a 1 s poll: ~7 s at full speed, more on a slow
    # machine; the 60 s poll would take ~60 s.
    assert took < 30.0
