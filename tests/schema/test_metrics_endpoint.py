"""`GET /metrics` of the API: no key and no rate limit, nothing of any organisation in it, and
its metrics move as operations run, subscriptions send, and the worker parses and analyses."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import httpx
from redis.asyncio import Redis
from sqlalchemy import select
from strawberry.relay import GlobalID

from app.db.models import Organisation, Report
from app.db.session import SessionFactory
from app.events import EventLog
from app.queue import PARSE_REPORT_JOB
from app.supervision.embedded.redis import free_port
from tests.conftest import make_settings, new_api_key, serve_api
from tests.fixtures import pdfs
from tests.schema.test_analysis_mutations import START
from tests.schema.test_fanout import caught_up_crowd, until
from tests.support.graphql import GraphQLClient
from tests.support.metrics import fresh_scrape, sample, scrape, summed, until_sample
from tests.support.reports import wait_for_status
from tests.support.services import RunningServices

PROBE = "query MetricsProbe { __typename }"
UNNAMED = "{ __typename }"
INVALID = "query MetricsInvalid { noSuchField }"
EVENTS = """
subscription MetricsEvents($reportId: ID!) {
  analysisEvents(reportId: $reportId) { sequence eventType }
}
"""
#: What an organisation's report says about it, none of which the metrics may show.
COMPANY = "Quillfeather Resources plc"
ORGANISATION = "Quillfeather Holdings"
FILENAME = "quillfeather-sustainability-2024.pdf"


def bumped(before: float, by: float = 1) -> Callable[[float], bool]:
    """Whether a sample has grown by `by` from `before`."""
    return lambda now: now >= before + by


async def test_metrics_need_no_key_and_are_not_rate_limited(services: RunningServices, api_key: str) -> None:
    settings = make_settings(services, rate_limit_per_minute=1)
    async with serve_api(settings) as url, httpx.AsyncClient(base_url=url) as http:
        scrapes = [await http.get("/metrics") for _ in range(5)]
        unauthenticated = await http.post("/graphql", json={"query": PROBE})
        headers = {"Authorization": f"Bearer {api_key}"}
        operations = [await http.post("/graphql", json={"query": PROBE}, headers=headers) for _ in range(2)]

    assert [response.status_code for response in scrapes] == [200] * 5
    assert scrapes[0].headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert "# TYPE sibyl_graphql_operations_total counter" in scrapes[0].text
    assert unauthenticated.status_code == 401
    assert [response.status_code for response in operations] == [200, 429]  # operations are limited


async def test_an_operation_moves_its_counter_and_latency_histogram(
    services: RunningServices, api_key: str
) -> None:
    async with serve_api(make_settings(services)) as url:  # an app of its own: its names admitted anew
        client = GraphQLClient(url, api_key)
        metrics = f"{url}/metrics"
        before = await scrape(metrics)  # a new app: its first rendering
        probe = {"operation": "MetricsProbe", "type": "query"}

        await client.data(PROBE)
        await client.data(UNNAMED)
        await client.execute(INVALID)

        text = await until_sample(
            metrics,
            "sibyl_graphql_operations_total",
            bumped(sample(before, "sibyl_graphql_operations_total", outcome="ok", **probe)),
            outcome="ok",
            **probe,
        )
        await client.aclose()

    def moved(name: str, **labels: str) -> float:
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert moved("sibyl_graphql_operation_duration_seconds_count", **probe) == 1
    assert moved("sibyl_graphql_operation_duration_seconds_bucket", le="+Inf", **probe) == 1
    assert moved("sibyl_graphql_operations_total", operation="anonymous", type="query", outcome="ok") >= 1
    invalid = {"operation": "MetricsInvalid", "type": "query", "outcome": "GRAPHQL_VALIDATION_FAILED"}
    assert moved("sibyl_graphql_operations_total", **invalid) == 1


async def test_operation_names_are_bounded_in_number_and_length(
    services: RunningServices, api_key: str
) -> None:
    long_name = "Q" + "x" * 80
    async with serve_api(make_settings(services, metrics_max_operation_names=1)) as url:
        client = GraphQLClient(url, api_key)
        for name in ("BoundedFirst", "BoundedSecond", long_name):
            await client.data(f"query {name} {{ __typename }}")
        text = await until_sample(
            f"{url}/metrics",
            "sibyl_graphql_operations_total",
            bumped(0),
            operation="BoundedFirst",
            type="query",
            outcome="ok",
        )
        await client.aclose()

    assert "BoundedSecond" not in text and long_name not in text
    assert sample(text, "sibyl_graphql_operations_total", operation="other", type="query", outcome="ok") >= 2


async def test_a_metrics_port_of_its_own_takes_metrics_off_the_api_port(services: RunningServices) -> None:
    port = free_port()
    async with serve_api(make_settings(services, metrics_port=port)) as url:
        async with httpx.AsyncClient() as http:
            on_api_port = await http.get(f"{url}/metrics")
        text = await scrape(f"http://127.0.0.1:{port}/metrics")
    async with serve_api(make_settings(services, metrics_enabled=False)) as url, httpx.AsyncClient() as http:
        switched_off = await http.get(f"{url}/metrics")

    assert on_api_port.status_code == 404
    assert "# TYPE sibyl_graphql_operations_total counter" in text
    assert switched_off.status_code == 404


async def test_an_upload_shows_as_a_parse_job_and_its_stages(
    api_url: str, client: GraphQLClient, worker: object, redis: Redis
) -> None:
    metrics = f"{api_url}/metrics"
    before = await fresh_scrape(metrics)
    parse = {"kind": PARSE_REPORT_JOB}

    result = await client.upload_result(pdfs.synthetic_report(page_count=7).pdf)
    await wait_for_status(client, str(result["report"]["id"]), "PARSED")
    text = await until_sample(
        metrics,
        "sibyl_job_runs_total",
        bumped(sample(before, "sibyl_job_runs_total", outcome="complete", **parse)),
        outcome="complete",
        **parse,
    )

    def moved(name: str, **labels: str) -> float:
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert moved("sibyl_job_wait_seconds_count", **parse) == 1
    assert moved("sibyl_job_duration_seconds_count", outcome="complete", **parse) == 1
    assert moved("sibyl_parses_total", outcome="parsed") == 1
    for stage in ("count_pages", "read_pages", "store_pages", "finish"):
        assert moved("sibyl_parse_stage_seconds_count", stage=stage) == 1, stage

    waiting = f"{PARSE_REPORT_JOB}:{uuid.uuid4()}"  # a job due in ten minutes: the worker leaves it
    await redis.zadd("arq:queue", {waiting: (time.time() + 600) * 1000})
    try:
        await until_sample(metrics, "sibyl_queue_jobs", bumped(0), kind=PARSE_REPORT_JOB, state="deferred")
    finally:
        await redis.zrem("arq:queue", waiting)


async def test_subscriptions_count_while_open_and_count_the_events_they_send(
    api_url: str, client: GraphQLClient, worker: object
) -> None:
    metrics = f"{api_url}/metrics"
    result = await client.upload_result(pdfs.synthetic_report(page_count=7).pdf)
    report_id = str(result["report"]["id"])
    await wait_for_status(client, report_id, "PARSED")
    before = await fresh_scrape(metrics)
    field = {"field": "analysisEvents"}
    open_before = sample(before, "sibyl_graphql_subscriptions_open", **field)

    async with client.subscribe(EVENTS, reportId=report_id) as subscription:
        received = [(await subscription.next())["analysisEvents"]["eventType"] for _ in range(6)]
        text = await until_sample(
            metrics,
            "sibyl_graphql_subscription_events_total",
            bumped(sample(before, "sibyl_graphql_subscription_events_total", **field), 6),
            **field,
        )
        assert sample(text, "sibyl_graphql_subscriptions_open", **field) == open_before + 1

    assert received[-1] == "parse_completed"
    await until_sample(metrics, "sibyl_graphql_subscriptions_open", lambda now: now == open_before, **field)


async def test_events_sent_to_a_crowd_count_once_per_subscriber_with_or_without_fanout(
    api_url: str, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    report, crowd = await caught_up_crowd(api_url, session_factory, event_log, 5)
    metrics = f"{api_url}/metrics"
    field = {"field": "analysisEvents"}
    before = sample(await fresh_scrape(metrics), "sibyl_graphql_subscription_events_total", **field)

    for n in range(10):
        await event_log.append(report, "burst", {"n": n})
    await until(lambda: all(len(w.sequences) == 12 for w in crowd))
    await until_sample(metrics, "sibyl_graphql_subscription_events_total", bumped(before, 50), **field)
    after = sample(await fresh_scrape(metrics), "sibyl_graphql_subscription_events_total", **field)

    for watcher in crowd:
        if watcher.connection is not None:
            watcher.connection.close()
    assert after - before == 50


async def test_an_analysis_shows_its_verdicts_and_nothing_of_the_organisation(
    api_url: str, session_factory: SessionFactory, worker: object, clean_db: None
) -> None:
    client = GraphQLClient(api_url, await new_api_key(session_factory, ORGANISATION))
    metrics = f"{api_url}/metrics"
    before = await fresh_scrape(metrics)
    result = await client.upload_result(pdfs.synthetic_report().pdf, filename=FILENAME, company_name=COMPANY)
    report_id = str(result["report"]["id"])
    await wait_for_status(client, report_id, "PARSED")
    started = (await client.data(START, id=report_id, skip=False, passes=1))["startAnalysis"]
    assert started["__typename"] == "StartAnalysisSuccess", started
    await wait_for_status(client, report_id, "COMPLETED", timeout=180)
    text = await until_sample(
        metrics,
        "sibyl_job_runs_total",
        bumped(sample(before, "sibyl_job_runs_total", kind="run_pipeline", outcome="complete")),
        kind="run_pipeline",
        outcome="complete",
    )
    await client.aclose()
    async with session_factory() as session:
        organisation_id = await session.scalar(
            select(Organisation.id).where(Organisation.name == ORGANISATION)
        )
        report_uuid = await session.scalar(select(Report.id).where(Report.filename == FILENAME))

    def moved(name: str) -> float:
        return summed(text, name) - summed(before, name)

    assert moved("sibyl_verdicts_total") >= 1
    assert moved("sibyl_findings_total") >= 1
    assert (
        moved("sibyl_analysis_stage_seconds_count") >= 4
    )  # claims, orchestration, specialists, judge, compile
    secrets = [
        COMPANY,
        "Quillfeather",
        FILENAME,
        ORGANISATION,
        report_id,
        str(report_uuid),
        str(organisation_id),
    ]
    secrets.append(str(GlobalID("Organisation", str(organisation_id))))
    assert all(secret not in text for secret in secrets), [s for s in secrets if s in text]
    assert report_uuid is not None and organisation_id is not None
