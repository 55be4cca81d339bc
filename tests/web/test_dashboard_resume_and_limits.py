"""The dashboard's two least-travelled paths, in a real browser against a real `sibyl run`.

Resume: an analysis that failed partway (its worker frozen mid-run, the run given up with the
worker's own `give_up_run`, the worker killed) is shown as an error with its explanation; "Resume
analysis" takes it to COMPLETED, followed live.

Rate limits: a second `sibyl run` with `RATE_LIMIT_PER_MINUTE=60` (bursts of 10, one request a
second after that), its key's bucket kept empty by a background loop of real requests. The page
then meets the real contract (HTTP 429 with `Retry-After` and `extensions.retryAfterSeconds`;
WebSocket close 1013 "RATE_LIMITED: … retry in N s" at connection_init, and a RATE_LIMITED `error` message for
the subscribe that follows an acknowledged one), says so in a sentence with the wait, and recovers
once the loop stops (a view whose query was refused renders itself again, with no click).
Playwright only passes the live socket through so the test can drop it; nothing is faked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from arq.constants import in_progress_key_prefix
from playwright.async_api import Page, WebSocketRoute, expect
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.db.runs import latest_run
from app.events.log import EventLog
from app.services.analysis import gave_up_message, give_up_run
from schema.types.ids import parse_node_id
from tests.conftest import wait_for_idle_queue
from tests.fixtures import pdfs
from tests.web.conftest import LiveSibyl
from tests.web.test_dashboard import ANALYSIS_SECONDS, START, feed_ids, sign_in, upload

EVENT_TYPES = "query Events($id: ID!) { report(id: $id) { events(first: 500) { eventType } } }"
RATE_SENTENCE = re.compile(r"Too many requests for this API key\. Wait (\d+) s and try again\.")
#: What Chromium itself logs for any non-2xx response; the page adds nothing of its own.
REFUSED_RESOURCE = "the server responded with a status of 429"


async def run_until_partway(live: LiveSibyl, report_id: str) -> None:
    """Start the analysis and return once a specialist has found evidence (well before the end)."""
    started = (await live.graphql(START, id=report_id))["startAnalysis"]
    assert started["__typename"] == "StartAnalysisSuccess", started
    deadline = time.monotonic() + 60
    while True:
        events = (await live.graphql(EVENT_TYPES, id=report_id))["report"]["events"]
        types = [event["eventType"] for event in events]
        assert "pipeline_completed" not in types, "the run finished before it could fail partway"
        if "evidence_found" in types:
            return
        assert time.monotonic() < deadline, types
        await asyncio.sleep(0.05)


async def give_up(event_log: EventLog, report_id: str) -> str | None:
    """Give the report's run up as the worker does after its last attempt; the message, or None
    when a lock the (frozen) worker holds is in the way."""
    report_uuid = parse_node_id(report_id, "Report")
    assert report_uuid is not None
    try:
        async with event_log.transaction() as transaction:
            await transaction.session.execute(text("SET LOCAL lock_timeout = '300ms'"))
            run = await latest_run(transaction.session, report_uuid)
            assert run is not None and run.status == "RUNNING", run and run.status
            message = gave_up_message(run.attempts, "the worker stopped answering mid-run")
            await give_up_run(transaction, run, message)
    except DBAPIError as exc:
        if "lock timeout" not in str(exc):
            raise
        return None
    return message


async def fail_like_the_worker(live: LiveSibyl, event_log: EventLog, redis: Redis, report_id: str) -> str:
    """Freeze the worker mid-run, give the run up as the worker does after its last attempt, then
    kill the worker (the supervisor restarts it; an ERROR run is not resumed unasked). The message.

    A worker frozen inside one of its short transactions holds row locks: then it is thawed for a
    moment and frozen again. A job the killed worker held would stay "in progress" until its
    timeout; its marker is dropped, as ARQ does then, so the new worker retries it at once (a no-op
    on an ERROR run) and the queue is idle for the next test."""
    server = live.process
    workers = len(server.pids("worker"))
    worker = server.pids("worker")[-1]
    try:
        for _ in range(50):
            os.kill(worker, signal.SIGSTOP)
            if (message := await give_up(event_log, report_id)) is not None:
                break
            os.kill(worker, signal.SIGCONT)
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the worker never let go of its locks")
    finally:
        os.kill(worker, signal.SIGKILL)
    await asyncio.to_thread(server.wait_for_pid, "worker", workers + 1, 60)
    dead_jobs = await redis.keys(f"{in_progress_key_prefix}*")
    if dead_jobs:  # none when the worker was killed between two of the run's jobs
        await redis.delete(*dead_jobs)
    await wait_for_idle_queue(redis)
    return message


async def test_a_failed_analysis_is_explained_and_resumed_to_completion_live(
    live_sibyl: LiveSibyl,
    event_log: EventLog,
    redis: Redis,
    browser_page: Page,
    console_errors: list[str],
    screenshot: Any,
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(upload, live_sibyl, pdfs.synthetic_report().pdf, "northwind.pdf")
    await run_until_partway(live_sibyl, report_id)
    message = await fail_like_the_worker(live_sibyl, event_log, redis, report_id)

    await sign_in(page, live_sibyl, f"#/reports/{report_id}")
    await expect(page.locator("#report-status")).to_have_text("error")
    await expect(page.locator("#analysis-status")).to_have_text("error")
    await expect(page.get_by_role("alert")).to_have_text([message])  # once, though report and run both say it
    await expect(page.get_by_role("button", name="Start analysis")).to_have_count(0)
    await expect(page.locator(".connection")).to_have_text("Live")
    await expect(page.locator("#event-feed li").last).to_contain_text(f"error: {message}")
    await screenshot(page, "failed")

    await page.get_by_role("button", name="Resume analysis").click()
    await expect(page.locator("#event-feed li").filter(has_text="analysis resumed")).to_have_count(1)
    await expect(page.locator("#report-status")).to_have_text("completed", timeout=ANALYSIS_SECONDS)
    await expect(page.locator("#analysis-status")).to_have_text("completed")
    await expect(page.locator("#event-feed li").last).to_contain_text("completed:")
    await expect(page.get_by_role("alert")).to_have_count(0)
    await expect(page.get_by_role("button", name="Resume analysis")).to_have_count(0)
    ids = await feed_ids(page)
    assert ids == list(range(1, len(ids) + 1)), "no gap and no duplicate"
    await screenshot(page, "resumed")
    assert console_errors == []


@contextlib.asynccontextmanager
async def bucket_kept_empty(live: LiveSibyl) -> AsyncIterator[list[httpx.Response]]:
    """Send requests with the key as fast as the server answers, so its bucket stays empty, until
    the block ends; the refused responses (each checked against the error contract)."""
    refused: list[httpx.Response] = []
    stop = asyncio.Event()

    async def hammer() -> None:
        async with live.client() as client:
            while not stop.is_set():
                response = await client.post("/graphql", json={"query": "{ __typename }"})
                if response.status_code == 429:
                    refused.append(response)

    task = asyncio.create_task(hammer())
    try:
        deadline = time.monotonic() + 10
        while not refused:
            assert time.monotonic() < deadline and not task.done(), "the limit never refused a request"
            await asyncio.sleep(0.02)
        yield refused
    finally:
        stop.set()
        await task
    body = refused[0].json()
    extensions = body["errors"][0]["extensions"]
    assert extensions["code"] == "RATE_LIMITED" and extensions["limit"] == 60
    assert refused[0].headers["Retry-After"] == str(extensions["retryAfterSeconds"])
    assert 1 <= extensions["retryAfterSeconds"] <= 2


def only_refused_resources(console_errors: list[str]) -> list[str]:
    """The console errors that are not Chromium's own line for a 429 response."""
    return [error for error in console_errors if REFUSED_RESOURCE not in error]


@pytest.mark.parametrize("rate_limited_sibyl", [60], indirect=True)
async def test_rate_limit_at_sign_in_and_on_a_page_is_a_sentence_with_the_wait_then_recovers(
    rate_limited_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page, live = browser_page, rate_limited_sibyl
    await page.goto(f"{live.url}/#/reports")
    await page.get_by_label("API key").fill(live.api_key)
    status = page.locator(".signin [role=status]")
    async with bucket_kept_empty(live):
        await page.get_by_role("button", name="Sign in").click()  # the socket is closed with 4429
        await expect(status).to_have_text(RATE_SENTENCE)
        await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
        await screenshot(page, "sign-in-limited")
    await page.wait_for_timeout(2500)  # the wait the sentence asked for, and a bit
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Reports")

    async with bucket_kept_empty(live):
        await page.goto(f"{live.url}/#/evidence")  # HTTP 429 for the view's query
        alert = page.locator(".view").get_by_role("alert")
        await expect(alert).to_have_text(RATE_SENTENCE)
        await expect(alert).to_contain_text("This page will retry by itself.")
        await screenshot(page, "page-limited")
    # The view renders itself again once the wait is over (doubling while refused, up to 8×).
    await expect(page.get_by_role("heading", level=1)).to_have_text("Evidence library")
    await expect(page.locator(".view").get_by_role("alert")).to_have_count(0, timeout=20_000)
    await expect(page.get_by_role("heading", name=re.compile(r"^Documents \(\d+\)$"))).to_be_visible()
    await page.goto(f"{live.url}/#/reports")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Reports")
    await expect(page.get_by_role("alert")).to_have_count(0)
    assert only_refused_resources(console_errors) == []


@pytest.mark.parametrize("rate_limited_sibyl", [60], indirect=True)
async def test_live_feed_refused_with_4429_says_how_long_and_reconnects(
    live_sibyl: LiveSibyl,
    rate_limited_sibyl: LiveSibyl,
    browser_page: Page,
    console_errors: list[str],
    screenshot: Any,
) -> None:
    page, live = browser_page, rate_limited_sibyl
    # Uploaded through the unlimited server (same databases, same key): its polling is not the test.
    report_id = await asyncio.to_thread(
        upload, live_sibyl, pdfs.synthetic_report(page_count=3).pdf, "small.pdf"
    )
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(socket: WebSocketRoute) -> None:
        sockets.append((socket, socket.connect_to_server()))

    await page.route_web_socket("**/graphql", through)
    await sign_in(page, live, f"#/reports/{report_id}")
    connection = page.locator(".connection")
    await expect(connection).to_have_text("Live")
    await expect(page.locator("#event-feed li").filter(has_text="parsed in")).to_have_count(1)
    await page.wait_for_load_state("networkidle")  # the refresh that event asked for is done
    before = await feed_ids(page)
    assert before, "the upload's events are in the feed"

    async with bucket_kept_empty(live):
        browser_side, server_side = sockets[-1]
        await server_side.close()
        await browser_side.close(code=1012, reason="restarting")
        await expect(connection).to_have_text(RATE_SENTENCE)
        await screenshot(page, "feed-limited")
    await expect(connection).to_have_text("Live", timeout=15_000)
    assert await feed_ids(page) == before, "no event lost or repeated across the refusal"
    assert len(sockets) >= 3, "the first subscription, at least one refused, and the one that worked"

    # Live again for real: an analysis started elsewhere shows up in the feed as it happens.
    started = (await live_sibyl.graphql(START, id=report_id))["startAnalysis"]
    assert started["__typename"] == "StartAnalysisSuccess", started
    await expect(page.locator("#event-feed li").filter(has_text="analysis queued")).to_have_count(1)
    ids = await feed_ids(page)
    assert ids == list(range(1, len(ids) + 1)) and len(ids) > len(before), "no gap and no duplicate"
    await expect(connection).to_have_text("Live")
    await page.goto("about:blank")
    await live_sibyl.wait_for_status(report_id, "COMPLETED", timeout=60)
    assert only_refused_resources(console_errors) == []
